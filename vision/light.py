"""Light divided out against the printed mat.

The top view is compared with the mat's own rendering, and the paper's local brightness and
tint (a median over a window larger than any coin) becomes white, so warm, cold and uneven
light and soft shadows larger than a coin vanish; what is left of a coin's colour is what its
metal makes of the light it mirrors.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

import cv2
import numpy as np

from calibration.geometry import MatGeometry
from vision.arrays import Image
from vision.halves import half_size
from vision.rectify import RectifyConfig, TopView, view_bounds

#: The value paper takes in the normalised top view (leaves headroom for glare above white).
PAPER = 200.0
#: A channel at or above this in the camera's frame was clipped.
CLIPPED = 250


@dataclass(frozen=True)
class LightConfig:
    """How the light is found: the paper's median over ``light_window_mm`` squares at
    ``light_pixels_per_mm`` (the window must exceed the largest coin); the mat's rendering is
    blurred by ``reference_blur_px``, or by ``camera_blur`` of a camera pixel where the
    camera sees the mat coarser than the top view (:func:`reference_blur`). Its ink is
    marked ``ink_band_mm`` wide, and ``dark_band_mm`` wide round dark ink (darker than
    ``dark_ink`` of 255: a wall, a frame, a thick border), whose edge leaves more behind
    where the camera sees it blurred or a fraction of a pixel off than a pale thin line
    does. A printer never prints the mat's tones exactly: each of ``ink_levels`` bands of
    the rendering's tone that covers ``least_ink_share`` of the view gets its own gain, per
    channel. A patch the camera clipped white is a glint (:func:`raise_glints`) where it fills
    ``glint_fill`` of its box or more (a disc fills 0.79 of it)."""

    light_pixels_per_mm: float = 0.125
    light_window_mm: float = 40.0
    reference_blur_px: float = 1.0
    camera_blur: float = 0.6
    ink_band_mm: float = 1.2
    dark_ink: int = 128
    dark_band_mm: float = 3.5
    ink_levels: int = 16
    least_ink_share: float = 0.005
    glint_fill: float = 0.65


def reference_blur(config: LightConfig, pixels_per_mm: float,
                   camera_pixels_per_mm: float) -> float:
    """How much the mat's rendering is blurred (top-view px, in tenths) for a top view of
    ``pixels_per_mm`` of a camera that sees ``camera_pixels_per_mm`` (NaN: unknown) at the
    mat's middle: a printed line looks as wide in the reference as the camera shows it."""
    blur = config.reference_blur_px
    if np.isfinite(camera_pixels_per_mm) and camera_pixels_per_mm > 0:
        blur = max(blur, config.camera_blur * pixels_per_mm / camera_pixels_per_mm)
    return round(blur, 1)


@dataclass(frozen=True, eq=False)
class MatReference:
    """The printed mat as the top view would show it under white light, and where its ink is.

    ``image`` is slightly blurred BGR; ``ink`` marks (255) a band around printed lines,
    letters and symbols, wider round dark ink, where texture says nothing about coins (seeds
    are not looked for there, see :func:`vision.seeds.find_seeds`).
    """

    image: Image
    ink: Image

    @cached_property
    def planes(self) -> tuple[Image, ...]:
        """The rendering's blue, green and red planes, each contiguous: made once for a
        camera session (the reference is), looked up through every frame's gains."""
        return tuple(cv2.split(self.image))


@lru_cache(maxsize=8)
def mat_reference(
    geometry: MatGeometry, pixels_per_mm: float, margin_mm: float, blur_px: float,
    ink_band_mm: float, dark_ink: int = 0, dark_band_mm: float = 0.0,
) -> MatReference:
    """The :class:`MatReference` of ``geometry`` for a top view of this scale and margin
    (see :class:`LightConfig` for the rest)."""
    printed = _printed_mat(geometry, pixels_per_mm, margin_mm, ink_band_mm, dark_ink,
                           dark_band_mm)
    view = printed.image
    if blur_px > 0:
        view = cv2.GaussianBlur(view, (0, 0), blur_px)
    view = np.maximum(view, 40)  # never divide by (near) black
    view.setflags(write=False)
    return MatReference(view, printed.ink)


