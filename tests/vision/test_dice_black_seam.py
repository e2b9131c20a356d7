"""A black die's seam with a die of another colour (:mod:`vision.dice_black_seam`)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.dice_black_seam import reseamed

from .helpers import tray_dice_by_truth

FELT = np.array([60, 110, 70], np.float32)


def test_a_black_die_beside_a_red_die_is_read() -> None:
    # Tuning frame 341 (a black 2 beside a red 1, issue 19): the red die's chromaticity, which
    # no darkening alters, spread with the blur over the black die's edge, and the red body
    # took a strip of the black die's top, which was then no square.
    for truth, reading, why in tray_dice_by_truth(341):
        assert reading.value == truth.value, (truth.colour, why)


def test_the_seam_moves_to_where_the_picture_is_halfway_between_the_colours() -> None:
    image = np.full((40, 80, 3), FELT, np.uint8)
    image[10:30, 10:40] = (15, 15, 15)
    image[10:30, 40:70] = (20, 20, 160)
    image[26:30, 40:70] = (10, 10, 35)  # the red die's shaded side face, meeting the seam
    blurred = cv2.GaussianBlur(image, (0, 0), 2.0)
    black = np.zeros((40, 80), np.uint8)
    black[10:30, 10:35] = 1
    red = np.zeros((40, 80), np.uint8)
    red[10:30, 36:70] = 1
    moved = reseamed(black, red, blurred, FELT, np.zeros_like(black), 6.0)
    assert moved is not None
    new_black, new_red = moved
    columns = np.nonzero(new_black[20])[0]
    assert 38 <= columns.max() <= 40
    assert not (new_black & new_red).any()
    assert new_red[20, 41:70].all()
    # Its dark side face, joined to the black die, stays its own past the blur's reach.
    assert new_red[28, 50:70].all()
    # Nothing to move where the seam already lies halfway: the felt beside it stays felt.
    image[26:30, 40:70] = (20, 20, 160)
    blurred = cv2.GaussianBlur(image, (0, 0), 2.0)
    black[10:30, 35:40] = 1
    red[10:30, 35:40] = 0
    assert reseamed(black, red, blurred, FELT, np.zeros_like(black), 6.0) is None

