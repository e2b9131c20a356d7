"""Reading every region of a rectified mat: which coin lies on top, which pawn stands there.

The physics it relies on, so that it holds for cameras and coins it has never seen, lives in
three stages: :mod:`vision.light` divides out the light against the printed mat and finds the
foreground; :mod:`vision.coin_fit` measures each coin's rim and metal and decides its kind;
:mod:`vision.pawns` finds the pawns by colour. This module finds the seeds of every region
(the deepest point of each foreground blob, and where that lies on a pawn, also the deepest
point of what the pawn leaves, for a coin beside it) and puts the stages together.

A smaller silver coin on a larger silver one keeps the larger one's outline and colour; which
silver coin lies on top is named by the ring model of :mod:`vision.silver_tops` (about 1 such
stack in 60 is still misread on the synthetic table), pawns on or beside it or not, and for
other metals from the top coin's own raised rim (:func:`vision.top_coin.top_coins`). A coin a
pawn stands on and mostly hides is read with doubt (its kind is a guess from what shows), never
as a surely empty square.

Regions of kind ``pit`` and ``cup`` hold loose coins: every seed there is a coin, and the reading
gives the count and the kinds. :func:`read_frame` is the whole pipeline from a camera frame.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from calibration.geometry import Circle, MatGeometry
from companion.observation import Observation, RegionReading
from vision.coin_fit import CoinFit, classify, measure_coins
from vision.coin_size import metal_shifts
from vision.light import Normalised, mat_reference, normalise
from vision.markers import BoardLocation, MarkerConfig, find_board
from vision.pawns import pawn_certainty, pawn_labels, pawns_in
from vision.profile import VisionProfile
from vision.read_config import LOOSE_KINDS, ReadConfig
from vision.rectify import RectifyConfig, TopView, rectify
from vision.silver_tops import default_model, silver_tops
from vision.top_coin import top_coins

if TYPE_CHECKING:
    from numpy.typing import NDArray

    Image = NDArray[Any]
    FloatArray = NDArray[Any]
else:
    Image = np.ndarray
    FloatArray = np.ndarray


@dataclass(frozen=True)
class VisionConfig:
    """The whole pipeline's configuration: finding, rectifying, reading."""

    markers: MarkerConfig = field(default_factory=MarkerConfig)
    rectify: RectifyConfig = field(default_factory=RectifyConfig)
    read: ReadConfig = field(default_factory=ReadConfig)


# -- where regions lie in the top view -----------------------------------------------------------


@dataclass(frozen=True, eq=False)
class RegionWindow:
    """A region's bounding box in top-view pixels, and for round regions a mask within it."""

    name: str
    kind: str
    box: tuple[int, int, int, int]
    mask: Image | None


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
        windows.append(RegionWindow(region.name, region.kind, (x0, y0, x1, y1), mask))
    return tuple(windows)


@lru_cache(maxsize=8)
def region_map(windows: tuple[RegionWindow, ...], size: tuple[int, int]) -> FloatArray:
    """Per top-view pixel: the index of the region it lies in, or -1."""
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


def _seeds(
    config: ReadConfig, depth: FloatArray, window: RegionWindow, least: float
) -> list[tuple[float, float, float]]:
    """Seeds (column, row, depth) of the blobs in a region: one for a stack, all for loose coins."""
    x0, y0, x1, y1 = window.box
    patch = depth[y0:y1, x0:x1]
    found: list[tuple[float, float, float]] = []
    wanted = config.max_loose_coins if window.kind in LOOSE_KINDS else 1
    if wanted > 1:
        patch = patch.copy()
    while len(found) < wanted and patch.size:
        # The first deepest point in row order, as np.argmax gives it, three times faster.
        _, value, _, (column, row) = cv2.minMaxLoc(patch, window.mask)
        if value < least:
            break
        found.append((float(column + x0), float(row + y0), value))
        if wanted > 1:
            cv2.circle(patch, (column, row), max(1, round(value * 1.05)), 0.0, -1)
    return found


