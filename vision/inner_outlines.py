"""A smaller coin lying on a larger one: its own whole outline inside the larger one's.

A stack's top coin is seen whole; where it is smaller than the coin under it, a ring of that
coin's face shows round it, wider on the side the top coin was pushed away from (coins are
stacked by hand, never exactly centred) and swept along the lean by a coin's thickness under a
tilted camera. So the top coin's edge is a circle about as far inside the outline as the two
kinds' radii differ, lying *off* the outline's middle, and across it the colour changes all
along the arc where the ring shows. A lone coin has circles inside its outline too (the inner
edge of its raised rim, the lettering), but its rim is concentric with its outline and its
lettering makes no whole circle.

:func:`~vision.inner_outline_circles.fast_inner_outline_scores` measures, for each coin and
each gap between its kind and a smaller one, the best such circle: its centre anywhere off
the middle where the smaller coin still lies inside the outline, its radius the outline's
less the gap, scored by how strongly the colour changes across it along the arc where it
lies inside the outline (a low quantile, so that the change must hold nearly all along that
arc, not only where a glint or a letter crosses it). A score means something only against
the same scores of the frame's coins read surely (:func:`inner_outline_doubts`), which are
nearly all lone coins: whatever the renderer, camera or light, a stack's inner outline stands
out of them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from vision.arrays import FloatArray, Image
from vision.frame_statistics import above_reference
from vision.inner_outline_circles import fast_inner_outline_scores
from vision.step_rings import StepRingConfig, foot_dips, radial_brightness, stands_out

if TYPE_CHECKING:
    from numpy.typing import NDArray


@dataclass(frozen=True)
class InnerOutlineConfig:
    """How a smaller top coin's outline is looked for (lengths in mm).

    Only gaps of ``least_gap_mm`` or more between two kinds' radii are looked for (a narrower
    ring is no wider than the outline's own blur). Centres lie on rings every
    ``centre_step_mm`` from ``least_shift_mm`` off the middle (a concentric circle is the
    rim's) out to the gap plus ``sweep_allowance_mm`` (a coin's thickness swept by the lean);
    radii are the outline's less the gap and up to ``deeper_mm`` more, every
    ``radius_step_mm``; the colour change is taken ``across_mm`` either side of the circle at
    ``angles`` angles, where the circle lies ``inside_mm`` or more inside the outline, on
    ``least_arc`` of the circle or more; its ``quantile`` is the score. A coin whose score
    lies ``doubt_spreads`` robust spreads (at least ``least_spread`` of colour and
    ``least_relative_spread`` of the median) above the
    median of the frame's coins read at ``sure_confidence`` (``least_coins`` or more of them,
    the ``most_coins`` surest) may be a stack with a smaller top coin; only coins read at
    ``least_confidence`` or more are looked at (a doubt changes no other reading). A top
    coin lying too near the middle for its outline to be told from the rim shows by the
    dark ring at its foot instead (``rings``, :mod:`vision.step_rings`)."""

    least_gap_mm: float = 1.0
    centre_step_mm: float = 0.75
    least_shift_mm: float = 0.6
    sweep_allowance_mm: float = 0.8
    deeper_mm: float = 0.8
    radius_step_mm: float = 0.8
    across_mm: float = 0.6
    angles: int = 24
    inside_mm: float = 0.9
    least_arc: float = 0.3
    quantile: float = 0.25
    doubt_spreads: float = 4.0
    least_spread: float = 1.0
    least_relative_spread: float = 0.2
    sure_confidence: float = 0.9
    least_coins: int = 5
    most_coins: int = 8
    least_confidence: float = 0.5
    rings: StepRingConfig = field(default_factory=StepRingConfig)


def smaller_gaps(config: InnerOutlineConfig, sizes: Mapping[str, float],
                 metals: Mapping[str, str]) -> dict[str, list[float]]:
    """Per kind: how far inside its edge each smaller kind of its own metal lies when
    centred (mm; a top coin of another metal shows by its colour), for gaps of
    ``least_gap_mm`` or more; gaps within ``radius_step_mm`` of a smaller one are taken as
    that one (its search reaches ``deeper_mm`` further in)."""
    pairs = {kind: [(size - sizes[other]) / 2 for other in sizes
                    if metals[other] == metals[kind]
                    and (size - sizes[other]) / 2 >= config.least_gap_mm]
             for kind, size in sizes.items()}
    merged: list[float] = []
    for gap in sorted({gap for values in pairs.values() for gap in values}):
        if not merged or gap - merged[-1] > config.radius_step_mm:
            merged.append(gap)
    return {kind: sorted({max(value for value in merged if value <= gap + 1e-9)
                          for gap in values}) for kind, values in pairs.items()}


def seen_whole(under_pawn: NDArray[np.bool_], colours: FloatArray, clipped: FloatArray,
               glint_share: float) -> NDArray[np.bool_]:
    """Per coin: whether its face is seen well enough to look for a top coin's edge on it: no
    pawn stands on it, a glint clips less than ``glint_share`` of it, and its colour was
    measured in one channel at least (``colours`` N, 2, NaN where unmeasured). The edges are
    brightness changes: a lamp whose light carries no blue leaves one colour ratio
    unmeasured (a third of the coins under the warm lamp of the ``cold`` set) and hides no
    edge."""
    measured = ~np.isnan(np.asarray(colours, np.float64)).all(axis=1)
    return np.asarray(~np.asarray(under_pawn, bool) & measured
                      & (np.asarray(clipped) < glint_share), bool)


def _marked(indices: NDArray[np.intp], count: int) -> NDArray[np.bool_]:
    """A mask of ``count`` coins set at ``indices``."""
    mask = np.zeros(count, bool)
    mask[indices] = True
    return mask


def _stands_out(config: InnerOutlineConfig, scores: FloatArray, reference: NDArray[np.intp],
                when_too_few: bool) -> NDArray[np.bool_]:
    """Per coin: whether its score lies ``doubt_spreads`` robust spreads above the scores of
    the ``reference`` coins (``when_too_few`` for every coin when fewer than ``least_coins``
    of them were measured)."""
    return above_reference(scores, reference, config.least_coins, config.doubt_spreads,
                           config.least_spread, when_too_few, config.least_relative_spread)


#: The lone coins' scores are first bounded from below by their circles centred on this many
#: innermost rings (a tenth or so of them).
BOUND_RINGS = 2


def _lone_and_asked_scores(
    config: InnerOutlineConfig, image: Image, centres: FloatArray, radii: FloatArray,
    gaps_mm: Sequence[float], asked: NDArray[np.bool_], lone: NDArray[np.bool_],
    pixels_per_mm: float,
) -> FloatArray:
    """The scores of the ``asked`` coins (N, G) and of the ``lone`` ones (N,) at every gap,
    as :func:`~vision.inner_outline_circles.fast_inner_outline_scores` gives them, except
    where a gap's lone coins not asked themselves are not needed: where lower bounds of their
    scores already show that no asked coin can stand out of them, they are left unmeasured
    (NaN, so none stands out)."""
    spare = lone[:, None] & ~asked
    scores = fast_inner_outline_scores(config, image, centres, radii, gaps_mm, asked,
                                       pixels_per_mm)
    bounds = fast_inner_outline_scores(config, image, centres, radii, gaps_mm, spare,
                                       pixels_per_mm, BOUND_RINGS)
    needed = np.zeros_like(spare)
    for column in range(len(gaps_mm)):
        references = np.where(spare[:, column], bounds[:, column], scores[:, column])[lone]
        bounded = spare[lone, column]
        if _may_stand_out(config, references, bounded, scores[asked[:, column], column]):
            needed[:, column] = spare[:, column]
    if needed.any():
        measured = fast_inner_outline_scores(config, image, centres, radii, gaps_mm, needed,
                                             pixels_per_mm)
        scores = np.where(needed, measured, scores)
    return scores


def _may_stand_out(config: InnerOutlineConfig, references: FloatArray,
                   bounded: NDArray[np.bool_], asked_scores: FloatArray) -> bool:
    """Whether any of ``asked_scores`` may stand out (:func:`_stands_out`) of lone coins whose
    scores are ``references``, or at least those where ``bounded`` (lower bounds: a median
    and a least spread of lower bounds lie at or below the real ones). An unmeasured bound
    (NaN) may hide a measured score: then anything may stand out."""
    if np.isnan(references[bounded]).any():
        return True
    measured = references[np.isfinite(references)]
    if len(measured) < config.least_coins:
        return False
    middle = float(np.median(measured))
    spread = max(config.least_spread, config.least_relative_spread * middle)
    return bool((asked_scores > middle + config.doubt_spreads * spread).any())


def inner_outline_doubts(
    config: InnerOutlineConfig, image: Image, centres: FloatArray, radii: FloatArray,
    kinds: Sequence[str], confidence: FloatArray, sizes: Mapping[str, float],
    metals: Mapping[str, str], pixels_per_mm: float, seen: NDArray[np.bool_],
) -> NDArray[np.bool_]:
    """Per coin: whether a smaller coin's whole outline may lie inside its own, so that its
    kind (the outline's) may be the coin under the top one. Coins read as a kind with a
    smaller kind of its metal (``metals`` by kind) are looked at, and the frame's sure coins
    give the scores of lone coins; a coin must stand out from its own kind's sure coins too,
    where there are enough of them (a drawn or struck rim every quarter shows is no nickel).
    Only coins ``seen`` whole (no pawn, no glint) count. Nothing is doubted where too few
    sure coins were measured."""
    gaps_of = smaller_gaps(config, sizes, metals)
    count = len(kinds)
    doubts = np.zeros(count, bool)
    # Only readings that would count as sure are worth the doubt.
    asked_coins = seen & (np.asarray(confidence) >= config.least_confidence)
    gaps = sorted({gap for index in np.flatnonzero(asked_coins).tolist()
                   for gap in gaps_of[kinds[index]]})
    sure = np.flatnonzero(seen & (np.asarray(confidence) >= config.sure_confidence))
    if not gaps or len(sure) < config.least_coins:
        return doubts
    asked = np.array([[gap in gaps_of[kind] for gap in gaps] for kind in kinds], bool)
    asked &= asked_coins[:, None]
    # The frame's lone coins: its sure coins of kinds that can hide no smaller coin of their
    # metal (a quarter may be a stack's bottom coin, a dime may not), then the others, the
    # most confident first.
    hides = np.array([bool(gaps_of[kind]) for kind in kinds], bool)
    order = np.lexsort((-np.asarray(confidence)[sure], hides[sure]))
    lone = sure[order][:config.most_coins]
    scores = _lone_and_asked_scores(config, image, centres, radii, gaps, asked,
                                    _marked(lone, count), pixels_per_mm)
    kind_of = np.array(kinds, dtype=object)
    for column in range(len(gaps)):
        column_scores = scores[:, column]
        suspects = asked[:, column] & _stands_out(config, column_scores, lone, False)
        # A kind's own sure coins, where the frame has enough of them, must agree: a design
        # or rim that every coin of that kind shows is no smaller coin on top.
        for kind in set(kind_of[suspects].tolist()):
            own = sure[kind_of[sure] == kind]
            doubts |= (suspects & (kind_of == kind)
                       & _stands_out(config, column_scores, own, True))
    return doubts | _foot_ring_doubts(config, image, centres, radii, gaps, asked, lone,
                                      sure, kind_of, hides, pixels_per_mm)


def _foot_ring_doubts(
    config: InnerOutlineConfig, image: Image, centres: FloatArray, radii: FloatArray,
    gaps_mm: Sequence[float], asked: NDArray[np.bool_], lone: NDArray[np.intp],
    sure: NDArray[np.intp], kind_of: NDArray[np.object_], hides: NDArray[np.bool_],
    pixels_per_mm: float,
) -> NDArray[np.bool_]:
    """Per coin: whether the ring at a smaller top coin's foot (:mod:`vision.step_rings`)
    is darker, at one of the ``gaps_mm`` it is ``asked`` about, than on the frame's
    ``lone`` coins and on its own kind's ``sure`` ones, or where too few of those were
    measured, on the sure coins of every kind that ``hides`` a smaller one: their rims are
    wider than the smallest kinds', which the lone coins mostly are. Sure coins whose own
    ring stands out of the lone coins' are left out of that reference: where several
    stacks of one kind lie in a frame, they would hide each other."""
    rings = config.rings
    # The coins asked about, and those any reference may take: the lone coins, and the sure
    # coins of every kind that hides a smaller one (the kinds asked about among them).
    measured = np.asarray(asked.any(axis=1), bool)
    measured[lone] = True
    measured[sure[hides[sure]]] = True
    rows = np.flatnonzero(measured)
    insets, brightness = radial_brightness(rings, image, centres[rows], radii[rows],
                                           max(gaps_mm) + rings.face_to_mm, pixels_per_mm)
    doubts = np.zeros(len(asked), bool)
    for column, gap in enumerate(gaps_mm):
        dips = np.full(len(asked), np.nan)
        dips[rows] = foot_dips(rings, insets, brightness, gap)
        suspects = asked[:, column] & stands_out(rings, dips, lone, config.least_coins, False)
        calm = sure[~suspects[sure]]
        for kind in set(kind_of[suspects].tolist()):
            own = calm[kind_of[calm] == kind]
            if np.isfinite(dips[own]).sum() < config.least_coins:
                own = calm[hides[calm]]
            doubts |= (suspects & (kind_of == kind)
                       & stands_out(rings, dips, own, config.least_coins, True))
    return doubts
