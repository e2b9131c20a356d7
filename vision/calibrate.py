"""Learning a vision profile: this camera's view of these coins and pawns, from a known layout.

Calibration sees a few frames of the empty mat, then frames in which the user has put one coin
of each kind and each pawn on named squares (:class:`CalibrationLayout`). Every frame goes
through the reader's whole pipeline (:func:`vision.read.read_frame_details`), so the learned
diameters and colours carry exactly the bias of the measurement that will later use them: a
camera that makes pennies look 0.5 mm larger gets a profile whose penny is 0.5 mm larger.
Pawns are found as the coloured (or black) difference from the empty mat on their square,
and their colour against white paper is stored as :class:`~vision.profile.PawnLook` wants it.
The empty frames also prove the mat was empty. Pure functions of images and configuration:
the command ``companion calibrate`` does the capturing.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.geometry import MatGeometry, Rect
from calibration.mats import render_mat
from companion.observation import COIN_KINDS
from vision.errors import VisionError
from vision.profile import CoinLook, PawnLook, VisionProfile
from vision.read import CoinFit, FrameReading, VisionConfig, read_frame_details
from vision.rectify import TopView

Image = NDArray[Any]

#: Squares preferred for the calibration layout, well apart and away from the edges.
PREFERRED_SQUARES = ("c3", "f3", "c6", "f6", "d4", "e5", "b5", "g4", "d7", "e2")


class CalibrationError(VisionError):
    """A calibration that cannot learn from the frames it was given; says what to fix."""


@dataclass(frozen=True)
class CalibrationConfig:
    """How calibration finds and measures things.

    ``difference_level`` is the colour difference (0-255) from the empty mat that marks an
    object; ``size_tolerance`` is how far (as a share) a measured coin may stray from its true
    diameter before calibration refuses it as the wrong coin or a bad frame.
    """

    vision: VisionConfig = field(default_factory=VisionConfig)
    difference_level: float = 28.0
    size_tolerance: float = 0.25


@dataclass(frozen=True)
class CalibrationLayout:
    """Which coin kind (``P``, ``N``, ``D``, ``Q``, ``S``) and pawn colour go on which square."""

    coins: tuple[tuple[str, str], ...]
    pawns: tuple[tuple[str, str], ...] = ()

    def instructions(self) -> tuple[str, ...]:
        """One line per object, e.g. ``put a penny (P) on c3``."""
        lines = [f"put a {COIN_KINDS[kind][0]} ({kind}) on {square}" for kind, square in self.coins]
        lines += [f"put the {colour} pawn on {square}" for colour, square in self.pawns]
        return tuple(lines)

    def squares(self) -> dict[str, str]:
        """Square -> coin letter, for rendering the layout (pawns not included)."""
        return {square: kind for kind, square in self.coins}

    def used_squares(self) -> frozenset[str]:
        """Every square the layout puts something on."""
        return frozenset(square for _, square in self.coins + self.pawns)

    def pawns_by_square(self) -> dict[str, str]:
        """Square -> pawn colour, for rendering the layout."""
        return {square: colour for colour, square in self.pawns}


@dataclass(frozen=True)
class CoinMeasure:
    """One coin as calibration measured it."""

    kind: str
    square: str
    diameter_mm: float
    colour: tuple[float, float]


@dataclass(frozen=True)
class PawnMeasure:
    """One pawn as calibration measured it."""

    name: str
    square: str
    colour: tuple[float, float, float]
    diameter_mm: float


@dataclass(frozen=True)
class Calibration:
    """The learned profile and the measurements it came from (for the report)."""

    profile: VisionProfile
    coins: tuple[CoinMeasure, ...]
    pawns: tuple[PawnMeasure, ...]

    def report(self) -> tuple[str, ...]:
        """Lines for the user: each coin's measured size against its true size, each pawn."""
        lines = []
        for coin in self.coins:
            true = COIN_KINDS[coin.kind][1]
            lines.append(
                f"{COIN_KINDS[coin.kind][0]:8} on {coin.square}: {coin.diameter_mm:6.2f} mm "
                f"(true {true:.2f}), colour {coin.colour[0]:+.2f} {coin.colour[1]:+.2f}"
            )
        for pawn in self.pawns:
            blue, green, red = pawn.colour
            lines.append(
                f"{pawn.name + ' pawn':8} on {pawn.square}: colour against paper "
                f"red {red:.2f} green {green:.2f} blue {blue:.2f}, {pawn.diameter_mm:.1f} mm across"
            )
        return tuple(lines)


