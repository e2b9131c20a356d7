"""A faint outline with nothing inside it is no sure coin: a coin shows its raised rim inside
its edge, and an outline standing out of paper by under 0.1 of it with no top circle may be
the paper's texture or the ink's trace (an empty HOME space of tuning seed 59 of
``bench/bench_ring_read.py`` was read as a quarter at 0.51 so)."""

from __future__ import annotations

import numpy as np

from vision.candidates import Candidates
from vision.frame_fit import FrameFit
from vision.frame_priors import KindPrior
from vision.read import _partial_evidence
from vision.read_config import CoinConfig

PRIORS = (KindPrior("P", 19.05, "copper"), KindPrior("N", 21.21, "silver"),
          KindPrior("D", 17.91, "silver"), KindPrior("Q", 24.26, "silver"))


def _outlines(inner_mm: list[float], contrast: list[float]) -> Candidates:
    """Silver quarter-sized outlines, alone and unhidden, with these top circles and edges."""
    count = len(inner_mm)
    zeros, ones = np.zeros(count), np.ones(count)
    return Candidates(
        centres_mm=np.zeros((count, 2)), tops_mm=np.zeros((count, 2)),
        diameters_mm=np.full(count, 25.5), inner_mm=np.array(inner_mm),
        colours=np.zeros((count, 2)), edge_colours=np.full((count, 2), np.nan),
        agreement=ones, hidden=zeros, under_pawn=np.zeros(count, bool), clipped=zeros,
        contrast=np.array(contrast), strength=ones, region=np.arange(count),
        seed_region=np.arange(count), sized=np.ones(count, bool),
        inner_centres_mm=np.zeros((count, 2)), inner_agreement=ones, seen_arc=ones,
        lifted=np.zeros(count, bool))


def test_only_a_faint_outline_with_no_top_circle_is_a_doubt() -> None:
    candidates = _outlines([np.nan, 23.0, np.nan], [0.06, 0.06, 0.2])
    frame = FrameFit(("P", "N", "D", "Q"), np.tile([0.0, 0.05, 0.05, 0.9], (3, 1)), 1.2,
                     tints={"silver": (0.0, 0.0), "copper": (0.3, -0.2)},
                     silver_field=np.zeros((3, 2)))
    partial = _partial_evidence(CoinConfig(), candidates, np.arange(3), frame, ["Q"] * 3,
                                PRIORS)
    assert partial.tolist() == [True, False, False]
    unchecked = _partial_evidence(CoinConfig(bare_contrast=0.0), candidates, np.arange(3), frame,
                                  ["Q"] * 3, PRIORS)
    assert not unchecked.any()
