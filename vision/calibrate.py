"""Learning a vision profile: this camera's view of these coins and pawns, from a known layout.

Calibration sees a few frames of the empty mat, then frames in which the user has put one coin
of each kind and each pawn on named squares (:class:`CalibrationLayout`). Every layout frame
goes through the reader's whole pipeline (:func:`vision.read.read_frame_details`), so the learned
diameters and colours carry exactly the bias of the measurement that will later use them: a
camera that makes pennies look 0.5 mm larger gets a profile whose penny is 0.5 mm larger.
Pawns are found as the coloured (or black) difference from the empty mat on their square,
and their colour against white paper is stored as :class:`~calibration.profile.PawnLook` wants it.

The empty frames are compared with the printed mat (:mod:`vision.clutter`: round outlines of
a coin's size, never shading), which proves the mat was empty without asking the reader. Each
layout frame is measured on its own (:func:`measure_layout_frame`) and the frames are combined
(:func:`combine_layout`): an object counts from every frame it was found in, one no frame
found is learned from the other coins with a warning, and a coin whose face glare washed out
takes its metal's colour from the other coins of that metal; only a layout with no coin found
at all stops calibration. Pure functions of images and configuration: the command
``companion calibrate`` does the capturing.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.geometry import MatGeometry, Rect
from calibration.profile import VisionProfile
from contract.observation import COIN_KINDS
from vision.calibration_combine import (
    Calibration,
    CoinMeasure,
    LayoutFrame,
    PawnMeasure,
    Problem,
    combine_layout,
    listed,
)
from vision.camera_pose import focal_from_homography
from vision.clutter import cluttered_regions, find_clutter, printed_view
from vision.errors import CalibrationError
from vision.markers import BoardLocation, find_board
from vision.read import CoinFit, FrameReading, VisionConfig, read_frame_details
from vision.rectify import TopView, rectify

Image = NDArray[Any]

#: Squares preferred for the calibration layout, well apart and away from the edges.
PREFERRED_SQUARES = ("c3", "f3", "c6", "f6", "d4", "e5", "b5", "g4", "d7", "e2")


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

    def pawns_by_square(self) -> dict[str, str]:
        """Square -> pawn colour, for rendering the layout."""
        return {square: colour for colour, square in self.pawns}


def calibration_layout(
    geometry: MatGeometry, kinds: str, pawns: Sequence[str]
) -> CalibrationLayout:
    """One coin of each of ``kinds`` and each pawn on well-separated squares of ``geometry``
    (the game's coins and pawn colours: see its ``GameInfo``)."""
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
                           base: VisionProfile, location: BoardLocation | None = None
                           ) -> FrameReading:
    """Read ``image`` exactly as play will (find, rectify, read; the board ``location`` when
    it is already known); raises MatNotFoundError when the mat is not seen."""
    return read_frame_details(config.vision, image, geometry, base, location)


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


#: A channel at or above this level in the camera's frame is clipped (glare, not the metal).
CLIPPED_LEVEL = 250
#: A coin's face is washed out when more than ``WASHED_OUT_SHARE`` of it, out to
#: ``FACE_REACH`` of its radius (inside the rim), is clipped.
WASHED_OUT_SHARE = 0.6
FACE_REACH = 0.85


def washed_out(view: TopView, centre_mm: tuple[float, float], diameter_mm: float) -> bool:
    """Whether glare clipped most of the face of the coin at ``centre_mm`` white in ``view``:
    whatever colour is read there is the lamp's, not the metal's (judged here, whatever tint
    the reader may still find at the coin's edge)."""
    centre_x, centre_y = view.to_pixels(*centre_mm)
    radius = FACE_REACH * diameter_mm / 2 * view.pixels_per_mm
    height, width = view.image.shape[:2]
    left, top = max(0, int(centre_x - radius)), max(0, int(centre_y - radius))
    right = min(width, int(centre_x + radius) + 2)
    bottom = min(height, int(centre_y + radius) + 2)
    rows, columns = np.mgrid[top:bottom, left:right]
    inside = (columns - centre_x) ** 2 + (rows - centre_y) ** 2 <= radius**2
    if not inside.any():
        return False
    clipped = view.image[top:bottom, left:right].max(axis=2) >= CLIPPED_LEVEL
    return float(clipped[inside].mean()) > WASHED_OUT_SHARE