@lru_cache(maxsize=4)
def _printed_mat(
    geometry: MatGeometry, pixels_per_mm: float, margin_mm: float, ink_band_mm: float,
    dark_ink: int, dark_band_mm: float,
) -> MatReference:
    """The mat's rendering for the top view, unblurred, and where its ink is: the same for
    every frame of a camera session, whatever blur the camera's distance asks of it."""
    from calibration.mats import render_mat

    left, top, width, height = view_bounds(RectifyConfig(pixels_per_mm, margin_mm), geometry)
    full = render_mat(geometry, pixels_per_mm)
    shift = np.array([[1.0, 0.0, -left * pixels_per_mm], [0.0, 1.0, -top * pixels_per_mm]])
    view = cv2.warpAffine(full, shift, (width, height), borderMode=cv2.BORDER_REPLICATE)
    grey = cv2.cvtColor(view, cv2.COLOR_BGR2GRAY)
    edges = cv2.morphologyEx(grey, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
    _, ink = cv2.threshold(edges, 6, 255, cv2.THRESH_BINARY)
    band = max(1, round(ink_band_mm * pixels_per_mm))
    ink = cv2.dilate(ink, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * band + 1,) * 2))
    if dark_band_mm > 0:
        # The edges of dark ink (a filled dark area's edges are also its own, so a tray's
        # fill stays readable inside its band).
        dark = cv2.dilate((grey < dark_ink).astype(np.uint8), np.ones((3, 3), np.uint8))
        _, strong = cv2.threshold(np.where(dark > 0, edges, 0), 6, 255, cv2.THRESH_BINARY)
        reach = max(1, round(dark_band_mm * pixels_per_mm))
        ink = cv2.max(ink, cv2.dilate(strong, cv2.getStructuringElement(
            cv2.MORPH_ELLIPSE, (2 * reach + 1,) * 2)))
    view.setflags(write=False)
    ink.setflags(write=False)
    return MatReference(view, ink)


def normalise(config: LightConfig, view: TopView, reference: MatReference) -> Image:
    """The top view with the light divided out against the printed mat: paper is
    :data:`PAPER` in every channel, a coin's colour its reflectance against the paper's.

    The light is divided out (:func:`divide_light`), then each printed tone's own gain
    (:func:`_ink_gains`): uneven light, a tinted lamp and a printer's tones all vanish.
    """
    lit = divide_light(config, view, reference)
    table = _ink_gains(config, lit, reference, view.pixels_per_mm)
    # Plane by plane: the same products as one multiply by the whole gain image, with a
    # one-channel table lookup (OpenCV's three-channel one costs twice as much a value).
    planes = []
    for channel, (plane, tones) in enumerate(zip(cv2.split(lit), reference.planes, strict=True)):
        gains = cv2.LUT(tones, np.ascontiguousarray(table[:, :, channel]))
        # The float32 product rounded to the nearest byte (ties to even, saturated; gains are
        # positive, so the absolute value changes nothing): what OpenCV's multiply of a byte
        # plane by a float one into bytes gives, for three quarters of its work.
        np.multiply(plane, gains, out=gains)
        planes.append(cv2.convertScaleAbs(gains))
    result = cv2.merge(planes)
    result.setflags(write=False)  # read by every stage, changed by none (vision.halves)
    return result


def divide_light(config: LightConfig, view: TopView, reference: MatReference) -> Image:
    """The view divided by the mat's own rendering, then by the local light: the median of
    that ratio over a window larger than any coin (paper fills most of any such window)."""
    ratio = cv2.divide(view.image, reference.image, scale=100.0)  # paper: 100 x local light
    light_scale = config.light_pixels_per_mm / view.pixels_per_mm
    small = cv2.resize(ratio, None, fx=light_scale, fy=light_scale, interpolation=cv2.INTER_AREA)
    window = int(config.light_window_mm * config.light_pixels_per_mm) | 1
    light = cv2.medianBlur(small, window)
    light = cv2.GaussianBlur(light, (0, 0), max(1.0, window / 6))
    # Never divide by black. Linear interpolation never goes below its darkest sample, so
    # clamping the full-size light (costly) is needed only when the small one reaches 0.
    darkest_light = int(light.min())
    light = cv2.resize(light, (ratio.shape[1], ratio.shape[0]), interpolation=cv2.INTER_LINEAR)
    if darkest_light < 1:
        np.maximum(light, 1, out=light)
    return cv2.divide(ratio, light, scale=PAPER)


