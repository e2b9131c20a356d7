"""Solid shapes on the table: capped cylinders (coins, pawn bodies), cone frusta, spheres.

Every shape answers three questions for arrays of rays or points: where a camera ray first
hits it (:func:`intersect`), its surface normal there (:func:`normal`), and whether it blocks
the segment from a point to a light sample (:func:`blocks`, for soft shadows). A coin is one
cylinder (tilted when it leans); a pawn is a union of a few shapes (:func:`pawn_shapes`).
All functions take the ray origin as scalars (the camera) and directions as float32 arrays.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

F32 = npt.NDArray[Any]  # float32; numpy typing loses dtypes in arithmetic
F64 = npt.NDArray[Any]  # float64; numpy typing loses dtypes in arithmetic
Bool = npt.NDArray[np.bool_]

CYLINDER, CONE, SPHERE = 0, 1, 2
#: Hit parts: the flat top of a cylinder or cone, its side, a sphere's surface.
TOP, SIDE, BALL = 0, 1, 2
INF = np.float32(np.inf)


@dataclass(frozen=True, eq=False)
class Shape:
    """One solid: ``base`` is the bottom centre (cylinder, cone) or the centre (sphere);
    ``r0``/``r1`` bottom/top radius; ``height``; ``bevel`` the rounding of edges (mm);
    ``frame`` the rows of a local-to-world tilt (None when upright); ``owner`` the object."""

    kind: int
    base: tuple[float, float, float]
    r0: float
    r1: float
    height: float
    bevel: float
    owner: int
    frame: tuple[tuple[float, float, float], ...] | None = None

    def bounds(self) -> tuple[float, float, float, float, float, float]:
        """(xmin, xmax, ymin, ymax, zmin, zmax) in mm, conservative for tilted shapes."""
        x, y, z = self.base
        if self.kind == SPHERE:
            r = self.r0
            return (x - r, x + r, y - r, y + r, z - r, z + r)
        reach = max(self.r0, self.r1)
        lift = self.height
        if self.frame is not None:
            tilt = math.acos(min(1.0, abs(self.frame[2][2])))
            reach += self.height * math.sin(tilt) + 0.05
            lift = self.height + reach * math.sin(tilt)
            return (x - reach, x + reach, y - reach, y + reach, z - reach * math.sin(tilt),
                    z + lift)
        return (x - reach, x + reach, y - reach, y + reach, z, z + lift)

    def corners(self) -> F64:
        """The eight corners of :meth:`bounds`."""
        x0, x1, y0, y1, z0, z1 = self.bounds()
        return np.array([(x, y, z) for x in (x0, x1) for y in (y0, y1) for z in (z0, z1)])


def _local(shape: Shape, origin: tuple[float, float, float], dx: F32, dy: F32, dz: F32
           ) -> tuple[tuple[float, float, float], F32, F32, F32]:
    """Ray origin (scalars) and directions in the shape's frame, from its base."""
    o = (origin[0] - shape.base[0], origin[1] - shape.base[1], origin[2] - shape.base[2])
    if shape.frame is None:
        return o, dx, dy, dz
    f = shape.frame
    lo = tuple(f[i][0] * o[0] + f[i][1] * o[1] + f[i][2] * o[2] for i in range(3))
    ld = [f[i][0] * dx + f[i][1] * dy + f[i][2] * dz for i in range(3)]
    return (lo[0], lo[1], lo[2]), ld[0], ld[1], ld[2]


def _cap(o: tuple[float, float, float], dx: F32, dy: F32, dz: F32, z: float, r: float) -> F32:
    """Distance to the disc of radius r at height z (local), inf where missed."""
    safe = np.where(dz < -1e-6, dz, np.float32(-1e-6))
    t = (z - o[2]) / safe
    x, y = o[0] + t * dx, o[1] + t * dy
    return np.where((x * x + y * y <= r * r) & (t > 0) & (dz < -1e-6), t, INF).astype(np.float32)


