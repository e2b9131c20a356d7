"""Radiance leaving each traced hit toward the camera, in linear RGB.

Paper and table are Lambertian (albedo / pi times the irradiance of lamp, room and window,
each reduced by what hides it), with a glossy layer on laminated mats and varnished or
laminated tables. Coins are metals: Fresnel reflectance (tinted F0, Schlick) times the
environment seen in the mirror direction through the coin's lobe, plus the diffuse tarnish;
reeded edges reflect through a wider lobe (the grooves are finer than a pixel) and lose some
light in them. Pawns are plastic or paint: a white gloss over a coloured diffuse body.

The light falling on the open paper and table (no solid nearby to shadow or occlude it) varies
slowly across the frame, so :func:`shade_frame` evaluates it on the camera's 8-pixel ray grid
and interpolates; pixels near solids, and solids themselves, are shaded exactly per ray.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from vision.synth.physical.assembly import Model
from vision.synth.physical.materials import schlick
from vision.synth.physical.objects import SIDE
from vision.synth.physical.sampling import sample
from vision.synth.physical.shadows import lit_fractions
from vision.synth.physical.trace import MAT, Samples

F32 = npt.NDArray[Any]  # float32; numpy typing loses dtypes in arithmetic
Index = npt.NDArray[np.intp]
#: Extra lobe width and light loss of a reeded edge.
REEDING_SIGMA = 0.3
REEDING_LOSS = 0.8


def shade(model: Model, samples: Samples, idx: Index | None = None) -> F32:
    """Linear RGB radiance (N x 3) toward the camera of the samples at ``idx`` (or all)."""
    if idx is None:
        idx = np.arange(len(samples.t))
    lamp, window = lit_fractions(samples.bits[idx], model.env.window is not None)
    lamp = lamp * samples.blocker[idx]
    out = np.empty((len(idx), 3), np.float32)
    ident = samples.ident[idx]
    planes = np.flatnonzero(ident < 0)
    solids = np.flatnonzero(ident >= 0)
    if planes.size:
        out[planes] = _planes(model, samples, idx[planes], lamp[planes], window[planes])
    if solids.size:
        out[solids] = _solids(model, samples, idx[solids], lamp[solids], window[solids])
    return out


def shade_frame(model: Model, samples: Samples) -> F32:
    """Radiance of a full first pass (one sample per pixel, raster order): open paper and
    table from the interpolated light fields, everything else exactly."""
    width = model.camera.size[0]
    open_plane = (samples.ident < 0) & (samples.bits == 0) & (samples.ambient >= 1.0)
    fast = np.flatnonzero(open_plane)
    exact = np.flatnonzero(~open_plane)
    out = np.empty((len(samples.t), 3), np.float32)
    out[exact] = shade(model, samples, exact)
    fields = _plane_fields(model, samples.blocker_grid)
    u = (fast % width).astype(np.float32) / 8
    v = (fast // width).astype(np.float32) / 8
    on_mat = samples.ident[fast] == MAT
    for kind, (scale, gloss) in zip((True, False), fields, strict=True):
        pick = fast[on_mat == kind]
        if not pick.size:
            continue
        chosen = on_mat == kind
        px, py, _pz = samples.points(model.camera.position, pick)
        texture = model.mat if kind else model.table
        albedo = texture.lookup(px, py, samples.footprint[pick])
        if kind:
            albedo *= model.paper
        out[pick] = albedo * sample(scale, u[chosen], v[chosen]) + sample(gloss, u[chosen],
                                                                          v[chosen])
    return out


def _plane_fields(model: Model, blocker: F32 | None) -> list[tuple[F32, F32]]:
    """On the ray grid, for the paper then the table: the factor turning albedo into diffuse
    radiance ((1 - F) E / pi) and the glossy radiance (F times what the gloss reflects)."""
    camera = model.camera
    gx, gy, gz = camera.grid_rays()
    shape = gx.shape
    dx, dy, dz = gx.ravel(), gy.ravel(), np.minimum(gz.ravel(), -1e-6)
    t = -camera.position[2] / dz
    px, py = camera.position[0] + t * dx, camera.position[1] + t * dy
    pz = np.zeros_like(px)
    one = np.ones_like(px)
    lamp = one if blocker is None else blocker.ravel()
    irradiance = model.env.diffuse(px, py, pz, pz, pz, one, lamp, one, one)
    fields = []
    for f0, sigma in (model.laminate or (0.0, 0.5), model.table_gloss):
        scale = irradiance * np.float32(1 / math.pi)
        gloss = np.zeros_like(scale)
        if f0 > 0:
            fresnel = schlick(np.full((len(dx), 1), f0, np.float32), -dz)
            seen = model.env.glossy(px, py, pz, dx, dy, -dz, np.full_like(px, sigma), lamp, one,
                                    one)
            scale = scale * (1 - fresnel)
            gloss = fresnel * seen
        fields.append((scale.reshape(*shape, 3).astype(np.float32),
                       gloss.reshape(*shape, 3).astype(np.float32)))
    return fields


def _planes(model: Model, samples: Samples, idx: Index, lamp: F32, window: F32) -> F32:
    """Paper and table: diffuse albedo from their textures, plus their gloss if any."""
    px, py, pz = samples.points(model.camera.position, idx)
    on_mat = samples.ident[idx] == MAT
    foot = samples.footprint[idx]
    albedo = np.empty((len(idx), 3), np.float32)
    mat = np.flatnonzero(on_mat)
    table = np.flatnonzero(~on_mat)
    albedo[mat] = model.mat.lookup(px[mat], py[mat], foot[mat]) * model.paper
    albedo[table] = model.table.lookup(px[table], py[table], foot[table])
    zero = np.zeros(len(idx), np.float32)
    one = np.ones(len(idx), np.float32)
    ambient = samples.ambient[idx]
    irradiance = model.env.diffuse(px, py, pz, zero, zero, one, lamp, window, ambient)
    out = albedo * irradiance * np.float32(1 / math.pi)
    gloss_mat = model.laminate or (0.0, 0.5)
    f0 = np.where(on_mat, gloss_mat[0], model.table_gloss[0]).astype(np.float32)
    sigma = np.where(on_mat, gloss_mat[1], model.table_gloss[1]).astype(np.float32)
    shiny = np.flatnonzero(f0 > 0)
    if shiny.size:
        dx, dy, dz = (a[idx[shiny]] for a in (samples.dx, samples.dy, samples.dz))
        fresnel = schlick(f0[shiny, None], -dz)
        seen = model.env.glossy(px[shiny], py[shiny], pz[shiny], dx, dy, -dz, sigma[shiny],
                                lamp[shiny], window[shiny], ambient[shiny])
        out[shiny] = out[shiny] * (1 - fresnel) + fresnel * seen
    return out


def _solids(model: Model, samples: Samples, idx: Index, lamp: F32, window: F32) -> F32:
    """Coins and pawns: Fresnel-weighted glossy reflection plus the diffuse under it."""
    px, py, pz = samples.points(model.camera.position, idx)
    owner = model.owner[samples.ident[idx]]
    nx, ny, nz = samples.nx[idx], samples.ny[idx], samples.nz[idx]
    dx, dy, dz = samples.dx[idx], samples.dy[idx], samples.dz[idx]
    facing = -(dx * nx + dy * ny + dz * nz)
    cos_view = np.maximum(facing, 1e-3)
    rx, ry, rz = dx + 2 * cos_view * nx, dy + 2 * cos_view * ny, dz + 2 * cos_view * nz
    sigma = model.sigma[owner]
    reeded = model.reeded[owner] & (samples.part[idx] == SIDE)
    sigma = np.where(reeded, np.sqrt(sigma * sigma + REEDING_SIGMA**2), sigma).astype(np.float32)
    fresnel = schlick(model.f0[owner], cos_view)
    fresnel *= np.where(reeded, REEDING_LOSS, 1.0).astype(np.float32)[:, None]
    ambient = samples.ambient[idx]
    seen = model.env.glossy(px, py, pz, rx, ry, rz, sigma, lamp, window, ambient)
    irradiance = model.env.diffuse(px, py, pz, nx, ny, nz, lamp, window, ambient)
    diffuse = model.diffuse[owner] * irradiance * np.float32(1 / math.pi)
    return np.asarray(fresnel * seen + (1 - fresnel) * diffuse, np.float32)