def _ink_gains(config: LightConfig, normalised: Image, reference: MatReference,
               pixels_per_mm: float) -> Image:
    """The float gains (a lookup table, 256 x 1 x 3, by the rendering's tone) that bring each
    printed tone back to paper: the printer's light squares, dark squares and lines each
    differ from the rendering in their own way (a lighter ink, a bluer one), which the local
    light, a median over mostly one tone, leaves in. Each tone band's gain is paper over its
    median (coins cover a minority of any tone), measured at 1 px/mm and interpolated between
    bands."""
    scale = 1.0 / pixels_per_mm
    small = cv2.resize(normalised, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    halved = (reference.image.shape[0] // 2, reference.image.shape[1] // 2)
    # The mat's rendering is the same every frame: shrunk once (vision.halves) where it halves.
    tones = half_size(reference.image) if small.shape[:2] == halved else cv2.resize(
        reference.image, (small.shape[1], small.shape[0]), interpolation=cv2.INTER_AREA)
    width = 256 // config.ink_levels
    least = config.least_ink_share * tones.shape[0] * tones.shape[1]
    table = np.ones((256, 3), np.float32)
    centres = np.arange(config.ink_levels) * width + width / 2
    for channel in range(3):
        # Per tone band, the histogram of this channel's values (counts are exact in float32
        # up to 2**24 pixels; OpenCV's 8-bit histogram costs a fraction of numpy's bincount).
        histogram = cv2.calcHist([tones, small], [channel, 3 + channel], None,
                                 [config.ink_levels, 256], [0, 256, 0, 256])
        cumulative = histogram.astype(np.int64).cumsum(axis=1)
        used = cumulative[:, -1] >= max(least, 1)
        if not used.any():
            continue
        medians = np.argmax(cumulative >= cumulative[:, -1:] / 2, axis=1)
        gains = PAPER / np.maximum(medians[used], 1.0)
        table[:, channel] = np.interp(np.arange(256), centres[used], gains)
    return table.reshape(256, 1, 3)


def raise_glints(config: LightConfig, raw: Image, normalised: Image, pixels_per_mm: float,
                 sizes_mm2: tuple[float, float], most_across_mm: float) -> Image:
    """The ``normalised`` view with every glint the camera clipped white (in ``raw``, the
    view as the camera gave it) on paper it did not clip raised to the top the view holds.

    A pixel clipped in every channel is at least as bright as the camera can say, however
    little that is above the paper where the lamp's hot spot lights it: a coin glinting white
    there stands out of the paper by its clipping alone, whatever the normalised view shows
    (a glint has no colour and no texture to show). Clipped patches smaller than the least
    of ``sizes_mm2`` (a speck, a highlight on a face, which its coin's rim shows anyway) are
    left as they are; those larger than the most (more than any coin with its bloom) are
    paper the camera clipped (a hot spot, a laminated mat's glare), where a glint is no
    brighter than the paper; those wider than ``most_across_mm`` or filling less than
    ``config.glint_fill`` of their box are no disc (a corner of clipped paper cut off by the
    mat's ink): all are left as they are.
    """
    # Clipped in every channel: the darkest channel is (a quarter of a 3-channel inRange's work).
    blue, green, red = cv2.split(raw)
    _, white = cv2.threshold(cv2.min(cv2.min(blue, green), red), CLIPPED - 1, 255,
                             cv2.THRESH_BINARY)
    if not cv2.countNonZero(white):
        return normalised
    count, labels, stats, _ = cv2.connectedComponentsWithStats(white, connectivity=8)
    width, height = stats[1:, cv2.CC_STAT_WIDTH], stats[1:, cv2.CC_STAT_HEIGHT]
    area = stats[1:, cv2.CC_STAT_AREA]
    glints = np.zeros(count, bool)
    least, most = (size * pixels_per_mm**2 for size in sizes_mm2)
    glints[1:] = ((area >= least) & (area <= most)
                  & (area >= config.glint_fill * width * height)
                  & (np.maximum(width, height) <= most_across_mm * pixels_per_mm))
    if not glints.any():
        return normalised
    raised = np.array(normalised)
    raised[glints[labels]] = 255
    raised.setflags(write=False)
    return raised
