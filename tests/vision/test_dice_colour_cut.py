"""Two touching dice of unlike hue cut where their colours meet (:mod:`vision.dice_colour_cut`)."""

from __future__ import annotations

import cv2
import numpy as np

from contract.observation import DieReading
from vision.dice_colour_cut import balanced, colour_parts, uncut_unread, whole_cuts, with_cuts
from vision.dice_side import SIDE_WHY

from .helpers import tray_dice_by_truth

FELT = np.array([60, 110, 70], np.float32)


def _blob(side: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """A black die (columns 10-39) touching a red one (40-69) whose shaded side face
    (``side``, BGR) runs along its bottom, blurred as a camera sees them, and the mask of
    both."""
    image = np.full((40, 80, 3), FELT, np.uint8)
    image[10:30, 10:40] = (15, 15, 15)
    image[10:30, 40:70] = (30, 25, 170)
    image[24:30, 40:70] = side
    blurred = cv2.GaussianBlur(image, (0, 0), 1.2)
    mask = np.zeros((40, 80), np.uint8)
    mask[9:31, 9:71] = 1
    return blurred, mask


def test_the_seam_follows_the_colours_and_a_shaded_side_stays_its_dies() -> None:
    image, mask = _blob((12, 10, 70))
    parts = colour_parts(mask, balanced(image, FELT), FELT, 150.0)
    assert parts is not None
    red = next(part for part in parts if part[15, 60])
    black = next(part for part in parts if part[15, 20])
    assert red is not black
    # The seam lies at the dice's edge (column 40), not where a straight cut of the blob
    # would put it; the red die's dark side face is red, not black.
    assert 38 <= np.nonzero(black[15])[0].max() <= 41
    assert red[27, 45:68].all()
    assert not (red & black).any()


def test_a_lone_die_with_a_shaded_side_face_is_not_cut() -> None:
    # A red die's lit top and its shaded, greyer side face differ in hue as two dice's do,
    # but both are named red (tuning cocked frames 272, 459, 748: cut so, a cocked die's clean
    # top was read).
    sharp = np.full((40, 60, 3), FELT, np.uint8)
    sharp[10:30, 10:40] = (30, 25, 170)
    sharp[22:30, 10:40] = (60, 70, 120)
    image = cv2.GaussianBlur(sharp, (0, 0), 1.2)
    mask = np.zeros((40, 60), np.uint8)
    mask[9:31, 9:41] = 1
    assert colour_parts(mask, balanced(image, FELT), FELT, 150.0) is None


def _reading(value: int | None, centre: tuple[float, float]) -> DieReading:
    return DieReading(value=value, confidence=1.0 if value else 0.0, colour="red",
                      centre_mm=centre)


def test_a_cut_is_kept_only_where_both_dice_show_flat_tops_and_are_read() -> None:
    # A die cocked against another shows its top cut clean by colour (tuning cocked frames
    # 188, 260, 270, 280); the die it leans on is then unread, or its part no flat top.
    pairs = [((10.0, 10.0), (26.0, 10.0))]
    both = ((_reading(3, (10.5, 10.0)), ""), (_reading(4, (25.0, 10.5)), ""))
    assert whole_cuts(both, (), pairs, 9.0) == both
    cocked = ((_reading(2, (10.5, 10.0)), ""), (_reading(None, (25.0, 10.5)), "sweep leaning"))
    assert whole_cuts(cocked, (), pairs, 9.0) == ()
    # A flat top whose pips fail in the cut counts where the first read read that die.
    pips = ((_reading(1, (10.5, 10.0)), ""),
            (_reading(None, (25.0, 10.5)), "pips: count doubtful"))
    assert whole_cuts(pips, (), pairs, 9.0) == ()
    first = ((_reading(None, (12.0, 10.0)), "hidden by a nearer die"),
             (_reading(6, (25.5, 10.0)), ""))
    assert whole_cuts(pips, first, pairs, 9.0) == pips
    # Readings of no cut stay.
    far = ((_reading(5, (60.0, 40.0)), ""),)
    assert whole_cuts(cocked + far, (), pairs, 9.0) == far


def test_a_die_refused_by_its_side_faces_is_not_looked_at_for_two_colours() -> None:
    # Its flat top was found alone in its own body, no other body near: no second die there.
    readings = ((_reading(None, (10.0, 10.0)), SIDE_WHY),
                (_reading(None, (30.0, 10.0)), "hidden by a nearer die"),
                (_reading(None, (50.0, 10.0)), "pips: no layout"),
                (_reading(4, (70.0, 10.0)), ""))
    assert uncut_unread(readings) == [(30.0, 10.0), (50.0, 10.0)]
    assert uncut_unread(readings[:1] + readings[3:]) == []


def test_both_dice_of_a_cut_take_the_place_of_one_unread_die_between_them() -> None:
    # Tuning frame 402: a red 1 and a blue 4 were one body read as one die, between them.
    pairs = [((10.0, 10.0), (26.0, 10.0))]
    first = ((_reading(None, (18.0, 10.0)), "sweep leaning"), (_reading(5, (60.0, 40.0)), ""))
    again = ((_reading(1, (10.5, 10.0)), ""), (_reading(4, (25.0, 10.5)), ""))
    assert with_cuts(first, again, pairs, 9.0) == again + first[1:]
    # A die the first read read keeps its reading.
    first = ((_reading(None, (12.0, 10.0)), "hidden by a nearer die"),
             (_reading(6, (25.5, 10.0)), ""))
    assert with_cuts(first, again, pairs, 9.0) == (again[0], first[1])


def test_a_blue_die_beside_a_white_one_is_read() -> None:
    # Tuning frame 307: a blue 3 touching a white 4 were one body, whose straight cut left the
    # blue die's top too large ("hidden by a nearer die").
    for truth, reading, why in tray_dice_by_truth(307):
        assert reading.value == truth.value, (truth.colour, why)