def intersect(shape: Shape, origin: tuple[float, float, float], dx: F32, dy: F32, dz: F32
              ) -> tuple[F32, npt.NDArray[np.int8]]:
    """Distance along each ray to its first hit with ``shape`` (inf for a miss) and the part."""
    o, dx, dy, dz = _local(shape, origin, dx, dy, dz)
    if shape.kind == SPHERE:
        b = o[0] * dx + o[1] * dy + o[2] * dz
        c = o[0] ** 2 + o[1] ** 2 + o[2] ** 2 - shape.r0**2
        disc = b * b - c
        t = -b - np.sqrt(np.maximum(disc, 0))
        t = np.where((disc > 0) & (t > 0), t, INF).astype(np.float32)
        return t, np.full(t.shape, BALL, np.int8)
    h = shape.height
    slope = (shape.r1 - shape.r0) / h
    start = shape.r0 + slope * o[2]
    a = dx * dx + dy * dy - slope * slope * dz * dz
    a = np.where(np.abs(a) < 1e-9, np.float32(1e-9), a)
    b = o[0] * dx + o[1] * dy - slope * start * dz
    c = o[0] ** 2 + o[1] ** 2 - start * start
    disc = b * b - a * c
    root = np.sqrt(np.maximum(disc, 0))
    best = np.full(dx.shape, INF, np.float32)
    for sign in (-1.0, 1.0):
        t = (-b + sign * root) / a
        z = o[2] + t * dz
        ok = (disc > 0) & (t > 0) & (z >= 0) & (z <= h)
        best = np.where(ok & (t < best), t, best)
    top = _cap(o, dx, dy, dz, h, shape.r1) if shape.r1 > 0.05 else best + INF
    part = np.where(top < best, TOP, SIDE).astype(np.int8)
    return np.minimum(top, best).astype(np.float32), part


def _rounded(radial: F32, level: F32) -> tuple[F32, F32]:
    """Normal (radial, vertical components) across a quarter-round edge, ``level`` 0..1 from
    where the rounding starts to the very edge."""
    s = np.clip(level, 0.0, 0.995)
    return s * radial, np.sqrt(1 - s * s)


def normal(shape: Shape, px: F32, py: F32, pz: F32, part: npt.NDArray[np.int8]
           ) -> tuple[F32, F32, F32]:
    """World surface normals of ``shape`` at world points P on it (``part`` from
    :func:`intersect`); cylinder edges are rounded by ``shape.bevel``."""
    x = px - np.float32(shape.base[0])
    y = py - np.float32(shape.base[1])
    z = pz - np.float32(shape.base[2])
    if shape.kind == SPHERE:
        inv = np.float32(1.0 / shape.r0)
        return x * inv, y * inv, z * inv
    f = shape.frame
    if f is not None:
        x, y, z = (f[i][0] * x + f[i][1] * y + f[i][2] * z for i in range(3))
    rho = np.maximum(np.sqrt(x * x + y * y), 1e-6)
    ux, uy = x / rho, y / rho
    slope = (shape.r1 - shape.r0) / shape.height
    bevel = max(shape.bevel, 1e-3)
    # Side: radial, tilted by the cone's slope, rounded into the top and bottom edges.
    side_h = np.float32(1.0 / math.sqrt(1 + slope * slope))
    side_v = np.float32(-slope / math.sqrt(1 + slope * slope))
    upper = np.clip((z - (shape.height - bevel)) / bevel, 0, 1)
    lower = np.clip((bevel - z) / bevel, 0, 1)
    bend = np.clip(upper + lower, 0, 0.995)
    lift = np.where(upper > 0, bend, -bend)
    horizontal = np.sqrt(1 - lift * lift)
    sx, sz = horizontal * side_h, np.where(bend > 0, lift, side_v)
    # Top: flat, rounded into the side near the rim.
    rim = np.clip((rho - (shape.r1 - bevel)) / bevel, 0, 1)
    tr, tz = _rounded(np.ones_like(rho), rim)
    on_top = part == TOP
    radial = np.where(on_top, tr, sx)
    nz = np.where(on_top, tz, sz)
    nx, ny = radial * ux, radial * uy
    if f is not None:
        nx, ny, nz = (f[0][i] * nx + f[1][i] * ny + f[2][i] * nz for i in range(3))
    return nx.astype(np.float32), ny.astype(np.float32), nz.astype(np.float32)


def blocks(shape: Shape, px: F32, py: F32, pz: F32, sx: F64, sy: F64, sz: F64) -> Bool:
    """Whether ``shape`` blocks the segments from points P (n,) to light samples S (k, 1):
    a (k, n) boolean. Tilted cylinders are tested upright (they lean a few degrees)."""
    dx = (sx - px).astype(np.float32)
    dy = (sy - py).astype(np.float32)
    dz = np.maximum((sz - pz).astype(np.float32), 1e-3)
    qx = px - np.float32(shape.base[0])
    qy = py - np.float32(shape.base[1])
    qz = pz - np.float32(shape.base[2])
    if shape.kind == SPHERE:
        s = np.clip(-(qx * dx + qy * dy + qz * dz) / (dx * dx + dy * dy + dz * dz), 1e-3, 1)
        ex, ey, ez = qx + s * dx, qy + s * dy, qz + s * dz
        return np.asarray(ex * ex + ey * ey + ez * ez < shape.r0**2)
    z0, z1 = shape.bounds()[4:]
    low = np.maximum((z0 - pz) / dz, 1e-3)
    high = np.minimum((z1 - pz) / dz, 1.0)
    if shape.kind == CYLINDER:
        s = np.clip(-(qx * dx + qy * dy) / (dx * dx + dy * dy + 1e-9), low, high)
        ex, ey = qx + s * dx, qy + s * dy
        return np.asarray((low < high) & (ex * ex + ey * ey < shape.r0**2))
    # Cone: |q + s d|^2 - r(s)^2, a quadratic in s, negative somewhere in [low, high].
    k = (shape.r1 - shape.r0) / shape.height
    r_start = shape.r0 + k * qz
    a = dx * dx + dy * dy - k * k * dz * dz
    b = 2 * (qx * dx + qy * dy) - 2 * k * dz * r_start
    c = qx * qx + qy * qy - r_start * r_start

    def value(s: F32) -> F32:
        return np.asarray(a * s * s + b * s + c)

    vertex = np.clip(-b / np.where(np.abs(a) < 1e-9, 1e-9, 2 * a), low, high)
    least = np.minimum(np.minimum(value(low), value(high)), value(vertex))
    return np.asarray((low < high) & (least < 0))


