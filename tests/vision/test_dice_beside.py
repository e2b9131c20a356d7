"""A top beside another die placed again at their seam for its pips (:mod:`vision.dice_beside`)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.dice import DiceConfig
from vision.dice_beside import own_pixels, read_beside, seam_shift

from .helpers import tray_dice_by_truth

FELT = np.array([60, 110, 70], np.float32)
WHITE = np.array([200, 205, 210], np.float32)
BLACK = np.array([25, 25, 25], np.float32)
RIGHT = np.array([1.0, 0.0])


def _pair(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """Two dice's tops 30 px square side by side (columns 10-39 and 40-69) on the felt,
    blurred as a camera sees them."""
    image = np.full((50, 80, 3), FELT, np.uint8)
    image[10:40, 10:40] = left
    image[10:40, 40:70] = right
    return cv2.GaussianBlur(image, (0, 0), 1.2)


def test_a_top_found_short_by_the_seam_reaches_it_again() -> None:
    image = _pair(WHITE, BLACK)
    # The white top's rectangle found 4 px short of the seam, and 4 px over the felt.
    rect = ((20.5, 24.5), (30.0, 30.0), 0.0)
    own = own_pixels(image, rect, WHITE, BLACK, FELT)
    assert own is not None
    assert not own[25, 42:60].any() and not own[25, :7].any()
    assert 3.0 <= seam_shift(own, rect, RIGHT) <= 5.0


def test_only_a_square_top_of_a_die_named_apart_moved_towards_the_other_is_read_again() -> None:
    config = DiceConfig()
    felt = FELT
    # Two white dice show no seam between their colours.
    alike = _pair(WHITE, WHITE)
    assert read_beside(config, alike, ((20.5, 24.5), (30.0, 30.0), 0.0), (WHITE, WHITE), felt,
                       RIGHT, 12.0) is None
    # A top no square, or one reaching past its own colour into the other die (to be moved
    # away from it: a die cocked against another shows its side face so), is left as it was.
    image = _pair(WHITE, BLACK)
    assert read_beside(config, image, ((22.5, 24.5), (26.0, 30.0), 0.0), (WHITE, BLACK), felt,
                       RIGHT, 12.0) is None
    rect = ((29.5, 24.5), (30.0, 30.0), 0.0)
    own = own_pixels(image, rect, WHITE, BLACK, FELT)
    assert own is not None and seam_shift(own, rect, RIGHT) < -3.0
    assert read_beside(config, image, rect, (WHITE, BLACK), felt, RIGHT, 12.0) is None


def test_a_black_die_beside_a_nearer_white_one_is_read() -> None:
    # Tuning frame 435: the black 3's top was found short by a tenth of its edge on the side
    # of the white 4 nearer the camera, its third pip outside the face's middle.
    dice = {truth.colour: (truth.value, reading.value, why)
            for truth, reading, why in tray_dice_by_truth(435)}
    assert dice["black"][:2] == (3, 3), dice["black"]
    assert dice["white"][:2] == (4, 4), dice["white"]
