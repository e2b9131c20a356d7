"""Where the regions of a mat lie in a top view: pixel windows, and which region each pixel
is in."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from calibration.geometry import Circle, MatGeometry
from vision.arrays import FloatArray, Image


@dataclass(frozen=True, eq=False)
class RegionWindow:
    """A region's bounding box in top-view pixels, for round regions a mask within it, and
    whether coins lie there in piles (:attr:`calibration.geometry.Region.piled`)."""

    name: str
    kind: str
    box: tuple[int, int, int, int]
    mask: Image | None
    piled: bool = False


@lru_cache(maxsize=8)
def region_windows(
    geometry: MatGeometry, pixels_per_mm: float, origin_mm: tuple[float, float],
    size: tuple[int, int],
) -> tuple[RegionWindow, ...]:
    """Every region of ``geometry`` as a pixel window of a top view with this scale and origin."""
    width, height = size
    windows = []
    for region in geometry.regions:
        left, top, right, bottom = region.shape.bounds()
        x0 = max(0, round((left - origin_mm[0]) * pixels_per_mm))
        y0 = max(0, round((top - origin_mm[1]) * pixels_per_mm))
        x1 = min(width, round((right - origin_mm[0]) * pixels_per_mm))
        y1 = min(height, round((bottom - origin_mm[1]) * pixels_per_mm))
        mask = None
        if isinstance(region.shape, Circle):
            mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
            centre_x = (region.shape.centre[0] - origin_mm[0]) * pixels_per_mm - 0.5 - x0
            centre_y = (region.shape.centre[1] - origin_mm[1]) * pixels_per_mm - 0.5 - y0
            radius = region.shape.radius * pixels_per_mm
            cv2.circle(mask, (round(centre_x), round(centre_y)), round(radius), 1, -1)
        windows.append(RegionWindow(region.name, region.kind, (x0, y0, x1, y1), mask,
                                    region.piled))
    return tuple(windows)


@lru_cache(maxsize=8)
def region_map(windows: tuple[RegionWindow, ...], size: tuple[int, int]) -> FloatArray:
    """Per top-view pixel: the index of the region it lies in, or -1 (read-only). Made once
    for a camera session, as its windows are (:func:`region_windows`; windows compare by
    identity)."""
    width, height = size
    index_map = np.full((height, width), -1, np.int16)
    for index, window in enumerate(windows):
        x0, y0, x1, y1 = window.box
        patch = index_map[y0:y1, x0:x1]
        if window.mask is None:
            patch[patch < 0] = index
        else:
            patch[(patch < 0) & (window.mask > 0)] = index
    index_map.setflags(write=False)
    return index_map
