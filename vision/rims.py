"""Measuring coins in the light-normalised top view: each coin's outline, lean and face.

From a seed near a coin's middle, rays run outwards. Along each ray the colour's distance from
the paper beyond the coin is a profile; the coin's edge is where the outermost feature of that
profile that stands out of the paper's noise falls to half its height. That holds whatever the
coin looks like: a dark penny is a plateau, a bright silver coin on white paper only the dark
ring of its rounded edge, a coin in the lamp's glint a bright plateau, and a blurred step's
half height is where the step is. It adds to no coin a bias that depends on its contrast
beyond what the frame's size model (:mod:`vision.frame_model`) takes out.

A raised thing leans away from the camera in the top view (:mod:`vision.parallax`): a stack is
its base disc swept that way by its height. So the circle is fitted to the rim points on the
camera's side and across, where the outline is the base's own, and the far side only tells how
far the top face lies swept (:attr:`CoinOutlines.sweep_px`). Shadows and a pawn leaning over
the rim only ever add outside the coin, so points outside the circle count for less.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

if TYPE_CHECKING:
    from numpy.typing import NDArray

    Image = NDArray[Any]
    FloatArray = NDArray[Any]
    BoolArray = NDArray[np.bool_]
else:
    Image = np.ndarray
    FloatArray = np.ndarray
    BoolArray = np.ndarray

#: The value paper takes in the normalised top view (see :mod:`vision.light`).
PAPER = 200.0


@dataclass(frozen=True)
class RimConfig:
    """How outlines are found and fitted (lengths in mm).

    Rays (``ray_count`` of them) are sampled every ``ray_step_mm`` from ``ray_begin_mm`` to
    ``ray_end_mm``; the last ``paper_samples`` of each are the paper the coin is compared with.
    A profile stands out where it exceeds ``least_step`` of paper or ``noise_factor`` times the
    paper's own noise; the edge is where that outermost feature falls to half its peak within
    ``peak_window_mm`` inside. The fit runs ``fit_rounds`` rounds: points farther than
    ``reject_mm`` from the circle are dropped, points outside it weigh ``outside_weight``, and
    points on the far side (their direction within ``far_side_cosine`` of the lean) weigh
    ``far_side_weight``. A ray agrees with the outline (the circle swept along the lean)
    within ``agree_mm``, or ``agree_camera_px`` camera pixels where those are coarser.
    """

    ray_count: int = 48
    ray_step_mm: float = 0.25
    ray_begin_mm: float = 3.0
    ray_end_mm: float = 17.0
    paper_samples: int = 6
    least_step: float = 0.06
    noise_factor: float = 4.0
    peak_window_mm: float = 1.5
    fit_rounds: int = 5
    reject_mm: float = 2.5
    outside_weight: float = 0.25
    far_side_cosine: float = 0.35
    far_side_weight: float = 0.1
    agree_mm: float = 0.6
    agree_camera_px: float = 0.8


@dataclass(frozen=True, eq=False)
class CoinOutlines:
    """Every seed's fitted outline, in top-view pixels: base centres (K, 2), radii (K,), how
    far the top face lies swept along the lean (K,), the share of rays that agree with the
    circle (K,), the median height of the edge over the paper (K,; 0-1 of paper) and the share
    of rays a pawn crosses (K,)."""

    centres: FloatArray
    radii_px: FloatArray
    sweep_px: FloatArray
    agreement: FloatArray
    contrast: FloatArray
    covered: FloatArray

    def top_centres(self, lean: FloatArray) -> FloatArray:
        """Centres of the top faces: the base centres swept along ``lean`` (K, 2 unit)."""
        return self.centres + lean * self.sweep_px[:, None]


@lru_cache(maxsize=4)
def _directions(ray_count: int) -> FloatArray:
    angles = np.linspace(0.0, 2 * math.pi, ray_count, endpoint=False)
    directions = np.column_stack([np.cos(angles), np.sin(angles)])
    directions.setflags(write=False)
    return directions


def sample_rays(
    image: Image, centres: FloatArray, ray_count: int, radii: FloatArray,
    interpolation: int = cv2.INTER_LINEAR,
) -> FloatArray:
    """``image`` sampled along ``ray_count`` rays from each centre at ``radii`` px: an array
    (K, J, S) or (K, J, S, C) for a C-channel image."""
    directions = _directions(ray_count)
    xs = centres[:, None, None, 0] + directions[None, :, None, 0] * radii[None, None, :]
    ys = centres[:, None, None, 1] + directions[None, :, None, 1] * radii[None, None, :]
    shape = (len(centres) * ray_count, len(radii))
    sampled = cv2.remap(image, xs.reshape(shape).astype(np.float32),
                        ys.reshape(shape).astype(np.float32), interpolation,
                        borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(sampled).reshape(len(centres), ray_count, len(radii), *image.shape[2:])


def _profiles(config: RimConfig, colours: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Per ray, the largest channel difference from the paper at its end (K, J, S), and per
    seed the level the paper itself reaches with its noise (K,), in the same units."""
    paper_part = colours[:, :, -config.paper_samples :, :]
    paper = np.median(paper_part, axis=2)  # (K, J, C)
    seed_paper = np.median(paper, axis=1)  # (K, C)
    # A ray ending on something else (a neighbour, a shadow) compares with the seed's paper.
    odd = np.abs(paper - seed_paper[:, None, :]).max(axis=2) > config.least_step * PAPER
    paper = np.where(odd[..., None], seed_paper[:, None, :], paper)
    profile = np.abs(colours - paper[:, :, None, :]).max(axis=3)
    # The paper's own level and noise from the half of the rays that end on the plainest
    # paper (with an off-centre seed, some rays end on the coin).
    far = profile[:, :, -config.paper_samples :]
    plainest = np.argsort(np.median(far, axis=2), axis=1)[:, : config.ray_count // 2]
    far = np.take_along_axis(far, plainest[..., None], axis=1).reshape(len(colours), -1)
    level = np.median(far, axis=1)
    noise = 1.4826 * np.median(np.abs(far - level[:, None]), axis=1)
    return profile, level + config.noise_factor * noise


def _edges(
    config: RimConfig, profile: FloatArray, floor: FloatArray, radii: FloatArray
) -> tuple[FloatArray, BoolArray, FloatArray]:
    """Per ray: the edge radius (px), whether one was found, and the feature's peak height."""
    usable = profile.shape[2] - config.paper_samples
    threshold = np.maximum(config.least_step * PAPER, floor)
    above = profile[:, :, :usable] > threshold[:, None, None]
    found = above.any(axis=2)
    last = usable - 1 - np.argmax(above[:, :, ::-1], axis=2)
    window = max(2, round(config.peak_window_mm / config.ray_step_mm))
    offsets = np.arange(-window, 1)
    indices = np.clip(last[..., None] + offsets, 0, usable - 1)
    near = np.take_along_axis(profile, indices, axis=2)
    peak = near.max(axis=2)
    half = peak / 2
    # The outermost sample of the window at or above half the peak, and the one beyond it.
    at_or_above = near >= half[..., None]
    outer = window - np.argmax(at_or_above[..., ::-1], axis=2)
    inside = np.take_along_axis(indices, outer[..., None], axis=2)[..., 0]
    beyond = np.minimum(inside + 1, profile.shape[2] - 1)
    high = np.take_along_axis(profile, inside[..., None], axis=2)[..., 0]
    low = np.take_along_axis(profile, beyond[..., None], axis=2)[..., 0]
    fraction = np.clip((high - half) / np.maximum(high - low, 1e-6), 0.0, 1.0)
    step = radii[1] - radii[0]
    radius = radii[inside] + fraction * step
    return radius, found & (last < usable - 1), peak / PAPER


def _fit(
    config: RimConfig, points: FloatArray, valid: BoolArray, start: FloatArray,
    lean: FloatArray, pixels_per_mm: float,
) -> tuple[FloatArray, FloatArray]:
    """Circles through rim points (K, J, 2): centres (K, 2) and radii (K,), weighting the far
    side and outside points down, from ``start`` centres."""
    centre = start.copy()
    offset = points - centre[:, None, :]
    with np.errstate(all="ignore"):
        radius = np.nanmedian(np.where(valid, np.hypot(offset[..., 0], offset[..., 1]), np.nan),
                              axis=1)
    radius = np.nan_to_num(radius, nan=9.0 * pixels_per_mm)
    reject = config.reject_mm * pixels_per_mm
    for _ in range(config.fit_rounds):
        offset = points - centre[:, None, :]
        distance = np.hypot(offset[..., 0], offset[..., 1])
        error = distance - radius[:, None]
        along = (offset * lean[:, None, :]).sum(axis=2) / np.maximum(distance, 1e-6)
        weight = valid * (np.abs(error) < reject)
        weight = weight * np.where(error > 0, config.outside_weight, 1.0)
        weight = weight * np.where(along > config.far_side_cosine, config.far_side_weight, 1.0)
        centre, radius = _weighted_circle(points, weight, centre, radius)
    return centre, radius


def _weighted_circle(
    points: FloatArray, weight: FloatArray, centre: FloatArray, radius: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """The weighted algebraic circle fit per row; rows with too little weight keep their
    circle."""
    x = points[..., 0] - centre[:, None, 0]
    y = points[..., 1] - centre[:, None, 1]
    rows = np.stack([x, y, np.ones_like(x), -(x**2 + y**2)], axis=1)  # (K, 4, J)
    sums = (rows * weight[:, None, :]) @ rows.transpose(0, 2, 1)
    solvable = (weight > 0).sum(axis=1) >= 5
    ridge = np.eye(3) * 1e-6
    solution = np.linalg.solve(sums[:, :3, :3] + ridge, sums[:, :3, 3:])[..., 0]
    shift = -solution[:, :2] / 2
    new_radius = np.sqrt(np.maximum((shift**2).sum(axis=1) - solution[:, 2], 1e-9))
    sane = solvable & np.isfinite(new_radius) & (np.hypot(shift[:, 0], shift[:, 1]) < radius)
    return (np.where(sane[:, None], centre + shift, centre),
            np.where(sane, new_radius, radius))


def measure_outlines(
    config: RimConfig, image: Image, pawns: Image, seeds: FloatArray, lean: FloatArray,
    pixels_per_mm: float, blur_px: FloatArray | None = None,
) -> CoinOutlines:
    """Fit an outline at every seed (K, 2 top-view px) of the normalised ``image``; ``pawns``
    marks pawn pixels (non-zero), ``lean`` is each seed's unit lean direction (K, 2) and
    ``blur_px`` how many top-view pixels one camera pixel spans there (K,; 1 by default)."""
    if len(seeds) == 0:
        empty = np.zeros(0)
        return CoinOutlines(np.zeros((0, 2)), empty, empty, empty, empty, empty)
    if blur_px is None:
        blur_px = np.ones(len(seeds))
    radii = np.arange(config.ray_begin_mm, config.ray_end_mm, config.ray_step_mm) * pixels_per_mm
    centres = np.asarray(seeds, np.float64)
    for _ in range(2):  # the second pass runs its rays from the first pass's centres
        colours = sample_rays(image, centres, config.ray_count, radii).astype(np.float32)
        profile, floor = _profiles(config, colours)
        edge, valid, peak = _edges(config, profile, floor, radii)
        on_pawn = sample_rays(pawns, centres, config.ray_count, radii, cv2.INTER_NEAREST) > 0
        crossed = _pawn_near_edge(on_pawn, edge, radii, round(1.0 / config.ray_step_mm))
        valid &= ~crossed
        directions = _directions(config.ray_count)
        points = centres[:, None, :] + directions[None] * edge[..., None]
        centres, radius = _fit(config, points, valid, centres, lean, pixels_per_mm)
    sweep = _sweep(points, valid, centres, radius, lean)
    error = _capsule_distance(points, centres, lean, sweep) - radius[:, None]
    tolerance = np.maximum(config.agree_mm * pixels_per_mm, config.agree_camera_px * blur_px)
    agree = valid & (np.abs(error) < tolerance[:, None])
    contrast = np.array([np.median(row[ok]) if ok.any() else 0.0
                         for row, ok in zip(peak, valid, strict=True)])
    return CoinOutlines(centres, radius, sweep, agree.mean(axis=1), contrast,
                        crossed.mean(axis=1))


def _pawn_near_edge(on_pawn: BoolArray, edge: FloatArray, radii: FloatArray, reach: int
                    ) -> BoolArray:
    """Rays with a pawn within ``reach`` samples of their edge: the edge may be the pawn's,
    or the pawn leans over the coin's rim there. A pawn standing on the coin, which the rays
    leave before they reach the rim, does not count."""
    at = np.searchsorted(radii, edge)
    offsets = np.arange(-reach, reach + 1)
    near = np.clip(at[..., None] + offsets, 0, len(radii) - 1)
    return np.asarray(np.take_along_axis(on_pawn, near, axis=2).any(axis=2))


def _capsule_distance(
    points: FloatArray, centres: FloatArray, lean: FloatArray, sweep: FloatArray
) -> FloatArray:
    """Each point's distance from the segment its coin's centre sweeps along the lean: the
    outline of a disc swept that far is where this equals the radius."""
    offset = points - centres[:, None, :]
    along = np.clip((offset * lean[:, None, :]).sum(axis=2), 0.0, sweep[:, None])
    nearest = offset - along[..., None] * lean[:, None, :]
    return np.hypot(nearest[..., 0], nearest[..., 1])


def _sweep(
    points: FloatArray, valid: BoolArray, centres: FloatArray, radii: FloatArray,
    lean: FloatArray,
) -> FloatArray:
    """How far beyond the base circle the far side reaches along the lean (px, >= 0): the
    median over far-side rays of their point's excess over the circle."""
    offset = points - centres[:, None, :]
    along = (offset * lean[:, None, :]).sum(axis=2)
    across = offset[..., 0] * lean[:, None, 1] - offset[..., 1] * lean[:, None, 0]
    circle = np.sqrt(np.maximum(radii[:, None] ** 2 - across**2, 0.0))
    far = valid & (along > 0.5 * radii[:, None])
    excess = np.where(far, along - circle, np.nan)
    with np.errstate(all="ignore"):
        sweep = np.nanmedian(np.where(far.any(axis=1)[:, None], excess, 0.0), axis=1)
    return np.maximum(np.nan_to_num(sweep), 0.0)