def measure_coin(config: CalibrationConfig, view: TopView, fits: Sequence[CoinFit], kind: str,
                 square: str, base: VisionProfile) -> CoinMeasure | Problem:
    """The coin of ``kind`` on ``square`` of ``view`` from the reader's ``fits`` there (the
    best-fitting one), or the problem: none found, or the wrong size. A face glare washed out
    is no problem here: its colour is None, and other coins of its metal may stand in for it."""
    name, true_diameter = COIN_KINDS[kind][0], COIN_KINDS[kind][1]
    if not fits:
        return Problem(f"no {name} found on {square}", f"put a {name} ({kind}) there")
    fit = max(fits, key=lambda item: item.rim_share)
    diameter = fit.diameter_mm * base.diameter_scale
    if abs(diameter / true_diameter - 1) > config.size_tolerance:
        return Problem(
            f"the coin on {square} measures {diameter:.1f} mm but a {name} is "
            f"{true_diameter:.2f} mm", f"put a {name} ({kind}) on {square}, alone and flat",
        )
    seen = all(math.isfinite(value) for value in fit.colour)
    seen = seen and not washed_out(view, fit.centre_mm, fit.diameter_mm)
    return CoinMeasure(kind, square, round(diameter, 3), _rounded(fit.colour) if seen else None)


def check_clear(geometry: MatGeometry, image: Image, location: BoardLocation) -> None:
    """Raise CalibrationError when anything lies on the play area of the supposedly empty mat
    (compared with the printed mat, see :func:`vision.clutter.find_clutter`)."""
    squares = cluttered_regions(geometry, find_clutter(geometry, image, location))
    if squares:
        raise CalibrationError(f"clear the mat: something lies on {listed(squares)}")


def _rounded(pair: tuple[float, float]) -> tuple[float, float]:
    return (round(pair[0], 4), round(pair[1], 4))


def _reflectance(crop: _Crop, printed: Image) -> Image:
    """The layout's colour against white paper: against the empty mat under the same light,
    times what was printed there (float32, 1.0 = white paper)."""
    ratio = crop.layout / np.maximum(crop.background, 1.0)
    gain = np.median(ratio.reshape(-1, 3), axis=0)
    return np.asarray(ratio / gain * (printed.astype(np.float32) / 255.0), np.float32)


def measure_pawn(config: CalibrationConfig, view: TopView, background: Image,
                 geometry: MatGeometry, square: str, name: str,
                 base: VisionProfile) -> PawnMeasure:
    """Measure the pawn on ``square``: the median colour against white paper of the purer
    half of its coloured pixels (or, for a black pawn, of its dark ones), and the size of the
    object."""
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
    if chosen is coloured:
        # The paint's own colour is its purest: the pawn's shaded side and the shadow it
        # casts, brown or grey, are less saturated (their hue drifts towards the metals').
        saturation = hsv[:, :, 1]
        chosen = coloured & (saturation >= np.median(saturation[coloured]))
    colour = np.median(reflectance[chosen].astype(np.float64), axis=0)
    diameter = 2 * math.sqrt(np.count_nonzero(blob) / math.pi) / crop.pixels_per_mm
    blue, green, red = (round(float(np.clip(value, 0.0, 1.0)), 4) for value in colour)
    return PawnMeasure(name, square, (blue, green, red), round(diameter, 2))


def learn_background(config: CalibrationConfig, geometry: MatGeometry,
                     empty_frames: Sequence[Image]) -> Image:
    """The empty mat's top view (float32, median of the frames), the background of a layout.

    Raises :class:`CalibrationError` when anything lies on the play area of a frame.
    """
    views = []
    for image in empty_frames:
        location = find_board(config.vision.markers, image, geometry)
        check_clear(geometry, image, location)
        views.append(rectify(config.vision.rectify, image, location, geometry))
    return empty_background(views)


