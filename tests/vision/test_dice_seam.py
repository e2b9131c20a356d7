"""A face read again with only its own part of its rectangle (:mod:`vision.dice_seam`)."""

from __future__ import annotations

import math

import numpy as np

from vision.dice import DiceConfig
from vision.dice_seam import own_middle, own_part

from .helpers import tray_dice_by_truth


def test_touching_dice_whose_outlines_reach_past_their_seam_are_read() -> None:
    # Tuning frame 256 (issue 19): a black 4 touching a blue 5. Each top's rectangle reaches
    # over the felt or the other die by about a tenth of its edge, its pips lay off its middle
    # and neither die was read; their own parts of the rectangles centre the pips again.
    paired = tray_dice_by_truth(256)
    assert sorted(truth.value or 0 for truth, _, _ in paired) == [4, 5]
    for truth, reading, _ in paired:
        assert math.dist(reading.centre_mm, truth.centre_mm) < 8.0
        assert reading.value == truth.value, (truth, reading)


def test_a_faces_own_part_leaves_out_a_neighbour_of_another_colour() -> None:
    # A red face with two black pips whose rectangle reaches 8 px over a white neighbour: its
    # own part holds its pips but none of the neighbour, and its middle is the red face's.
    image = np.full((80, 100, 3), (60, 140, 70), np.uint8)
    image[10:70, 10:70] = (40, 40, 200)
    image[10:70, 70:95] = (235, 235, 235)
    for x, y in ((25, 25), (55, 55)):
        image[y - 5:y + 5, x - 5:x + 5] = (20, 20, 20)
    rect = ((44.0, 40.0), (68.0, 60.0), 0.0)
    part = own_part(image, rect, DiceConfig().own_chroma)
    assert part is not None
    assert part[20:30, 20:30].all() and part[50:60, 50:60].all()
    assert not part[:, 71:].any()
    middle = own_middle(part, rect)
    assert abs(middle[0] - 39.5) < 1.0 and abs(middle[1] - 40.0) < 1.0


def test_a_faces_own_part_where_its_rectangle_runs_past_the_window() -> None:
    # Only the rectangle's box is looked at, clipped to the window: a face cut by the
    # window's top-left corner keeps every pixel of it there, its pip filled, and nothing of
    # the felt beside it; a part with no pixels leaves the rectangle's middle as it is.
    image = np.full((60, 60, 3), (60, 140, 70), np.uint8)
    image[:40, :40] = (40, 40, 200)
    image[15:25, 15:25] = (20, 20, 20)
    rect = ((15.0, 15.0), (54.0, 54.0), 30.0)
    part = own_part(image, rect, DiceConfig().own_chroma)
    assert part is not None and part.shape == (60, 60)
    assert part[:30, :30].all()
    assert not part[41:, :].any() and not part[:, 41:].any()
    empty = np.zeros((60, 60), np.uint8)
    assert own_middle(empty, rect) == (15.0, 15.0)
