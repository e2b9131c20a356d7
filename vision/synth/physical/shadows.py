"""Soft shadows, ambient occlusion and a passer-by's shadow.

Shadows are traced, not painted: every visible point is tested against each nearby solid for
the segments to 12 points on the lamp's disc and 4 points in the window, and the blocked ones
are kept as bits of a 16-bit mask per point, so several casters combine exactly (a point is lit
by a light sample only if no caster blocks it). The lit fraction of the lamp is then the share
of clear lamp bits: penumbrae come out as wide as the lamp and the heights make them.
Ambient occlusion is the share of the room's dome a nearby upright solid hides (an analytic
estimate from its height, radius and distance), which darkens the paper faintly around coins.
A person leaning over the table is a large disc off-frame, blocking part of the lamp; its very
soft shadow is computed on a coarse grid.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.synth.physical.environment import LAMP_SAMPLES, Environment
from vision.synth.physical.objects import Shape, blocks

F32 = npt.NDArray[Any]  # float32; numpy typing loses dtypes in arithmetic
F64 = npt.NDArray[Any]  # float64; numpy typing loses dtypes in arithmetic
U16 = npt.NDArray[np.uint16]
#: Mask of the lamp's bits; the window's follow them.
LAMP_MASK = (1 << LAMP_SAMPLES) - 1
TABLE_Z = -0.3


@dataclass(frozen=True, eq=False)
class LightSamples:
    """Points (k x 1 arrays, mm) the shadow rays aim at, lamp first, then window; ``bits``
    their mask bits; ``groups`` per light: its samples, centre and reach (mm)."""

    x: F64
    y: F64
    z: F64
    bits: U16
    groups: tuple[tuple[slice, tuple[float, float, float], float], ...]

    @classmethod
    def of(cls, env: Environment) -> LightSamples:
        points = env.lamp.samples
        groups = [(slice(0, len(points)), tuple(env.lamp.centre), env.lamp.radius)]
        if env.window is not None:
            window = env.window.samples
            centre = window.mean(axis=0)
            reach = float(np.linalg.norm(window - centre, axis=1).max())
            groups.append((slice(len(points), len(points) + len(window)), tuple(centre), reach))
            points = np.concatenate([points, window])
        bits = (np.uint16(1) << np.arange(len(points), dtype=np.uint16))[:, None]
        return cls(points[:, :1], points[:, 1:2], points[:, 2:3], bits.astype(np.uint16),
                   tuple(groups))


def _may_block(shape: Shape, px: F32, py: F32, pz: F32, centre: tuple[float, float, float],
               reach: float) -> npt.NDArray[np.bool_]:
    """Whether ``shape`` may hide any point of a light (``reach`` around ``centre``) from P:
    the segment to the centre passes within the shape's bounding cylinder widened by how far
    the light's other points shift the segment at that height."""
    x0, x1, y0, y1, z0, z1 = shape.bounds()
    radius = max(x1 - x0, y1 - y0) / 2
    dx = np.float32(centre[0]) - px
    dy = np.float32(centre[1]) - py
    dz = np.maximum(np.float32(centre[2]) - pz, 1.0)
    qx, qy = px - np.float32((x0 + x1) / 2), py - np.float32((y0 + y1) / 2)
    low = np.maximum((z0 - pz) / dz, 0.0)
    high = np.minimum((z1 - pz) / dz, 1.0)
    s = np.clip(-(qx * dx + qy * dy) / (dx * dx + dy * dy + 1e-9), low, high)
    ex, ey = qx + s * dx, qy + s * dy
    widen = radius + reach * np.maximum(z1 - pz, 0) / dz + 0.05
    return np.asarray((low < high) & (ex * ex + ey * ey < widen * widen))


def shadow_bits(shape: Shape, px: F32, py: F32, pz: F32, lights: LightSamples) -> U16:
    """Bits of the light samples ``shape`` hides from points P."""
    out = np.zeros(len(px), np.uint16)
    for group, centre, reach in lights.groups:
        idx = np.flatnonzero(_may_block(shape, px, py, pz, centre, reach))
        if not idx.size:
            continue
        hidden = blocks(shape, px[idx], py[idx], pz[idx], lights.x[group], lights.y[group],
                        lights.z[group])
        out[idx] |= np.bitwise_or.reduce(np.where(hidden, lights.bits[group], np.uint16(0)),
                                         axis=0).astype(np.uint16)
    return out


def lit_fractions(bits: U16, has_window: bool) -> tuple[F32, F32]:
    """The visible shares of the lamp and of the window from the blocked-sample bits."""
    lamp = 1 - np.bitwise_count(bits & np.uint16(LAMP_MASK)).astype(np.float32) / LAMP_SAMPLES
    if not has_window:
        return lamp.astype(np.float32), np.ones_like(lamp, np.float32)
    window = 1 - np.bitwise_count(bits >> np.uint16(LAMP_SAMPLES)).astype(np.float32) / 4
    return lamp.astype(np.float32), window.astype(np.float32)