def _all_seeds(
    config: ReadConfig, normalised: Normalised, cover: Image,
    windows: tuple[RegionWindow, ...], pixels_per_mm: float,
) -> tuple[FloatArray, NDArray[np.bool_]]:
    """Every region's seeds (K, 2) px, and which of them are second seeds beside a pawn (see
    :func:`_beside_pawn`), used only where the region's first seed finds no coin."""
    least = config.seed_radius_mm * pixels_per_mm
    seeds: list[tuple[float, float, float]] = []
    second: list[bool] = []
    for window in windows:
        found = _seeds(config, normalised.depth, window, least)
        extra = []
        if found and window.kind not in LOOSE_KINDS:
            extra = _beside_pawn(normalised.foreground, cover, window, least, found[0])
        seeds += found + extra
        second += [False] * len(found) + [True] * len(extra)
    points = np.array([(x, y) for x, y, _ in seeds], np.float64).reshape(-1, 2)
    return points, np.array(second, dtype=bool)


def _beside_pawn(
    foreground: Image, cover: Image, window: RegionWindow, least: float,
    first: tuple[float, float, float],
) -> list[tuple[float, float, float]]:
    """A second seed where the first lies on a pawn: the deepest point of the foreground the
    pawn leaves, when it is coin-deep and away from the first seed. A coin beside a pawn
    merges with the pawn and its shadow into one blob, whose deepest point can lie in the
    pawn, so that the first seed measures the pawn and the coin is never measured."""
    if not cover[round(first[1]), round(first[0])]:
        return []
    x0, y0, x1, y1 = window.box
    pawn = cover[y0:y1, x0:x1]
    _, clear = cv2.threshold(pawn, 0, 255, cv2.THRESH_BINARY_INV)  # cover holds pawn labels
    open_part = cv2.bitwise_and(foreground[y0:y1, x0:x1], clear)
    if window.mask is not None:
        open_part = cv2.bitwise_and(open_part, open_part, mask=window.mask)
    depth = cv2.distanceTransform(open_part, cv2.DIST_L2, 3)
    _, value, _, (column, row) = cv2.minMaxLoc(depth)
    if value < least or math.dist((column + x0, row + y0), first[:2]) < value:
        return []
    return [(float(column + x0), float(row + y0), value)]


@dataclass(frozen=True, eq=False)
class ViewReading:
    """Everything read from one top view: the readings, plus every coin and pawn measured."""

    regions: dict[str, RegionReading]
    coins: tuple[tuple[str, CoinFit, str, float], ...]


