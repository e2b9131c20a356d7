"""What lies on the play area: coins (and pawns, whose round tops look alike), not shading.

Calibration must know the mat is empty before it learns the empty mat's look, and it cannot ask
the reader (the reader finds coins by the looks calibration is about to learn). So a frame is
compared with the mat as it was printed: the play area is seen from above at 1 mm per pixel,
the camera's look of each printed colour (white paper, the squares' tint) is measured on the
frame itself and divided out, and so is the light, worked out from the paper. What is left is
judged by what a coin looks like: a round outline of a coin's size. Along a coin's rim,
whether the coin is darker or brighter than the paper or of its very colour, the brightness
changes across the rim, towards the coin's centre, all the way round; along a shadow's edge (a
person's, the lamp's falloff), vignetting and sensor noise it changes every way, or one way
only, so shading is never taken for an object. On 30 tuning scenes of the physically based
renderer (2 empty-mat and 1 layout frame each): no object on any empty mat, 173 of the 180
layout objects found; the misses are coins glare washed white on white paper, whose rim
barely shows (calibration learns those from the other coins).
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
    the paper that strays less than ``light_tolerance`` from it. Outlines are looked for with
    radii from ``least_radius_mm`` to ``most_radius_mm`` (a pawn's top to a dollar) in steps of
    ``radius_step_mm``, on the frame smoothed by ``smoothing_mm``; an object's outline turns
    the squared gradient of the paper-relative brightness radially by at least ``outline``
    on average around it, and by ``noise_factor`` times the median squared gradient (the
    noise) of the ``noise_mm`` block around it where more; at least ``coherence`` of the
    gradient's energy around the ring turns so, and its energy is spread round the ring (its
    first harmonic at most ``lopsided`` of its mean).
    """

    pixels_per_mm: float = 1.0
    margin_mm: float = 20.0
    edge_mm: float = 3.0
    light_mm: float = 12.0
    light_tolerance: float = 0.12
    least_radius_mm: float = 6.0
    most_radius_mm: float = 14.0
    radius_step_mm: float = 1.5
    smoothing_mm: float = 0.7
    outline: float = 1.3e-3
    noise_factor: float = 5.0
    noise_mm: float = 24.0
    coherence: float = 0.3
    lopsided: float = 0.6


@dataclass(frozen=True)
class Clutter:
    """One object on the play area: the region it lies on (or nearest), its centre and area."""

    region: str
    centre_mm: tuple[float, float]
    area_mm2: float


def find_clutter(geometry: MatGeometry, image: Image, location: BoardLocation,
                 config: ClutterConfig | None = None) -> tuple[Clutter, ...]:
    """Every round object lying on ``geometry``'s play area in ``image`` (the mat at
    ``location``), largest first; empty when the play area shows just the printed mat,
    however it is shaded."""
    config = config or ClutterConfig()
    rectify_config = RectifyConfig(pixels_per_mm=config.pixels_per_mm,
                                   margin_mm=config.margin_mm)
    view = rectify(rectify_config, image, location, geometry)
    strength, radius = outline_strength(geometry, view, config)
    return _objects(geometry, view, strength, radius, config)


def cluttered_regions(geometry: MatGeometry, clutter: tuple[Clutter, ...]) -> tuple[str, ...]:
    """The regions objects lie on, in the mat's order, each once (``("c3", "e4")``)."""
    taken = {item.region for item in clutter}
    return tuple(name for name in geometry.region_names() if name in taken)


def paper_relative(geometry: MatGeometry, view: TopView, config: ClutterConfig
                   ) -> tuple[Image, Image]:
    """The top view as it would look were the whole mat white paper under even light (1.0 on
    paper, float32 H x W x 3), and where the print is flat (no edges, lines or text) and
    inside the play area."""
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
    paper = seen / gains[labels]
    for _ in range(2):  # leave out what strays (objects, glints) and work the light out again
        fits = flat & (np.abs(paper / light - 1).max(axis=2) < config.light_tolerance)
        light = _smooth(paper, fits.astype(np.float32), config.light_mm * scale)
    keep = round((config.margin_mm + config.edge_mm) * scale)
    inside = np.zeros_like(flat)
    inside[keep:height - keep, keep:width - keep] = True
    return np.asarray(paper / light, np.float32), flat & inside


