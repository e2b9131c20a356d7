"""Coin-coloured area in a pit or cup that no coin found there explains: a coin the circles
missed; and whether a weak circle's bare face shows metal at all (:func:`bare_metal`).

:mod:`vision.loose` doubts a count where strong edges lie outside every circle it fitted. A
coin seen through a blurred or distant camera (a 1.4 m ring mat at 1920 x 1080 is under a
pixel per millimetre) has no strong edge at all, yet its face still stands out of the paper:
where the light-normalised view is darker than paper in some channel by more than a share of
it, outside every circle found (and its blurred edge) and off the mat's print, over as much as
a part of the smallest coin's face, the count leaves a coin out and is doubtful. Only darker:
a coin reflects less than white paper in at least one channel (copper and brass the blue,
silver every one) except where it glints, while the haze of a lamp's hot spot between
crowded coins is brighter than paper in every channel and would ask for nothing.
``bench/bench_supply_read.py`` measured it on the Jokers supplies' tuning seeds: missed coins
left 0.5 to 1.8 of a dime's face, counts read right at most 0.08.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.arrays import FloatArray, Image
from vision.light import PAPER


@dataclass(frozen=True)
class AreaConfig:
    """How unexplained area is measured: pixels darker than paper by more than
    ``least_unlike`` of it in some channel (after a blur of ``blur_mm``), farther than
    ``margin_mm`` outside every coin found; doubtful from ``doubtful_faces`` of the smallest
    coin's face on."""

    least_unlike: float = 0.15
    blur_mm: float = 0.5
    margin_mm: float = 1.5
    doubtful_faces: float = 0.3


def unexplained_faces(config: AreaConfig, patch: Image, free: np.ndarray, centres: FloatArray,
                      radii: FloatArray, pixels_per_mm: float, smallest_radius_mm: float
                      ) -> float:
    """How many of the smallest coin's faces the coin-coloured area of ``patch`` (a region's
    window of the normalised view) covers where ``free`` (the region, off the print) and
    outside every coin (``centres`` and ``radii`` in the patch's pixels)."""
    blurred = cv2.GaussianBlur(patch.astype(np.float32), (0, 0), config.blur_mm * pixels_per_mm)
    darker = (PAPER - blurred).max(axis=2)
    coloured = free & (darker > config.least_unlike * PAPER)
    if not coloured.any():
        return 0.0
    rows, columns = np.nonzero(coloured)
    outside = np.ones(len(rows), bool)
    for (x, y), radius in zip(centres, radii, strict=True):
        reach = radius + config.margin_mm * pixels_per_mm
        outside &= np.hypot(columns - x, rows - y) > reach
    area_mm2 = np.count_nonzero(outside) / pixels_per_mm**2
    return float(area_mm2 / (np.pi * smallest_radius_mm**2))


def bare_metal(config: AreaConfig, darker: Image, circle: tuple[FloatArray, float],
               found: list[tuple[FloatArray, float]], face_reach: float) -> float:
    """The share of the ``circle``'s face (centre and radius in px, out to ``face_reach`` of
    its radius) that no coin of ``found`` covers and that is darker than paper by
    ``least_unlike`` of it in some channel (``darker``: paper less the view's darkest
    channel), as a coin's metal is; 1 where the coins found cover every point."""
    centre, radius = circle
    rings = np.linspace(0.15, face_reach, 5) * radius
    angles = np.linspace(0, 2 * np.pi, 36, endpoint=False)
    points = (centre[None, None, :] + rings[:, None, None]
              * np.stack([np.cos(angles), np.sin(angles)], axis=1)[None]).reshape(-1, 2)
    bare = np.ones(len(points), bool)
    for other, other_radius in found:
        bare &= np.hypot(*(points - other[None, :]).T) > other_radius
    if not bare.any():
        return 1.0
    values = cv2.remap(darker, points[bare, 0].astype(np.float32)[None],
                       points[bare, 1].astype(np.float32)[None], cv2.INTER_LINEAR)
    return float((values > config.least_unlike * PAPER).mean())
