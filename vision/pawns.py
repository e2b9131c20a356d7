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

import cv2
import numpy as np

from calibration.geometry import MatGeometry
from calibration.profile import METAL_COLOURS, VisionProfile
from contract.observation import COIN_KINDS
from vision.arrays import FloatArray, Image
from vision.halves import half_size
from vision.light import PAPER
from vision.parallax import CameraOverMat

#: A pawn colour purer than this (1 - darkest / brightest channel) has a hue to be found by.
GREY_PURITY = 0.3


@dataclass(frozen=True)
class PawnConfig:
    """How pawns are found: pixels ``core_saturation`` pure (1 - darkest / brightest channel)
    and at least ``least_value`` of paper bright, within ``hue_degrees`` of a pawn colour's
    hue, but not a tinted metal's of the game's coins (within ``metal_hue_degrees`` of it
    and less than ``metal_saturation`` pure: a tarnished penny is a saturated orange-brown,
    a red pawn's hue lies about 20 degrees from it; brass lies 10 degrees from a yellow
    pawn, which under glare is then lost), unless nearer that metal's hue than any pawn
colour's, however pure (a dark tarnished penny, its colour pushed pure by the camera, is
copper's orange-brown, not a red pawn's red); blobs of ``least_area_mm2`` (sure from
    ``sure_area_mm2``); the foot ``base_radius_mm`` in from the nearest end; a mask grown by
    ``margin_mm`` for the coins' rims to leave alone, by ``colour_margin_mm`` more for their
    faces' colours (a pawn's colour bleeds onto what lies beside it). A sighting of at least
    ``token_area_mm2`` is a flat token lying on its region (a counter the size of a quarter,
    Jokers and Coins' pieces of seats 5 and 6), which no standing pawn's top covers, unless
    it is more than ``token_elongation`` times longer along the camera's lean than across
    (a tall pawn seen at a slant, standing on a stack): its foot is its middle, and it hides
    no coin (a coin candidate inside it is its own rim).

    Paint reflects light diffusely, never more of it than white paper under the same light:
    a blob of which ``specular_share`` or more is brighter than ``paint_brightest`` times
    paper is no pawn but a metal mirroring a coloured lamp or window (a nickel mirroring a
    warm lamp is as pure a yellow as a pawn, and far brighter than the paper).

    Nor are blobs of one colour within ``cast_width`` of the black-body line, on its warm
    side and no further along it than ``cast_along``, two or more of them within
    ``cast_reach_mm`` of each other: silver mirroring a light of another colour than the
    paper's (:mod:`vision.pawn_casts`; a ``cast_width`` of 0 keeps them)."""

    core_saturation: float = 0.45
    least_value: float = 0.1
    hue_degrees: float = 35.0
    metal_hue_degrees: float = 13.0
    metal_saturation: float = 0.8
    least_area_mm2: float = 25.0
    sure_area_mm2: float = 60.0
    base_radius_mm: float = 5.5
    margin_mm: float = 1.5
    colour_margin_mm: float = 2.0
    token_area_mm2: float = 300.0
    token_elongation: float = 1.3
    paint_brightest: float = 1.1
    specular_share: float = 0.5
    cast_width: float = 0.25
    cast_along: float = 0.9
    cast_reach_mm: float = 100.0


@dataclass(frozen=True)
class PawnSighting:
    """One pawn: its colour name, its foot (mat mm), its area seen (mm^2) and how sure;
    ``flat`` for a flat token (its foot is then its middle)."""

    colour: str
    foot_mm: tuple[float, float]
    area_mm2: float
    confidence: float
    flat: bool = False


def _hue(blue: FloatArray, green: FloatArray, red: FloatArray) -> FloatArray:
    """Hue angle in degrees (red 0, green 120, blue 240)."""
    return np.degrees(np.arctan2(math.sqrt(3) * (green - blue), 2 * red - green - blue)) % 360


def colour_hues(profile: VisionProfile) -> FloatArray:
    """The hue of every pawn colour the profile knows, in degrees; NaN for a colour too grey
    to have one (a black or white pawn, which saturation cannot find)."""
    colours = np.array([pawn.colour for pawn in profile.pawns], np.float64).reshape(-1, 3)
    purity = 1 - colours.min(axis=1) / np.maximum(colours.max(axis=1), 1e-9)
    hues = _hue(colours[:, 0], colours[:, 1], colours[:, 2])
    return np.where(purity >= GREY_PURITY, hues, np.nan)


