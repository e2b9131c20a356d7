"""Coins and pawns of the synthetic table, drawn onto a flat mat canvas seen from above.

A coin is a sprite built from a height field (raised rim, a ring of lettering, a relief in the
middle) shaded by the light's direction, in its metal's colour with some tarnish; stacks are
coins drawn bottom to top with small offsets and a little parallax for their height; a pawn is a
coloured dome with a highlight, a dark rim and a soft shadow. Everything is in canvas pixels at
a given scale; :mod:`vision.synth` decides where things go.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from contract.observation import COIN_KINDS

Image = npt.NDArray[np.uint8]
#: Float pictures and fields; OpenCV's stubs type results loosely, so these stay loose too.
FloatImage = npt.NDArray[Any]

#: Base face colours (BGR, 0..1) of each metal when clean, and when dark with age.
METAL_COLOURS: dict[str, tuple[tuple[float, float, float], tuple[float, float, float]]] = {
    "copper": ((0.30, 0.50, 0.85), (0.22, 0.30, 0.48)),
    "silver": ((0.76, 0.77, 0.76), (0.55, 0.56, 0.55)),
    "brass": ((0.36, 0.68, 0.84), (0.25, 0.44, 0.54)),
}

#: Pawn colours by the name vision reports (BGR, 0..1).
PAWN_COLOURS: dict[str, tuple[float, float, float]] = {
    "red": (0.16, 0.16, 0.80),
    "blue": (0.78, 0.38, 0.10),
    "green": (0.25, 0.62, 0.15),
    "yellow": (0.12, 0.80, 0.92),
    "purple": (0.58, 0.18, 0.48),
    "black": (0.13, 0.13, 0.14),
}

PAWN_DIAMETER_MM = 14.0
#: A flat token, a seat's piece where coins run out (Jokers and Coins' seats 5 and 6): a
#: plastic counter the size of a quarter, this thick.
TOKEN_DIAMETER_MM = 24.26
TOKEN_THICKNESS_MM = 2.5
#: How high a pawn's top stands above the coin under it, for parallax.
PAWN_HEIGHT_MM = 6.0
COIN_THICKNESS_MM = 1.6
_VARIANTS = 4


@dataclass(frozen=True)
class Lighting:
    """How the objects are lit in canvas terms: unit direction the light comes from (x, y)."""

    direction: tuple[float, float] = (-0.6, -0.8)
    parallax: tuple[float, float] = (0.0, 0.0)

    @property
    def shadow_step(self) -> tuple[float, float]:
        """The way shadows fall, as a unit vector (away from the light)."""
        return (-self.direction[0], -self.direction[1])


def coin_radius_mm(letter: str) -> float:
    return COIN_KINDS[letter][1] / 2


def _smooth_noise(size: int, blur: float, rng: np.random.Generator) -> FloatImage:
    white = rng.standard_normal((size, size)).astype(np.float32)
    noise = cv2.GaussianBlur(white, (0, 0), blur)
    return noise / max(float(np.abs(noise).max()), 1e-6)


@lru_cache(maxsize=64)
def _height_field(letter: str, radius_tenths: int, variant: int) -> tuple[FloatImage, FloatImage]:
    """A coin's relief (0..1) and a tarnish blotch map (0..1), both (2r+5) pixels square."""
    rng = np.random.default_rng(ord(letter) * 100 + variant)
    radius_px = radius_tenths / 10
    size = 2 * math.ceil(radius_px) + 5
    centre = (size - 1) / 2
    x, y, distance = _grid(size)
    distance = distance / radius_px
    angle = np.arctan2(y - centre, x - centre)
    rim = np.clip((distance - 0.84) / 0.04, 0, 1) * np.clip((1.0 - distance) / 0.03, 0, 1)
    dashes = (np.sin(angle * (14 + 3 * variant) + rng.uniform(0, 6)) > 0.1).astype(np.float32)
    band = np.clip(1 - np.abs(distance - 0.74) / 0.07, 0, 1)
    letters = 0.45 * band * dashes * (_smooth_noise(size, 1.0, rng) > -0.3)
    relief = 0.6 * np.clip(_smooth_noise(size, max(1.0, radius_px / 7), rng) + 0.2, 0, 1)
    head_x, head_y = rng.uniform(-0.15, 0.15, 2) * radius_px + centre
    head = np.exp(-((x - head_x) ** 2 + (y - head_y) ** 2) / (2 * (0.3 * radius_px) ** 2))
    inner = np.clip((0.6 - distance) / 0.05, 0, 1)
    height = rim + letters + inner * (relief + 0.5 * head)
    blotch = np.clip(_smooth_noise(size, max(1.0, radius_px / 4), rng) * 0.8 + 0.5, 0, 1)
    return height.astype(np.float32), blotch.astype(np.float32)


