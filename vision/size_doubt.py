"""When a coin's size reading may be a stack's: a top circle that is no rim of its kind.

A single coin's top circle (:mod:`vision.tops`) is the inner edge of its raised rim, about a
millimetre inside its edge all round, the same for every coin of a kind in one frame. A stack's
outline is wider than its top coin: the coins under it stick out by how they were stacked, and
under a tilted camera its side shows on the camera's side (:mod:`vision.parallax`), so three
nickels measure as wide as a quarter. Its top circle is then the top coin's own, somewhere
between that coin's rim and its edge. So where a coin's top circle lies well inside the rim
its kind would have in this frame, and where a smaller kind's top coin would show just such a
circle, the outline's size names the kind of a coin that may not be there: the reading is a
doubt, whatever the outline's fit. The rim's offset and spread are this frame's own, from the
coins read surely.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from vision.arrays import BoolArray, FloatArray


@dataclass(frozen=True)
class SizeDoubtConfig:
    """A frame's rims are measured on its coins read at ``sure_confidence`` or more (at least
    ``least_coins`` of them, else nothing is doubted), their spread at least
    ``least_spread_mm``. A top circle ``rim_spreads`` spreads or more inside its kind's rim,
    and within ``edge_spreads`` spreads of the span from a smaller kind's rim to its edge
    (where the frame's outlines put it), makes the reading a doubt, where that smaller kind's
    metal holds ``other_metal`` or more of the coin's probability or is its kind's own."""

    sure_confidence: float = 0.9
    least_coins: int = 4
    least_spread_mm: float = 0.25
    rim_spreads: float = 2.5
    edge_spreads: float = 1.5
    other_metal: float = 0.05


@dataclass(frozen=True)
class FrameRims:
    """Where this frame's single coins show their top circle: the offset from their kind's
    size per kind (mm; a kind with too few sure coins takes all kinds' median) and one
    spread about them (mm)."""

    offsets_mm: dict[str, float]
    common_mm: float
    spread_mm: float

    def offset(self, kind: str) -> float:
        """The rim's offset from ``kind``'s size in this frame."""
        return self.offsets_mm.get(kind, self.common_mm)


def frame_rims(config: SizeDoubtConfig, kinds: Sequence[str], inner_mm: FloatArray,
               confidence: FloatArray, sizes: Mapping[str, float]) -> FrameRims | None:
    """The frame's rim offsets and spread from the coins read surely whose top circle was
    found (robust medians and spread; rims differ from kind to kind); None where too few
    are."""
    inner = np.asarray(inner_mm, np.float64)
    sure = np.flatnonzero(np.isfinite(inner) & (np.asarray(confidence) >= config.sure_confidence))
    if len(sure) < config.least_coins:
        return None
    gaps = np.array([inner[index] - sizes[kinds[index]] for index in sure.tolist()])
    named = np.array([kinds[index] for index in sure.tolist()])
    common = float(np.median(gaps))
    offsets = {kind: float(np.median(gaps[named == kind])) for kind in set(named.tolist())
               if (named == kind).sum() >= config.least_coins}
    centred = gaps - np.array([offsets.get(kind, common) for kind in named])
    spread = float(1.4826 * np.median(np.abs(centred)))
    return FrameRims(offsets, common, max(spread, config.least_spread_mm))


def stack_doubts(
    config: SizeDoubtConfig, kinds: Sequence[str], inner_mm: FloatArray, confidence: FloatArray,
    sizes: Mapping[str, float], outline_offset_mm: float,
    plausible: Sequence[frozenset[str]] | None = None,
) -> BoolArray:
    """Per coin: whether its kind rests on an outline that may be a stack's with a smaller
    top coin (see the module's docstring). ``sizes`` are the kinds' true diameters,
    ``outline_offset_mm`` how much larger this frame measures outlines than them, and
    ``plausible`` the kinds each coin's top face may be by its colour (all by default: a
    silver top on a silver stack shows no other colour, a penny's shows copper)."""
    count = len(kinds)
    doubts = np.zeros(count, bool)
    rims = frame_rims(config, kinds, inner_mm, confidence, sizes)
    if rims is None:
        return doubts
    inner = np.asarray(inner_mm, np.float64)
    reach = config.edge_spreads * rims.spread_mm
    for index in np.flatnonzero(np.isfinite(inner)).tolist():
        own = sizes[kinds[index]]
        if inner[index] - own - rims.offset(kinds[index]) > -config.rim_spreads * rims.spread_mm:
            continue
        for kind, size in sizes.items():
            if size >= own or (plausible is not None and kind not in plausible[index]):
                continue
            low = size + rims.offset(kind) - reach
            high = size + max(outline_offset_mm, rims.offset(kind)) + reach
            if low <= inner[index] <= high:
                doubts[index] = True
                break
    return doubts


def plausible_kinds(kinds: Sequence[str], probabilities: FloatArray, metals: Mapping[str, str],
                    least: float) -> list[frozenset[str]]:
    """Per coin: the kinds of the metals its colour leaves open, those of its read kind's
    metal and of any metal whose kinds together hold ``least`` or more of its probability
    (``probabilities`` (N, K) over ``kinds``' order of ``metals``)."""
    names = list(metals)
    found = []
    for row in np.asarray(probabilities, np.float64):
        by_metal: dict[str, float] = {}
        for name, value in zip(names, row, strict=True):
            by_metal[metals[name]] = by_metal.get(metals[name], 0.0) + float(value)
        open_metals = {metal for metal, total in by_metal.items() if total >= least}
        open_metals.add(metals[names[int(np.argmax(row))]])
        found.append(frozenset(name for name in names if metals[name] in open_metals))
    return found
