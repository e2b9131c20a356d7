"""Casting rays: one per pixel, then 3x3 per pixel along every edge, nearest hit wins.

Every ray first meets the paper (z = 0 inside the mat's outline) or the table (z = -0.3);
only the rays inside a solid's projected bounding box are tested against it, and a closer hit
replaces the plane's. Each hit gets its normal (coin faces with their relief), the light
samples hidden from it (:mod:`vision.synth.physical.shadows`) and its ambient occlusion. The
first pass
traces every pixel centre; the second re-traces the pixels where the hit object or part changes
(silhouettes, the mat's edge, a coin's face meeting its side) with nine rays each, whose shaded
colours are averaged: anti-aliased edges at a fraction of full supersampling's cost.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from calibration.geometry import MatGeometry
from vision.synth.physical.assembly import Model
from vision.synth.physical.objects import TOP, Shape, intersect, normal
from vision.synth.physical.relief import face_normals
from vision.synth.physical.shadows import (
    TABLE_Z,
    ambient_factor,
    ao_reach,
    blocker_map,
    shadow_bits,
    shadow_box,
)

F32 = npt.NDArray[Any]  # float32; numpy typing loses dtypes in arithmetic
Index = npt.NDArray[np.intp]
Box = tuple[int, int, int, int]
#: Identities of plane hits (solids are numbered from 0).
MAT, TABLE = -1, -2
#: Sub-pixel offsets of the edge pass.
SUB = np.array([-1 / 3, 0.0, 1 / 3], np.float32)


@dataclass(eq=False)
class Samples:
    """Flat arrays, one entry per ray: direction, hit distance, what was hit (solid index or
    MAT/TABLE) and which part, normal, hidden light bits, ambient share, blocker's share."""

    dx: F32
    dy: F32
    dz: F32
    t: F32
    ident: npt.NDArray[np.int32]
    part: npt.NDArray[np.int8]
    nx: F32
    ny: F32
    nz: F32
    bits: npt.NDArray[np.uint16]
    ambient: F32
    blocker: F32
    footprint: F32
    blocker_grid: F32 | None = None

    def points(self, origin: tuple[float, float, float], index: Index | None = None
               ) -> tuple[F32, F32, F32]:
        """Hit points (all, or those at ``index``)."""
        if index is None:
            t = self.t
            return (origin[0] + t * self.dx, origin[1] + t * self.dy, origin[2] + t * self.dz)
        t = self.t[index]
        return (origin[0] + t * self.dx[index], origin[1] + t * self.dy[index],
                origin[2] + t * self.dz[index])


def plane_samples(origin: tuple[float, float, float], dx: F32, dy: F32, dz: F32,
                  geometry: MatGeometry, focal_px: float) -> Samples:
    """Samples of rays hitting the paper or the table (before any solid is tested)."""
    down = np.minimum(dz, np.float32(-1e-6))
    t = (0.0 - origin[2]) / down
    x, y = origin[0] + t * dx, origin[1] + t * dy
    on_mat = (x >= 0) & (x < geometry.width_mm) & (y >= 0) & (y < geometry.height_mm)
    t = np.where(on_mat, t, (TABLE_Z - origin[2]) / down).astype(np.float32)
    count = len(dx)
    zeros = np.zeros(count, np.float32)
    return Samples(
        dx, dy, dz, t, np.where(on_mat, MAT, TABLE).astype(np.int32), np.zeros(count, np.int8),
        zeros, zeros.copy(), np.ones(count, np.float32), np.zeros(count, np.uint16),
        np.ones(count, np.float32), np.ones(count, np.float32),
        (t / (focal_px * np.sqrt(np.abs(down)))).astype(np.float32))


def pixel_box(model: Model, points: npt.NDArray[np.float64], pad: int = 3) -> Box | None:
    """The frame pixels (x0, x1, y0, y1; ends excluded) covering projected world points."""
    pixels = model.camera.project(points)
    if not np.isfinite(pixels).all() or np.abs(pixels).max() > 1e6:
        return None
    width, height = model.camera.size
    x0, y0 = np.floor(pixels.min(axis=0)).astype(int) - pad
    x1, y1 = np.ceil(pixels.max(axis=0)).astype(int) + pad + 1
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(width, x1), min(height, y1)
    return (x0, x1, y0, y1) if x0 < x1 and y0 < y1 else None