@lru_cache(maxsize=64)
def _grid(size: int) -> tuple[FloatImage, FloatImage, FloatImage]:
    """Pixel x and y, and distance from the centre, of a square sprite (cached per size)."""
    centre = (size - 1) / 2
    y, x = np.mgrid[0:size, 0:size].astype(np.float32)
    return x, y, np.hypot(x - centre, y - centre)


@lru_cache(maxsize=64)
def _disc_alpha(size: int, radius_px: float) -> FloatImage:
    """An anti-aliased disc of ``radius_px`` centred in a ``size`` square (cached)."""
    return np.clip(radius_px - _grid(size)[2] + 0.5, 0, 1).astype(np.float32)


def coin_sprite(
    letter: str,
    pixels_per_mm: float,
    angle_deg: float,
    tarnish: float,
    shine: float,
    lighting: Lighting,
    variant: int,
) -> tuple[FloatImage, FloatImage]:
    """A coin face as (BGR 0..1, alpha), turned ``angle_deg``, lit from ``lighting.direction``."""
    radius_px = max(3.0, round(coin_radius_mm(letter) * pixels_per_mm, 1))
    height, blotch = _height_field(letter, round(radius_px * 10), variant % _VARIANTS)
    size = height.shape[0]
    turn = cv2.getRotationMatrix2D(((size - 1) / 2, (size - 1) / 2), angle_deg, 1.0)
    height = cv2.warpAffine(height, turn, (size, size), flags=cv2.INTER_LINEAR)
    slope_x = cv2.Sobel(height, cv2.CV_32F, 1, 0, ksize=3) / 8
    slope_y = cv2.Sobel(height, cv2.CV_32F, 0, 1, ksize=3) / 8
    light_x, light_y = lighting.direction
    relief_strength = 1.6 * (1 - 0.6 * tarnish)
    shade = 1.0 - relief_strength * (slope_x * light_x + slope_y * light_y) * radius_px / 10
    clean, dark = METAL_COLOURS[COIN_KINDS[letter][2]]
    age = np.clip(tarnish * (0.5 + blotch), 0, 1)[..., None]
    colour = np.array(clean, np.float32) * (1 - age) + np.array(dark, np.float32) * age
    centre = (size - 1) / 2
    x, y, _ = _grid(size)
    sheen_x = centre + light_x * 0.35 * radius_px
    sheen_y = centre + light_y * 0.35 * radius_px
    sheen = np.exp(-((x - sheen_x) ** 2 + (y - sheen_y) ** 2) / (2 * (0.55 * radius_px) ** 2))
    face = colour * shade[..., None] + (shine * (1 - tarnish) * 0.25 * sheen)[..., None]
    alpha = _disc_alpha(size, radius_px)
    return np.clip(face, 0, 1).astype(np.float32), alpha


def pawn_sprite(
    colour_name: str, pixels_per_mm: float, lighting: Lighting
) -> tuple[FloatImage, FloatImage]:
    """A round-topped pawn seen from above: coloured dome, highlight toward the light, dark rim."""
    radius_px = max(3.0, PAWN_DIAMETER_MM / 2 * pixels_per_mm)
    size = int(2 * radius_px) + 5
    centre = (size - 1) / 2
    x, y, _ = _grid(size)
    dx, dy = (x - centre) / radius_px, (y - centre) / radius_px
    distance_squared = np.clip(dx * dx + dy * dy, 0, 1)
    normal_z = np.sqrt(1 - distance_squared)
    light_x, light_y = lighting.direction
    lambert = np.clip(0.55 * normal_z - 0.45 * (dx * light_x + dy * light_y), 0, 1)
    base = np.array(PAWN_COLOURS[colour_name], np.float32)
    rim = np.clip((np.sqrt(distance_squared) - 0.86) / 0.14, 0, 1)
    body = base * (0.45 + 0.75 * lambert)[..., None] * (1 - 0.45 * rim)[..., None]
    spot_x, spot_y = centre + light_x * 0.4 * radius_px, centre + light_y * 0.4 * radius_px
    highlight = np.exp(-((x - spot_x) ** 2 + (y - spot_y) ** 2) / (2 * (0.18 * radius_px) ** 2))
    face = body + 0.55 * highlight[..., None]
    return np.clip(face, 0, 1).astype(np.float32), _disc_alpha(size, radius_px)