def read_view(
    config: ReadConfig, view: TopView, geometry: MatGeometry, profile: VisionProfile
) -> ViewReading:
    """Read every region of ``geometry`` in a rectified top view."""
    ppm = view.pixels_per_mm
    margin = geometry.play_area.left - view.origin_mm[0]
    reference = mat_reference(
        geometry, ppm, margin, config.reference_blur_px, config.ink_band_mm
    )
    normalised = normalise(config, view, reference, profile)
    labels = pawn_labels(normalised, profile)
    height, width = view.image.shape[:2]
    windows = region_windows(geometry, ppm, view.origin_mm, (width, height))
    regions_at = region_map(windows, (width, height))
    # Exclude a margin around pawns too: their dark rims blend into what lies under them.
    margin = 2 * round(config.pawn_margin_mm * ppm) + 1
    cover = cv2.dilate(labels, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (margin, margin)))
    seed_array, second = _all_seeds(config, normalised, cover, windows, ppm)
    centres, diameters, colours, shares, kinds, confidences = _read_coins(
        config, normalised, cover, seed_array, ppm, profile, ~second
    )
    smallest = min(look.diameter_mm for look in profile.coins)
    least_coin = (smallest + profile.pawn_diameter_mm) / 2
    found: dict[str, list[tuple[CoinFit, str, float]]] = {}
    for index, (column, row) in enumerate(centres):
        if not np.isfinite(diameters[index]) or diameters[index] < least_coin:
            continue  # a pawn on bare paper, or a speck
        centre_mm = view.to_mm(float(column), float(row))
        inside = 0 <= round(row) < height and 0 <= round(column) < width
        region_index = int(regions_at[round(row), round(column)]) if inside else -1
        if region_index < 0:
            continue
        region = windows[region_index]
        if second[index] and region.name in found:
            continue  # the first seed found the coin: the second only stands in for it
        fit = CoinFit(
            centre_mm, float(diameters[index]), (float(colours[index, 0]),
            float(colours[index, 1])), float(shares[index]),
        )
        confidence = float(confidences[index]) * min(1.0, float(shares[index]) / 0.4)
        found.setdefault(region.name, []).append((fit, kinds[index], confidence))
    regions: dict[str, RegionReading] = {}
    measured: list[tuple[str, CoinFit, str, float]] = []
    pawns = pawns_in(labels, regions_at, len(windows), profile, ppm)
    for window, (pawn, pawn_share) in zip(windows, pawns, strict=True):
        pawn_confidence = pawn_certainty(pawn_share, profile.pawn_min_share)
        least_share = config.min_loose_rim_share if window.kind in LOOSE_KINDS else 0.0
        coins = _distinct(found.get(window.name, []), smallest / 2, least_share)
        measured.extend((window.name, fit, kind, conf) for fit, kind, conf in coins)
        if window.kind in LOOSE_KINDS:
            confidence = min([pawn_confidence, *(conf for _, _, conf in coins)])
            kinds_seen = tuple(sorted({kind for _, kind, _ in coins}))
            regions[window.name] = RegionReading(
                None, pawn, confidence, count=len(coins), kinds=kinds_seen
            )
        elif coins:
            fit, kind, confidence = max(coins, key=lambda item: item[0].rim_share)
            regions[window.name] = RegionReading(kind, pawn, min(confidence, pawn_confidence))
        else:
            regions[window.name] = RegionReading(None, pawn, pawn_confidence)
    return ViewReading(regions, tuple(measured))


def _read_coins(
    config: ReadConfig, normalised: Normalised, cover: Image, seeds: FloatArray, ppm: float,
    profile: VisionProfile, voting: NDArray[np.bool_] | None = None,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, list[str], FloatArray]:
    """Measure and classify a coin at every seed: centres px, diameters mm (NaN where none),
    face colours, rim shares, kinds and confidences. The frame's common size error is taken
    out, the top coin of a stack is read from its own rim, and a coin a pawn stands on and
    mostly hides, or whose rim fits its circle on few rays, is read with doubt. Only the
    ``voting`` seeds (all by default) count towards the size error."""
    centres, fitted_mm, colours, middles, shares, visible = measure_coins(
        config, normalised, cover, seeds, ppm, profile
    )
    # A blob mostly covered by a pawn is the pawn and its shadow, or a coin the pawn stands on.
    diameters = np.where(visible < config.min_visible_share, np.nan, fitted_mm)
    outline_px = fitted_mm / 2 * ppm * profile.diameter_scale
    # Second seeds (often a coin measured twice) have no say in the frame's size error.
    votes = shares if voting is None else np.where(voting, shares, 0.0)
    shift = metal_shifts(config, profile, diameters, colours, votes)
    diameters = diameters - shift
    kinds, confidences = classify(profile, diameters, colours, middles)
    under = _under_pawns(config, profile, fitted_mm - shift, visible, shares)
    if under.any():
        diameters[under] = fitted_mm[under] - shift[under]
        hidden_kinds, confidences[under] = classify(
            profile, diameters[under], colours[under], middles[under]
        )
        for coin, kind in zip(np.flatnonzero(under), hidden_kinds, strict=True):
            kinds[coin] = kind
    ring_kinds, chances, ringed = list(kinds), np.ones(len(kinds)), np.zeros(len(kinds), bool)
    if config.silver_top_model:
        ring_kinds, chances, ringed = silver_tops(
            default_model(), normalised.grey_image(), cover, centres, outline_px, diameters,
            kinds, ppm, profile, config.hidden_coin_doubt,
        )
    rim_kinds, doubt = top_coins(
        config, normalised, cover, centres, np.where(ringed | under, np.nan, outline_px),
        np.where(ringed | under, np.nan, diameters), kinds, ppm, profile,
    )
    kinds = [ring_kinds[i] if ringed[i] else kind for i, kind in enumerate(rim_kinds)]
    confidences = confidences * np.where(ringed, chances, doubt)
    # A circle through few of its rays' rim points is a guess at the coin's size, and so is
    # the size of a coin a pawn stands on.
    confidences = np.where(shares < config.min_fit_share,
                           np.minimum(confidences, config.hidden_coin_doubt), confidences)
    confidences[under] = np.minimum(confidences[under], config.hidden_coin_doubt)
    return centres, diameters, colours, shares, kinds, confidences


