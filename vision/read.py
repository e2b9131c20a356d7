"""Reading every region of a rectified mat: which coin lies on top, which pawn stands there.

The stages, each a pure function of its configuration and an image, so that the whole holds
for cameras, lights and coins it was never tuned on:

1. :mod:`vision.light` divides the light out against the printed mat: paper becomes white.
2. :mod:`vision.pawns` finds the strongly coloured pawns and where each one stands.
3. :mod:`vision.seeds` finds where coins may lie, :mod:`vision.rims` fits each one's outline
   (the base disc, whatever the stack's height leans away from the camera: see
   :mod:`vision.parallax`) and :mod:`vision.faces` samples its face's colour.
4. :mod:`vision.frame_model` names every coin of the frame at once, from how the frame's coins
   compare with each other (sizes against the mat's millimetres, metals against the silver
   around them); its probabilities are the readings' confidences.

Regions of kind ``pit`` and ``cup`` hold loose coins: every coin there is counted, and the
reading gives the count and the kinds. :func:`read_frame` is the whole pipeline from a frame.
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
from companion.observation import COIN_KINDS, Observation, RegionReading
from vision.faces import clipped_mask, face_colours
from vision.frame_model import FrameFit, KindPrior, fit_frame
from vision.light import mat_reference, normalise
from vision.markers import BoardLocation, MarkerConfig, find_board
from vision.parallax import CameraOverMat, camera_over_mat, overhead_camera
from vision.pawns import PawnSighting, find_pawns, pawn_labels, pawn_mask
from vision.profile import VisionProfile
from vision.read_config import LOOSE_KINDS, CoinConfig, ReadConfig
from vision.rectify import RectifyConfig, TopView, rectify
from vision.rims import measure_outlines
from vision.seeds import find_seeds

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


@dataclass(frozen=True)
class CoinFit:
    """One measured coin: its base centre and diameter (mm, before the frame's size offset is
    taken out), its face colour (``(ln(red/green), ln(blue/green))`` against the paper, NaN
    where unseen) and the share of its rays that agree with its outline."""

    centre_mm: tuple[float, float]
    diameter_mm: float
    colour: tuple[float, float]
    rim_share: float


@dataclass(frozen=True, eq=False)
class ViewReading:
    """Everything read from one top view: the readings, plus every coin and pawn measured."""

    regions: dict[str, RegionReading]
    coins: tuple[tuple[str, CoinFit, str, float], ...]
    pawns: tuple[PawnSighting, ...] = ()
    frame: FrameFit | None = None


@dataclass(frozen=True, eq=False)
class _Candidates:
    """Outlines measured at every seed, in mat terms: base and top face centres (K, 2) mm,
    diameters (K,)
    mm, colours (K, 2), agreement with the circle on unhidden rays (K,), share of rays a
    pawn hides (K,), whether a pawn stands on the face (K,), the share of the face the camera
    clipped (K,), contrast (K,), how far its seed
    stood out (K,), each one's region index by its fitted centre and its seed's (-1: none)."""

    centres_mm: FloatArray
    tops_mm: FloatArray
    diameters_mm: FloatArray
    colours: FloatArray
    agreement: FloatArray
    hidden: FloatArray
    under_pawn: NDArray[np.bool_]
    clipped: FloatArray
    contrast: FloatArray
    strength: FloatArray
    region: NDArray[np.intp]
    seed_region: NDArray[np.intp]


def _measure(
    config: ReadConfig, view: TopView, image: Image, mask: Image, camera: CameraOverMat,
    geometry: MatGeometry, windows: tuple[RegionWindow, ...],
) -> _Candidates:
    """Seed, fit and sample every candidate coin of the normalised view ``image``."""
    ppm = view.pixels_per_mm
    seeds, strength = find_seeds(config.seeds, image, ppm)
    seeds_mm = _to_mm(view, seeds)
    lean, lean_per_mm = camera.lean(seeds_mm)
    blur = np.nan_to_num(ppm / camera.pixels_per_mm(seeds_mm), nan=1.0)
    clipped = clipped_mask(view.image)
    glint = cv2.max(cv2.max(clipped[..., 0], clipped[..., 1]), clipped[..., 2])
    outlines = measure_outlines(config.rims, image, mask, glint, seeds, lean, ppm, blur,
                                lean_per_mm)
    tops = outlines.top_centres(lean)
    faces = face_colours(image, clipped, mask, tops, outlines.radii_px)
    hidden = outlines.covered
    agreement = outlines.agreement / np.maximum(1.0 - hidden, 0.3)
    centres_mm = _to_mm(view, outlines.centres)
    height, width = image.shape[:2]
    regions_at = region_map(windows, (width, height))
    columns = np.clip(np.round(outlines.centres[:, 0]).astype(int), 0, width - 1)
    rows = np.clip(np.round(outlines.centres[:, 1]).astype(int), 0, height - 1)
    inside = ((outlines.centres[:, 0] >= 0) & (outlines.centres[:, 0] < width)
              & (outlines.centres[:, 1] >= 0) & (outlines.centres[:, 1] < height))
    region = np.where(inside, regions_at[rows, columns], -1).astype(np.intp)
    seed_columns = np.clip(np.round(seeds[:, 0]).astype(int), 0, width - 1)
    seed_rows = np.clip(np.round(seeds[:, 1]).astype(int), 0, height - 1)
    seed_region = regions_at[seed_rows, seed_columns].astype(np.intp)
    return _Candidates(centres_mm, _to_mm(view, tops), 2 * outlines.radii_px / ppm,
                       faces.colours, agreement, hidden, faces.on_pawn > 0.5, faces.clipped,
                       outlines.contrast, strength, region, seed_region)


def _to_mm(view: TopView, pixels: FloatArray) -> FloatArray:
    """Top-view pixel coordinates (N, 2) -> mat millimetres (N, 2)."""
    return np.asarray(view.origin_mm) + (np.asarray(pixels, np.float64).reshape(-1, 2) + 0.5
                                         ) / view.pixels_per_mm


def _presence(config: CoinConfig, candidates: _Candidates) -> FloatArray:
    """How sure each candidate is a coin at all (0-1), from how well its rim fits a circle.

    A pawn standing on a coin hides its middle and leans over its far rim; a pawn on bare
    paper with its shadow can look like such a coin. So where a pawn stands on the face, the
    rim must agree on ``pawn_agreement`` more of the rays, and one whose rim the pawn mostly
    hides (``hidden_share``) is only a doubt (``hidden_presence``), never a coin.
    """
    low, sure = _ramp(config)
    extra = np.where(candidates.under_pawn, config.pawn_agreement, 0.0)
    ramp = np.clip((candidates.agreement - low - extra) / (sure - low), 0.0, 1.0)
    ramp = np.where(candidates.contrast >= config.least_contrast, ramp, 0.0)
    mostly_hidden = candidates.under_pawn & (candidates.hidden > config.hidden_share)
    return np.where(mostly_hidden, np.minimum(ramp, config.hidden_presence), ramp)


def _ramp(config: CoinConfig) -> tuple[float, float]:
    """The agreement at which presence is 0 and 1: it reaches the acceptance level at
    ``least_agreement``, a third of the way up."""
    low = config.least_agreement - (config.sure_agreement - config.least_agreement) / 2
    return low, config.sure_agreement


def _coins(config: CoinConfig, candidates: _Candidates, presence: FloatArray,
           sizes: FloatArray) -> NDArray[np.intp]:
    """Indices of the candidates that are coins, each coin once (the best-fitting outline of
    outlines that are one coin), in a region, and of a plausible size."""
    usable = ((candidates.region >= 0) & (presence >= _accept(config))
              & (candidates.diameters_mm > sizes.min() - config.size_margin_mm)
              & (candidates.diameters_mm < sizes.max() + 2 * config.size_margin_mm))
    kept: list[int] = []
    for index in np.flatnonzero(usable)[np.argsort(-candidates.agreement[usable])]:
        centre = candidates.centres_mm[index]
        reach = config.apart_share * candidates.diameters_mm[index] / 2
        if all(math.dist(centre, candidates.centres_mm[other]) >= reach for other in kept):
            kept.append(int(index))
    return np.array(sorted(kept), np.intp)


def _accept(config: CoinConfig) -> float:
    """The presence at which a candidate counts as a coin: its agreement at the least."""
    low, sure = _ramp(config)
    return (config.least_agreement - low) / (sure - low)


def _kind_priors(profile: VisionProfile) -> tuple[KindPrior, ...]:
    """The frame model's kinds: the profile's coins with their true sizes and metals."""
    return tuple(KindPrior(look.kind, look.diameter_mm, COIN_KINDS[look.kind][2])
                 for look in profile.coins)


def read_view(
    config: ReadConfig, view: TopView, geometry: MatGeometry, profile: VisionProfile,
    camera: CameraOverMat | None = None,
) -> ViewReading:
    """Read every region of ``geometry`` in a rectified top view, seen by ``camera`` (by
    default one straight above the mat's middle)."""
    ppm = view.pixels_per_mm
    if camera is None:
        camera = overhead_camera(geometry)
    margin = geometry.play_area.left - view.origin_mm[0]
    reference = mat_reference(geometry, ppm, margin, config.light.reference_blur_px,
                              config.light.ink_band_mm)
    image = normalise(config.light, view, reference)
    labels = pawn_labels(config.pawns, image, profile)
    sightings = find_pawns(config.pawns, labels, profile, ppm, view.origin_mm, camera)
    height, width = image.shape[:2]
    mask = pawn_mask(config.pawns, labels, (width, height), ppm)
    windows = region_windows(geometry, ppm, view.origin_mm, (width, height))
    candidates = _measure(config, view, image, mask, camera, geometry, windows)
    priors = _kind_priors(profile)
    sizes = np.array([prior.diameter_mm for prior in priors])
    presence = _presence(config.coins, candidates)
    chosen = _coins(config.coins, candidates, presence, sizes + config.model.offset_mm)
    frame = fit_frame(config.model, priors, candidates.centres_mm[chosen],
                      candidates.diameters_mm[chosen], presence[chosen],
                      candidates.colours[chosen], candidates.clipped[chosen])
    kinds, probabilities = frame.best()
    confidence = probabilities * np.minimum(1.0, presence[chosen])
    under = candidates.under_pawn[chosen]
    confidence = np.where(under, np.minimum(confidence, config.coins.hidden_confidence),
                          confidence)
    found: dict[str, list[tuple[CoinFit, str, float]]] = {}
    for position, index in enumerate(chosen):
        fit = CoinFit(
            (float(candidates.centres_mm[index, 0]), float(candidates.centres_mm[index, 1])),
            float(candidates.diameters_mm[index]),
            (float(candidates.colours[index, 0]), float(candidates.colours[index, 1])),
            float(candidates.agreement[index]),
        )
        name = windows[candidates.region[index]].name
        found.setdefault(name, []).append((fit, kinds[position], float(confidence[position])))
    doubt = _empty_doubt(config.coins, candidates, presence, chosen, len(windows))
    pawns_at = _pawns_by_region(sightings, geometry)
    regions: dict[str, RegionReading] = {}
    measured: list[tuple[str, CoinFit, str, float]] = []
    for index, window in enumerate(windows):
        pawn = pawns_at.get(window.name)
        pawn_confidence = pawn.confidence if pawn is not None else 1.0
        pawn_name = pawn.colour if pawn is not None else None
        coins = found.get(window.name, [])
        measured.extend((window.name, fit, kind, conf) for fit, kind, conf in coins)
        if pawn is not None and not coins:
            # A pawn hides the middle of whatever it stands on.
            doubt[index] = max(doubt[index], 1.0 - config.coins.hidden_confidence)
        if window.kind in LOOSE_KINDS:
            confidence_here = min([pawn_confidence, 1.0 - doubt[index],
                                   *(conf for _, _, conf in coins)])
            kinds_seen = tuple(sorted({kind for _, kind, _ in coins}))
            regions[window.name] = RegionReading(None, pawn_name, confidence_here,
                                                 count=len(coins), kinds=kinds_seen)
        elif coins:
            fit, kind, conf = max(coins, key=lambda item: item[0].rim_share)
            regions[window.name] = RegionReading(kind, pawn_name, min(conf, pawn_confidence))
        else:
            regions[window.name] = RegionReading(None, pawn_name,
                                                 min(1.0 - doubt[index], pawn_confidence))
    return ViewReading(regions, tuple(measured), tuple(sightings), frame)


def _empty_doubt(config: CoinConfig, candidates: _Candidates, presence: FloatArray,
                 chosen: NDArray[np.intp], region_count: int) -> FloatArray:
    """Per region: how much an empty reading there is in doubt. A candidate not taken for a
    coin casts the doubt of its presence; any seed that stood out strongly (something unlike
    paper and coin-sized lies there, though no rim was fitted to it) casts doubt by its
    strength, ``empty_strength`` of the least a seed needs and up."""
    doubt = np.zeros(region_count)
    rejected = np.ones(len(presence), bool)
    rejected[chosen] = False
    strong = np.clip((candidates.strength - config.empty_strength) / config.empty_strength,
                     0.0, config.strength_doubt)
    for index in np.flatnonzero(rejected & (candidates.seed_region >= 0)):
        region = candidates.seed_region[index]
        doubt[region] = max(doubt[region], float(presence[index]), float(strong[index]))
    return doubt


def _pawns_by_region(sightings: list[PawnSighting], geometry: MatGeometry
                     ) -> dict[str, PawnSighting]:
    """The pawn standing on each region (by its foot), the largest where several do."""
    standing: dict[str, PawnSighting] = {}
    for sighting in sorted(sightings, key=lambda pawn: pawn.area_mm2):
        region = geometry.region_at(sighting.foot_mm)
        if region is not None:
            standing[region.name] = sighting
    return standing


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
    camera = camera_over_mat(location.homography, location.image_size)
    reading = read_view(config.read, view, geometry, profile, camera)
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
    "read_frame",
    "read_frame_details",
    "read_view",
]
