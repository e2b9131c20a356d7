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

Between the two lies a range where the top circle fits both a coin's own rim and a smaller top
coin's edge: a nickel's edge on a quarter lies about where a lone quarter's rim does, a dime's
on a nickel where a nickel's rim does. There the reading is only as sure as the odds that the
circle is the rim (:func:`smaller_top_odds`): how well each explains where the circle lies
across, and how far its centre lies along the lean (a top coin lies a coin's thickness higher
than a lone coin's rim, so under a tilted camera its circle is swept that much further),
weighed by how often a smaller coin lies on a larger one.
"""

from __future__ import annotations

import math
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
    #: How often a top circle is a smaller top coin's rather than the coin's own rim, before
    #: the circle is measured (:func:`smaller_top_odds`).
    smaller_top_share: float = 0.1
    #: How far a top circle's centre strays along the lean from where its height puts it (mm).
    rise_spread_mm: float = 0.2
    #: How far a kind's rim may lie from the frame's common rim where too few sure coins of
    #: that kind measure its own (a quarter's rim is wider than a dime's; mm).
    kind_rim_spread_mm: float = 0.6
    #: A coin is read as the smaller top coin its top circle names where the odds reach
    #: ``top_odds``, ``top_agreement`` of the rays show the circle and the face's colour
    #: gives that coin's metal ``top_metal`` of its probability or more.
    top_odds: float = 0.5
    top_agreement: float = 0.8
    top_metal: float = 0.5


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

    def spread(self, kind: str, unknown_mm: float) -> float:
        """How far ``kind``'s rim may stray about :meth:`offset`: the frame's spread, widened
        by ``unknown_mm`` where the kind's own offset was not measured."""
        if kind in self.offsets_mm:
            return self.spread_mm
        return math.hypot(self.spread_mm, unknown_mm)


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


@dataclass(frozen=True, eq=False)
class SmallerTops:
    """Per coin: the probability that its top circle is a smaller top coin's edge (N,), the
    same against a lone coin's rim placed by its own outline as well as by its kind's size
    (N,; at most ``odds``), and the kind that top coin would most likely be (N,; None where
    no smaller kind fits)."""

    odds: FloatArray
    outline_odds: FloatArray
    kinds: list[str | None]


def smaller_top_odds(
    config: SizeDoubtConfig, kinds: Sequence[str], inner_mm: FloatArray, confidence: FloatArray,
    sizes: Mapping[str, float], outline_offset_mm: float, rise_mm: FloatArray,
    lean: FloatArray, thickness_mm: float, plausible: Sequence[frozenset[str]] | None = None,
) -> FloatArray:
    """Per coin: the probability that its top circle is a smaller top coin's edge rather than
    its own raised rim (:attr:`SmallerTops.odds` of :func:`smaller_tops`)."""
    return smaller_tops(config, kinds, inner_mm, confidence, sizes, outline_offset_mm, rise_mm,
                        lean, thickness_mm, plausible).odds


def smaller_tops(
    config: SizeDoubtConfig, kinds: Sequence[str], inner_mm: FloatArray, confidence: FloatArray,
    sizes: Mapping[str, float], outline_offset_mm: float, rise_mm: FloatArray,
    lean: FloatArray, thickness_mm: float, plausible: Sequence[frozenset[str]] | None = None,
    outlines_mm: FloatArray | None = None,
) -> SmallerTops:
    """Per coin: the probability that its top circle is a smaller top coin's edge rather than
    its own raised rim, and that top coin's likeliest kind (see the module's docstring; 0 and
    None where no circle was found or the frame has too few sure coins). ``rise_mm`` is how
    far each circle's centre lies along the lean beyond where a lone coin's rim would (mm),
    ``lean`` how far a raised thing leans per mm of height there, ``thickness_mm`` a coin's
    thickness; the rest as in :func:`stack_doubts`. The circle is the rim about the frame's
    rim offset, within its spread, or a top coin's edge anywhere from that coin's rim to its
    outline. Given each coin's measured outline diameter (``outlines_mm``), ``outline_odds``
    also lets a lone coin's rim lie the frame's usual gap inside its own outline: a coin
    measured small all round shows its rim small too, and is no stack for it."""
    odds = np.zeros(len(kinds))
    outline_odds = np.zeros(len(kinds))
    tops: list[str | None] = [None] * len(kinds)
    rims = frame_rims(config, kinds, inner_mm, confidence, sizes)
    if rims is None:
        return SmallerTops(odds, outline_odds, tops)
    inner = np.asarray(inner_mm, np.float64)
    # Where a lone coin's rim lies: inside its kind's size, or inside its own outline.
    own_sizes = np.array([sizes[kind] for kind in kinds], np.float64)
    if outlines_mm is not None:
        own_sizes = _measured_sizes(config, own_sizes, np.asarray(outlines_mm, np.float64),
                                    outline_offset_mm, confidence)
    gaps = frame_rims(config, kinds, inner - own_sizes, confidence,
                      dict.fromkeys(sizes, 0.0)) or rims
    share, unknown = config.smaller_top_share, config.kind_rim_spread_mm
    for index in np.flatnonzero(np.isfinite(inner)).tolist():
        own = sizes[kinds[index]]
        rise = float(rise_mm[index]) / config.rise_spread_mm
        # Both densities are scaled alike (times sqrt(2 pi) spread), so their ratio holds.
        spread = rims.spread(kinds[index], unknown)
        single = _normal((inner[index] - own - rims.offset(kinds[index])) / spread) / spread
        measured = gaps.spread(kinds[index], unknown)
        either = max(single, _normal((inner[index] - own_sizes[index]
                                      - gaps.offset(kinds[index])) / measured) / measured)
        single, either = single * _heavy(rise), either * _heavy(rise)
        stacked = 0.0
        for kind, size in sizes.items():
            if size >= own or (plausible is not None and kind not in plausible[index]):
                continue
            low = size + rims.offset(kind)
            high = size + max(outline_offset_mm, rims.offset(kind))
            within = _blurred_span(inner[index], low, high, rims.spread(kind, unknown)
                                   ) / rims.spread(kind, unknown)
            higher = _heavy(rise - float(lean[index]) * thickness_mm / config.rise_spread_mm)
            if within * higher > stacked:
                stacked, tops[index] = within * higher, kind
        odds[index] = share * stacked / (share * stacked + (1 - share) * single + 1e-300)
        outline_odds[index] = share * stacked / (share * stacked + (1 - share) * either
                                                 + 1e-300)
    return SmallerTops(odds, outline_odds, tops)


def _measured_sizes(config: SizeDoubtConfig, nominal: FloatArray, outlines: FloatArray,
                    outline_offset_mm: float, confidence: FloatArray) -> FloatArray:
    """Each coin's own size as its outline measures it, by no more than the frame's sure
    coins' outlines stray about their kinds' sizes (twice their robust spread) from its
    kind's size: a lone coin measures a little small or large all round, while a stack's
    outline, the coins under it lying off its top coin, may be a whole kind larger."""
    residual = outlines - nominal - outline_offset_mm
    sure = np.isfinite(residual) & (np.asarray(confidence) >= config.sure_confidence)
    if sure.sum() < config.least_coins:
        return nominal + outline_offset_mm
    middle = float(np.median(residual[sure]))
    slack = 2 * 1.4826 * float(np.median(np.abs(residual[sure] - middle)))
    return nominal + outline_offset_mm + np.clip(residual, middle - slack, middle + slack)


def _normal(standardised: float) -> float:
    """The normal density at a standardised distance, times sqrt(2 pi)."""
    return math.exp(-0.5 * standardised**2)


def _heavy(standardised: float) -> float:
    """A Student-t (3 degrees of freedom) density at a standardised distance, up to a
    constant: a circle's centre now and then strays far (a glint, a pawn's shadow)."""
    return (1.0 + standardised**2 / 3.0) ** -2


def _blurred_span(value: float, low: float, high: float, spread: float) -> float:
    """The density at ``value`` of a point anywhere from ``low`` to ``high`` measured within
    ``spread``, times sqrt(2 pi) ``spread`` (as :func:`_normal`)."""
    width = max(high - low, 1e-6)
    inside = 0.5 * (math.erf((value - low) / (spread * math.sqrt(2)))
                    - math.erf((value - high) / (spread * math.sqrt(2))))
    return inside * math.sqrt(2 * math.pi) * spread / width


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
