"""A sure reading must rest on evidence that agrees: two signs that it does not.

The frame model (:mod:`vision.frame_model`) names each coin from its size and its colour
together, and its probability becomes the reading's confidence. Where one piece of evidence
plainly names another kind, that probability overstates what the frame shows, and the referee
should ask rather than rule. Each sign caps the confidence at a doubt; the kind read is left
as it is.

* A colour seen in one channel only (the other ratio unmeasured: under a warm lamp the blue
  channel may carry no signal) still tells copper from silver by red against green.
  :mod:`vision.metals` weighs only colours seen in both channels; here a colour, whole or
  partial, that gives the kind's metal less than ``other_metal`` is a doubt.
* A faint outline (edge contrast under ``faint_contrast`` of paper) may lie on the coin's
  soft shadow, up to ``shadow_mm`` out of its edge (the frame model's ``faint_shadow_mm``).
  A faint coin read as one of ``shadow_kinds`` whose diameter, less that swelling, lies
  nearer the next smaller kind of its metal is as well that smaller coin on its shadow.
* A coin read as the smallest kind of its metal (a dime) whose outline, by every offset the
  frame fits (its own, each kind's, the coin's glint, faint edge and coarse view), lies past
  halfway to a larger kind of its metal, while the frame takes that outline as a single
  coin's, is named by its top circle against its outline. A single coin's outline is its
  most reliable measure (the top circle may lie on lettering or a glint's edge); a dime on
  a nickel would show the nickel sticking out, which the frame counts as a stack.
* A silver coin alone in a ring's space (nothing stacks there, so its outline is its own)
  whose outline lies more than ``alone_past`` of the way from its kind's expected outline to
  a neighbouring kind's of its metal, either way, is a doubt. At the ring's coarse views (a
  camera pixel spanning 1.4-2.3 mm) a lone coin's outline strays up to 2.4 mm from its kind's
  on the same ring, where the kinds lie 3-4 mm apart, while the frame's spread, fitted to
  the ring's many coins that agree, is a third of a millimetre: its size then names no kind
  surely.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from vision.arrays import FloatArray
from vision.frame_fit import FrameFit

if TYPE_CHECKING:
    from numpy.typing import NDArray


@dataclass(frozen=True)
class SureEvidenceConfig:
    """When a reading's evidence disagrees (see the module's description): a colour giving
    the kind's metal less than ``other_metal``; a faint outline (under ``faint_contrast`` of
    paper) of one of ``shadow_kinds`` whose size less ``shadow_mm`` is nearer the next
    smaller kind of its metal; the smallest kind of its metal whose outline lies more than
    ``outline_past`` of the way to a larger kind of its metal by the frame's expected
    outlines, where the frame takes it as a single coin at least ``outline_single``; a coin
    alone in a ring's space more than ``alone_past`` of the way to another kind of its metal.
    Such a reading is at most ``doubtful`` sure.

    Only quarters are ``shadow_kinds``: faint nickels read right outnumber dimes read as
    nickels by ten to one on the stress set, where the rule caught 3 sure errors for 26
    right readings; faint quarters, 16 sure errors (nickels on their shadows) for 21."""

    other_metal: float = 0.3
    faint_contrast: float = 0.12
    shadow_mm: float = 3.0
    shadow_kinds: tuple[str, ...] = ("Q",)
    outline_past: float = 0.5
    outline_single: float = 0.6
    alone_past: float = 0.35
    doubtful: float = 0.45


def colour_disagrees(config: SureEvidenceConfig, frame: FrameFit, kinds: list[str],
                     metal_of: dict[str, str], colours: FloatArray) -> NDArray[np.bool_]:
    """Per coin: whether its face's colour (any channel of ``colours`` seen) gives its kind's
    metal less than ``other_metal`` by the frame's own metals (``frame.by_colour``)."""
    disagrees = np.zeros(len(kinds), bool)
    if not frame.metals or frame.by_colour.shape != (len(kinds), len(frame.metals)):
        return disagrees
    unseen = np.isnan(np.asarray(colours, np.float64).reshape(len(kinds), -1))
    seen = np.asarray(~unseen.all(axis=1), bool)
    for position, kind in enumerate(kinds):
        metal = metal_of.get(kind)
        if metal in frame.metals and seen[position]:
            share = float(frame.by_colour[position, frame.metals.index(metal)])
            disagrees[position] = share < config.other_metal
    return disagrees


def smaller_on_shadow(config: SureEvidenceConfig, frame: FrameFit, kinds: list[str],
                      sizes: dict[str, float], metal_of: dict[str, str],
                      diameters: FloatArray, contrast: FloatArray) -> NDArray[np.bool_]:
    """Per coin: whether a faint outline read as one of ``shadow_kinds`` measures, less the
    shadow's ``shadow_mm``, nearer the next smaller kind of its metal (both kinds' sizes as
    the frame expects them: its offset and each kind's own)."""
    def expected(kind: str) -> float:
        return sizes[kind] + frame.offset_mm + frame.kind_offsets_mm.get(kind, 0.0)

    doubted = np.zeros(len(kinds), bool)
    for position, kind in enumerate(kinds):
        if kind not in config.shadow_kinds or contrast[position] >= config.faint_contrast:
            continue
        smaller = [other for other in sizes
                   if metal_of.get(other) == metal_of.get(kind) and sizes[other] < sizes[kind]]
        if not smaller:
            continue
        below = max(smaller, key=lambda other: sizes[other])
        halfway = (expected(below) + expected(kind)) / 2
        doubted[position] = diameters[position] - config.shadow_mm < halfway
    return doubted