def _under_pawns(
    config: ReadConfig, profile: VisionProfile, diameters: FloatArray, visible: FloatArray,
    shares: FloatArray,
) -> NDArray[np.bool_]:
    """Blobs mostly covered by a pawn that hold a coin under it: their rim, where seen, fits a
    circle at least about the smallest coin's size, larger than a pawn and its shadow ever
    are (14 mm and a few mm of shadow). Their kind is a guess, so read with doubt."""
    smallest = min(look.diameter_mm for look in profile.coins)
    with np.errstate(invalid="ignore"):
        return np.asarray(
            (visible < config.min_visible_share) & (shares >= config.min_loose_rim_share)
            & (diameters >= smallest - config.under_pawn_margin_mm), dtype=bool,
        )


def _distinct(
    coins: list[tuple[CoinFit, str, float]], apart_mm: float, least_share: float
) -> list[tuple[CoinFit, str, float]]:
    """Coins found twice (two seeds in one coin, or a gap between touching coins) counted once:
    the better fits are kept, and a fit whose rim was hardly seen is dropped."""
    kept: list[tuple[CoinFit, str, float]] = []
    for item in sorted(coins, key=lambda entry: -entry[0].rim_share):
        fit = item[0]
        if fit.rim_share < least_share:
            continue
        if all(
            math.dist(fit.centre_mm, other.centre_mm)
            >= max(apart_mm, 0.8 * max(fit.diameter_mm, other.diameter_mm) / 2)
            for other, _, _ in kept
        ):
            kept.append(item)
    return kept


# -- the whole pipeline --------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class FrameReading:
    """A frame read end to end: the observation, where the board was, and the top view."""

    observation: Observation
    location: BoardLocation
    view: TopView
    coins: tuple[tuple[str, CoinFit, str, float], ...]


def read_frame_details(
    config: VisionConfig, image: Image, geometry: MatGeometry, profile: VisionProfile,
    location: BoardLocation | None = None,
) -> FrameReading:
    """Find the mat, rectify it and read it, timing each stage (``meta["timings_ms"]``).

    A ``location`` already found in this very frame (the steady-frame gate finds the board in
    every frame) is used as it is, and the find stage is skipped. Raises
    :class:`~vision.errors.MatNotFoundError` when too few markers are seen.
    """
    start = time.perf_counter()
    if location is None:
        location = find_board(config.markers, image, geometry)
    found = time.perf_counter()
    view = rectify(config.rectify, image, location, geometry)
    rectified = time.perf_counter()
    reading = read_view(config.read, view, geometry, profile)
    done = time.perf_counter()
    timings = {
        "find": round((found - start) * 1000, 2),
        "rectify": round((rectified - found) * 1000, 2),
        "read": round((done - rectified) * 1000, 2),
    }
    observation = Observation(
        regions=reading.regions,
        markers_found=location.markers_found,
        milliseconds=(done - start) * 1000,
        meta={
            "mat": geometry.name,
            "markers_missing": list(location.markers_missing),
            "timings_ms": timings,
        },
    )
    return FrameReading(observation, location, view, reading.coins)


def read_frame(
    config: VisionConfig, image: Image, geometry: MatGeometry, profile: VisionProfile
) -> Observation:
    """The observation of one camera frame: find the mat, rectify, read every region."""
    return read_frame_details(config, image, geometry, profile).observation


__all__ = [
    "CoinFit",
    "FrameReading",
    "ReadConfig",
    "VisionConfig",
    "classify",
    "read_frame",
    "read_frame_details",
    "read_view",
]
