"""Pawns in the light-normalised top view: strongly coloured blobs, and where each one stands.

A pawn is painted or dyed plastic: far more saturated than any coin, which only tints what it
mirrors (a silver coin mirroring a blue window is pale blue; a blue pawn is deep blue). So pawn
pixels are those at least ``core_saturation`` pure whose hue lies near a pawn colour's, and a
pawn is a blob of them at least ``least_area_mm2`` large. A pawn stands up from the board, so in
the top view it leans away from the camera (:mod:`vision.parallax`) over whatever lies beyond
its foot; its foot, where it stands, is the blob's end nearest the camera, a base's radius in.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from vision.parallax import CameraOverMat
from vision.profile import VisionProfile

if TYPE_CHECKING:
    from numpy.typing import NDArray

    Image = NDArray[Any]
    FloatArray = NDArray[Any]
else:
    Image = np.ndarray
    FloatArray = np.ndarray


@dataclass(frozen=True)
class PawnConfig:
    """How pawns are found: pixels ``core_saturation`` pure (1 - darkest / brightest channel)
    and at least ``least_value`` of paper bright, within ``hue_degrees`` of a pawn colour's
    hue; blobs of ``least_area_mm2``; the foot ``base_radius_mm`` in from the nearest end; a
    mask grown by ``margin_mm`` for the coins' rims to leave alone."""

    core_saturation: float = 0.55
    least_value: float = 0.1
    hue_degrees: float = 35.0
    least_area_mm2: float = 25.0
    sure_area_mm2: float = 60.0
    base_radius_mm: float = 5.5
    margin_mm: float = 1.5


@dataclass(frozen=True)
class PawnSighting:
    """One pawn: its colour name, its foot (mat mm), its area seen (mm^2) and how sure."""

    colour: str
    foot_mm: tuple[float, float]
    area_mm2: float
    confidence: float


def _hue(blue: FloatArray, green: FloatArray, red: FloatArray) -> FloatArray:
    """Hue angle in degrees (red 0, green 120, blue 240)."""
    return np.degrees(np.arctan2(math.sqrt(3) * (green - blue), 2 * red - green - blue)) % 360


def colour_hues(profile: VisionProfile) -> FloatArray:
    """The hue of every pawn colour the profile knows, in degrees."""
    colours = np.array([pawn.colour for pawn in profile.pawns], np.float64).reshape(-1, 3)
    return _hue(colours[:, 0], colours[:, 1], colours[:, 2])


def pawn_labels(config: PawnConfig, image: Image, profile: VisionProfile) -> Image:
    """Per pixel of the normalised top view: 0, or 1 + the index of the pawn colour there."""
    height, width = image.shape[:2]
    labels = np.zeros((height, width), np.uint8)
    if not profile.pawns:
        return labels
    pixels = image.astype(np.float32)
    blue, green, red = pixels[..., 0], pixels[..., 1], pixels[..., 2]
    brightest = np.maximum(np.maximum(blue, green), red)
    darkest = np.minimum(np.minimum(blue, green), red)
    saturated = (darkest < (1 - config.core_saturation) * brightest) & (
        brightest > config.least_value * 200.0)
    if not saturated.any():
        return labels
    rows, columns = np.nonzero(saturated)
    hue = _hue(blue[rows, columns], green[rows, columns], red[rows, columns])
    gap = np.abs((hue[:, None] - colour_hues(profile)[None, :] + 180) % 360 - 180)
    nearest = np.argmin(gap, axis=1)
    close = gap[np.arange(len(nearest)), nearest] <= config.hue_degrees
    labels[rows[close], columns[close]] = nearest[close] + 1
    return cv2.morphologyEx(labels, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def find_pawns(
    config: PawnConfig, labels: Image, profile: VisionProfile, pixels_per_mm: float,
    origin_mm: tuple[float, float], camera: CameraOverMat,
) -> list[PawnSighting]:
    """Every pawn blob of ``labels`` (from :func:`pawn_labels`) with its foot in mat mm."""
    sightings = []
    least = config.least_area_mm2 * pixels_per_mm**2
    for index, pawn in enumerate(profile.pawns):
        mask = (labels == index + 1).astype(np.uint8)
        count, blobs, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        for blob in range(1, count):
            area = stats[blob, cv2.CC_STAT_AREA]
            if area < least:
                continue
            rows, columns = np.nonzero(blobs == blob)
            points = np.column_stack([origin_mm[0] + (columns + 0.5) / pixels_per_mm,
                                      origin_mm[1] + (rows + 0.5) / pixels_per_mm])
            middle = points.mean(axis=0)
            lean, _ = camera.lean(middle[None, :])
            along = (points - middle) @ lean[0]
            nearest = float(along.min())
            foot = middle + lean[0] * (nearest + config.base_radius_mm)
            area_mm2 = area / pixels_per_mm**2
            sure = min(1.0, 0.5 + 0.5 * (area_mm2 - config.least_area_mm2)
                       / max(config.sure_area_mm2 - config.least_area_mm2, 1e-6))
            sightings.append(PawnSighting(pawn.name, (float(foot[0]), float(foot[1])),
                                          float(area_mm2), float(sure)))
    return sightings


def pawn_mask(config: PawnConfig, labels: Image, pixels_per_mm: float) -> Image:
    """Pawn pixels (255) grown by ``margin_mm``: where coins' rims are not to be looked for."""
    reach = 2 * round(config.margin_mm * pixels_per_mm) + 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach))
    _, mask = cv2.threshold(labels, 0, 255, cv2.THRESH_BINARY)
    return cv2.dilate(mask, kernel)