def learn_focal(config: CalibrationConfig, geometry: MatGeometry,
                empty_frames: Sequence[Image]) -> float | None:
    """The camera's focal length (px), the median of what each frame of the empty mat's
    homography tells (:func:`vision.camera_pose.focal_from_homography`); None when none
    tells it (a camera straight above the mat)."""
    focals = []
    for image in empty_frames:
        location = find_board(config.vision.markers, image, geometry)
        focal = focal_from_homography(location.homography, location.image_size)
        if focal is not None:
            focals.append(focal)
    return float(np.median(focals)) if focals else None


def with_focal(calibration: Calibration, focal_px: float | None) -> Calibration:
    """``calibration`` whose profile holds the camera's focal length ``focal_px``."""
    return replace(calibration, profile=replace(calibration.profile, focal_px=focal_px))


def measure_layout_frame(
    config: CalibrationConfig, geometry: MatGeometry, background: Image, image: Image,
    layout: CalibrationLayout, base: VisionProfile | None = None, name: str = "frame",
    location: BoardLocation | None = None,
) -> LayoutFrame:
    """Measure every object of ``layout`` in one frame, read as play will read it (knowing
    only the layout's coin kinds, the game's, as the table's reader does: a kind the game
    has not, such as the dollar, would fit rims of its own size round the layout's coins and
    pawns); objects that cannot be measured in it are kept as problems (another frame may
    show them)."""
    base = base or VisionProfile.default()
    kinds = "".join(kind for kind, _ in layout.coins)
    reading = read_calibration_frame(config, image, geometry,
                                     base.only_kinds(kinds) if kinds else base, location)
    fits: dict[str, list[CoinFit]] = {}
    for region, fit, _kind, _confidence in reading.coins:
        fits.setdefault(region, []).append(fit)
    coins: dict[str, CoinMeasure] = {}
    pawns: dict[str, PawnMeasure] = {}
    problems: dict[str, Problem] = {}
    for kind, square in layout.coins:
        coin = measure_coin(config, reading.view, fits.get(square, []), kind, square, base)
        if isinstance(coin, Problem):
            problems[square] = coin
        else:
            coins[square] = replace(coin, frames=(name,))
    for colour, square in layout.pawns:
        try:
            pawn = measure_pawn(config, reading.view, background, geometry, square, colour,
                                base)
        except CalibrationError as error:
            what, _, fix = str(error).partition(": ")
            problems[square] = Problem(what, fix)
        else:
            pawns[square] = replace(pawn, frames=(name,))
    return LayoutFrame(name, coins, pawns, problems)


def learn_from_layout(
    config: CalibrationConfig,
    geometry: MatGeometry,
    background: Image,
    layout_frames: Sequence[Image],
    layout: CalibrationLayout,
    base: VisionProfile | None = None,
    names: Sequence[str] | None = None,
) -> Calibration:
    """Measure every object of ``layout`` in each of ``layout_frames`` (named ``names``, by
    default ``frame 1`` and on) and learn: :func:`measure_layout_frame` on each, then
    :func:`combine_layout`. Raises :class:`CalibrationError` when no coin of the layout was
    found in any frame."""
    if not layout_frames:
        raise CalibrationError("calibration needs at least one frame of the layout")
    names = names or [f"frame {number}" for number in range(1, len(layout_frames) + 1)]
    measured = [
        measure_layout_frame(config, geometry, background, image, layout, base, name)
        for image, name in zip(layout_frames, names, strict=True)
    ]
    return combine_layout(measured, layout, base)


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
    background = learn_background(config, geometry, empty_frames)
    calibration = learn_from_layout(config, geometry, background, layout_frames, layout, base)
    return with_focal(calibration, learn_focal(config, geometry, empty_frames))