@dataclass(frozen=True, eq=False)
class Boxes:
    """Per solid: the pixels where it may be hit, where its shadow may fall, where it
    darkens the ambient light (None when out of frame or, for ambient, not on a surface)."""

    hit: tuple[Box | None, ...]
    shadow: tuple[Box | None, ...]
    ambient: tuple[Box | None, ...]

    @classmethod
    def of(cls, model: Model) -> Boxes:
        hit, shadow, ambient = [], [], []
        previous = -1
        for shape in model.shapes:
            hit.append(pixel_box(model, shape.corners()))
            shadow.append(pixel_box(model, shadow_box(shape, model.lights)))
            standing = shape.owner != previous  # a pawn's first solid is its foot
            ambient.append(pixel_box(model, ao_reach(shape)) if standing else None)
            previous = shape.owner
        return cls(tuple(hit), tuple(shadow), tuple(ambient))


Select = Callable[[Box], Index]


def _relief_normals(model: Model, shape: Shape, px: F32, py: F32, pz: F32
                    ) -> tuple[F32, F32, F32]:
    face = model.faces[shape.owner]
    assert face is not None
    x = px - np.float32(shape.base[0])
    y = py - np.float32(shape.base[1])
    z = pz - np.float32(shape.base[2])
    f = shape.frame
    if f is not None:
        x, y = (f[0][0] * x + f[0][1] * y + f[0][2] * z, f[1][0] * x + f[1][1] * y + f[1][2] * z)
    c, s = np.float32(math.cos(face.turn)), np.float32(math.sin(face.turn))
    lx, ly = c * x + s * y, -s * x + c * y
    nx, ny, nz = face_normals(face.letter, face.design, face.radius, lx, ly, face.relief_mm,
                              face.rim_mm, model.px_per_mm)
    nx, ny = c * nx - s * ny, s * nx + c * ny
    if f is not None:
        nx, ny, nz = (f[0][i] * nx + f[1][i] * ny + f[2][i] * nz for i in range(3))
    return nx, ny, nz


def trace(model: Model, samples: Samples, boxes: Boxes, select: Select) -> None:
    """Find each sample's nearest solid, its normal, hidden light bits and ambient share."""
    _nearest(model, samples, boxes, select)
    _normals(model, samples, boxes, select)
    _shadows(model, samples, boxes, select)
    _ambient(model, samples, boxes, select)


def _boxed(model: Model, boxes: tuple[Box | None, ...], select: Select
           ) -> Iterator[tuple[int, Shape, Index]]:
    """Each solid in frame, its index and the samples its box of ``boxes`` selects."""
    for k, shape in enumerate(model.shapes):
        box = boxes[k]
        if box is not None:
            yield k, shape, select(box)


def _nearest(model: Model, samples: Samples, boxes: Boxes, select: Select) -> None:
    """Keep, per sample, the closest hit among the plane's and each solid's."""
    origin = model.camera.position
    for k, shape, idx in _boxed(model, boxes.hit, select):
        t, part = intersect(shape, origin, samples.dx[idx], samples.dy[idx], samples.dz[idx])
        closer = t < samples.t[idx]
        won = idx[closer]
        samples.t[won], samples.ident[won], samples.part[won] = t[closer], k, part[closer]


def _normals(model: Model, samples: Samples, boxes: Boxes, select: Select) -> None:
    """Normals of the samples that hit solids; coin faces get their relief."""
    origin = model.camera.position
    for k, shape, idx in _boxed(model, boxes.hit, select):
        idx = idx[samples.ident[idx] == k]
        if not idx.size:
            continue
        px, py, pz = samples.points(origin, idx)
        part = samples.part[idx]
        nx, ny, nz = normal(shape, px, py, pz, part)
        top = part == TOP
        if model.faces[shape.owner] is not None and top.any():
            nx[top], ny[top], nz[top] = _relief_normals(model, shape, px[top], py[top], pz[top])
        samples.nx[idx], samples.ny[idx], samples.nz[idx] = nx, ny, nz