def pawn_labels(config: PawnConfig, image: Image, profile: VisionProfile) -> Image:
    """Per pixel of the normalised top view at half its resolution (a pawn is 10 mm across or
    more, so nothing is lost): 0, or 1 + the index of the pawn colour there. Only saturated
    pixels, a few percent of the view, are classified."""
    height, width = image.shape[:2]
    if not profile.pawns:
        return np.zeros((height, width), np.uint8)
    small = half_size(image)
    blue, green, red = cv2.split(small)
    brightest = cv2.max(cv2.max(blue, green), red)
    darkest = cv2.min(cv2.min(blue, green), red)
    keep = 1.0 - config.core_saturation  # saturated: darkest < (1 - s) brightest
    saturated = (darkest.astype(np.float32) < brightest.astype(np.float32) * keep) & (
        brightest > config.least_value * PAPER)
    labels: Image = np.zeros(small.shape[:2], np.uint8)
    # Flat indices: the same pixels, in the same order, for a fraction of 2-d nonzero's work.
    at = np.flatnonzero(saturated)
    if len(at):
        pixels = small.reshape(-1, 3)[at].astype(np.float32)
        labels.reshape(-1)[at] = _classify(config, pixels, profile)
        # An opening by 2 x 2 drops lone pixels; its two halves anchored at opposite
        # corners, as OpenCV's own opening by an even kernel shifts by a pixel.
        square = np.ones((2, 2), np.uint8)
        labels = cv2.dilate(cv2.erode(labels, square, anchor=(0, 0)), square, anchor=(1, 1))
        labels = _without_mirrors(config, labels, brightest)
    return labels


def _without_mirrors(config: PawnConfig, labels: Image, brightest: Image) -> Image:
    """``labels`` without the blobs brighter than paint can be (see :class:`PawnConfig`):
    metal mirroring a coloured light."""
    # An 8-bit value exceeds a level exactly where it exceeds the level's whole part.
    bright = brightest > math.floor(config.paint_brightest * PAPER)
    if config.specular_share > 0 and not cv2.countNonZero(cv2.bitwise_and(
            bright.view(np.uint8), (labels > 0).view(np.uint8))):
        return labels  # no labelled pixel brighter than paint: no blob to count as a mirror
    # The blobs within the labels' bounding box: the same blobs for a fraction of the image.
    labelled = (labels > 0).view(np.uint8)
    x, y, width, height = cv2.boundingRect(labelled)
    box = (slice(y, y + height), slice(x, x + width))
    if not width:
        return labels
    count, blobs, stats, _ = cv2.connectedComponentsWithStats(labelled[box], connectivity=8)
    if count <= 1:
        return labels
    sizes = stats[:, cv2.CC_STAT_AREA]
    glowing = np.bincount(blobs[bright[box]], minlength=count)
    mirrors = glowing >= config.specular_share * np.maximum(sizes, 1)
    mirrors[0] = False
    if not mirrors.any():
        return labels
    cleaned = np.array(labels)
    cleaned[box] = np.where(mirrors[blobs], 0, labels[box])
    return cleaned


def _classify(config: PawnConfig, pixels: FloatArray, profile: VisionProfile) -> FloatArray:
    """Per saturated BGR pixel (N, 3): 0, or 1 + the index of the pawn colour whose hue is
    nearest within ``hue_degrees``, unless the pixel's colour is a tinted metal's."""
    blue, green, red = pixels[:, 0], pixels[:, 1], pixels[:, 2]
    hue = _hue(blue, green, red)
    gap = np.abs((hue[:, None] - colour_hues(profile)[None, :] + 180) % 360 - 180)
    gap = np.nan_to_num(gap, nan=360.0)
    nearest = np.argmin(gap, axis=1)
    close = gap[np.arange(len(nearest)), nearest] <= config.hue_degrees
    purity = 1 - pixels.min(axis=1) / np.maximum(pixels.max(axis=1), 1.0)
    metal_gap = np.abs((hue[:, None] - metal_hues(profile)[None, :] + 180) % 360 - 180)
    pawn_gap = gap[np.arange(len(nearest)), nearest]
    metal = ((metal_gap <= config.metal_hue_degrees)
             & ((purity < config.metal_saturation)[:, None]
                | (metal_gap < pawn_gap[:, None]))).any(axis=1)
    return np.where(close & ~metal, nearest + 1, 0)


def metal_hues(profile: VisionProfile) -> FloatArray:
    """The hue, in degrees, of every tinted metal among the profile's coins (copper near 20,
    brass near 40); silver has none."""
    metals = {COIN_KINDS[look.kind][2] for look in profile.coins if look.kind in COIN_KINDS}
    looks = [METAL_COLOURS[metal] for metal in sorted(metals) if metal != "silver"]
    if not looks:
        return np.zeros(0)
    red_green, blue_green = np.array(looks, np.float64).T
    return _hue(np.exp(blue_green), np.ones_like(red_green), np.exp(red_green))


