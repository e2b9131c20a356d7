"""Sizing a coin deep in a pile by the arcs of its outline that show between its neighbours.

A coin whose outline meets paper on too few rays to be measured there (:mod:`vision.loose`)
still shows arcs of its rim where no neighbour lies just beyond it. What marks the outline on
such an arc is its step: going outward, the grey falls into the coin's dark rim and then
rises steeply to the paper (or to the shadowed face of a coin beneath). The raised rim's
inner edge and the lettering are rings inside the outline too, but lit from one side they
brighten outward on one side of the coin and darken on the other, so over a whole arc their
steps cancel, where the outline's add up.

So every radius between the smallest coin's and the largest's is tried, its centre moved a
little about the circle found, and the circle whose outward rise in grey is steepest on
average over the open rays is the coin's outline (:func:`size_by_arcs`). A ray is open where
no other coin lies within the band the step is looked for in (a neighbour's own rim would
step there). Coin sizes are known in millimetres and the top view is rectified, so the
radius found names the kind (with the colour) in :mod:`vision.frame_model`, as a measured
one does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.arrays import FloatArray, Image
from vision.light import PAPER

if TYPE_CHECKING:
    from numpy.typing import NDArray

Circle = tuple[FloatArray, float]


@dataclass(frozen=True)
class ArcConfig:
    """How a coin is sized by its open arcs (lengths in mm).

    The grey is sampled along ``rays`` rays every ``step_mm``; a radius's rise is the
    steepest step within ``before_mm`` inside and ``after_mm`` beyond it (the outline's
    step is blurred, and lies a little beyond the face's edge, on the dark side band).
    Radii are tried every ``step_mm`` from ``margin_mm`` under the smallest coin's to
    ``margin_mm`` over the largest's, centres up to ``centre_search_mm`` (every
    ``centre_step_mm``) from the circle found; at least ``least_rays`` rays must be open.
    With ``occlusion``, a ray also stays open across the face of a coin this one lies on
    (:func:`occlusion_order`: a rim is crossed where, within ``band_mm``, an edge steeper
    than ``least_edge`` of paper per mm runs within ``radial_cosine`` of the radius; the
    coin on top shows ``top_margin`` more of its rim inside the other; coins overlapping by
    less than ``least_overlap_mm`` touch). Off by default: on the tuning pits it sized
    slightly worse (the step from a coin's rim onto a shadowed coin beneath is weaker than
    onto paper, and an order read wrong opens a ray onto a rim).
    """

    enabled: bool = True
    rays: int = 90
    step_mm: float = 0.25
    before_mm: float = 0.25
    after_mm: float = 0.75
    margin_mm: float = 1.0
    centre_search_mm: float = 1.5
    centre_step_mm: float = 0.5
    least_rays: int = 5
    occlusion: bool = False
    band_mm: float = 0.6
    radial_cosine: float = 0.6
    least_edge: float = 0.03
    top_margin: float = 0.05
    least_overlap_mm: float = 1.0


@dataclass(frozen=True)
class ArcSize:
    """A coin sized by its open arcs: the circle (centre in patch pixels, radius in pixels),
    the mean outward rise of grey on its outline (paper levels per step) and the share of
    its rays that were open."""

    centre: FloatArray
    radius: float
    rise: float
    open_share: float


def _unit(samples: int) -> FloatArray:
    angles = np.linspace(0, 2 * math.pi, samples, endpoint=False)
    return np.column_stack([np.cos(angles), np.sin(angles)])


def _shifts(config: ArcConfig, pixels_per_mm: float) -> FloatArray:
    """The centre moves tried (M, 2) in pixels, none first."""
    reach = config.centre_search_mm * pixels_per_mm
    moves = np.arange(-reach, reach + 1e-9, config.centre_step_mm * pixels_per_mm)
    shifts = [(0.0, 0.0)] + [(x, y) for x in moves for y in moves
                             if 0 < math.hypot(x, y) <= reach + 1e-9]
    return np.array(shifts, np.float64)


def size_by_arcs(config: ArcConfig, grey: Image, circles: list[Circle], index: int,
                 radii_mm: tuple[float, float], pixels_per_mm: float,
                 above: NDArray[np.bool_] | None = None) -> ArcSize | None:
    """The outline of coin ``index`` of ``circles`` found on its open arcs of ``grey`` (the
    smoothed grey of the patch the circles are in), between ``radii_mm``; None where too few
    rays are open for any circle tried."""
    step = config.step_mm * pixels_per_mm
    least = (radii_mm[0] - config.margin_mm - config.before_mm) * pixels_per_mm
    most = (radii_mm[1] + config.margin_mm + config.after_mm) * pixels_per_mm
    rings = np.arange(least, most + 1e-9, step)
    unit = _unit(config.rays)
    centres = circles[index][0][None, :] + _shifts(config, pixels_per_mm)
    points = (centres[:, None, None, :] + rings[None, None, :, None] * unit[None, :, None, :])
    samples = cv2.remap(grey, points[..., 0].reshape(-1, len(rings)).astype(np.float32),
                        points[..., 1].reshape(-1, len(rings)).astype(np.float32),
                        cv2.INTER_LINEAR).reshape(points.shape[:3])
    rise = np.diff(samples, axis=2)  # (M, A, R - 1): outward steps between rings
    blocked = _blocked(circles, index, points, above)[..., 1:]
    before = round(config.before_mm / config.step_mm)
    after = round(config.after_mm / config.step_mm)
    width = before + after
    # The steepest step within [r - before, r + after] of each tried radius r.
    windows = np.lib.stride_tricks.sliding_window_view(rise, width, axis=2)
    steepest = windows.max(axis=3)
    shut = np.lib.stride_tricks.sliding_window_view(blocked, width, axis=2).any(axis=3)
    open_rays = (~shut).sum(axis=1)  # (M, T)
    mean = np.where(open_rays >= config.least_rays,
                    np.where(shut, 0.0, steepest).sum(axis=1) / np.maximum(open_rays, 1),
                    -np.inf)
    tried = rings[: mean.shape[1]] + before * step
    allowed = (tried >= (radii_mm[0] - config.margin_mm) * pixels_per_mm) \
        & (tried <= (radii_mm[1] + config.margin_mm) * pixels_per_mm)
    mean[:, ~allowed] = -np.inf
    move, ring = np.unravel_index(int(np.argmax(mean)), mean.shape)
    if not np.isfinite(mean[move, ring]):
        return None
    return ArcSize(centres[move], float(tried[ring]), float(mean[move, ring]),
                   float(open_rays[move, ring]) / config.rays)


def _blocked(circles: list[Circle], index: int, points: FloatArray,
             above: NDArray[np.bool_] | None) -> NDArray[np.bool_]:
    """Per sample point (M, A, R): whether a neighbour's rim may step there. A ray is shut
    from where it meets a coin lying on this one, or one it merely touches; across a coin
    this one lies on (``above``, see :func:`occlusion_order`) it stays open until it leaves
    that coin's face, whose rim under this coin is hidden."""
    shut = np.zeros(points.shape[:3], bool)
    reach = float(np.hypot(*(points[..., -1, :] - circles[index][0]).T).max())
    for other, (centre, radius) in enumerate(circles):
        if other == index or math.dist(centre, circles[index][0]) >= reach + radius:
            continue
        inside = np.hypot(points[..., 0] - centre[0], points[..., 1] - centre[1]) < radius
        if above is not None and above[index, other]:
            shut |= np.logical_or.accumulate(inside, axis=2) & ~inside
        else:
            shut |= inside
    return np.logical_or.accumulate(shut, axis=2)


