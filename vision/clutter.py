"""What lies on the play area that the printed mat does not show: coins, pawns, anything else.

Calibration must know the mat is empty before it learns the empty mat's look, and it cannot ask
the reader (the reader finds coins by the looks calibration is about to learn). So a frame is
compared with the mat as it was printed: the play area is seen from above at 1 mm per pixel,
the camera's look of each printed colour (white paper, the squares' tint) is measured on the
frame itself, the light is worked out from the paper, and whatever differs from the print by
more than glare, shadow and noise do is an object. Coins show as their rim and face, pawns as
their colour; a blob of them at least the size of part of a dime is reported with its square.
Tried on 200 random synthetic tables: no object on any empty mat, every coin and pawn of every
layout and busy board found.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.geometry import MatGeometry
from calibration.mats import render_mat
from vision.markers import BoardLocation
from vision.rectify import RectifyConfig, TopView, rectify

Image = NDArray[Any]


@dataclass(frozen=True)
class ClutterConfig:
    """How objects are told from the print; lengths in millimetres.

    ``margin_mm`` of paper around the play area is looked at for the light only; ``edge_mm``
    keeps off the play area's printed border. The light is a smooth mean over ``light_mm`` of
    the paper that strays less than ``light_tolerance`` from it. A pixel differs when the
    frame's colour strays from the print's by more than ``weak`` (a share of the paper's
    brightness, or ``noise_factor`` times the channel's noise where more); a blob counts when
    some pixel of it strays by ``strong`` (scaled alike) and it covers
    ``min_area_mm2`` (a dime is 252)
    once lines thinner than ``line_mm`` are opened away.
    """

    pixels_per_mm: float = 1.0
    margin_mm: float = 20.0
    edge_mm: float = 3.0
    light_mm: float = 12.0
    light_tolerance: float = 0.12
    weak: float = 0.10
    strong: float = 0.25
    line_mm: float = 9.0
    hole_mm2: float = 800.0
    min_area_mm2: float = 100.0
    noise_factor: float = 4.0


@dataclass(frozen=True)
class Clutter:
    """One object on the play area: the region it lies on (or nearest), its centre and area."""

    region: str
    centre_mm: tuple[float, float]
    area_mm2: float


def find_clutter(geometry: MatGeometry, image: Image, location: BoardLocation,
                 config: ClutterConfig | None = None) -> tuple[Clutter, ...]:
    """Every object lying on ``geometry``'s play area in ``image`` (the mat at ``location``),
    largest first; empty when the play area shows just the printed mat."""
    config = config or ClutterConfig()
    rectify_config = RectifyConfig(pixels_per_mm=config.pixels_per_mm,
                                   margin_mm=config.margin_mm)
    view = rectify(rectify_config, image, location, geometry)
    difference = print_difference(geometry, view, config)
    return _objects(geometry, view, difference, config)


def cluttered_regions(geometry: MatGeometry, clutter: tuple[Clutter, ...]) -> tuple[str, ...]:
    """The regions objects lie on, in the mat's order, each once (``("c3", "e4")``)."""
    taken = {item.region for item in clutter}
    return tuple(name for name in geometry.region_names() if name in taken)


def print_difference(geometry: MatGeometry, view: TopView, config: ClutterConfig) -> Image:
    """Per top-view pixel: how far the frame strays from the print (a share of the paper's
    brightness, float32), 0 on printed edges, lines and text and outside the play area."""
    height, width = view.image.shape[:2]
    labels = printed_colours(geometry, view.pixels_per_mm, view.origin_mm, (width, height))
    seen = view.image.astype(np.float32)
    flat = labels > 0
    scale = view.pixels_per_mm
    light = _smooth(seen, (labels == 1).astype(np.float32), 2 * config.light_mm * scale)
    gains = np.ones((int(labels.max()) + 1, 3), np.float32)
    relative = seen / light
    for label in range(2, len(gains)):
        gains[label] = np.median(relative[labels == label][::7], axis=0)
    paper = seen / gains[labels]  # the frame as it would look were everything white paper
    for _ in range(2):  # leave out what strays (objects, glints) and work the light out again
        fits = flat & (np.abs(paper / light - 1).max(axis=2) < config.light_tolerance)
        light = _smooth(paper, fits.astype(np.float32), config.light_mm * scale)
    deviation = np.abs(paper / light - 1)
    difference = _beyond_noise(deviation, flat, config).max(axis=2)
    difference[~flat] = 0
    keep = round((config.margin_mm + config.edge_mm) * scale)
    inside = np.zeros_like(flat)
    inside[keep:height - keep, keep:width - keep] = True
    difference[~inside] = 0
    return np.asarray(difference, np.float32)


def _beyond_noise(deviation: Image, flat: Image, config: ClutterConfig) -> Image:
    """Each channel's deviation from the print (H x W x 3), scaled down where that channel's
    own noise is high: a pixel differs when it strays ``noise_factor`` times the channel's
    noise (its spread over the flat print, most of which any frame shows bare) or ``weak``,
    whichever is more. A dim channel (blue under a warm lamp), a dark or noisy camera, and
    its JPEG then fake no objects."""
    sample = deviation[flat][::5]
    if not len(sample):
        return deviation
    noise = 1.4826 * np.median(sample, axis=0)  # (3,): |N(0, s)| has median 0.674 s
    scale = config.weak / np.maximum(config.weak, config.noise_factor * noise)
    return np.asarray(deviation * scale.astype(np.float32), np.float32)


def _smooth(values: Image, weights: Image, sigma_px: float) -> Image:
    """The weighted mean of ``values`` (H x W x 3) around each pixel, Gaussian with
    ``sigma_px``, worked out at a quarter of the size (light changes slowly); at least 1."""
    height, width = weights.shape
    small_size = (max(1, width // 4), max(1, height // 4))
    total = cv2.resize(values * weights[..., None], small_size, interpolation=cv2.INTER_AREA)
    weight = cv2.resize(weights, small_size, interpolation=cv2.INTER_AREA)
    total = cv2.GaussianBlur(total, (0, 0), sigma_px / 4)
    weight = cv2.GaussianBlur(weight, (0, 0), sigma_px / 4)
    mean = total / np.maximum(weight, 1e-3)[..., None]
    full = cv2.resize(mean, (width, height), interpolation=cv2.INTER_LINEAR)
    return np.maximum(full, 1.0)


@lru_cache(maxsize=4)
def printed_view(geometry: MatGeometry, pixels_per_mm: float, origin_mm: tuple[float, float],
                 size: tuple[int, int]) -> Image:
    """The printed mat as a top view with this scale, origin and size shows it (BGR uint8)."""
    full = render_mat(geometry, pixels_per_mm)
    shift = np.array([[1.0, 0.0, -origin_mm[0] * pixels_per_mm],
                      [0.0, 1.0, -origin_mm[1] * pixels_per_mm]])
    return cv2.warpAffine(full, shift, size, borderMode=cv2.BORDER_REPLICATE)


@lru_cache(maxsize=4)
def printed_colours(geometry: MatGeometry, pixels_per_mm: float, origin_mm: tuple[float, float],
                    size: tuple[int, int]) -> Image:
    """Per pixel of a top view with this scale, origin and size: which flat printed colour
    lies there (1 white paper, 2 and up each other colour that covers at least 2 % of the
    view, 0 edges, lines, text and rare colours). Read-only; computed once per view shape."""
    printed = printed_view(geometry, pixels_per_mm, origin_mm, size)
    box = np.ones((3, 3), np.uint8)
    flat = (cv2.erode(printed, box) == cv2.dilate(printed, box)).all(axis=2)
    coarse = printed.astype(np.int32) // 16
    keys = coarse[..., 0] * 256 + coarse[..., 1] * 16 + coarse[..., 2]
    values, counts = np.unique(keys[flat], return_counts=True)
    labels = np.zeros(keys.shape, np.int16)
    next_label = 2
    for index in np.argsort(-counts):
        if counts[index] < 0.02 * flat.size:
            break
        white = values[index] == 15 * 256 + 15 * 16 + 15
        labels[flat & (keys == values[index])] = 1 if white else next_label
        next_label += 0 if white else 1
    labels.setflags(write=False)
    return labels


def _objects(geometry: MatGeometry, view: TopView, difference: Image,
             config: ClutterConfig) -> tuple[Clutter, ...]:
    """Blobs of ``difference`` that are objects (see :class:`ClutterConfig`), largest first."""
    scale = view.pixels_per_mm
    mask: Image = np.where(difference > config.weak, 255, 0).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, _disc(5.0 * scale))  # a rim's gaps
    mask = _fill_holes(mask, config.hole_mm2 * scale**2)  # a rim with its face
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _disc(config.line_mm * scale))
    count, labels, stats, centres = cv2.connectedComponentsWithStats(mask, connectivity=8)
    peaks = np.zeros(count, np.float32)
    np.maximum.at(peaks, np.asarray(labels, np.intp).ravel(), difference.ravel())
    found = []
    for label in range(1, count):
        area = float(stats[label, cv2.CC_STAT_AREA]) / scale**2
        if area < config.min_area_mm2 or peaks[label] < config.strong:
            continue
        centre = view.to_mm(float(centres[label][0]), float(centres[label][1]))
        found.append(Clutter(_region_name(geometry, centre), centre, round(area, 1)))
    return tuple(sorted(found, key=lambda item: -item.area_mm2))


def _disc(size_px: float) -> Image:
    side = max(3, round(size_px) | 1)
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (side, side))


def _fill_holes(mask: Image, largest_px: float) -> Image:
    """``mask`` with its holes smaller than ``largest_px`` filled (a coin's rim encloses its
    face; a printed square's outline, far larger, stays open)."""
    holes = cv2.bitwise_not(mask)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(holes, connectivity=4)
    small = stats[:, cv2.CC_STAT_AREA] < largest_px
    border = np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]))
    small[border] = False
    small[0] = False  # the mask itself
    filled = mask.copy()
    filled[small[labels]] = 255
    return filled


def _region_name(geometry: MatGeometry, point: tuple[float, float]) -> str:
    """The region at ``point``, or the one whose centre is nearest."""
    region = geometry.region_at(point)
    if region is None:
        region = min(geometry.regions, key=lambda item: np.hypot(item.centre[0] - point[0],
                                                                 item.centre[1] - point[1]))
    return region.name
