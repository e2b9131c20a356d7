"""Finding coins in an ordinary photograph: centre and radius of every coin, in pixels.

No mat and no markers: this is for any picture of coins on a table (and for checking vision on
real photographs). Coins are circles with strong rims, so :func:`find_coins` runs OpenCV's
gradient Hough transform (``HOUGH_GRADIENT_ALT``, which scores how complete each circle's edge
is) with radius limits relative to the image size, then drops circles that overlap a stronger
one, since coins lying on a table do not overlap by much.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from vision.markers import to_grey

if TYPE_CHECKING:
    from numpy.typing import NDArray

    Image = NDArray[Any]
else:
    Image = np.ndarray


@dataclass(frozen=True)
class CoinFinderConfig:
    """Limits for :func:`find_coins`.

    Radii are fractions of the image's shorter side (a coin photographed from a normal distance
    is between 2% and 25% of it). ``working_size`` is the shorter side the photo is scaled to
    first, so the thresholds mean the same at any resolution. ``edge_threshold`` is the Canny
    upper threshold; ``circle_quality`` (0-1) is how complete and round a rim must be.
    ``max_overlap`` is the largest share of the smaller coin's radius two coins may overlap by.
    """

    min_radius: float = 0.02
    max_radius: float = 0.25
    working_size: int = 320
    blur_sigma: float = 1.5
    edge_threshold: float = 100.0
    circle_quality: float = 0.8
    max_overlap: float = 0.25


@dataclass(frozen=True)
class FoundCoin:
    """One coin in a photo: centre (x, y) and radius, in pixels of the original image."""

    x: float
    y: float
    radius: float

    def to_json(self) -> dict[str, Any]:
        return {"x": round(self.x, 1), "y": round(self.y, 1), "radius": round(self.radius, 1)}


def find_coins(config: CoinFinderConfig, image: Image) -> tuple[FoundCoin, ...]:
    """Every coin in ``image`` (grey or BGR), ordered top to bottom then left to right."""
    grey = to_grey(image)
    scale = config.working_size / min(grey.shape[:2])
    work = cv2.resize(
        grey, None, fx=scale, fy=scale,
        interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR,
    )
    work = cv2.GaussianBlur(work, (0, 0), config.blur_sigma)
    short = min(work.shape[:2])
    circles = cv2.HoughCircles(
        work, cv2.HOUGH_GRADIENT_ALT, dp=1.5, minDist=short * config.min_radius * 2,
        param1=config.edge_threshold, param2=config.circle_quality,
        minRadius=max(3, round(short * config.min_radius)),
        maxRadius=round(short * config.max_radius),
    )
    if circles is None:
        return ()
    # HOUGH_GRADIENT_ALT returns circles strongest first: keep each unless it overlaps a kept one.
    kept: list[tuple[float, float, float]] = []
    for x, y, radius in circles.reshape(-1, 3).tolist():
        if all(not _overlaps(config, (x, y, radius), other) for other in kept):
            kept.append((x, y, radius))
    coins = [FoundCoin(x / scale, y / scale, radius / scale) for x, y, radius in kept]
    rows = sorted(coins, key=lambda coin: coin.y)
    return tuple(sorted(rows, key=lambda coin: (round(coin.y / _row_height(coins)), coin.x)))


def _overlaps(
    config: CoinFinderConfig, one: tuple[float, float, float], other: tuple[float, float, float]
) -> bool:
    distance = float(np.hypot(one[0] - other[0], one[1] - other[1]))
    overlap = one[2] + other[2] - distance
    return overlap > config.max_overlap * min(one[2], other[2])


def _row_height(coins: list[FoundCoin]) -> float:
    """A row pitch for reading order: twice the median radius."""
    return max(1.0, 2.0 * float(np.median([coin.radius for coin in coins])))