def occlusion_order(config: ArcConfig, along_x: Image, along_y: Image,
                    circles: list[Circle], pixels_per_mm: float) -> NDArray[np.bool_]:
    """``above[i, j]``: coin i lies on coin j. Of two overlapping coins, the one on top shows
    its whole rim across the other's face, the one beneath none of its rim inside the top
    one: the coin whose rim inside the other is crossed radially by an edge on
    ``top_margin`` more of it lies on top; coins overlapping by less than
    ``least_overlap_mm`` are left unordered (they touch)."""
    count = len(circles)
    above = np.zeros((count, count), bool)
    if count < 2:
        return above
    centres = np.array([centre for centre, _ in circles], np.float64)
    radii = np.array([radius for _, radius in circles], np.float64)
    unit = _unit(config.rays)
    rims = centres[:, None, :] + radii[:, None, None] * unit[None]
    crossing = _crossings(config, along_x, along_y, rims, unit, pixels_per_mm)
    least = config.least_overlap_mm * pixels_per_mm
    for first in range(count):
        for second in range(first + 1, count):
            if math.dist(centres[first], centres[second]) > radii[first] + radii[second] - least:
                continue
            first_inside = np.hypot(*(rims[first] - centres[second]).T) < radii[second]
            second_inside = np.hypot(*(rims[second] - centres[first]).T) < radii[first]
            if not first_inside.any() or not second_inside.any():
                continue
            first_edge = float(crossing[first, first_inside].mean())
            second_edge = float(crossing[second, second_inside].mean())
            if first_edge >= second_edge + config.top_margin:
                above[first, second] = True
            elif second_edge >= first_edge + config.top_margin:
                above[second, first] = True
    return above


def _crossings(config: ArcConfig, along_x: Image, along_y: Image, rims: FloatArray,
               unit: FloatArray, pixels_per_mm: float) -> NDArray[np.bool_]:
    """Per rim point (C, A): whether an edge steeper than ``least_edge`` of paper per mm
    crosses it radially (within ``band_mm``, its gradient within ``radial_cosine`` of the
    radius)."""
    band = config.band_mm * pixels_per_mm
    offsets = np.linspace(-band, band, 3)
    points = rims[:, :, None, :] + offsets[None, None, :, None] * unit[None, :, None, :]
    map_x = points[..., 0].reshape(-1, len(offsets)).astype(np.float32)
    map_y = points[..., 1].reshape(-1, len(offsets)).astype(np.float32)
    gx = cv2.remap(along_x, map_x, map_y, cv2.INTER_LINEAR).reshape(points.shape[:3])
    gy = cv2.remap(along_y, map_x, map_y, cv2.INTER_LINEAR).reshape(points.shape[:3])
    magnitude = np.hypot(gx, gy)
    radial = np.abs(gx * unit[None, :, None, 0] + gy * unit[None, :, None, 1])
    steep = magnitude * pixels_per_mm / PAPER > config.least_edge
    return np.asarray((steep & (radial >= config.radial_cosine * magnitude)).any(axis=2))
