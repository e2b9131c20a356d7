"""The top coin of a stack: the one full circle inside a stack's outline.

A camera sees the top coin of a stack whole, and of the coins under it only what their offsets
leave outside it (and, under a tilted camera, their sides). So a stack's outline is larger than
its top coin, by the offsets alone in a stack of one kind, by a size step or more where a
smaller coin lies on a larger one (a dime on a quarter, a penny on a nickel). The top coin's own
edge is a circle inside the outline: along rays from the top face's middle, the sharpest
change of colour between the middle and the outline's rim, and the circle most of those agree
with (:func:`top_circles`).

A single coin has an inner circle too, the inner edge of its raised rim, about a millimetre
inside its edge and always concentric with it; a stack's top coin lies off its outline's middle
by the offsets the coins were stacked with. Reading (:mod:`vision.read`) takes a top circle for
the top coin only where it lies off the middle, or is a whole kind smaller, or shows another
metal.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.arrays import FloatArray, Image
from vision.circle_fits import consensus_circles
from vision.faces import plain_median
from vision.rims import RimConfig, ray_rises


@dataclass(frozen=True)
class TopConfig:
    """How top circles are looked for: from ``begin_share`` of the outline's radius to
    ``end_margin_mm`` inside it, in ``samples`` steps; a circle at least ``least_radius_mm``
    across that ``least_agreement`` of the rays no pawn crosses agree with."""

    begin_share: float = 0.45
    end_margin_mm: float = 0.5
    samples: int = 36
    least_radius_mm: float = 7.0
    least_agreement: float = 0.55


@dataclass(frozen=True, eq=False)
class TopCircles:
    """Each outline's top circle in top-view px: centre (K, 2), radius (K,; NaN where none
    was found) and the share of unhidden rays that show it (K,)."""

    centres: FloatArray
    radii: FloatArray
    agreement: FloatArray


def top_circles(
    config: RimConfig, top: TopConfig, image: Image, flags: Image,
    centres: FloatArray, radii: FloatArray, pixels_per_mm: float,
) -> TopCircles:
    """The top circle inside each outline (top-face ``centres`` and outline ``radii`` px) of
    the normalised ``image``; ``flags`` marks pawns and clipped pixels (see
    :func:`vision.rims.measure_outlines`)."""
    count = len(centres)
    if count == 0:
        empty = np.zeros(0)
        return TopCircles(np.zeros((0, 2)), empty, empty)
    ends = radii - top.end_margin_mm * pixels_per_mm
    fractions = np.linspace(0.0, 1.0, top.samples)
    begins = top.begin_share * radii
    along = begins[:, None] + (ends - begins)[:, None] * fractions[None, :]  # (K, S)
    rise, middles, pawned = ray_rises(config, image, flags, centres, along)
    reach = config.rise_samples
    on_pawn = pawned[..., reach:-reach]
    rise[on_pawn] = 0.0
    steepest = np.argmax(rise, axis=2)  # (K, J)
    distance = np.take_along_axis(middles, steepest, axis=1)  # middles[k, steepest[k, j]]
    strength = np.take_along_axis(rise, steepest[..., None], axis=2)[..., 0]
    valid = strength > 0.5 * plain_median(strength, axis=1)[:, None]
    angles = np.linspace(0, 2 * np.pi, config.ray_count, endpoint=False)
    points = centres[:, None, :] + np.stack([np.cos(angles), np.sin(angles)], axis=1)[None] * (
        distance[..., None])
    least = np.full(count, top.least_radius_mm / 2 * pixels_per_mm)
    found, found_radii, votes = consensus_circles(config, points, valid, pixels_per_mm,
                                                  (least, ends))
    seen = np.maximum((~on_pawn.any(axis=2)).sum(axis=1), config.ray_count * config.least_seen)
    agreement = votes / seen
    good = agreement >= top.least_agreement
    return TopCircles(np.where(good[:, None], found, centres),
                      np.where(good, found_radii, np.nan), np.where(good, agreement, 0.0))
