"""The webcam: lens, sensor and processing from scene radiance to a JPEG frame.

Order as in a camera: the lens (lateral chromatic aberration scales the red and blue images
about the centre, vignetting darkens the corners, defocus and motion blur), auto-exposure (a
centre-weighted meter brought to a target level, missing it by a set error), the sensor's
colour response (saturation), the Bayer mosaic (one colour per pixel, RGGB), shot and read
noise on it, white-balance gains (grey-world or the brightest paper, kept to black-body
colours, applied only partly), clipping, demosaicing, the tone curve (sRGB with an optional
S-curve), unsharp masking and JPEG compression. Only the noise depends on the
frame's seed: everything else is a property of the camera and the scene. The defocus adds to
an optical low-pass filter (as on real sensors) that keeps sub-pixel glints from turning into
coloured demosaicing dots.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.synth.physical.materials import kelvin_rgb
from vision.synth.physical.variation import SensorParams

F32 = npt.NDArray[Any]  # float32; numpy typing loses dtypes in arithmetic
Image = npt.NDArray[np.uint8]
#: Blur (Gaussian sigma, px) of the sensor's optical low-pass filter, always present.
OLPF_PX = 0.6
_LUMA = np.array([0.2126, 0.7152, 0.0722], np.float32)


def _radius2(size: tuple[int, int]) -> F32:
    width, height = size
    x = (np.arange(width, dtype=np.float32) - (width - 1) / 2)[None, :]
    y = (np.arange(height, dtype=np.float32) - (height - 1) / 2)[:, None]
    return np.asarray((x * x + y * y) / ((width / 2) ** 2 + (height / 2) ** 2), np.float32)


def _scaled(plane: F32, scale: float) -> F32:
    """``plane`` magnified by ``scale`` about the frame centre."""
    height, width = plane.shape
    cx, cy = (width - 1) / 2, (height - 1) / 2
    matrix = np.array([[scale, 0, (1 - scale) * cx], [0, scale, (1 - scale) * cy]], np.float32)
    return np.asarray(cv2.warpAffine(plane, matrix, (width, height), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_REFLECT))


#: Where auto-exposure puts the 90th percentile of luminance at most (1 clips).
HIGHLIGHT_LEVEL = 0.92
#: The most blur (sigma, as a share of a marker cell's width in pixels) that keeps the mat's
#: markers reliably detectable: a camera that blurry is refocused before a game.
MAX_BLUR_PER_CELL = 0.095


def capped(params: SensorParams, cell_px: float) -> SensorParams:
    """``params`` with defocus and motion blur scaled down (together) if their total blur
    would exceed :data:`MAX_BLUR_PER_CELL` of a marker cell ``cell_px`` pixels wide."""
    motion = params.motion_px / math.sqrt(12)
    limit = MAX_BLUR_PER_CELL * cell_px
    total = math.sqrt(params.blur_px**2 + motion**2 + OLPF_PX**2)
    if total <= limit:
        return params
    room = max(limit**2 - OLPF_PX**2, 0.0)
    scale = math.sqrt(room / max(params.blur_px**2 + motion**2, 1e-9))
    return replace(params, blur_px=params.blur_px * scale, motion_px=params.motion_px * scale)


def lens(image: F32, params: SensorParams) -> F32:
    """Chromatic aberration, vignetting, defocus and motion blur of linear RGB ``image``."""
    height, width = image.shape[:2]
    out = image.copy()
    if params.chromatic > 0:
        out[..., 0] = _scaled(out[..., 0], 1 + params.chromatic)
        out[..., 2] = _scaled(out[..., 2], 1 - params.chromatic)
    falloff = 1.0 / (1.0 + params.vignetting * _radius2((width, height))) ** 2
    out *= falloff[..., None]
    out = cv2.GaussianBlur(out, (0, 0), math.hypot(params.blur_px, OLPF_PX))
    if params.motion_px >= 1:
        length = math.ceil(params.motion_px) | 1
        kernel = np.zeros((length, length), np.float32)
        centre = length // 2
        angle = math.radians(params.motion_deg)
        for step in np.linspace(-params.motion_px / 2, params.motion_px / 2, 4 * length):
            x, y = centre + step * math.cos(angle), centre + step * math.sin(angle)
            kernel[min(length - 1, round(y)), min(length - 1, round(x))] += 1
        out = cv2.filter2D(out, -1, kernel / kernel.sum(), borderType=cv2.BORDER_REFLECT)
    return np.asarray(out, np.float32)


def exposure(image: F32, params: SensorParams) -> float:
    """Gain bringing a centre-weighted mean luminance to the target, off by the error, but no
    more than keeps the brightest tenth of the frame below :data:`HIGHLIGHT_LEVEL`."""
    small = cv2.resize(image, (image.shape[1] // 8, image.shape[0] // 8),
                       interpolation=cv2.INTER_AREA)
    luma = small @ _LUMA
    weight = np.exp(-_radius2((small.shape[1], small.shape[0])) / 0.5)
    meter = float((luma * weight).sum() / weight.sum())
    gain = params.exposure_target / max(meter, 1e-6) * 2.0**params.exposure_error_ev
    # Highlight guard: the brightest tenth of the picture (the paper, mostly) stays unclipped.
    return min(gain, HIGHLIGHT_LEVEL / max(float(np.quantile(luma, 0.9)), 1e-6))


def _locus() -> tuple[F32, F32]:
    """Colour temperatures 1,800-14,000 K and their chromaticities (r/g, b/g)."""
    kelvins = np.geomspace(1800, 14000, 64).astype(np.float32)
    rgb = np.array([kelvin_rgb(float(k)) for k in kelvins], np.float32)
    chroma = np.column_stack([rgb[:, 0] / rgb[:, 1], rgb[:, 2] / rgb[:, 1]])
    return kelvins, np.maximum(chroma, 0.05)


def white_gains(image: F32, params: SensorParams) -> F32:
    """Per-channel gains (green 1) of a partial white balance estimated from ``image``.

    The illuminant is estimated from the grey world or the brightest paper, then snapped to
    the nearest black-body colour (as camera auto white balance keeps to the light sources it
    expects), and corrected by ``wb_strength`` of the way.
    """
    small = cv2.resize(image, (image.shape[1] // 8, image.shape[0] // 8),
                       interpolation=cv2.INTER_AREA).reshape(-1, 3)
    if params.wb_mode == "paper":
        luma = small @ _LUMA
        unclipped = small.max(axis=1) < 0.98
        level = np.quantile(luma[unclipped], 0.85) if unclipped.any() else 0.0
        chosen = small[unclipped & (luma >= level)]
        mean = chosen.mean(axis=0) if len(chosen) else small.mean(axis=0)
    else:
        mean = small.mean(axis=0)
    mean = np.maximum(mean, 1e-6)
    _kelvins, chroma = _locus()
    seen = np.array([mean[0] / mean[1], mean[2] / mean[1]], np.float32)
    nearest = int(np.argmin(((np.log(chroma) - np.log(seen)) ** 2).sum(axis=1)))
    light = np.array([chroma[nearest, 0], 1.0, chroma[nearest, 1]], np.float32)
    return np.asarray((1.0 / light) ** params.wb_strength, np.float32)


def _tone_table(contrast: float) -> Image:
    """16-bit linear -> 8-bit: the sRGB curve, then an S-curve of strength ``contrast``."""
    value = np.arange(65536, dtype=np.float64) / 65535.0
    encoded = np.where(value <= 0.0031308, 12.92 * value, 1.055 * value ** (1 / 2.4) - 0.055)
    curved = encoded + contrast * (encoded * encoded * (3 - 2 * encoded) - encoded)
    return np.clip(np.round(curved * 255), 0, 255).astype(np.uint8)


def develop(radiance: F32, params: SensorParams, seed: int) -> tuple[Image, bytes]:
    """The frame the webcam delivers from linear RGB scene ``radiance``: the decoded BGR
    uint8 image and its JPEG bytes."""
    optical = lens(radiance, params)
    optical *= np.float32(exposure(optical, params))
    if params.saturation != 1.0:
        s = params.saturation
        matrix = (s * np.eye(3) + (1 - s) * np.tile(_LUMA, (3, 1))).astype(np.float32)
        optical = cv2.transform(optical, matrix)
    gains = white_gains(optical, params)
    height, width = optical.shape[:2]
    raw = np.empty((height, width), np.float32)
    raw[0::2, 0::2] = optical[0::2, 0::2, 0] * gains[0]
    raw[0::2, 1::2] = optical[0::2, 1::2, 1] * gains[1]
    raw[1::2, 0::2] = optical[1::2, 0::2, 1] * gains[1]
    raw[1::2, 1::2] = optical[1::2, 1::2, 2] * gains[2]
    rng = np.random.default_rng([seed, 0x5E45])
    spread = np.sqrt(params.shot * np.maximum(raw, 0) + params.read**2)
    raw += spread * rng.standard_normal(raw.shape, dtype=np.float32)
    mosaic = np.clip(raw * 65535.0 + 0.5, 0, 65535).astype(np.uint16)
    rgb16 = cv2.cvtColor(mosaic, cv2.COLOR_BayerBG2RGB_EA)
    rgb = _tone_table(round(params.contrast, 3))[rgb16]
    if params.sharpen > 0:
        soft = cv2.GaussianBlur(rgb, (0, 0), 1.0)
        rgb = cv2.addWeighted(rgb, 1 + params.sharpen, soft, -params.sharpen, 0)
    bgr = np.ascontiguousarray(rgb[..., ::-1])
    ok, encoded = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, int(params.jpeg)])
    if not ok:
        raise RuntimeError("OpenCV could not encode the frame as JPEG")
    return np.asarray(cv2.imdecode(encoded, cv2.IMREAD_COLOR), np.uint8), encoded.tobytes()
