"""A 6 whose pips blur into two bars, read at the bars' own turn (:mod:`vision.dice_bars`)."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.dice import DiceConfig
from vision.dice_bars import read_bars
from vision.dice_layout import fit_layout
from vision.dice_pips import LAYOUTS

#: Pixels of a drawn face's edge (a 16 mm die at the reader's 4 px/mm).
EDGE = 64


def _face(value: int, turn_deg: float, blur: float) -> np.ndarray:
    """A faint white face (0.19 of the edge across, 0.27 apart) with grey pips of layout
    ``value`` on felt, turned ``turn_deg``, blurred by ``blur`` px as a far camera does."""
    size = 2 * EDGE
    image = np.full((size, size, 3), (70, 120, 60), np.uint8)
    middle = np.array([size / 2, size / 2])
    turn = math.radians(turn_deg)
    u, v = np.array([math.cos(turn), math.sin(turn)]), np.array([-math.sin(turn), math.cos(turn)])
    corners = [middle + EDGE / 2 * (a * u + b * v) for a, b in ((-1, -1), (1, -1), (1, 1),
                                                                 (-1, 1))]
    cv2.fillConvexPoly(image, np.round(np.array(corners)).astype(np.int32), (200, 205, 200))
    pips = next(pips for number, pips in LAYOUTS if number == value)
    for column, row in pips:
        centre = middle + EDGE * 0.27 * (column * u + row * v)
        cv2.circle(image, (round(centre[0]), round(centre[1])), round(0.095 * EDGE),
                   (90, 95, 95), -1, cv2.LINE_AA)
    return cv2.GaussianBlur(image, (0, 0), blur)


def test_a_six_blurred_into_bars_is_read_at_the_bars_turn() -> None:
    # The outline turned 12 degrees against the pips (a strip of side face kept in it, tuning
    # 724, issue 19): the whole face's fit at its turn finds no layout; at the bars' it reads
    # the 6, its grid's middle the face's.
    config = DiceConfig()
    outline = ((EDGE - 0.5, EDGE - 0.5), (float(EDGE), float(EDGE)), 12.0)
    six = _face(6, 0.0, 4.0)
    assert fit_layout(config, six, outline).value is None
    read = read_bars(config, six, outline)
    assert read is not None and read[0] == 6 and read[1] >= 0.5
    assert read[3] is not None and math.dist(read[3], (EDGE - 0.5, EDGE - 0.5)) < 2.0


def test_other_faces_are_not_read_as_bars() -> None:
    # A 4's columns hold no middle pip and a 5's middle lies between them: their columns are
    # no bars (a cocked die's top, tc 680, read as a 4 at its columns' turn), and a face with
    # no pips has none.
    config = DiceConfig()
    outline = ((EDGE - 0.5, EDGE - 0.5), (float(EDGE), float(EDGE)), 12.0)
    for value in (4, 5):
        assert read_bars(config, _face(value, 0.0, 4.0), outline) is None
    plain = cv2.GaussianBlur(np.full((2 * EDGE, 2 * EDGE, 3), 200, np.uint8), (0, 0), 4.0)
    assert read_bars(config, plain, outline) is None