def find_pawns(
    config: PawnConfig, labels: Image, profile: VisionProfile, pixels_per_mm: float,
    origin_mm: tuple[float, float], camera: CameraOverMat,
) -> list[PawnSighting]:
    """Every pawn blob of ``labels`` (from :func:`pawn_labels`, at half the view's
    ``pixels_per_mm``) with its foot in mat mm."""
    sightings: list[PawnSighting] = []
    pixels_per_mm = pixels_per_mm / 2
    least = config.least_area_mm2 * pixels_per_mm**2
    present = np.bincount(labels.ravel(), minlength=len(profile.pawns) + 1)
    for index, pawn in enumerate(profile.pawns):
        if present[index + 1] < max(least, 1):
            continue
        mask = (labels == index + 1).view(np.uint8)  # 0 or 1, no copy
        # The blobs within this colour's bounding box (x, y): the same blobs, in the same
        # order, for a fraction of the image.
        x, y, box_width, box_height = cv2.boundingRect(mask)
        count, blobs, stats, _ = cv2.connectedComponentsWithStats(
            mask[y : y + box_height, x : x + box_width], connectivity=8)
        for blob in range(1, count):
            left, top, width, height, area = stats[blob]
            if area < least:
                continue
            rows, columns = np.nonzero(blobs[top : top + height, left : left + width] == blob)
            points = np.column_stack([
                origin_mm[0] + (columns + (left + x) + 0.5) / pixels_per_mm,
                origin_mm[1] + (rows + (top + y) + 0.5) / pixels_per_mm,
            ])
            sightings.append(_sighting(config, pawn.name, points, area / pixels_per_mm**2,
                                       camera))
    return sightings


def _sighting(config: PawnConfig, colour: str, points: FloatArray, area_mm2: float,
              camera: CameraOverMat) -> PawnSighting:
    """A pawn from its pixels' mat positions: its foot a base's radius in from the end
    nearest the camera."""
    middle = points.mean(axis=0)
    sure = min(1.0, 0.5 + 0.5 * (area_mm2 - config.least_area_mm2)
               / max(config.sure_area_mm2 - config.least_area_mm2, 1e-6))
    lean, _ = camera.lean(middle[None, :])
    if area_mm2 >= config.token_area_mm2 and _elongation(points, lean[0]) <= (
            config.token_elongation):
        return PawnSighting(colour, (float(middle[0]), float(middle[1])), float(area_mm2),
                            float(sure), flat=True)
    nearest = float(((points - middle) @ lean[0]).min())
    foot = middle + lean[0] * (nearest + config.base_radius_mm)
    return PawnSighting(colour, (float(foot[0]), float(foot[1])), float(area_mm2), float(sure))


def _elongation(points: FloatArray, lean: FloatArray) -> float:
    """How much longer a blob of ``points`` (mat mm) is along the camera's ``lean``
    direction than across it (the ratio of their spreads)."""
    offsets = points - points.mean(axis=0)
    along = offsets @ lean
    across = offsets @ np.array([-lean[1], lean[0]])
    return float(along.std() / max(float(across.std()), 1e-6))


def inside_tokens(sightings: list[PawnSighting], centres_mm: FloatArray) -> FloatArray:
    """Per point (N, 2 mm): whether it lies inside a flat token, within the radius of a disc
    of the token's seen area from its middle."""
    inside = np.zeros(len(centres_mm), bool)
    for sighting in sightings:
        if sighting.flat:
            reach = math.sqrt(sighting.area_mm2 / math.pi)
            gaps = np.hypot(*(np.asarray(centres_mm) - np.array(sighting.foot_mm)).T)
            inside |= gaps < reach
    return inside


def pawn_mask(config: PawnConfig, labels: Image, size: tuple[int, int],
              pixels_per_mm: float) -> Image:
    """Pawn pixels (255) grown by ``margin_mm``, at the view's ``size`` (width, height): where
    coins' rims are not to be looked for."""
    _, mask = cv2.threshold(labels, 0, 255, cv2.THRESH_BINARY)
    mask = cv2.resize(mask, size, interpolation=cv2.INTER_LINEAR)
    _, mask = cv2.threshold(mask, 127, 255, cv2.THRESH_BINARY)
    reach = 2 * round(config.margin_mm * pixels_per_mm) + 1
    return cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach)))


def pawns_by_region(sightings: list[PawnSighting], geometry: MatGeometry
                    ) -> dict[str, PawnSighting]:
    """The pawn standing on each region (by its foot), the largest where several do."""
    standing: dict[str, PawnSighting] = {}
    for sighting in sorted(sightings, key=lambda pawn: pawn.area_mm2):
        region = geometry.region_at(sighting.foot_mm)
        if region is not None:
            standing[region.name] = sighting
    return standing
