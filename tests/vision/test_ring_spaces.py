"""What a ring's spaces hold (:mod:`vision.ring_spaces`): a faint outline with no rim of a
coin inside it, or one whose rim agrees on too few rays, is no coin there, unless its middle
is darker than the paper about it (a coin's face)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.candidates import Candidates
from vision.coin_mass import CoinMassConfig
from vision.read_config import CoinConfig
from vision.rectify import TopView
from vision.ring_spaces import bare_outlines, middle_darkness, printed_rings


def _candidates(contrast: list[float], agreement: list[float], inner: list[float]) -> Candidates:
    """Candidates with these contrasts, agreements and top circles (the rest of no matter)."""
    count = len(contrast)
    zeros, points = np.zeros(count), np.zeros((count, 2))
    return Candidates(points, points, np.full(count, 24.0), np.asarray(inner), points,
                      np.zeros((count, 2, 2)), np.asarray(agreement), zeros,
                      np.zeros(count, bool), zeros, np.asarray(contrast), zeros,
                      np.zeros(count, np.intp), np.zeros(count, np.intp), np.ones(count, bool),
                      points, zeros, np.ones(count), np.zeros(count, bool))


def test_a_faint_ragged_outline_in_a_space_is_no_coin() -> None:
    # A faint coin with a whole rim stays (0.96 agree), a faint outline agreeing on 0.43 of its
    # rays does not, even with a top circle; away from a ring's space both stay.
    candidates = _candidates([0.09, 0.07, 0.07, 0.3], [0.96, 0.43, 0.9, 0.43],
                             [18.0, 19.0, np.nan, 19.0])
    alone = np.array([True, True, True, True])
    assert bare_outlines(CoinConfig(), candidates, alone).tolist() == [False, True, True, False]
    assert not bare_outlines(CoinConfig(), candidates, ~alone).any()


def test_a_faint_bare_outline_around_a_dark_middle_is_a_coin() -> None:
    # Two faint bare outlines on paper (level 200): one round a face 10 % darker than the paper
    # (a coin's metal), one round paper itself with a thin darker ring (the paper's texture or
    # the ink's trace). Only the second is set aside; an outline whose paper the view leaves
    # (no level to compare) is set aside as before.
    scale = 2.0
    image = np.full((100, 260, 3), 200, np.uint8)
    rows, columns = np.mgrid[0:100, 0:260]
    for middle, face in ((50.0, 180), (130.0, 200)):
        radius = np.hypot(columns - middle * scale, rows - 25.0 * scale) / scale
        image[radius < 12.0] = face
        image[(radius >= 11.0) & (radius < 12.0)] = 185
    view = TopView(image, scale, (0.0, 0.0))
    candidates = _candidates([0.09, 0.07, 0.07], [0.96, 0.9, 0.9], [np.nan, np.nan, np.nan])
    centres = np.array([[50.25, 25.25], [130.25, 25.25], [5.0, 5.0]])
    candidates = replace(candidates, centres_mm=centres, tops_mm=centres)
    alone = np.ones(3, bool)
    printed = printed_rings(CoinConfig(), CoinMassConfig(), view, image, candidates, alone)
    assert printed.tolist() == [False, True, True]
    assert middle_darkness(CoinMassConfig(), image, view.to_pixels(50.25, 25.25), 24.0,
                           scale) > 2 * CoinConfig().bare_face
    assert not printed_rings(CoinConfig(), CoinMassConfig(), view, image, candidates,
                             ~alone).any()
