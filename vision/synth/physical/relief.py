"""The relief of a coin's face: field, portrait or emblem, lettering, rim lip and rounded edge.

A design is a height field over the face (millimetres, made of soft blobs: a portrait-like head
and neck, or an emblem; rows of letter-like bumps around the edge; a date), drawn at random per
design seed and kept as its slopes on a small texture, blurred to the camera's pixel size so
that fine relief shades like a camera sees it rather than aliasing. The radially symmetric part
(a slightly dished field, the raised rim and the rounded edge) is computed exactly per pixel,
since it is thinner than a texel. :func:`face_normals` combines both into local normals.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.synth.physical.sampling import sample

F32 = npt.NDArray[Any]  # float32; numpy typing loses dtypes in arithmetic
#: Texels across a face design.
TEXELS = 160
#: Designs per coin kind and side.
DESIGNS = 6


def _blob(xx: F32, yy: F32, cx: float, cy: float, sx: float, sy: float, angle: float) -> F32:
    c, s = math.cos(angle), math.sin(angle)
    u = (xx - cx) * c + (yy - cy) * s
    v = -(xx - cx) * s + (yy - cy) * c
    return np.asarray(np.exp(-0.5 * ((u / sx) ** 2 + (v / sy) ** 2)), np.float32)


def _lettering(xx: F32, yy: F32, rng: np.random.Generator, radius: float) -> F32:
    """Letter-like bumps along arcs just inside the rim, with gaps between words."""
    height = np.zeros_like(xx)
    ring = radius * rng.uniform(0.76, 0.84)
    start = rng.uniform(0, 2 * math.pi)
    span = rng.uniform(0.55, 0.9) * 2 * math.pi
    pitch = rng.uniform(1.0, 1.4) / ring
    angle = start
    while angle < start + span:
        if rng.uniform() < 0.15:
            angle += 2 * pitch
            continue
        cx, cy = ring * math.cos(angle), ring * math.sin(angle)
        tall = rng.uniform(0.45, 0.7) * radius * 0.12
        wide = rng.uniform(0.18, 0.35)
        height += _blob(xx, yy, cx, cy, tall, wide, angle) * rng.uniform(0.7, 1.0)
        if rng.uniform() < 0.5:
            height += 0.6 * _blob(xx, yy, cx * 0.98, cy * 0.98, tall * 0.5, wide * 1.6, angle)
        angle += pitch
    return height


def _portrait(xx: F32, yy: F32, rng: np.random.Generator, radius: float) -> F32:
    """A head-and-shoulders bump: skull, face, neck and a few features."""
    turn = rng.uniform(-0.4, 0.4)
    cx, cy = rng.uniform(-0.08, 0.08) * radius, rng.uniform(-0.12, 0.02) * radius
    head = _blob(xx, yy, cx, cy, 0.30 * radius, 0.36 * radius, turn)
    face = _blob(xx, yy, cx - 0.2 * radius, cy + 0.05 * radius, 0.12 * radius, 0.18 * radius,
                 turn)
    neck = _blob(xx, yy, cx + 0.05 * radius, cy + 0.38 * radius, 0.16 * radius, 0.14 * radius,
                 turn)
    hair = np.zeros_like(xx)
    for _ in range(5):
        hx = cx + rng.uniform(-0.05, 0.25) * radius
        hy = cy + rng.uniform(-0.3, 0.1) * radius
        hair += 0.25 * _blob(xx, yy, hx, hy, 0.05 * radius, 0.12 * radius, rng.uniform(0, 3))
    return np.asarray(np.minimum(1.2, head + 0.5 * face + 0.7 * neck) + hair, np.float32)


def _emblem(xx: F32, yy: F32, rng: np.random.Generator, radius: float) -> F32:
    """A building, torch or eagle: a few upright and crossing bars and blobs."""
    height = np.zeros_like(xx)
    for _ in range(int(rng.integers(3, 7))):
        cx, cy = rng.uniform(-0.3, 0.3) * radius, rng.uniform(-0.35, 0.3) * radius
        long, short = rng.uniform(0.15, 0.45) * radius, rng.uniform(0.03, 0.1) * radius
        height += _blob(xx, yy, cx, cy, short, long, rng.choice([0.0, math.pi / 2]) +
                        rng.uniform(-0.2, 0.2)) * rng.uniform(0.5, 1.0)
    return np.asarray(np.minimum(height, 1.3), np.float32)


@lru_cache(maxsize=128)
def design_height(letter: str, design: int, radius: float) -> F32:
    """A face's relief (TEXELS x TEXELS, peak about 1; multiply by the relief in mm);
    texel (0, 0) is the face's corner (-radius, -radius)."""
    rng = np.random.default_rng([ord(letter), design, 0xC01])
    axis = np.linspace(-radius, radius, TEXELS, dtype=np.float32)
    xx, yy = np.meshgrid(axis, axis)
    middle = _portrait(xx, yy, rng, radius) if design % 2 == 0 else _emblem(xx, yy, rng, radius)
    height = 1.0 * middle + 0.8 * _lettering(xx, yy, rng, radius)
    dx, dy = rng.uniform(-0.4, 0.4, 2) * radius
    height += 0.6 * _blob(xx, yy, dx, dy, 0.12 * radius, 0.05 * radius, rng.uniform(0, 3))
    inside = np.hypot(xx, yy) < radius * 0.9
    return np.where(inside, height, 0).astype(np.float32)


