"""What a ring's spaces hold (:mod:`vision.ring_spaces`): a faint outline with no rim of a
coin inside it, or one whose rim agrees on too few rays, is no coin there."""

from __future__ import annotations

import numpy as np

from vision.candidates import Candidates
from vision.read_config import CoinConfig
from vision.ring_spaces import printed_rings


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
    assert printed_rings(CoinConfig(), candidates, alone).tolist() == [False, True, True, False]
    assert not printed_rings(CoinConfig(), candidates, ~alone).any()