def outline_names_larger(config: SureEvidenceConfig, frame: FrameFit, kinds: list[str],
                         sizes: dict[str, float], metal_of: dict[str, str],
                         diameters: FloatArray) -> NDArray[np.bool_]:
    """Per coin: whether a coin read as the smallest kind of its metal measures, by the
    frame's own expected outlines (``frame.outline_mm``), more than ``outline_past`` of the
    way to a larger kind of its metal, while the frame takes it as a single coin at least
    ``outline_single``."""
    toward = smallest_toward_larger(frame, kinds, sizes, metal_of, diameters,
                                    config.outline_past)
    for position in np.flatnonzero(toward):
        toward[position] = frame.single[position] >= config.outline_single
    return toward


def smallest_toward_larger(frame: FrameFit, kinds: list[str], sizes: dict[str, float],
                           metal_of: dict[str, str], diameters: FloatArray, past: float
                           ) -> NDArray[np.bool_]:
    """Per coin: whether it is read as the smallest kind of its metal and measures, by the
    frame's own expected outlines (``frame.outline_mm``), more than ``past`` of the way to a
    larger kind of its metal. A larger kind is left out: its sure readings so placed are
    mostly offset stacks."""
    toward = np.zeros(len(kinds), bool)
    if frame.outline_mm.shape != (len(kinds), len(frame.kinds)):
        return toward
    for position, kind in enumerate(kinds):
        if kind not in frame.kinds:
            continue
        same_metal = [other for other in frame.kinds
                      if other != kind and metal_of.get(other) == metal_of.get(kind)]
        if any(sizes[other] < sizes[kind] for other in same_metal):
            continue
        toward[position] = any(gap > 0 and share > past
                               for gap, share in _ways_to_others(frame, position, kind,
                                                                 same_metal, diameters))
    return toward


def alone_between_kinds(config: SureEvidenceConfig, frame: FrameFit, kinds: list[str],
                        metal_of: dict[str, str], diameters: FloatArray,
                        alone: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """Per coin: whether a coin ``alone`` in a ring's space measures, by the frame's own
    expected outlines (``frame.outline_mm``), more than ``alone_past`` of the way from its
    kind's outline to that of another kind of its metal."""
    doubted = np.zeros(len(kinds), bool)
    if frame.outline_mm.shape != (len(kinds), len(frame.kinds)):
        return doubted
    for position in np.flatnonzero(alone):
        kind = kinds[position]
        if kind not in frame.kinds:
            continue
        same_metal = [other for other in frame.kinds
                      if other != kind and metal_of.get(other) == metal_of.get(kind)]
        doubted[position] = any(share > config.alone_past
                                for _, share in _ways_to_others(frame, int(position), kind,
                                                                same_metal, diameters))
    return doubted


def _ways_to_others(frame: FrameFit, position: int, kind: str, others: list[str],
                    diameters: FloatArray) -> list[tuple[float, float]]:
    """For each of ``others`` whose expected outline differs from ``kind``'s at coin
    ``position`` (``frame.outline_mm``): the gap between the two outlines (mm, signed) and
    how far of the way from ``kind``'s outline towards the other's the coin measures."""
    expected = frame.outline_mm[position]
    own = expected[frame.kinds.index(kind)]
    gaps = [float(expected[frame.kinds.index(other)] - own) for other in others]
    return [(gap, float(diameters[position] - own) / gap) for gap in gaps if gap != 0]


def disagreeing_evidence(config: SureEvidenceConfig, frame: FrameFit, kinds: list[str],
                         sizes: dict[str, float], metal_of: dict[str, str],
                         colours: FloatArray, diameters: FloatArray, contrast: FloatArray,
                         confidence: FloatArray, alone: NDArray[np.bool_] | None = None,
                         ) -> FloatArray:
    """The confidences once every reading whose evidence disagrees is capped at
    ``doubtful``; ``alone`` marks the coins in a ring's spaces (none by default)."""
    alone = np.zeros(len(kinds), bool) if alone is None else alone
    doubted = (colour_disagrees(config, frame, kinds, metal_of, colours)
               | smaller_on_shadow(config, frame, kinds, sizes, metal_of, diameters, contrast)
               | outline_names_larger(config, frame, kinds, sizes, metal_of, diameters)
               | alone_between_kinds(config, frame, kinds, metal_of, diameters, alone))
    return np.where(doubted, np.minimum(confidence, config.doubtful), confidence)