def _others(model: Model, samples: Samples, idx: Index, shape: Shape) -> Index:
    """Those of ``idx`` that did not hit ``shape``'s own object (which does not shade itself)."""
    ident = samples.ident[idx]
    return idx[(ident < 0) | (model.owner[np.maximum(ident, 0)] != shape.owner)]


def _shadows(model: Model, samples: Samples, boxes: Boxes, select: Select) -> None:
    """Mark the light samples each solid hides from the points below its top."""
    origin = model.camera.position
    for _, shape, idx in _boxed(model, boxes.shadow, select):
        idx = _others(model, samples, idx, shape)
        px, py, pz = samples.points(origin, idx)
        near = pz < shape.bounds()[5]
        if near.any():
            samples.bits[idx[near]] |= shadow_bits(shape, px[near], py[near], pz[near],
                                                   model.lights)


def _ambient(model: Model, samples: Samples, boxes: Boxes, select: Select) -> None:
    """Darken the room's light around the foot of each coin and pawn."""
    origin = model.camera.position
    for _, shape, idx in _boxed(model, boxes.ambient, select):
        idx = _others(model, samples, idx, shape)
        px, py, pz = samples.points(origin, idx)
        samples.ambient[idx] *= ambient_factor(shape, px, py, pz)


def first_pass(model: Model, boxes: Boxes) -> Samples:
    """One ray through every pixel centre, traced (samples in raster order)."""
    camera = model.camera
    width = camera.size[0]
    dx, dy, dz = camera.rays()
    samples = plane_samples(camera.position, dx.ravel(), dy.ravel(), dz.ravel(),
                            model.geometry, camera.focal_px)

    def select(box: Box) -> Index:
        x0, x1, y0, y1 = box
        return (np.arange(y0, y1)[:, None] * width + np.arange(x0, x1)).ravel()

    trace(model, samples, boxes, select)
    if model.blocker is not None:
        share = blocker_map(model.blocker, camera.grid_rays(), camera.position, model.lights)
        samples.blocker = camera.upsample(share).ravel()
        samples.blocker_grid = share
    return samples


def edge_pixels(samples: Samples, size: tuple[int, int]) -> Index:
    """Flat indices of pixels whose hit solid or part differs from a neighbour's."""
    width, height = size
    key = (samples.ident * 4 + samples.part).reshape(height, width)
    edge = np.zeros((height, width), bool)
    across = key[:, 1:] != key[:, :-1]
    edge[:, 1:] |= across
    edge[:, :-1] |= across
    down = key[1:, :] != key[:-1, :]
    edge[1:, :] |= down
    edge[:-1, :] |= down
    return np.flatnonzero(edge)


def second_pass(model: Model, boxes: Boxes, edges: Index, blocker: F32) -> Samples:
    """Nine rays through each edge pixel, traced (samples grouped by pixel, nine each)."""
    camera = model.camera
    width = camera.size[0]
    ex = (edges % width).astype(np.float32)
    ey = (edges // width).astype(np.float32)
    offset_x = np.tile(SUB, 3)
    offset_y = np.repeat(SUB, 3)
    u = (ex[:, None] + offset_x).ravel()
    v = (ey[:, None] + offset_y).ravel()
    dx, dy, dz = camera.rays_at(u, v)
    samples = plane_samples(camera.position, dx, dy, dz, model.geometry, camera.focal_px)
    rows = edges // width
    nine = np.arange(9)

    def select(box: Box) -> Index:
        x0, x1, y0, y1 = box
        start, stop = np.searchsorted(rows, [y0, y1])
        chosen = np.arange(start, stop)
        column = edges[chosen] % width
        chosen = chosen[(column >= x0) & (column < x1)]
        return (chosen[:, None] * 9 + nine).ravel()

    trace(model, samples, boxes, select)
    samples.blocker = np.repeat(blocker[edges], 9)
    return samples