def outline_strength(geometry: MatGeometry, view: TopView, config: ClutterConfig
                     ) -> tuple[Image, Image]:
    """Per top-view pixel: how strongly a round outline centred there turns the brightness's
    gradient towards it (the best radius's mean of ``|g|^2 cos 2(phi - theta)`` around the
    ring, ``phi`` the gradient's direction, ``theta`` the ring's; 0 or below for shading and
    noise), and that radius in mm. Printed edges and lines take no part."""
    relative, flat = paper_relative(geometry, view, config)
    scale = view.pixels_per_mm
    smooth = cv2.GaussianBlur(relative, (0, 0), config.smoothing_mm * scale)
    across = cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3) / 8
    down = cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3) / 8
    usable = cv2.erode(flat.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    cosine_part = ((across**2 - down**2).sum(axis=2) * usable).astype(np.float32)
    sine_part = ((2 * across * down).sum(axis=2) * usable).astype(np.float32)
    energy = ((across**2 + down**2).sum(axis=2) * usable).astype(np.float32)
    noise = _local_median(energy, usable, round(config.noise_mm * scale))
    best = np.zeros(energy.shape, np.float32)
    radius = np.zeros(energy.shape, np.float32)
    for radius_mm in np.arange(config.least_radius_mm, config.most_radius_mm + 1e-6,
                               config.radius_step_mm):
        ring, cosine, sine, east, south = _ring(radius_mm * scale, scale)
        turned = cv2.filter2D(cosine_part, -1, cosine) + cv2.filter2D(sine_part, -1, sine)
        around = cv2.filter2D(energy, -1, ring)
        lopsided = np.hypot(cv2.filter2D(energy, -1, east), cv2.filter2D(energy, -1, south))
        # An outline: the gradient around the ring turns mostly towards its centre, and all
        # the way round, not on one side only (a ring beside a coin catches part of its rim).
        outline = (turned >= config.coherence * around) & (lopsided <= config.lopsided * around)
        turned = np.where(outline, turned, 0.0)
        better = turned > best
        best[better] = turned[better]
        radius[better] = radius_mm
    floor = np.maximum(config.outline, config.noise_factor * noise)
    return np.asarray(best / floor, np.float32), radius


def _local_median(values: Image, usable: Image, block: int) -> Image:
    """The median of ``values`` where ``usable`` over blocks of ``block`` pixels, spread
    smoothly over the image (the frame's own noise here: higher in a shadow, where fewer
    photons fell; a coin's rim is too thin to move a median)."""
    height, width = values.shape
    rows, columns = max(1, height // block), max(1, width // block)
    cut = np.where(usable, values, np.nan)[:rows * block, :columns * block]
    blocks = cut.reshape(rows, block, columns, block).transpose(0, 2, 1, 3).reshape(
        rows, columns, block * block)
    counted = np.count_nonzero(~np.isnan(blocks), axis=2)
    everywhere = float(np.median(values[usable])) if usable.any() else 0.0
    with np.errstate(all="ignore"):
        medians = np.nanmedian(np.where(counted[..., None] > block, blocks, everywhere), axis=2)
    return np.asarray(cv2.resize(medians.astype(np.float32), (width, height),
                                 interpolation=cv2.INTER_LINEAR))


@lru_cache(maxsize=32)
def _ring(radius_px: float, pixels_per_mm: float) -> tuple[Image, ...]:
    """A ring of ``radius_px`` about a millimetre wide as convolution kernels (centred,
    normalised to a mean): plain, weighted by ``cos 2 theta`` and ``sin 2 theta``, and by
    ``cos theta`` and ``sin theta``."""
    half = int(np.ceil(radius_px + 2 * pixels_per_mm))
    rows, columns = np.mgrid[-half:half + 1, -half:half + 1].astype(np.float32)
    distance = np.hypot(columns, rows)
    weight = np.clip(1 - np.abs(distance - radius_px) / pixels_per_mm, 0, 1)
    weight /= float(weight.sum())
    angle = np.arctan2(rows, columns)
    return tuple(np.asarray(weight * factor, np.float32) for factor in (
        1.0, np.cos(2 * angle), np.sin(2 * angle), np.cos(angle), np.sin(angle)))


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


def _objects(geometry: MatGeometry, view: TopView, strength: Image, radius: Image,
             config: ClutterConfig) -> tuple[Clutter, ...]:
    """One object per connected patch where the outline ``strength`` (a share of the least an
    object's outline shows) reaches 1, at its strongest point, unless a stronger one lies
    within ``most_radius_mm`` (rings about a point beside a coin catch part of its rim),
    largest first."""
    mask = (strength >= 1.0).astype(np.uint8)
    count, labels = cv2.connectedComponents(mask, connectivity=8)
    flat_labels = labels.ravel()
    flat_strength = strength.ravel()
    peaks = []
    for label in range(1, count):
        members = np.flatnonzero(flat_labels == label)
        peaks.append(int(members[np.argmax(flat_strength[members])]))
    kept: list[tuple[float, float]] = []
    found = []
    for peak in sorted(peaks, key=lambda index: -flat_strength[index]):
        row, column = divmod(peak, strength.shape[1])
        centre = view.to_mm(float(column), float(row))
        if any(np.hypot(centre[0] - x, centre[1] - y) < config.most_radius_mm
               for x, y in kept):
            continue
        kept.append(centre)
        area = float(np.pi * radius[row, column] ** 2)
        found.append(Clutter(_region_name(geometry, centre), centre, round(area, 1)))
    return tuple(sorted(found, key=lambda item: -item.area_mm2))


def _region_name(geometry: MatGeometry, point: tuple[float, float]) -> str:
    """The region at ``point``, or the one whose centre is nearest."""
    region = geometry.region_at(point)
    if region is None:
        region = min(geometry.regions, key=lambda item: np.hypot(item.centre[0] - point[0],
                                                                 item.centre[1] - point[1]))
    return region.name