def calibration_layout(
    geometry: MatGeometry, kinds: str = "PNDQ", pawns: Sequence[str] = ("red", "blue")
) -> CalibrationLayout:
    """One coin of each of ``kinds`` and each pawn on well-separated squares of ``geometry``."""
    for kind in kinds:
        if kind not in COIN_KINDS:
            raise CalibrationError(
                f"unknown coin kind {kind!r}; use letters of {''.join(COIN_KINDS)}"
            )
    if len(set(kinds)) != len(kinds) or len(set(pawns)) != len(pawns):
        raise CalibrationError("each coin kind and each pawn colour may be laid out only once")
    names = geometry.region_names()
    preferred = [name for name in PREFERRED_SQUARES if name in names]
    squares = preferred + [name for name in names[::2] if name not in preferred]
    needed = len(kinds) + len(pawns)
    if needed > len(squares):
        raise CalibrationError(
            f"mat {geometry.name!r} has too few regions for {needed} calibration objects"
        )
    coins = tuple(zip(kinds, squares, strict=False))
    placed_pawns = tuple(zip(pawns, squares[len(kinds):], strict=False))
    return CalibrationLayout(coins, placed_pawns)


def read_calibration_frame(config: CalibrationConfig, image: Image, geometry: MatGeometry,
                           base: VisionProfile) -> FrameReading:
    """Read ``image`` exactly as play will (find, rectify, read); raises MatNotFoundError
    when the mat is not seen."""
    return read_frame_details(config.vision, image, geometry, base)


def empty_background(views: Sequence[TopView]) -> Image:
    """The per-pixel median of the empty-mat views: the background with noise averaged out."""
    if not views:
        raise CalibrationError("calibration needs at least one frame of the empty mat")
    stack = np.stack([view.image.astype(np.float32) for view in views])
    return np.median(stack, axis=0).astype(np.float32)


@dataclass(frozen=True)
class _Crop:
    """A square's neighbourhood in the layout view and the background, with its offset."""

    layout: Image
    background: Image
    origin: tuple[int, int]
    centre_px: tuple[float, float]
    pixels_per_mm: float


def _crop(view: TopView, background: Image, rect: Rect, grow: float = 1.3) -> _Crop:
    scale = view.pixels_per_mm
    half_w, half_h = rect.size[0] * grow / 2, rect.size[1] * grow / 2
    x0, y0 = view.to_pixels(rect.centre[0] - half_w, rect.centre[1] - half_h)
    x1, y1 = view.to_pixels(rect.centre[0] + half_w, rect.centre[1] + half_h)
    height, width = view.image.shape[:2]
    left, top = max(0, int(x0)), max(0, int(y0))
    right, bottom = min(width, int(x1) + 1), min(height, int(y1) + 1)
    cx, cy = view.to_pixels(*rect.centre)
    return _Crop(
        view.image[top:bottom, left:right].astype(np.float32),
        background[top:bottom, left:right],
        (left, top),
        (cx - left, cy - top),
        scale,
    )


def _object_mask(crop: _Crop, level: float) -> Image:
    """Pixels that differ from the empty mat, after matching the paper's brightness per channel."""
    ratio = crop.layout / np.maximum(crop.background, 1.0)
    gain = np.median(ratio.reshape(-1, 3), axis=0)
    difference = np.abs(crop.layout - crop.background * gain).max(axis=2)
    mask = (difference > level).astype(np.uint8) * 255
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel)
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)


