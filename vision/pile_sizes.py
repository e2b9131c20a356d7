"""A silver coin in a pile measured between two kinds' sizes is a doubtful kind.

Silver kinds differ by their size alone (a dime 17.91 mm, a nickel 21.21, a quarter 24.26:
about 3 mm apart). A coin in a pit or cup is measured where its outline meets paper
(:mod:`vision.loose`), but a neighbour's shadow or a cup's printed border mixed into that
outline, or an arc on one side only, moves the size by a millimetre or more, and the frame
model may still name the nearer kind at a confidence that says sure (the crowded tuning
frames of seeds 0-179 with 177 and 202: of 12 measured silver coins read a kind off, 8 lay
0.35 or more of the way from the kind read to the neighbouring silver kind, against 33 of the
1,448 read right, in 14 of 1,237 regions read right and surely). So where the size does not
clearly name one silver kind, the reading says so instead of guessing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from vision.arrays import FloatArray
from vision.frame_model import FrameFit, KindPrior

if TYPE_CHECKING:
    from numpy.typing import NDArray


def between_silver_kinds(frame: FrameFit, priors: tuple[KindPrior, ...], kinds: list[str],
                         diameters_mm: FloatArray, least_share: float) -> NDArray[np.bool_]:
    """Which coins of ``kinds`` (measured ``diameters_mm``, in ``frame``'s order) are silver
    and lie at least ``least_share`` of the way from their kind's expected diameter (its size
    with the frame's offsets) to the neighbouring silver kind's on the side they lie."""
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
        doubtful[index] = (diameter - expected[kind]) / gap >= least_share
    return doubtful