def coin_shape(centre: tuple[float, float], z: float, radius: float, thickness: float,
               lean_deg: float, lean_axis_deg: float, owner: int) -> Shape:
    """A coin lying at height z, leaning ``lean_deg`` about the horizontal axis at
    ``lean_axis_deg`` (its low edge resting at z)."""
    if lean_deg <= 0:
        return Shape(CYLINDER, (centre[0], centre[1], z), radius, radius, thickness, 0.3, owner)
    lean, axis = math.radians(lean_deg), math.radians(lean_axis_deg)
    ax, ay = math.cos(axis), math.sin(axis)
    # The coin's local z axis, tipped from vertical toward the direction across the axis.
    up = (-ay * math.sin(lean), ax * math.sin(lean), math.cos(lean))
    across = (ax, ay, 0.0)
    third = (up[1] * across[2] - up[2] * across[1], up[2] * across[0] - up[0] * across[2],
             up[0] * across[1] - up[1] * across[0])
    lift = radius * math.sin(lean)
    return Shape(CYLINDER, (centre[0], centre[1], z + lift), radius, radius, thickness, 0.3,
                 owner, (across, third, up))


def pawn_shapes(shape: str, diameter: float, height: float, foot: tuple[float, float], z: float,
                owner: int) -> list[Shape]:
    """The solids of one pawn standing at ``foot`` on height z: a ``peg`` (body and ball),
    ``classic`` (base, cone, collar, ball), ``token`` (cylinder), ``cone`` (cone and tip),
    ``disc`` (flat wide cylinder), ``tall`` (slim classic) or ``ludo`` (base, cone, big ball)."""
    x, y = foot
    r = diameter / 2

    def cyl(radius: float, bottom: float, tall: float, bevel: float) -> Shape:
        return Shape(CYLINDER, (x, y, z + bottom), radius, radius, tall, bevel, owner)

    def cone(r0: float, r1: float, bottom: float, tall: float) -> Shape:
        return Shape(CONE, (x, y, z + bottom), r0, r1, tall, 0.3, owner)

    def ball(radius: float, centre: float) -> Shape:
        return Shape(SPHERE, (x, y, z + centre), radius, radius, 0.0, 0.0, owner)

    if shape == "peg":
        head = min(0.5 * r + 0.45 * r, 0.42 * height)
        return [cyl(0.62 * r, 0.0, height - head, 0.8), ball(head, height - head)]
    if shape in ("classic", "tall"):
        base_h = 0.16 * height if shape == "classic" else 0.1 * height
        head = min(0.52 * r, 0.2 * height) if shape == "classic" else min(0.45 * r, 0.14 * height)
        neck = height - 1.8 * head
        waist = 0.28 * r if shape == "classic" else 0.22 * r
        return [cyl(r, 0.0, base_h, 0.7), cone(0.78 * r, waist, base_h, neck - base_h),
                cyl(0.55 * r, neck - 0.08 * height, 0.08 * height, 0.3), ball(head, height - head)]
    if shape in ("token", "disc"):
        return [cyl(r, 0.0, height, min(1.2, height / 4))]
    if shape == "cone":
        tip = 0.14 * r
        return [cone(r, tip, 0.0, height - tip), ball(tip * 1.4, height - tip * 1.3)]
    if shape == "ludo":
        head = min(0.62 * r, 0.32 * height)
        return [cyl(r, 0.0, 0.12 * height, 0.6), cone(0.9 * r, 0.3 * r, 0.12 * height,
                                                       height - 1.6 * head - 0.12 * height),
                ball(head, height - head)]
    raise ValueError(f"unknown pawn shape {shape!r}")