def _central_blob(mask: Image, centre: tuple[float, float], min_area_px: float) -> Image | None:
    """The filled blob nearest ``centre`` with at least ``min_area_px`` pixels, or None."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    best, best_distance = None, math.inf
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < min_area_px:
            continue
        moments = cv2.moments(contour)
        cx, cy = moments["m10"] / moments["m00"], moments["m01"] / moments["m00"]
        distance = math.dist((cx, cy), centre)
        if distance < best_distance:
            best, best_distance = contour, distance
    if best is None:
        return None
    blob = np.zeros_like(mask)
    cv2.drawContours(blob, [best], -1, 255, cv2.FILLED)
    return blob


def _square_rect(geometry: MatGeometry, square: str) -> Rect:
    region = geometry.region(square)
    if isinstance(region.shape, Rect):
        return region.shape
    return Rect(region.centre, (2 * region.shape.radius, 2 * region.shape.radius))


def measure_coins(config: CalibrationConfig, reading: FrameReading, layout: CalibrationLayout,
                  base: VisionProfile) -> tuple[CoinMeasure, ...]:
    """Each layout coin as the reader measured it; raises CalibrationError for a missing or
    wrong one, naming its square."""
    fits: dict[str, list[CoinFit]] = {}
    for region, fit, _kind, _confidence in reading.coins:
        fits.setdefault(region, []).append(fit)
    measures = []
    for kind, square in layout.coins:
        name, true_diameter = COIN_KINDS[kind][0], COIN_KINDS[kind][1]
        if not fits.get(square):
            raise CalibrationError(f"no {name} found on {square}: put a {name} ({kind}) there")
        fit = max(fits[square], key=lambda item: item.rim_share)
        diameter = fit.diameter_mm * base.diameter_scale
        if abs(diameter / true_diameter - 1) > config.size_tolerance:
            raise CalibrationError(
                f"the coin on {square} measures {diameter:.1f} mm but a {name} is "
                f"{true_diameter:.2f} mm: put a {name} ({kind}) on {square}, alone and flat"
            )
        if not all(math.isfinite(value) for value in fit.colour):
            raise CalibrationError(
                f"the colour of the {name} on {square} could not be seen: move the light "
                "so it does not glare on the coin"
            )
        measures.append(CoinMeasure(kind, square, round(diameter, 3), _rounded(fit.colour)))
    return tuple(measures)


def check_empty(reading: FrameReading, squares: Collection[str] | None = None) -> None:
    """Raise CalibrationError when the reader sees a coin on the supposedly empty mat.

    Only ``squares`` are checked when given (those the layout uses): elsewhere a forgotten coin
    does no harm, and neither does a glint the reader takes for one.
    """
    seen = {region for region, *_ in reading.coins if squares is None or region in squares}
    if seen:
        names = ", ".join(sorted(seen)[:4])
        raise CalibrationError(f"the mat is not empty (something lies on {names}): clear it")


def _rounded(pair: tuple[float, float]) -> tuple[float, float]:
    return (round(pair[0], 4), round(pair[1], 4))


@lru_cache(maxsize=4)
def printed_view(geometry: MatGeometry, pixels_per_mm: float, origin_mm: tuple[float, float],
                 size: tuple[int, int]) -> Image:
    """The printed mat as a top view with this scale, origin and size shows it (BGR uint8)."""
    full = render_mat(geometry, pixels_per_mm)
    shift = np.array([[1.0, 0.0, -origin_mm[0] * pixels_per_mm],
                      [0.0, 1.0, -origin_mm[1] * pixels_per_mm]])
    return cv2.warpAffine(full, shift, size, borderMode=cv2.BORDER_REPLICATE)


def _reflectance(crop: _Crop, printed: Image) -> Image:
    """The layout's colour against white paper: against the empty mat under the same light,
    times what was printed there (float32, 1.0 = white paper)."""
    ratio = crop.layout / np.maximum(crop.background, 1.0)
    gain = np.median(ratio.reshape(-1, 3), axis=0)
    return np.asarray(ratio / gain * (printed.astype(np.float32) / 255.0), np.float32)


def measure_pawn(config: CalibrationConfig, view: TopView, background: Image,
                 geometry: MatGeometry, square: str, name: str,
                 base: VisionProfile) -> PawnMeasure:
    """Measure the pawn on ``square``: the median colour against white paper of its coloured
    (or, for a black pawn, its dark) pixels, and the size of the object."""
    crop = _crop(view, background, _square_rect(geometry, square))
    height, width = view.image.shape[:2]
    printed = printed_view(geometry, view.pixels_per_mm, view.origin_mm, (width, height))
    left, top = crop.origin
    rows, columns = crop.layout.shape[:2]
    reflectance = _reflectance(crop, printed[top:top + rows, left:left + columns])
    min_area = math.pi * (4.0 * crop.pixels_per_mm) ** 2
    blob = _central_blob(_object_mask(crop, config.difference_level), crop.centre_px, min_area)
    if blob is None:
        raise CalibrationError(f"no {name} pawn found on {square}: stand the {name} pawn there")
    as_image = np.clip(reflectance * 200.0, 0, 255).astype(np.uint8)
    hsv = cv2.cvtColor(as_image, cv2.COLOR_BGR2HSV)
    inside = blob > 0
    coloured = inside & (hsv[:, :, 1] >= 255 * base.pawn_min_saturation)
    dark = inside & (hsv[:, :, 2] < 1.5 * base.pawn_dark_value * 200.0)
    chosen = coloured if np.count_nonzero(coloured) >= np.count_nonzero(dark) else dark
    if np.count_nonzero(chosen) < min_area / 4:
        raise CalibrationError(
            f"the object on {square} is neither coloured nor black: stand the {name} pawn there"
        )
    colour = np.median(reflectance[chosen].astype(np.float64), axis=0)
    diameter = 2 * math.sqrt(np.count_nonzero(blob) / math.pi) / crop.pixels_per_mm
    blue, green, red = (round(float(np.clip(value, 0.0, 1.0)), 4) for value in colour)
    return PawnMeasure(name, square, (blue, green, red), round(diameter, 2))


def learn_background(config: CalibrationConfig, geometry: MatGeometry,
                     empty_frames: Sequence[Image], base: VisionProfile | None = None,
                     squares: Collection[str] | None = None) -> Image:
    """The empty mat's top view (float32, median of the frames), the background of a layout.

    Raises :class:`CalibrationError` when the reader sees a coin on it (on ``squares`` only,
    when given: pass the layout's).
    """
    base = base or VisionProfile.default()
    readings = [read_calibration_frame(config, image, geometry, base) for image in empty_frames]
    for reading in readings:
        check_empty(reading, squares)
    return empty_background([reading.view for reading in readings])


def learn_from_layout(
    config: CalibrationConfig,
    geometry: MatGeometry,
    background: Image,
    layout_frames: Sequence[Image],
    layout: CalibrationLayout,
    base: VisionProfile | None = None,
) -> Calibration:
    """Measure every object of ``layout`` in each of ``layout_frames``, and learn.

    Each object's measurements are combined by their median over the frames (several frames
    average out sensor noise). Measured kinds get their measured diameter and colour; kinds the
    layout does not hold keep their base colour and get their true diameter scaled like the
    measured ones. Pawns are the layout's pawns with their measured colours; pawn colours the
    layout does not hold keep their base looks. Raises :class:`CalibrationError` naming the
    square whose object is missing or wrong.
    """
    if not layout_frames:
        raise CalibrationError("calibration needs at least one frame of the layout")
    base = base or VisionProfile.default()
    coin_rounds, pawn_rounds = [], []
    for frame in layout_frames:
        reading = read_calibration_frame(config, frame, geometry, base)
        view = reading.view
        coin_rounds.append(measure_coins(config, reading, layout, base))
        pawn_rounds.append(tuple(
            measure_pawn(config, view, background, geometry, square, name, base)
            for name, square in layout.pawns
        ))
    coins = tuple(_median_coin(measures) for measures in zip(*coin_rounds, strict=True))
    pawns = tuple(_median_pawn(measures) for measures in zip(*pawn_rounds, strict=True))
    return Calibration(_profile_from(base, coins, pawns), coins, pawns)


def _median(values: Sequence[float]) -> float:
    return round(float(np.median(values)), 4)


def _median_coin(measures: Sequence[CoinMeasure]) -> CoinMeasure:
    first = measures[0]
    return CoinMeasure(
        first.kind, first.square, _median([m.diameter_mm for m in measures]),
        (_median([m.colour[0] for m in measures]), _median([m.colour[1] for m in measures])),
    )


def _median_pawn(measures: Sequence[PawnMeasure]) -> PawnMeasure:
    first = measures[0]
    blue, green, red = (_median([m.colour[index] for m in measures]) for index in range(3))
    return PawnMeasure(first.name, first.square, (blue, green, red),
                       _median([m.diameter_mm for m in measures]))


def learn_profile(
    config: CalibrationConfig,
    geometry: MatGeometry,
    empty_frames: Sequence[Image],
    layout_frames: Sequence[Image],
    layout: CalibrationLayout,
    base: VisionProfile | None = None,
) -> Calibration:
    """Learn a profile from frames of the empty mat and frames of ``layout`` (both steps of
    :func:`learn_background` and :func:`learn_from_layout`)."""
    background = learn_background(config, geometry, empty_frames, base, layout.used_squares())
    return learn_from_layout(config, geometry, background, layout_frames, layout, base)


def metal_colours(coins: Sequence[CoinMeasure]) -> dict[str, tuple[float, float]]:
    """Metal -> the median colour of the measured coins of that metal.

    Colour belongs to the metal, not the kind: nickels, dimes and quarters are all silver, and
    letting one tarnished dime's colour differ from one quarter's would make colour noise
    decide between sizes.
    """
    by_metal: dict[str, list[tuple[float, float]]] = {}
    for coin in coins:
        by_metal.setdefault(COIN_KINDS[coin.kind][2], []).append(coin.colour)
    return {
        metal: (_median([c[0] for c in colours]), _median([c[1] for c in colours]))
        for metal, colours in by_metal.items()
    }


def _profile_from(base: VisionProfile, coins: Sequence[CoinMeasure],
                  pawns: Sequence[PawnMeasure]) -> VisionProfile:
    """Measured kinds take their measured size; every kind of a measured metal takes that
    metal's colour; the rest keep the base look, sizes scaled like the measured ones."""
    measured: Mapping[str, CoinMeasure] = {coin.kind: coin for coin in coins}
    metals = metal_colours(coins)
    scales = [coin.diameter_mm / COIN_KINDS[coin.kind][1] for coin in coins]
    scale = float(np.median(scales)) if scales else 1.0
    looks = []
    for look in base.coins:
        colour = metals.get(COIN_KINDS[look.kind][2], look.colour)
        if look.kind in measured:
            diameter = measured[look.kind].diameter_mm
        else:
            diameter = round(COIN_KINDS[look.kind][1] * scale, 3)
        looks.append(CoinLook(look.kind, diameter, colour))
    profile = replace(base, coins=tuple(looks), diameter_scale=1.0)
    if pawns:
        learned = {pawn.name: PawnLook(pawn.name, pawn.colour) for pawn in pawns}
        kept = tuple(look for look in base.pawns if look.name not in learned)
        profile = replace(profile, pawns=tuple(learned.values()) + kept)
    profile.check("the learned profile")
    return profile
