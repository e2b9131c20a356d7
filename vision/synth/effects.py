"""Image-space effects of the synthetic table: the table top, hands, light, noise, blur, JPEG.

Each function works on whole frames and is cheap enough for a live frame rate: smooth fields
(light, shadows, glare, hands) are computed at a quarter or less of the resolution and scaled up,
which also makes them soft, as real ones are. Randomness comes only from the generator passed in.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]
#: Float pictures and fields; OpenCV's stubs type results loosely, so these stay loose too.
FloatImage = npt.NDArray[Any]

#: Skin tones (BGR) from light to dark.
SKIN_TONES: tuple[tuple[int, int, int], ...] = (
    (172, 192, 236),
    (140, 168, 220),
    (108, 140, 196),
    (82, 112, 162),
    (58, 78, 116),
    (42, 56, 82),
)

#: Table tops behind the mat (BGR base colour, stripe contrast): light wood, dark wood, grey
#: laminate, green felt.
TABLES: tuple[tuple[tuple[int, int, int], float], ...] = (
    ((96, 150, 196), 0.10),
    ((52, 78, 112), 0.14),
    ((128, 130, 132), 0.03),
    ((70, 104, 56), 0.04),
)


@dataclass(frozen=True)
class Hand:
    """A hand and arm reaching over the table from an edge of the picture.

    ``target_mm`` is where the fingertips reach, in mat millimetres (it may lie outside the mat);
    ``edge`` is the side of the frame the arm enters from and ``entry`` the place along that edge
    (0..1, left to right or top to bottom); ``skin`` indexes :data:`SKIN_TONES`; ``sleeve`` is a
    BGR colour for a sleeve over the forearm, or None for a bare arm; ``size`` scales an adult hand
    (which the camera, closer to it than to the table, also sees a little bigger); ``reach`` is
    how far the fingertips have come from the edge towards the target (0 = out of sight, 1 = at
    the target), for hands moving in and out over successive frames.
    """

    target_mm: tuple[float, float]
    edge: Literal["bottom", "top", "left", "right"] = "bottom"
    entry: float = 0.5
    skin: int = 1
    sleeve: tuple[int, int, int] | None = None
    size: float = 1.0
    reach: float = 1.0


@dataclass(frozen=True)
class Light:
    """Light over the table: colour (warmth -1 cold .. 1 warm), exposure, a gradient across the
    frame, soft shadow blobs, one glare spot; positions drawn from ``seed``."""

    warmth: float = 0.0
    exposure: float = 1.0
    gradient: float = 0.0
    direction_deg: float = 225.0
    shadows: int = 0
    shadow_strength: float = 0.3
    glare: float = 0.0
    seed: int = 0


def light_gains(warmth: float) -> tuple[float, float, float]:
    """Per-channel (B, G, R) gains of a light of the given warmth (-1 cold .. 1 warm)."""
    if warmth >= 0:
        return (1.0 - 0.32 * warmth, 1.0 - 0.10 * warmth, 1.0 + 0.04 * warmth)
    cold = -warmth
    return (1.0 + 0.05 * cold, 1.0, 1.0 - 0.16 * cold)


@lru_cache(maxsize=4)
def table_top(table: int, seed: int, image_size: tuple[int, int]) -> Image:
    """The table behind the mat: a wood-like or plain texture, soft, the size of the frame."""
    width, height = image_size
    rng = np.random.default_rng(seed + 7919 * table)
    base, stripes = TABLES[table % len(TABLES)]
    small_w, small_h = max(8, width // 6), max(8, height // 6)
    coarse = rng.standard_normal((small_h, max(2, small_w // 24))).astype(np.float32)
    grain = cv2.resize(coarse, (small_w, small_h), interpolation=cv2.INTER_CUBIC)
    speckle = rng.standard_normal((small_h, small_w)).astype(np.float32)
    field = 1.0 + stripes * grain + 0.05 * cv2.GaussianBlur(speckle, (0, 0), 1.0)
    turn = cv2.getRotationMatrix2D((small_w / 2, small_h / 2), rng.uniform(-20, 20), 1.15)
    field = cv2.warpAffine(field, turn, (small_w, small_h), borderMode=cv2.BORDER_REFLECT)
    picture = np.clip(field[..., None] * np.array(base, np.float32), 0, 255).astype(np.uint8)
    return np.asarray(cv2.resize(picture, (width, height), interpolation=cv2.INTER_LINEAR))


#: Light gains are stored as 8-bit numbers of this many steps per unit gain.
GAIN_ONE = 128.0


@lru_cache(maxsize=4)
def light_field(light: Light, image_size: tuple[int, int]) -> tuple[Image, Image | None]:
    """Full-frame gain (BGR, :data:`GAIN_ONE` = 1) and additive glare (or None) for ``light``."""
    width, height = image_size
    small_w, small_h = 96, max(2, round(96 * height / width))
    rng = np.random.default_rng(light.seed)
    y, x = np.mgrid[0:small_h, 0:small_w].astype(np.float32)
    x, y = x / small_w, y / small_h * (height / width)
    angle = math.radians(light.direction_deg)
    along = (x - 0.5) * math.cos(angle) + (y - 0.28) * math.sin(angle)
    gain = 1.0 - light.gradient * np.clip(along + 0.5, 0, 1)
    gain *= 1.0 - 0.12 * ((x - 0.5) ** 2 + (y - 0.28) ** 2) * 4  # vignette
    for _ in range(light.shadows):
        centre_x, centre_y = rng.uniform(0.1, 0.9), rng.uniform(0.05, 0.5)
        radius_x, radius_y = rng.uniform(0.08, 0.3), rng.uniform(0.05, 0.2)
        blob = ((x - centre_x) / radius_x) ** 2 + ((y - centre_y) / radius_y) ** 2
        gain *= 1.0 - light.shadow_strength * np.clip(1.2 - blob, 0, 1) ** 0.7
    gains = np.array(light_gains(light.warmth), np.float32) * light.exposure
    small_gain = np.clip(gain[..., None] * gains * GAIN_ONE, 0, 255).astype(np.uint8)
    gain_full = cv2.resize(small_gain, (width, height), interpolation=cv2.INTER_LINEAR)
    if light.glare <= 0:
        return gain_full, None
    centre_x, centre_y = rng.uniform(0.25, 0.75), rng.uniform(0.12, 0.45)
    radius = rng.uniform(0.05, 0.12)
    spot = np.exp(-((x - centre_x) ** 2 + (y - centre_y) ** 2) / (2 * radius**2))
    glare = np.clip(70.0 * light.glare * spot[..., None] * gains, 0, 255).astype(np.uint8)
    glare_full = cv2.resize(glare, (width, height), interpolation=cv2.INTER_LINEAR)
    return gain_full, glare_full


def _edge_point(hand: Hand, image_size: tuple[int, int], margin: float) -> tuple[float, float]:
    width, height = image_size
    if hand.edge == "bottom":
        return (hand.entry * width, height + margin)
    if hand.edge == "top":
        return (hand.entry * width, -margin)
    if hand.edge == "left":
        return (-margin, hand.entry * height)
    return (width + margin, hand.entry * height)


def _capsule(mask: Image, start: npt.NDArray[np.float64], end: npt.NDArray[np.float64],
             width: float) -> None:
    cv2.line(mask, (round(start[0] * 16), round(start[1] * 16)),
             (round(end[0] * 16), round(end[1] * 16)), 255, max(1, round(width)),
             cv2.LINE_AA, 4)


def hand_mask(hand: Hand, target_px: tuple[float, float], pixels_per_mm: float,
              image_size: tuple[int, int], scale: int) -> tuple[Image, Image]:
    """Masks (skin, sleeve) of one hand at 1/``scale`` of the frame, 255 inside."""
    width, height = image_size
    small = (width // scale, height // scale)
    unit = pixels_per_mm * hand.size * 1.15 / scale
    target = np.array(target_px, np.float64) / scale
    entry = np.array(_edge_point(hand, image_size, 60.0), np.float64) / scale
    direction = target - entry
    length = float(np.linalg.norm(direction)) or 1.0
    direction /= length
    tip = entry + direction * length * min(1.0, max(0.0, hand.reach))
    across = np.array([-direction[1], direction[0]])
    skin = np.zeros((small[1], small[0]), np.uint8)
    sleeve = np.zeros_like(skin)
    palm = tip - direction * 95 * unit
    wrist = tip - direction * 150 * unit
    for offset, reach, fan in ((-30, 0.8, -0.22), (-10, 1.0, -0.07), (10, 0.95, 0.07),
                               (29, 0.78, 0.2)):
        base = palm + across * offset * 0.8 * unit + direction * 35 * unit
        pointing = direction + across * fan
        pointing /= np.linalg.norm(pointing)
        _capsule(skin, base, base + pointing * (25 + 50 * reach) * unit, 16 * unit)
    thumb_base = palm - direction * 20 * unit + across * 38 * unit
    _capsule(skin, thumb_base, thumb_base + (direction * 0.8 + across * 0.6) * 50 * unit, 21 * unit)
    angle = math.degrees(math.atan2(direction[1], direction[0]))
    centre = (round(palm[0] * 16), round(palm[1] * 16))
    axes = (round(52 * unit * 16), round(44 * unit * 16))
    cv2.ellipse(skin, centre, axes, angle, 0, 360, 255, -1, cv2.LINE_AA, 4)
    forearm_end = wrist - direction * 200 * unit
    _capsule(skin, wrist, forearm_end, 70 * unit)
    arm_mask = sleeve if hand.sleeve is not None else skin
    cuff = forearm_end + direction * (40 * unit if hand.sleeve else 0)
    _capsule(arm_mask, cuff, entry, 95 * unit)
    return skin, sleeve


def _paint_hands(hands: list[tuple[Hand, tuple[float, float], float]],
                 image_size: tuple[int, int], scale: int) -> tuple[FloatImage, FloatImage]:
    """Hands at 1/``scale`` of the frame: colour (premultiplied by coverage) and coverage 0..1.

    Shading is brighter along the middle of each limb, as on a rounded arm lit from above.
    """
    small = (image_size[0] // scale, image_size[1] // scale)
    colour = np.zeros((small[1], small[0], 3), np.float32)
    cover = np.zeros((small[1], small[0]), np.float32)
    for hand, target, pixels_per_mm in hands:
        skin, sleeve = hand_mask(hand, target, pixels_per_mm, image_size, scale)
        for mask, base in ((skin, SKIN_TONES[hand.skin % len(SKIN_TONES)]), (sleeve, hand.sleeve)):
            if base is None or not mask.any():
                continue
            inside = cv2.distanceTransform((mask > 127).astype(np.uint8), cv2.DIST_L2, 3)
            roundness = np.sqrt(np.clip(inside / (25.0 * pixels_per_mm / scale + 1e-6), 0, 1))
            shade = (0.55 + 0.5 * roundness)[..., None] * np.array(base, np.float32)
            weight = (mask.astype(np.float32) / 255.0)[..., None]
            colour = colour * (1 - weight) + shade * weight
            cover = np.maximum(cover, weight[..., 0])
    return colour, cover


def draw_hands(frame: Image, hands: list[tuple[Hand, tuple[float, float], float]],
               light_direction_deg: float) -> Image:
    """Hands and their soft shadows over ``frame``; returns the hand coverage mask (0..255).

    ``hands`` holds each hand with its fingertip position in frame pixels and the table's
    pixels-per-millimetre there. Work is done at a quarter of the resolution and only the box
    around the hands and their shadows is scaled back up and composed.
    """
    height, width = frame.shape[:2]
    scale = 4
    colour, cover = _paint_hands(hands, (width, height), scale)
    full_cover = np.zeros((height, width), np.uint8)
    if not cover.any():
        return full_cover
    angle = math.radians(light_direction_deg + 180.0)
    shift = 40.0 / scale
    translation = np.array([[1, 0, shift * math.cos(angle)], [0, 1, shift * math.sin(angle)]],
                           np.float32)
    shadow = cv2.GaussianBlur(cv2.warpAffine(cover, translation, cover.shape[::-1]), (0, 0), 5.0)
    soft_cover = cv2.GaussianBlur(cover, (0, 0), 0.8)
    colour = cv2.GaussianBlur(colour, (0, 0), 0.8)
    rows, columns = np.nonzero((shadow > 0.004) | (soft_cover > 0.004))
    y0, y1 = max(0, rows.min() - 2), min(cover.shape[0], rows.max() + 3)
    x0, x1 = max(0, columns.min() - 2), min(cover.shape[1], columns.max() + 3)
    box = ((x1 - x0) * scale, (y1 - y0) * scale)
    region = (slice(y0 * scale, y1 * scale), slice(x0 * scale, x1 * scale))

    def grow(values: FloatImage) -> FloatImage:
        crop = np.ascontiguousarray(values[y0:y1, x0:x1])
        return cv2.resize(crop, box, interpolation=cv2.INTER_LINEAR)

    weight = grow(soft_cover)[..., None]
    picture = frame[region].astype(np.float32) * (1 - 0.45 * grow(shadow))[..., None]
    picture = picture * (1 - weight) + grow(colour)
    frame[region] = np.clip(picture, 0, 255).astype(np.uint8)
    full_cover[region] = (weight[..., 0] * 255).astype(np.uint8)
    return full_cover


#: The noise bank's sigma in 8-bit levels; frames scale it to their own noise level.
_BANK_SIGMA = 8.0


@lru_cache(maxsize=1)
def _noise_bank(height: int, width: int) -> tuple[Image, Image]:
    """A fixed field of Gaussian noise (sigma :data:`_BANK_SIGMA`), 64 pixels larger than a frame
    each way, split into its positive and negative parts as 8-bit images, so a frame scales both
    to its noise level, adds one and subtracts the other, all with fast saturating arithmetic."""
    rng = np.random.default_rng(20261122)
    grain = rng.standard_normal((height + 64, width + 64, 3), dtype=np.float32) * _BANK_SIGMA
    positive = np.clip(grain, 0, 255).astype(np.uint8)
    np.negative(grain, out=grain)
    negative = np.clip(grain, 0, 255).astype(np.uint8)
    return positive, negative


def finish(frame: Image, light: Light, noise: float, blur: float, jpeg_quality: int,
           rng: np.random.Generator) -> Image:
    """Blur, light, glare, sensor noise and JPEG compression, in camera order."""
    return sensor(lit(frame, light, blur), noise, jpeg_quality, rng)


def lit(frame: Image, light: Light, blur: float) -> Image:
    """The optics and the light of :func:`finish`: blur, then the light's gain and glare. The
    same for every frame of a still scene, so a caller may keep it (see :func:`sensor`)."""
    height, width = frame.shape[:2]
    blurred = cv2.GaussianBlur(frame, (0, 0), blur) if blur > 0.05 else frame
    gain, glare = light_field(light, (width, height))
    result = cv2.multiply(blurred, gain, scale=1.0 / GAIN_ONE)
    if glare is not None:
        result = cv2.add(result, glare)
    return np.asarray(result, np.uint8)


@lru_cache(maxsize=2)
def _scaled_noise(height: int, width: int, noise: float) -> tuple[Image, Image]:
    """The noise bank's two parts scaled to ``noise`` (a frame takes a window of each): scaling
    the whole bank once gives every window exactly what scaling the window would."""
    positive, negative = _noise_bank(height, width)
    scale = noise / _BANK_SIGMA
    return (np.asarray(cv2.convertScaleAbs(positive, alpha=scale), np.uint8),
            np.asarray(cv2.convertScaleAbs(negative, alpha=scale), np.uint8))


def sensor(image: Image, noise: float, jpeg_quality: int, rng: np.random.Generator) -> Image:
    """The sensor's part of :func:`finish` on a lit picture (:func:`lit`): noise drawn with
    ``rng``, then JPEG compression. ``image`` is left as it was; the result is a new array."""
    height, width = image.shape[:2]
    result: Any = image
    if noise > 0:
        up, down = _scaled_noise(height, width, noise)
        dy, dx = (int(value) for value in rng.integers(0, 64, 2))
        result = cv2.subtract(cv2.add(result, up[dy : dy + height, dx : dx + width]),
                              down[dy : dy + height, dx : dx + width])
    if 0 < jpeg_quality < 100:
        ok, encoded = cv2.imencode(".jpg", result, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg_quality)])
        decoded = cv2.imdecode(encoded, cv2.IMREAD_COLOR) if ok else None
        if decoded is not None:
            result = decoded
    return result.copy() if result is image else np.asarray(result, np.uint8)
