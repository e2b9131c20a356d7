"""Albedo textures of the two planes: the printed mat and the table top under it.

The mat is :func:`calibration.mats.render_mat` read as sRGB-encoded reflectance, linearised,
kept at three resolutions (4, 2 and 1 texels per mm) and blended per pixel by the pixel's
footprint on the paper (a small mip-map), so near and far squares are filtered right. Table
tops are procedural: planks of wood with grain, dark or light laminate with speckle, cloth with
weave and wrinkles, each tinted by the variation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from calibration.geometry import MatGeometry
from calibration.mats import render_mat
from vision.synth.physical.materials import srgb_to_linear
from vision.synth.physical.sampling import sample

F32 = npt.NDArray[Any]  # float32; numpy typing loses dtypes in arithmetic
#: Texels per mm of the finest mat level.
MAT_SCALE = 4.0


@dataclass(frozen=True, eq=False)
class PlaneTexture:
    """Mip levels of an albedo texture over a plane: ``levels[i]`` has ``scale / 2**i`` texels
    per mm, texel (0, 0) centred on mat point ``origin + 0.5 / scale``."""

    levels: tuple[F32, ...]
    scale: float
    origin: tuple[float, float]

    def lookup(self, x: F32, y: F32, footprint_mm: F32) -> F32:
        """Albedo (N x 3) at mat points (x, y) seen by pixels ``footprint_mm`` across."""
        lod = np.clip(np.log2(np.maximum(footprint_mm * self.scale, 1e-3)), 0,
                      len(self.levels) - 1)
        out = np.zeros((len(x), 3), np.float32)
        for index, level in enumerate(self.levels):
            weight = np.clip(1 - np.abs(lod - index), 0, 1)
            if not weight.any():
                continue
            scale = self.scale / 2**index
            texel_x = (x - self.origin[0]) * scale - 0.5
            texel_y = (y - self.origin[1]) * scale - 0.5
            out += sample(level, texel_x, texel_y) * weight[:, None]
        return out

    def mean(self) -> F32:
        """The texture's mean albedo."""
        return np.asarray(self.levels[-1].reshape(-1, 3).mean(axis=0), np.float32)


def _pyramid(base: F32, count: int) -> tuple[F32, ...]:
    levels = [base]
    for _ in range(count - 1):
        prev = levels[-1]
        levels.append(cv2.resize(prev, (prev.shape[1] // 2, prev.shape[0] // 2),
                                 interpolation=cv2.INTER_AREA))
    return tuple(levels)


@lru_cache(maxsize=4)
def mat_texture(geometry: MatGeometry) -> PlaneTexture:
    """The printed mat's reflectance (white paper = 1) as a three-level linear RGB texture."""
    bgr = render_mat(geometry, MAT_SCALE)
    linear = srgb_to_linear(bgr[..., ::-1])
    return PlaneTexture(_pyramid(np.ascontiguousarray(linear), 3), MAT_SCALE, (0.0, 0.0))


def _noise(shape: tuple[int, int], cell: float, rng: np.random.Generator) -> F32:
    """Smooth noise of unit spread with features about ``cell`` texels wide."""
    small = (max(2, round(shape[0] / cell) + 2), max(2, round(shape[1] / cell) + 2))
    field = rng.standard_normal(small).astype(np.float32)
    return np.asarray(cv2.resize(field, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC))


def _wood(u: F32, v: F32, rng: np.random.Generator) -> tuple[F32, F32]:
    """Planks along u: a tone per plank, fine grain lines warped by noise, dark seams."""
    width = rng.uniform(90, 200)
    plank = np.floor(v / width)
    tone = np.sin(plank * 12.9898 + rng.uniform(0, 6)) * 43758.5453
    tone = (tone - np.floor(tone)) * 0.35 + 0.8
    warp = _noise(u.shape, 40, rng) * rng.uniform(2, 6)
    period = rng.uniform(2.5, 6.0)
    grain = 0.5 + 0.5 * np.sin(2 * math.pi * (v + warp + 0.02 * u) / period)
    rings = 0.5 + 0.5 * np.sin(2 * math.pi * (v * 0.15 + _noise(u.shape, 80, rng) * 1.5))
    seam = np.clip(np.abs(v - (plank + 0.5) * width) - (width / 2 - 1.0), 0, 1)
    shade = tone * (0.78 + 0.14 * grain**3 + 0.1 * rings) * (1 - 0.6 * seam)
    return shade.astype(np.float32), np.array([0.30, 0.14, 0.055], np.float32)


def _laminate(u: F32, rng: np.random.Generator, dark: bool) -> tuple[F32, F32]:
    speckle = rng.standard_normal(u.shape).astype(np.float32)
    shade = 1 + 0.04 * speckle + 0.05 * _noise(u.shape, 60, rng)
    base = np.array([0.045, 0.040, 0.038] if dark else [0.42, 0.39, 0.34], np.float32)
    return shade.astype(np.float32), base


def _cloth(u: F32, v: F32, rng: np.random.Generator) -> tuple[F32, F32]:
    weave = 0.5 + 0.25 * (np.sin(u * 2.2) + np.sin(v * 2.2))
    wrinkles = _noise(u.shape, 90, rng) * 0.1 + _noise(u.shape, 25, rng) * 0.04
    shade = 0.85 + 0.12 * weave + wrinkles
    colours = ([0.05, 0.16, 0.06], [0.05, 0.08, 0.20], [0.22, 0.04, 0.04], [0.12, 0.12, 0.12],
               [0.30, 0.22, 0.12])
    base = np.array(colours[int(rng.integers(0, len(colours)))], np.float32)
    return shade.astype(np.float32), base


@lru_cache(maxsize=4)
def table_texture(kind: str, tint: tuple[float, float, float], grain_deg: float, seed: int,
                  bounds: tuple[int, int, int, int]) -> PlaneTexture:
    """A table top of ``kind`` over ``bounds`` (x0, y0, x1, y1 mm), about 1 texel per mm (less
    when the table seen is very large)."""
    rng = np.random.default_rng([seed, 0x7AB])
    x0, y0, x1, y1 = bounds
    scale = min(1.0, math.sqrt(3.0e6 / max(1, (x1 - x0) * (y1 - y0))))
    columns, rows = max(2, round((x1 - x0) * scale)), max(2, round((y1 - y0) * scale))
    ys, xs = np.mgrid[0:rows, 0:columns].astype(np.float32)
    xs = x0 + (xs + 0.5) / scale
    ys = y0 + (ys + 0.5) / scale
    angle = math.radians(grain_deg)
    u = xs * math.cos(angle) + ys * math.sin(angle)
    v = -xs * math.sin(angle) + ys * math.cos(angle)
    if kind == "wood":
        shade, base = _wood(u, v, rng)
    elif kind in ("dark-laminate", "light-laminate"):
        shade, base = _laminate(u, rng, kind == "dark-laminate")
    else:
        shade, base = _cloth(u, v, rng)
    colour = np.clip(base * np.array(tint, np.float32), 0.005, 0.9)
    albedo = (np.clip(shade, 0.05, 3.0)[..., None] * colour).astype(np.float32)
    return PlaneTexture(_pyramid(albedo, 2), scale, (float(x0), float(y0)))


#: Gloss (Fresnel F0, lobe sigma) of each table top; cloth has none.
TABLE_GLOSS: dict[str, tuple[float, float]] = {
    "wood": (0.04, 0.22),
    "dark-laminate": (0.045, 0.12),
    "light-laminate": (0.045, 0.15),
    "cloth": (0.0, 0.5),
}