def token_sprite(
    colour_name: str, pixels_per_mm: float, lighting: Lighting, shine: float
) -> tuple[FloatImage, FloatImage]:
    """A flat plastic token seen from above: its colour, a bevelled rim lit from the light's
    side and a broad soft sheen of ``shine`` (0..1) towards the light."""
    radius_px = max(3.0, TOKEN_DIAMETER_MM / 2 * pixels_per_mm)
    size = int(2 * radius_px) + 5
    centre = (size - 1) / 2
    x, y, distance = _grid(size)
    dx, dy = (x - centre) / radius_px, (y - centre) / radius_px
    bevel = np.clip((distance / radius_px - 0.88) / 0.12, 0, 1)
    light_x, light_y = lighting.direction
    facing = -(dx * light_x + dy * light_y) / np.maximum(distance / radius_px, 1e-6)
    shade = 0.9 + 0.3 * bevel * facing - 0.15 * bevel
    spot_x, spot_y = centre + light_x * 0.3 * radius_px, centre + light_y * 0.3 * radius_px
    sheen = np.exp(-((x - spot_x) ** 2 + (y - spot_y) ** 2) / (2 * (0.45 * radius_px) ** 2))
    base = np.array(PAWN_COLOURS[colour_name], np.float32)
    face = base * shade[..., None] + (0.3 * shine * sheen)[..., None]
    return np.clip(face, 0, 1).astype(np.float32), _disc_alpha(size, radius_px)


def blend(
    canvas: Image, sprite: FloatImage, alpha: FloatImage, centre: tuple[float, float]
) -> None:
    """Alpha-blend a sprite (BGR 0..1) onto a uint8 canvas, centred at ``centre`` (pixels)."""
    size = sprite.shape[0]
    left = round(centre[0] - (size - 1) / 2)
    top = round(centre[1] - (size - 1) / 2)
    box = _clip_box(canvas, left, top, size)
    if box is None:
        return
    (y0, y1, x0, x1), (sy0, sy1, sx0, sx1) = box
    patch = canvas[y0:y1, x0:x1].astype(np.float32)
    weight = alpha[sy0:sy1, sx0:sx1, None]
    patch = patch * (1 - weight) + sprite[sy0:sy1, sx0:sx1] * 255.0 * weight
    canvas[y0:y1, x0:x1] = np.clip(patch, 0, 255).astype(np.uint8)


def darken(canvas: Image, alpha: FloatImage, centre: tuple[float, float], strength: float) -> None:
    """Multiply the canvas by ``1 - strength * alpha`` around ``centre``: a soft shadow."""
    size = alpha.shape[0]
    left = round(centre[0] - (size - 1) / 2)
    top = round(centre[1] - (size - 1) / 2)
    box = _clip_box(canvas, left, top, size)
    if box is None:
        return
    (y0, y1, x0, x1), (sy0, sy1, sx0, sx1) = box
    patch = canvas[y0:y1, x0:x1].astype(np.float32)
    patch *= 1 - strength * alpha[sy0:sy1, sx0:sx1, None]
    canvas[y0:y1, x0:x1] = patch.astype(np.uint8)


def _clip_box(
    canvas: Image, left: int, top: int, size: int
) -> tuple[tuple[int, int, int, int], tuple[int, int, int, int]] | None:
    height, width = canvas.shape[:2]
    x0, y0 = max(0, left), max(0, top)
    x1, y1 = min(width, left + size), min(height, top + size)
    if x0 >= x1 or y0 >= y1:
        return None
    return (y0, y1, x0, x1), (y0 - top, y1 - top, x0 - left, x1 - left)


@lru_cache(maxsize=32)
def shadow_alpha(radius_px: int, softness_px: int) -> FloatImage:
    """A blurred disc used as a soft contact shadow."""
    size = 2 * (radius_px + 3 * softness_px) + 5
    disc = _disc_alpha(size, radius_px)
    if softness_px > 0:
        disc = cv2.GaussianBlur(disc, (0, 0), softness_px)
    return disc


@dataclass(frozen=True)
class PlacedCoin:
    """One coin on the canvas: its letter, centre in mm, turn, look, and height in the stack."""

    letter: str
    centre_mm: tuple[float, float]
    angle_deg: float
    tarnish: float
    shine: float
    level: int
    variant: int
    region: str = ""


@dataclass(frozen=True)
class PlacedToken:
    """One flat token: its colour, its centre (mm), its sheen and the region it lies in."""

    colour: str
    centre_mm: tuple[float, float]
    shine: float
    region: str = ""


@dataclass(frozen=True)
class PlacedPawn:
    """One pawn: its colour, where its foot stands (mm), on how many coins, in which region."""

    colour: str
    foot_mm: tuple[float, float]
    level: int
    region: str = ""


