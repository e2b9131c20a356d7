"""The inner-outline circles' scores, sampled at once for every coin and gap.

The score of a circle is stated in :mod:`vision.inner_outlines`; its test states it plainly, one
gap at a time, and this module computes the very same numbers with less work, for the
every-frame reader: every coin's
circles of every gap are sampled in one remap, the colour change is squared in integers where
the image is of integers (exact), and its square root is taken only of each coin's best circle
(the root keeps the order, so the quantile and the best of the roots are the roots of the
quantile and the best). Its test compares the two on rendered frames.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.arrays import FloatArray, Image

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from vision.inner_outlines import InnerOutlineConfig

#: OpenCV's remap takes maps of fewer rows than this; the points are laid out this wide.
_ROW = 1024
#: Above every squared colour change (three channels of 0..255 and far more).
_OUTSIDE = np.iinfo(np.int32).max


@lru_cache(maxsize=64)
def centre_offsets(reach_px: float, step_px: float, least_px: float) -> FloatArray:
    """Offsets (M, 2 px) on rings every ``step_px`` from ``least_px`` out to ``reach_px``
    (kept for the next frame, which asks for the same ones: read-only)."""
    offsets = [np.zeros((0, 2))]
    radius = least_px
    while radius <= reach_px + 1e-9:
        count = max(6, int(np.ceil(2 * np.pi * radius / step_px)))
        turn = np.linspace(0, 2 * np.pi, count, endpoint=False)
        offsets.append(radius * np.stack([np.cos(turn), np.sin(turn)], axis=1))
        radius += step_px
    stacked = np.vstack(offsets)
    stacked.flags.writeable = False
    return stacked


def circle_points(config: InnerOutlineConfig, centres: FloatArray, outline_radii: FloatArray,
                  gap_mm: float, pixels_per_mm: float, rings: int | None = None
                  ) -> tuple[NDArray[np.float32], NDArray[np.float32], NDArray[np.bool_]]:
    """The two sample points across each circle ``gap_mm`` (to ``deeper_mm`` more) inside
    each outline, off its middle (x and y, each (2, C, M, R, A) px as float32, the outer
    side first), and which of them lie far enough inside the outline (C, M, R, A); with
    ``rings``, only the circles whose centres lie on that many innermost rings."""
    ppm = pixels_per_mm
    reach = (gap_mm + config.sweep_allowance_mm) * ppm
    if rings is not None:
        reach = min(reach, (config.least_shift_mm + (rings - 1) * config.centre_step_mm) * ppm)
    offsets = centre_offsets(reach, config.centre_step_mm * ppm, config.least_shift_mm * ppm)
    insets = np.arange(gap_mm, gap_mm + config.deeper_mm + 1e-9, config.radius_step_mm) * ppm
    radii = (outline_radii[:, None] - insets[None, :])[:, None, :, None]
    turn = np.linspace(0, 2 * np.pi, config.angles, endpoint=False)
    across = config.across_mm * ppm
    points = []
    middles = []
    for axis, unit in enumerate((np.cos(turn), np.sin(turn))):
        middle = offsets[None, :, None, None, axis] + radii * unit
        middles.append(middle)
        sides = np.empty((2, *middle.shape), np.float32)
        for side, sign in enumerate((1.0, -1.0)):
            shifted = middle + sign * across * unit
            shifted += centres[:, None, None, None, axis]
            sides[side] = shifted
        points.append(sides)
    return points[0], points[1], _inside(config, outline_radii, middles[0], middles[1], ppm)


def _inside(config: InnerOutlineConfig, outline_radii: FloatArray, middle_x: FloatArray,
            middle_y: FloatArray, pixels_per_mm: float) -> NDArray[np.bool_]:
    """Whether each point lies ``inside_mm`` or more inside its outline: a plain square root
    decides, and ``np.hypot`` (what the plain scores use) where the two could disagree."""
    least = config.inside_mm * pixels_per_mm
    outline = outline_radii[:, None, None, None]
    margin = outline - np.sqrt(middle_x * middle_x + middle_y * middle_y) - least
    inside = margin >= 0
    close = np.abs(margin) < 1e-7 * (1 + outline)
    if close.any():
        exact = (np.broadcast_to(outline, close.shape)[close]
                 - np.hypot(middle_x[close], middle_y[close]) >= least)
        inside[close] = exact
    return inside


def _squared_changes(image: Image, points: Sequence[tuple[NDArray[np.float32], NDArray[np.float32]]]
                     ) -> list[NDArray]:
    """The squared colour change between the two sides of each of ``points`` (x and y), for
    every entry, sampled in one remap (int32 where the image is of bytes, float32 otherwise)."""
    sizes = [x.size for x, _ in points]
    total = sum(sizes)
    padded = -(-total // _ROW) * _ROW
    map_x = np.zeros(padded, np.float32)
    map_y = np.zeros(padded, np.float32)
    start = 0
    for (x, y), size in zip(points, sizes, strict=True):
        map_x[start:start + size] = x.reshape(-1)
        map_y[start:start + size] = y.reshape(-1)
        start += size
    samples = cv2.remap(image, map_x.reshape(-1, _ROW), map_y.reshape(-1, _ROW),
                        cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    samples = samples.reshape(padded, -1)[:total, :3]
    integral = samples.dtype == np.uint8
    changes, start = [], 0
    for size in sizes:
        half = size // 2
        outer, inner = samples[start:start + half], samples[start + half:start + size]
        if integral:  # exact, and a reduction over three channels is slow in NumPy
            difference = outer.astype(np.int32) - inner
            changes.append(np.einsum("ij,ij->i", difference, difference))
        else:
            difference = outer.astype(np.float32) - inner.astype(np.float32)
            changes.append((difference * difference).sum(axis=-1))
        start += size
    return changes


def fast_inner_outline_scores(
    config: InnerOutlineConfig, image: Image, centres: FloatArray, radii: FloatArray,
    gaps_mm: Sequence[float], looked: NDArray[np.bool_], pixels_per_mm: float,
    rings: int | None = None,
) -> FloatArray:
    """For each coin (top-face ``centres`` (N, 2) and outline ``radii`` (N,) px in the
    normalised ``image``) and each of ``gaps_mm`` where ``looked`` (N, G): the score of the
    best circle that far inside the outline, off its middle (NaN where not looked for), every
    gap's circles sampled in one remap. With ``rings``, the
    best of the circles on that many innermost rings of centres: a score at or below the
    whole one (it is the best of fewer circles), finite only where the whole one is."""
    scores = np.full((len(centres), len(gaps_mm)), np.nan)
    columns = [column for column in range(len(gaps_mm)) if looked[:, column].any()]
    if not columns:
        return scores
    rows = [np.flatnonzero(looked[:, column]) for column in columns]
    geometry = [circle_points(config, centres[chosen], radii[chosen], float(gaps_mm[column]),
                              pixels_per_mm, rings)
                for column, chosen in zip(columns, rows, strict=True)]
    changes = _squared_changes(image, [(x, y) for x, y, _ in geometry])
    for column, chosen, (_, _, inside), change in zip(columns, rows, geometry, changes,
                                                      strict=True):
        scores[chosen, column] = _best_scores(config, inside, change)
    return scores


def _best_scores(config: InnerOutlineConfig, inside: NDArray[np.bool_],
                 change: NDArray) -> FloatArray:
    """Each outline's best circle score: the root of the highest ``quantile`` of squared
    changes where a circle lies inside on enough of its arc (NaN where none does)."""
    outside = _OUTSIDE if np.issubdtype(change.dtype, np.integer) else np.inf
    ordered = np.sort(np.where(inside, change.reshape(inside.shape), outside), axis=-1)
    counts = inside.sum(axis=-1)
    rank = np.floor(config.quantile * np.maximum(counts - 1, 0)).astype(np.intp)
    quantiles = np.take_along_axis(ordered, rank[..., None], axis=-1)[..., 0]
    fits = counts >= config.least_arc * config.angles
    best = np.where(fits, quantiles, -1).reshape(len(inside), -1).max(axis=1)
    roots = np.sqrt(best.astype(np.float32).clip(0))
    return np.where(best >= 0, roots, np.float32(np.nan)).astype(np.float64)
