"""Finding coins in an ordinary photograph: centre and radius of every coin, in pixels.

No mat and no markers: this is for any picture of coins on a table (and for checking vision on
real photographs). Coins are circles with strong rims, so :func:`find_coins` runs OpenCV's
gradient Hough transform (``HOUGH_GRADIENT_ALT``, which scores how complete each circle's edge
is) with radius limits relative to the image size, then drops circles that overlap a stronger
one, since coins lying on a table do not overlap by much, and circles far larger or smaller than
the others, since coins at one distance from the camera are of much the same size.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from vision.arrays import Image
from vision.markers import to_grey


@dataclass(frozen=True)
class CoinFinderConfig:
    """Limits for :func:`find_coins`.

    Radii are fractions of the image's shorter side: from 0.6% (a penny on a whole game board
    seen by a 1080p webcam, about 16 px) to 25% (a close-up). Coins are looked for in two
    bands, each in a copy of the photo scaled so that its shorter side is the band's working
    size, so the thresholds mean the same at any resolution: coins of at least
    ``split_radius`` at ``working_size``, smaller ones at ``small_working_size`` (where the
    smallest are still about 6 px in radius, enough for the gradient Hough). Radii under
    ``min_radius_px`` pixels of the photo itself are never looked for: enlarging a small photo
    adds no detail, only circles in its noise. ``edge_threshold`` is the Canny upper
    threshold; ``circle_quality`` (0-1) is how complete and round a rim must be.
    ``max_overlap`` is the largest share of the smaller coin's radius two coins may overlap by.
    Coins lying at one distance from the camera differ in size by at most the ratio of the
    largest coin to the smallest (a half dollar to a dime is 1.71), so with three circles or
    more, one more than ``max_size_ratio`` times larger or smaller than the median is not a
    coin: in a photo of a game board, that is most often a circle fitted to a square.
    """

    min_radius: float = 0.006
    max_radius: float = 0.25
    split_radius: float = 0.02
    working_size: int = 320
    small_working_size: int = 960
    min_radius_px: float = 5.0
    blur_sigma: float = 1.5
    edge_threshold: float = 100.0
    circle_quality: float = 0.8
    max_overlap: float = 0.25
    max_size_ratio: float = 1.8


@dataclass(frozen=True)
class FoundCoin:
    """One coin in a photo: centre (x, y) and radius, in pixels of the original image."""

    x: float
    y: float
    radius: float

    def to_json(self) -> dict[str, Any]:
        return {"x": round(self.x, 1), "y": round(self.y, 1), "radius": round(self.radius, 1)}


def find_coins(config: CoinFinderConfig, image: Image) -> tuple[FoundCoin, ...]:
    """Every coin in ``image`` (grey or BGR), ordered top to bottom then left to right.

    Larger coins are found first; a smaller circle is kept only where it overlaps none of
    them, so the relief and lettering inside a large coin never count as coins of their own.
    """
    grey = to_grey(image)
    short = min(grey.shape[:2])
    smallest = max(config.min_radius * short, config.min_radius_px)
    split = max(config.split_radius * short, smallest)
    circles = _circles(config, grey, config.working_size, split, config.max_radius * short)
    if split > smallest:
        circles += _circles(config, grey, config.small_working_size, smallest, split)
    kept = _apart(config, circles)
    if len(kept) >= 3:
        typical = float(np.median([radius for _, _, radius in kept]))
        kept = _apart(config, [
            circle for circle in circles
            if typical / config.max_size_ratio <= circle[2] <= typical * config.max_size_ratio
        ])
    coins = [FoundCoin(x, y, radius) for x, y, radius in kept]
    rows = sorted(coins, key=lambda coin: coin.y)
    return tuple(sorted(rows, key=lambda coin: (round(coin.y / _row_height(coins)), coin.x)))


def _circles(
    config: CoinFinderConfig, grey: Image, working_size: int, least: float, most: float
) -> list[tuple[float, float, float]]:
    """Circles with radii from ``least`` to ``most`` photo pixels, strongest first, in photo
    pixels, found in a copy of the photo whose shorter side is ``working_size``."""
    scale = working_size / min(grey.shape[:2])
    work = cv2.resize(
        grey, None, fx=scale, fy=scale,
        interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR,
    )
    work = cv2.GaussianBlur(work, (0, 0), config.blur_sigma)
    least_px = max(3, round(least * scale))
    found = cv2.HoughCircles(
        work, cv2.HOUGH_GRADIENT_ALT, dp=1.5, minDist=least_px * 2,
        param1=config.edge_threshold, param2=config.circle_quality,
        minRadius=least_px, maxRadius=max(least_px + 1, round(most * scale)),
    )
    if found is None:
        return []
    # HOUGH_GRADIENT_ALT returns circles strongest first.
    return [(float(x), float(y), float(radius)) for x, y, radius in found.reshape(-1, 3) / scale]


def _apart(
    config: CoinFinderConfig, circles: list[tuple[float, float, float]]
) -> list[tuple[float, float, float]]:
    """The circles, in order, each kept unless it overlaps one kept before it."""
    kept: list[tuple[float, float, float]] = []
    for circle in circles:
        if all(not _overlaps(config, circle, other) for other in kept):
            kept.append(circle)
    return kept


def _overlaps(
    config: CoinFinderConfig, one: tuple[float, float, float], other: tuple[float, float, float]
) -> bool:
    distance = float(np.hypot(one[0] - other[0], one[1] - other[1]))
    overlap = one[2] + other[2] - distance
    return overlap > config.max_overlap * min(one[2], other[2])


def _row_height(coins: list[FoundCoin]) -> float:
    """A row pitch for reading order: twice the median radius."""
    return max(1.0, 2.0 * float(np.median([coin.radius for coin in coins])))
