"""A silver coin in a pile measured between two kinds' sizes is a doubtful kind.

Silver kinds differ by their size alone (a dime 17.91 mm, a nickel 21.21, a quarter 24.26:
about 3 mm apart). A coin in a pit or cup is measured where its outline meets paper
(:mod:`vision.loose`), but a neighbour's shadow or a cup's printed border mixed into that
outline, or an arc on one side only, moves the size by a millimetre or more, and the frame
model may still name the nearer kind at a confidence that says sure (the crowded tuning
frames of seeds 0-179 with 177 and 202: of 12 measured silver coins read a kind off, 8 lay
0.35 or more of the way from the kind read to the neighbouring silver kind, against 33 of the
1,448 read right, in 14 of 1,237 regions read right and surely). So where the size does not
clearly name one silver kind, the reading says so instead of guessing. A size measured on a
short arc of the outline (a coin a third under its neighbours) is looser still, and a smaller
share of the gap makes it doubtful (tuning seed 97's pit C: a nickel sized on 0.59 of its
outline at 0.34 of the way from a dime to a nickel, read a dime at 0.78).

Nor does a size measured well under the smallest silver kind: no coin's outline is that
small, but a nickel's raised rim ring is (0.8 to 0.9 of its width, a dime's size and a little
less). Where a nickel's face is as pale as the paper, its outline barely steps and the circle
settles on that ring (tuning seed 177's north cup: a nickel measured 17.74 mm where a dime was
expected at 18.56 and a nickel at 22.07, read a dime at 1.00). On ``bench_shakala_read.py
--frames 100`` the two rules flag the one pit misreading left sure (24 of 25 flagged before)
at a cost of 7 of 1,771 regions read right flagged too; held-out, 10 of 1,783.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from vision.arrays import FloatArray
from vision.frame_fit import FrameFit
from vision.frame_model import KindPrior

if TYPE_CHECKING:
    from numpy.typing import NDArray


def between_silver_kinds(frame: FrameFit, priors: tuple[KindPrior, ...], kinds: list[str],
                         diameters_mm: FloatArray, least_share: float | FloatArray
                         ) -> NDArray[np.bool_]:
    """Which coins of ``kinds`` (measured ``diameters_mm``, in ``frame``'s order) are silver
    and lie at least ``least_share`` (one for all, or each coin's) of the way from their
    kind's expected diameter (its size with the frame's offsets) to the neighbouring silver
    kind's on the side they lie."""
    shares = np.broadcast_to(np.asarray(least_share, np.float64), (len(kinds),))
    expected = {prior.kind: prior.diameter_mm + frame.offset_mm
                + frame.kind_offsets_mm.get(prior.kind, 0.0)
                for prior in priors if prior.metal == "silver"}
    ladder = sorted(expected, key=expected.__getitem__)
    doubtful = np.zeros(len(kinds), bool)
    for index, (kind, diameter) in enumerate(zip(kinds, diameters_mm, strict=True)):
        if kind not in expected:
            continue
        step = ladder.index(kind) + (1 if diameter >= expected[kind] else -1)
        if not 0 <= step < len(ladder):
            continue
        gap = expected[ladder[step]] - expected[kind]
        doubtful[index] = (diameter - expected[kind]) / gap >= shares[index]
    return doubtful


def under_smallest_silver(frame: FrameFit, priors: tuple[KindPrior, ...], kinds: list[str],
                          diameters_mm: FloatArray, least_share: float) -> NDArray[np.bool_]:
    """Which coins of ``kinds`` (measured ``diameters_mm``, in ``frame``'s order) are of the
    smallest silver kind and measured at least ``least_share`` of the gap to the next silver
    kind under their kind's expected diameter: the size of a larger coin's rim ring."""
    expected = {prior.kind: prior.diameter_mm + frame.offset_mm
                + frame.kind_offsets_mm.get(prior.kind, 0.0)
                for prior in priors if prior.metal == "silver"}
    if len(expected) < 2:
        return np.zeros(len(kinds), bool)
    smallest, next_up = sorted(expected, key=expected.__getitem__)[:2]
    gap = expected[next_up] - expected[smallest]
    return np.array([kind == smallest and (expected[smallest] - diameter) / gap >= least_share
                     for kind, diameter in zip(kinds, diameters_mm, strict=True)], bool)