def shadow_box(shape: Shape, lights: LightSamples) -> F64:
    """World points (N x 3) whose bounding box holds ``shape`` and every shadow it casts
    down to the table."""
    x0, x1, y0, y1, _z0, z1 = shape.bounds()
    top = np.array([(x, y, z1) for x in (x0, x1) for y in (y0, y1)])
    points = [shape.corners()]
    for sx, sy, sz in zip(lights.x[:, 0], lights.y[:, 0], lights.z[:, 0], strict=True):
        source = np.array([sx, sy, sz])
        reach = (sz - TABLE_Z) / np.maximum(sz - top[:, 2:3], 1e-3)
        ground = source + (top - source) * reach
        points.append(ground)
    flat = np.concatenate(points)
    xs, ys = flat[:, 0], flat[:, 1]
    return np.array([(x, y, z) for x in (xs.min(), xs.max()) for y in (ys.min(), ys.max())
                     for z in (TABLE_Z, z1)])


def ao_reach(shape: Shape) -> F64:
    """World points bounding where ``shape`` darkens the ambient light around its foot."""
    x0, x1, y0, y1, z0, z1 = shape.bounds()
    reach = 3.0 * (z1 - z0) + 2.0
    return np.array([(x, y, z) for x in (x0 - reach, x1 + reach) for y in (y0 - reach, y1 + reach)
                     for z in (z0 - 0.5, z1)])


def ambient_factor(shape: Shape, px: F32, py: F32, pz: F32) -> F32:
    """The share of the room's light left at points P beside the upright ``shape``:
    1 - (gamma / pi) sin^2(beta), gamma its half-width and beta its elevation seen from P."""
    x0, x1, y0, y1, z0, z1 = shape.bounds()
    radius = max(shape.r0, shape.r1)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    s = np.sqrt((px - cx) ** 2 + (py - cy) ** 2) - radius
    h = np.float32(z1) - pz
    near = (s > 0) & (h > 0) & (pz > z0 - 0.6)
    s = np.maximum(s, 0.05)
    gamma = np.arcsin(radius / (radius + s))
    elevation2 = h * h / (h * h + s * s)
    return np.where(near, 1 - gamma / math.pi * elevation2, 1.0).astype(np.float32)


@dataclass(frozen=True, eq=False)
class Blocker:
    """A person leaning over the table, out of frame: at height ``z``, shoulders an ellipse
    ``radius`` wide across ``facing`` (the unit direction from them toward the mat) and the
    head a disc half as wide, nearer the mat."""

    centre: tuple[float, float]
    z: float
    radius: float
    facing: tuple[float, float]

    def _hides(self, qx: F64, qy: F64) -> npt.NDArray[np.bool_]:
        fx, fy = self.facing
        along = qx * fx + qy * fy
        across = -qx * fy + qy * fx
        shoulders = (across / self.radius) ** 2 + (along / (0.45 * self.radius)) ** 2 < 1
        head_along = along - 0.55 * self.radius
        head = across**2 + head_along**2 < (0.42 * self.radius) ** 2
        return np.asarray(shoulders | head)

    def lamp_share(self, px: F32, py: F32, pz: F32, lights: LightSamples) -> F32:
        """The share of the lamp's samples this blocker leaves visible from points P."""
        lamp = slice(0, LAMP_SAMPLES)
        sx, sy, sz = lights.x[lamp], lights.y[lamp], lights.z[lamp]
        share = np.clip((self.z - pz) / np.maximum(sz - pz, 1e-3), 0, 1)
        qx = px + (sx - px) * share - self.centre[0]
        qy = py + (sy - py) * share - self.centre[1]
        hidden = self._hides(qx, qy) & (sz > self.z)
        return (1 - hidden.mean(axis=0)).astype(np.float32)


def blocker_map(blocker: Blocker, camera_grid: tuple[F32, F32, F32],
                origin: tuple[float, float, float], lights: LightSamples) -> F32:
    """The blocker's lamp share on the coarse ray grid's plane points, softened (clothes and
    hair are not sharp-edged)."""
    dx, dy, dz = camera_grid
    t = (0.0 - origin[2]) / np.minimum(dz, -1e-6)
    px, py = origin[0] + t * dx, origin[1] + t * dy
    share = blocker.lamp_share(px.ravel(), py.ravel(), np.zeros(px.size, np.float32), lights)
    return np.asarray(cv2.GaussianBlur(share.reshape(px.shape), (0, 0), 2.5), np.float32)