@lru_cache(maxsize=256)
def design_slopes(letter: str, design: int, radius: float, blur_texels: float) -> F32:
    """Slopes (TEXELS x TEXELS x 2: dh/dx, dh/dy) of :func:`design_height`, blurred by
    ``blur_texels`` (the camera's pixel on the face)."""
    step = 2 * radius / (TEXELS - 1)
    height = cv2.GaussianBlur(design_height(letter, design, radius), (0, 0),
                              max(0.6, blur_texels))
    gy, gx = np.gradient(height, step)
    return np.dstack([gx, gy]).astype(np.float32)


def face_normals(letter: str, design: int, radius: float, lx: F32, ly: F32, relief_mm: float,
                 rim_mm: float, px_per_mm: float) -> tuple[F32, F32, F32]:
    """Local normals of a coin's face at local points (lx, ly) mm from its centre, already
    turned to the design's orientation. ``relief_mm`` is the design's height, ``rim_mm`` the
    rim lip's; ``px_per_mm`` sets how much fine detail survives (thin features widen)."""
    step = 2 * radius / (TEXELS - 1)
    blur = 0.5 / (px_per_mm * step)
    slopes = design_slopes(letter, design, round(radius, 3), round(blur * 4) / 4)
    g = sample(slopes, (lx + radius) / step, (ly + radius) / step, cv2.BORDER_CONSTANT)
    gx, gy = g[:, 0] * relief_mm, g[:, 1] * relief_mm
    rho = np.maximum(np.sqrt(lx * lx + ly * ly), 1e-6)
    bevel, lip = 0.3, 0.8
    wall = max(0.25, 0.7 / px_per_mm)
    inner = radius - lip - wall
    dish = 0.04 * relief_mm / 0.1
    radial = np.where(rho < inner, 2 * dish * rho / inner**2, 0.0).astype(np.float32)
    radial = np.where((rho >= inner) & (rho < inner + wall), rim_mm / wall, radial)
    edge = np.clip((rho - (radius - bevel)) / bevel, 0, 0.995)
    radial = np.where(edge > 0, -edge / np.sqrt(1 - edge * edge), radial).astype(np.float32)
    gx = gx + radial * lx / rho
    gy = gy + radial * ly / rho
    norm = 1.0 / np.sqrt(gx * gx + gy * gy + 1)
    return (-gx * norm).astype(np.float32), (-gy * norm).astype(np.float32), \
        norm.astype(np.float32)
