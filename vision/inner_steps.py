"""A smaller top coin's own rim: a second circle inside a coin's top circle.

Where a dime lies on a nickel (or a nickel on a quarter), the outline is the lower coin's and
so, mostly, is the top circle (:mod:`vision.tops`): the lower coin's raised rim is the
sharpest change of colour inside the outline, and the top coin's edge stands out of the lower
coin's face only as a thin line. The top coin's own raised rim lies further in, about as far
inside the lower coin's rim as the two kinds' edges lie apart (a coin's rim is as wide
whatever its kind, and the top coin lies within the offset it was stacked with of the
middle). The rays' steepest change inside the top circle, short of it by ``margin_mm``,
fits that second circle (:func:`inner_step_radii`).

Alone it names nothing: a lone nickel's and a lone quarter's design shows a circle too, near
where a dime's or a nickel's rim would lie (on the tuning sets, within ``tolerance_mm`` for a
fifth of the lone coins read surely, against half the stacks). So it only corroborates the
weaker signs of a stack (:mod:`vision.inner_outlines`): a smaller coin's outline or the dark
ring at its foot standing out of the frame's lone coins by ``corroborated_spreads`` (where
alone they need more) makes the reading a doubt where the second circle lies at that smaller
kind's rim.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from vision.arrays import BoolArray, FloatArray, Image
from vision.rims import RimConfig
from vision.tops import TopConfig, top_circles


@dataclass(frozen=True)
class InnerStepConfig:
    """How the second circle is looked for and when it corroborates (lengths in mm): from
    the top circle's ``begin_share`` of the way out to ``margin_mm`` inside it; a second
    circle within ``tolerance_mm`` of a smaller kind's rim (the top circle's radius less the
    two kinds' gap) lets an inner outline's score standing ``corroborated_spreads`` spreads
    out, or a foot ring's dip ``corroborated_ring_spreads``, make a doubt."""

    margin_mm: float = 0.6
    tolerance_mm: float = 0.25
    corroborated_spreads: float = 2.0
    corroborated_ring_spreads: float = 2.5


@dataclass(frozen=True, eq=False)
class TopSteps:
    """What the second circles are measured with: the rays' and top circles' settings and
    each coin's top circle radius (N,; px, NaN where none was found)."""

    rims: RimConfig
    tops: TopConfig
    top_radii: FloatArray


def inner_step_radii(
    config: InnerStepConfig, steps: TopSteps, image: Image, centres: FloatArray,
    rows: BoolArray, pixels_per_mm: float,
) -> FloatArray:
    """Each coin's second circle radius (N,; px) inside its top circle, about its top face's
    ``centres`` (N, 2 px) in the normalised ``image``, measured for the coins at ``rows``
    whose top circle was found (NaN elsewhere, and where no circle agrees)."""
    radii = np.full(len(centres), np.nan)
    measured = np.flatnonzero(rows & np.isfinite(steps.top_radii)
                              & (steps.top_radii > config.margin_mm * pixels_per_mm))
    if not len(measured):
        return radii
    flags = np.zeros(image.shape[:2], np.uint8)
    found = top_circles(steps.rims, replace(steps.tops, end_margin_mm=0.0), image, flags,
                        centres[measured],
                        steps.top_radii[measured] - config.margin_mm * pixels_per_mm,
                        pixels_per_mm)
    radii[measured] = found.radii
    return radii


def at_smaller_rims(config: InnerStepConfig, top_radii: FloatArray, step_radii: FloatArray,
                    gaps_mm: list[float], pixels_per_mm: float) -> BoolArray:
    """Per coin and gap (N, G): whether its second circle lies within ``tolerance_mm`` of
    where a smaller top coin's rim would, its top circle's radius less the gap."""
    expected = top_radii[:, None] - np.asarray(gaps_mm, np.float64)[None, :] * pixels_per_mm
    with np.errstate(invalid="ignore"):
        near = np.abs(step_radii[:, None] - expected) <= config.tolerance_mm * pixels_per_mm
    return np.asarray(near, bool)