def _edge_shift(lighting: Lighting, pixels_per_mm: float) -> tuple[float, float]:
    """Where a coin's side shows, in canvas pixels from its face.

    A tilted camera sees the side of a coin on its own side (opposite the parallax), as a band
    that widens with the tilt up to the coin's thickness; the band is drawn as a dark disc under
    the face, shifted that way.
    """
    lean = math.hypot(*lighting.parallax) or 1.0
    width = COIN_THICKNESS_MM * pixels_per_mm * min(1.0, 1.5 * lean)
    return (-lighting.parallax[0] / lean * width, -lighting.parallax[1] / lean * width)


def draw_coin(canvas: Image, coin: PlacedCoin, pixels_per_mm: float, lighting: Lighting) -> None:
    """Shadow, edge and face of one coin; higher coins shift by the camera's parallax."""
    lift = coin.level * COIN_THICKNESS_MM
    x = (coin.centre_mm[0] + lighting.parallax[0] * lift) * pixels_per_mm
    y = (coin.centre_mm[1] + lighting.parallax[1] * lift) * pixels_per_mm
    radius_px = max(3, round(coin_radius_mm(coin.letter) * pixels_per_mm))
    step_x, step_y = lighting.shadow_step
    shadow_offset = (0.6 + 0.5 * coin.level) * pixels_per_mm
    softness = max(1, round(0.6 * pixels_per_mm))
    darken(canvas, shadow_alpha(radius_px, softness),
           (x + step_x * shadow_offset, y + step_y * shadow_offset), 0.35)
    edge_x, edge_y = _edge_shift(lighting, pixels_per_mm)
    face, alpha = coin_sprite(coin.letter, pixels_per_mm, coin.angle_deg, coin.tarnish,
                              coin.shine, lighting, coin.variant)
    edge_colour = np.empty_like(face)
    edge_colour[:] = np.array(METAL_COLOURS[COIN_KINDS[coin.letter][2]][1], np.float32) * 0.7
    blend(canvas, edge_colour, alpha, (x + edge_x, y + edge_y))
    blend(canvas, face, alpha, (x, y))


def draw_pawn(
    canvas: Image,
    colour_name: str,
    foot_mm: tuple[float, float],
    level: int,
    pixels_per_mm: float,
    lighting: Lighting,
) -> None:
    """A pawn standing at ``foot_mm`` on a stack ``level`` coins high, with its shadow."""
    lift = level * COIN_THICKNESS_MM + PAWN_HEIGHT_MM
    x = (foot_mm[0] + lighting.parallax[0] * lift) * pixels_per_mm
    y = (foot_mm[1] + lighting.parallax[1] * lift) * pixels_per_mm
    radius_px = round(PAWN_DIAMETER_MM / 2 * pixels_per_mm)
    step_x, step_y = lighting.shadow_step
    shadow_offset = 3.0 * pixels_per_mm
    darken(canvas, shadow_alpha(radius_px, max(1, round(1.5 * pixels_per_mm))),
           (x + step_x * shadow_offset, y + step_y * shadow_offset), 0.45)
    face, alpha = pawn_sprite(colour_name, pixels_per_mm, lighting)
    blend(canvas, face, alpha, (x, y))


def draw_token(canvas: Image, token: PlacedToken, pixels_per_mm: float,
               lighting: Lighting) -> None:
    """Shadow, side and face of a flat token lying on the mat, drawn as a coin at the bottom
    of a stack is: its face where it lies, its side showing on the camera's side."""
    x, y = token.centre_mm[0] * pixels_per_mm, token.centre_mm[1] * pixels_per_mm
    radius_px = max(3, round(TOKEN_DIAMETER_MM / 2 * pixels_per_mm))
    step_x, step_y = lighting.shadow_step
    shadow_offset = 0.9 * pixels_per_mm
    darken(canvas, shadow_alpha(radius_px, max(1, round(0.7 * pixels_per_mm))),
           (x + step_x * shadow_offset, y + step_y * shadow_offset), 0.35)
    face, alpha = token_sprite(token.colour, pixels_per_mm, lighting, token.shine)
    lean = math.hypot(*lighting.parallax) or 1.0
    width = TOKEN_THICKNESS_MM * pixels_per_mm * min(1.0, 1.5 * lean)
    side = np.empty_like(face)
    side[:] = np.array(PAWN_COLOURS[token.colour], np.float32) * 0.6
    blend(canvas, side, alpha, (x - lighting.parallax[0] / lean * width,
                                y - lighting.parallax[1] / lean * width))
    blend(canvas, face, alpha, (x, y))
