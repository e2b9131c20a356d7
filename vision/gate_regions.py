"""How large an object the gate lets lie on the mat, region by region.

Each game's regions say what may lie where: a Coin Isolation square holds a coin, a Shakala pit
or cup a pile of loose coins that can cover its whole floor, a dice tray its dice. So an object
blob is foreign when it is larger than the region it lies in could hold (the region's own area,
never less than :attr:`vision.gate.GateConfig.foreign_area_mm2`, the limit of a bare square),
or when it spreads over paper no coin can reach: farther from every region than the largest coin
can stick out of one (a coin's centre lies in its region). One stray coin dropped there is no
foreign object; an object covering more of that paper than a coin could is.

:func:`region_limits` works this out once per mat, at the gate's top-view scale, and
:func:`blob_too_large` judges a blob of the gate's object or skin mask.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.geometry import Circle, MatGeometry, Rect
from contract.observation import COIN_KINDS

Image = NDArray[Any]

#: The largest coin's radius (the golden dollar's, 13.2 mm) and the paper it covers (551 mm^2).
LARGEST_COIN_RADIUS_MM = max(diameter for _, diameter, _ in COIN_KINDS.values()) / 2
LARGEST_COIN_AREA_MM2 = math.pi * LARGEST_COIN_RADIUS_MM**2
#: Beyond a coin's radius, the millimetres a coin's shadow and the top view's blur add.
REACH_SLACK_MM = 3.0


@dataclass(frozen=True, eq=False)
class RegionLimits:
    """The top view's regions: ``labels`` numbers each pixel's region (0 for none, ``n`` for
    the mat's ``n``-th region), ``holds_mm2[n]`` is the largest object region ``n`` may hold
    (``holds_mm2[0]`` the floor, for a blob in no region), and ``unreachable`` marks paper of
    the play area no coin lying in a region can cover; ``shapes`` are the regions' outlines
    (mm), in the same order."""

    labels: Image
    holds_mm2: NDArray[np.float64]
    unreachable: Image
    shapes: tuple[Rect | Circle, ...]


def region_limits(geometry: MatGeometry, mm_per_pixel: float, shape: tuple[int, int],
                  play_mask: Image, floor_mm2: float) -> RegionLimits:
    """The limits of ``geometry``'s regions on a top view of ``shape`` at ``mm_per_pixel``;
    ``play_mask`` is the play area's paper (printed marks and markers cut), ``floor_mm2`` the
    least any region holds."""
    labels = np.zeros(shape, np.int32)
    holds = [floor_mm2]
    for number, region in enumerate(geometry.regions, start=1):
        _draw(labels, region.shape, mm_per_pixel, number)
        holds.append(max(floor_mm2, region.shape.area()))
    reach_px = (LARGEST_COIN_RADIUS_MM + REACH_SLACK_MM) / mm_per_pixel
    inside = (labels > 0).astype(np.uint8)
    outside_distance = cv2.distanceTransform(1 - inside, cv2.DIST_L2, 5)
    unreachable = ((outside_distance > reach_px) & (play_mask > 0)).astype(np.uint8) * 255
    shapes = tuple(region.shape for region in geometry.regions)
    return RegionLimits(labels, np.array(holds, np.float64), unreachable, shapes)


def _draw(labels: Image, shape: Rect | Circle, mm_per_pixel: float, number: int) -> None:
    """Fill ``shape`` (mm) with ``number`` on ``labels`` (pixels of ``mm_per_pixel``)."""
    if isinstance(shape, Circle):
        x, y = shape.centre
        centre = (round(x / mm_per_pixel), round(y / mm_per_pixel))
        cv2.circle(labels, centre, round(shape.radius / mm_per_pixel), number, -1)
        return
    left, top, right, bottom = (round(value / mm_per_pixel) for value in shape.bounds())
    labels[max(top, 0):max(bottom, 0), max(left, 0):max(right, 0)] = number


def blob_too_large(limits: RegionLimits, blob: Image, area_mm2: float, mm_per_pixel: float
                   ) -> str | None:
    """Why the blob (a boolean mask of the top view) of ``area_mm2`` cannot be coins lying
    where they may, or None when it can: ``large`` when larger than the region holding most of
    it could hold; ``between`` when it covers more paper out of every region's reach than a
    stray coin, or when, larger than the least region, it spreads out of that region's reach
    (two neighbouring squares' coins may touch, but a pile as large as a square lies in one)."""
    pixel_mm2 = mm_per_pixel**2
    inside = limits.labels[blob]
    inside = inside[inside > 0]
    number = int(np.bincount(inside).argmax()) if inside.size else 0
    if area_mm2 > limits.holds_mm2[number]:
        return "large"
    if np.count_nonzero(limits.unreachable[blob]) * pixel_mm2 > LARGEST_COIN_AREA_MM2:
        return "between"
    if number and area_mm2 > limits.holds_mm2[0]:
        rows, columns = np.nonzero(blob)
        distance = _distance_mm(limits.shapes[number - 1], columns * mm_per_pixel,
                                rows * mm_per_pixel)
        beyond_mm2 = np.count_nonzero(distance > LARGEST_COIN_RADIUS_MM + REACH_SLACK_MM)
        if beyond_mm2 * pixel_mm2 > LARGEST_COIN_AREA_MM2:
            return "between"
    return None


def _distance_mm(shape: Rect | Circle, x: NDArray[Any], y: NDArray[Any]) -> NDArray[Any]:
    """How far each point (mm) lies outside ``shape`` (0 inside)."""
    if isinstance(shape, Circle):
        centre_x, centre_y = shape.centre
        return np.maximum(np.hypot(x - centre_x, y - centre_y) - shape.radius, 0.0)
    left, top, right, bottom = shape.bounds()
    across = np.maximum(np.maximum(left - x, x - right), 0.0)
    down = np.maximum(np.maximum(top - y, y - bottom), 0.0)
    return np.hypot(across, down)
