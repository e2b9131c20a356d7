"""Coin-coloured area in a pit or cup that no coin found there explains: a coin the circles
missed.

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
