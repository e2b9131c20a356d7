"""A loose coin's outline measured where it meets paper, as the ray reader measures a lone
coin's (:mod:`vision.rims`): the rays no neighbour blocks, the outermost point on each where
the unlikeness to paper falls half way, a circle fitted through them, and how much of the
circle they saw. :mod:`vision.loose` sizes the circles it finds in a pile with these.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, NamedTuple

import cv2
import numpy as np

from vision.arrays import FloatArray, Image
from vision.light import PAPER

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from vision.loose import LooseConfig


class Outline(NamedTuple):
    """A coin's outline as :func:`measure_outline` measures it (centre and radius in px)."""

    centre: FloatArray
    radius: float
    sized: bool
    arc: float
    clear_share: float
    round_outline: bool


def measure_outline(config: LooseConfig, unlike: Image, circle: tuple[FloatArray, float],
                    others: list[tuple[FloatArray, float]], pixels_per_mm: float, outward: float
                    ) -> Outline:
    """The coin's outline measured where it meets paper, as the ray reader does: along each
    ray that no coin of ``others`` blocks out to ``outward`` (px) beyond the circle, the
    outermost point where the unlikeness to paper falls half way from the coin's to the
    paper's, and a circle fitted through those points, and True; the circle as given and
    False where fewer than ``least_rays`` rays see paper. Then the seen arc, the share of
    clear rays, and whether the points lie on their circle (within ``outline_scatter_mm``
    root mean square): a coin's outline is round, one scattered off it mixes in a
    neighbour's edge or shadow, and the size it gives is doubtful."""
    centre, radius = circle
    angles = np.linspace(0, 2 * math.pi, config.rim_samples, endpoint=False)
    unit = np.column_stack([np.cos(angles), np.sin(angles)])
    step = 0.25 * pixels_per_mm
    inner = config.size_search_mm * pixels_per_mm
    free = np.ones(len(angles), bool)
    for other_centre, other_radius in others:
        for along in (radius, radius + outward):
            point = centre[None, :] + along * unit
            free &= np.hypot(*(point - other_centre[None, :]).T) > other_radius + step
    if free.sum() < config.least_rays:
        return Outline(centre, radius, False, 0.0, 0.0, True)
    rings = np.arange(radius - inner, radius + outward + 1e-9, step)
    points = centre[None, None, :] + rings[None, :, None] * unit[free][:, None, :]
    samples = cv2.remap(unlike, points[..., 0].astype(np.float32),
                        points[..., 1].astype(np.float32), cv2.INTER_LINEAR)
    paper = np.median(samples[:, -4:], axis=1)
    coin = samples[:, : len(rings) - 4].max(axis=1)
    half = (coin + paper)[:, None] / 2
    outermost = len(rings) - 1 - np.argmax((samples >= half)[:, ::-1], axis=1)
    clear = (coin - paper > config.least_step * PAPER) & (outermost < len(rings) - 4)
    seen = np.zeros(len(angles), bool)
    seen[np.flatnonzero(free)[clear]] = True
    arc, share = seen_arc(seen), float(clear.mean())
    if clear.sum() < config.least_rays:
        return Outline(centre, radius, False, arc, share, True)
    edge = outermost[clear]
    low = samples[clear, np.minimum(edge + 1, len(rings) - 1)]
    high = samples[clear, edge]
    fraction = np.clip((high - half[clear, 0]) / np.maximum(high - low, 1e-6), 0, 1)
    distances = rings[edge] + fraction * step
    through = centre[None, :] + distances[:, None] * unit[free][clear]
    fitted, size = circle_through(through, centre, radius, inner + outward)
    sized = size != radius and share >= config.least_clear and arc >= config.least_arc
    scatter = np.hypot(*(through - fitted[None, :]).T) - size
    round_outline = float(np.sqrt(np.mean(scatter**2))) <= config.outline_scatter_mm * pixels_per_mm
    return Outline(fitted, size, sized, arc, share, round_outline)


def seen_arc(seen: NDArray[np.bool_]) -> float:
    """The share of the circle (0..1) from one ray that saw the outline to the farthest one
    round it without a longer gap: 1 less the largest run of rays that did not see it."""
    if not seen.any():
        return 0.0
    doubled = np.concatenate([seen, seen])
    starts = np.flatnonzero(doubled)
    gaps = np.diff(starts) - 1
    return 1.0 - float(gaps.max(initial=0)) / len(seen)


def outlines_against_paper(config: LooseConfig, patch: Image,
                           found: list[tuple[FloatArray, float]], pixels_per_mm: float
                           ) -> list[Outline]:
    """Every coin's outline measured again with every other coin known (:func:`measure_outline`,
    out to ``paper_reach_mm`` beyond its circle), and whether it was."""
    unlike = unlike_paper(patch)
    reach = config.paper_reach_mm * pixels_per_mm
    return [measure_outline(config, unlike, circle, found[:index] + found[index + 1:],
                            pixels_per_mm, reach) for index, circle in enumerate(found)]


def unlike_paper(patch: Image) -> Image:
    """How unlike paper each pixel is: its largest channel difference."""
    return channel_max(np.abs(patch - PAPER)).astype(np.float32)


def channel_max(image: Image) -> Image:
    """The largest of each pixel's three channels (as ``max(axis=2)``, many times faster)."""
    return np.maximum(np.maximum(image[..., 0], image[..., 1]), image[..., 2])


def circle_through(points: FloatArray, centre: FloatArray, radius: float, reach: float
                    ) -> tuple[FloatArray, float]:
    """The circle fitted (least squares) through ``points`` on an outline, or the given one
    where the fit moves its centre more than ``reach`` or its radius by more: an arc on one
    side only fixes the centre and radius together, not the radius about a centre that is
    a little off."""
    x, y = points[:, 0], points[:, 1]
    matrix = np.column_stack([x, y, np.ones_like(x)])
    solution, *_ = np.linalg.lstsq(matrix, x * x + y * y, rcond=None)
    fitted = np.array([solution[0] / 2, solution[1] / 2])
    squared = solution[2] + fitted @ fitted
    if squared <= 0:
        return centre, radius
    size = math.sqrt(squared)
    if math.dist(fitted, centre) > reach or abs(size - radius) > reach:
        return centre, radius
    return fitted, size
