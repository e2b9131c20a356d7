"""A die's top seen past the tray's felt (:mod:`vision.dice_beyond`)."""

from __future__ import annotations

import numpy as np

from contract.observation import DieReading
from vision.dice_beyond import beyond_felt, only_flat_new, sides_reached
from vision.parallax import CameraOverMat

from .helpers import tray_dice_by_truth


def test_a_top_seen_past_the_felt_is_read() -> None:
    # Tuning frame 385 (issue 19): a blue 4 20 mm from the tray's right side, under a camera
    # leaning 0.87 mm per mm of height to the right there: its top lies partly over the mat
    # past the felt, the felt's crop cut it and it was refused as no square.
    ((truth, reading, why),) = tray_dice_by_truth(385)
    assert reading.value == truth.value == 4, why


def test_the_felt_is_widened_only_where_tops_lean_out_of_it() -> None:
    # A camera whose foot lies left of the tray: tops lean right, up on the upper half and
    # down on the lower, and never out of the left side.
    camera = CameraOverMat(foot_mm=(0.0, 50.0), height_mm=400.0, focal_px=1000.0)
    left, top, right, bottom = beyond_felt(camera, (100.0, 0.0, 200.0, 100.0), 20.0, 0.5)
    assert left == 0.0
    assert right >= 200.0 / 400.0 * 20.0 and right % 0.5 == 0.0
    assert top > 0.0 and bottom > 0.0 and top < right


def test_a_body_at_the_crops_border_marks_that_side_as_reached() -> None:
    # A 20 x 20 px body whose right edge lies at the 3 px border of a 100 x 60 crop: only the
    # right side may have cut a die's top off.
    body = np.ones((20, 20), np.uint8)
    assert sides_reached([(body, (77, 20))], (60, 100), 3) == (False, False, True, False)
    assert sides_reached([(body, (40, 20))], (60, 100), 3) == (False, False, False, False)


def test_a_value_read_only_past_the_felt_is_kept_from_four_pips_up() -> None:
    # The felt's read left two dice unread and read a third as 2; read again past the felt,
    # the new 3 could be a cocked die's (no grid shows it flat) and is refused, the new 5 is
    # kept, the 2 the felt's read gave stays though the wider read lost it, and a die found
    # only in the wider read keeps its 6.
    first = ((DieReading(None, 0.0, "red", (10.0, 10.0)), "top no square"),
             (DieReading(None, 0.0, "blue", (40.0, 10.0)), "top no square"),
             (DieReading(2, 0.9, "white", (70.0, 10.0)), ""))
    widened = ((DieReading(3, 0.8, "red", (11.0, 10.5)), ""),
               (DieReading(5, 0.8, "blue", (41.0, 10.0)), ""),
               (DieReading(None, 0.0, "white", (70.5, 10.0)), "pips faint"),
               (DieReading(6, 0.8, "black", (100.0, 10.0)), ""))
    kept = only_flat_new(first, widened, 4, 6.0)
    assert [die.value for die, _ in kept] == [None, 5, 2, 6]
    assert kept[0] == (first[0][0], "past the felt: 3 under 4")
