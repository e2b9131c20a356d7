"""A scene turned into what the tracer needs: camera, light, solids, their looks, textures.

:func:`build_model` places every coin and pawn (:mod:`vision.synth.physical.layout`), makes their
solids (:mod:`vision.synth.physical.objects`) and surface looks
(:mod:`vision.synth.physical.materials`),
the lamp, room and window (:mod:`vision.synth.physical.environment`, with the paper and table around
as the ground they reflect), the mat and table textures, and the light samples for shadows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from calibration.geometry import MatGeometry
from vision.synth.physical.camera import Camera
from vision.synth.physical.environment import Environment, build_environment, with_ground
from vision.synth.physical.layout import CoinPlacement, PawnPlacement, coin_radius, place
from vision.synth.physical.materials import COIN_SPECS, SurfaceLook, coin_look, pawn_look, schlick
from vision.synth.physical.objects import Shape, coin_shape, pawn_shapes
from vision.synth.physical.scene import TableScene
from vision.synth.physical.shadows import TABLE_Z, Blocker, LightSamples
from vision.synth.physical.textures import TABLE_GLOSS, PlaneTexture, mat_texture, table_texture
from vision.synth.physical.variation import LightParams, lamp_position

F32 = npt.NDArray[Any]  # float32; numpy typing loses dtypes in arithmetic
#: Texels per mm of the ground seen in reflections.
GROUND_SCALE = 0.5


@dataclass(frozen=True, eq=False)
class CoinFace:
    """What a coin's face shows: kind, radius, design, its turn (radians) and relief heights."""

    letter: str
    radius: float
    design: int
    turn: float
    relief_mm: float
    rim_mm: float


@dataclass(frozen=True, eq=False)
class Model:
    """Everything the tracer and shader read. Per solid: ``owner`` (object index); per
    object: ``faces`` (coins only), ``f0``, ``sigma``, ``diffuse``, ``is_coin``, ``reeded``."""

    camera: Camera
    env: Environment
    lights: LightSamples
    shapes: tuple[Shape, ...]
    owner: npt.NDArray[np.int32]
    faces: tuple[CoinFace | None, ...]
    f0: F32
    sigma: F32
    diffuse: F32
    is_coin: npt.NDArray[np.bool_]
    reeded: npt.NDArray[np.bool_]
    geometry: MatGeometry
    mat: PlaneTexture
    table: PlaneTexture
    paper: F32
    laminate: tuple[float, float] | None
    table_gloss: tuple[float, float]
    blocker: Blocker | None
    px_per_mm: float
    coins: tuple[CoinPlacement, ...]
    pawns: tuple[PawnPlacement, ...]
    light: LightParams


def _table_bounds(camera: Camera, geometry: MatGeometry) -> tuple[int, int, int, int]:
    """The part of the table the frame sees (mm, rounded out), capped around the mat."""
    width, height = camera.size
    edge = np.linspace(0, 1, 25)
    border = np.concatenate([
        np.column_stack([edge * (width - 1), np.zeros_like(edge)]),
        np.column_stack([edge * (width - 1), np.full_like(edge, height - 1)]),
        np.column_stack([np.zeros_like(edge), edge * (height - 1)]),
        np.column_stack([np.full_like(edge, width - 1), edge * (height - 1)]),
    ])
    points = camera.to_plane(border, TABLE_Z)
    low = np.maximum(points.min(axis=0) - 40, [-1500, -1500])
    high = np.minimum(points.max(axis=0) + 40, [geometry.width_mm + 1500,
                                                 geometry.height_mm + 1500])
    return (math.floor(low[0]), math.floor(low[1]), math.ceil(high[0]), math.ceil(high[1]))


def _ground_albedo(geometry: MatGeometry, mat: PlaneTexture, table: PlaneTexture, paper: F32
                   ) -> tuple[F32, tuple[float, float]]:
    """Albedo of paper and table around the mat at :data:`GROUND_SCALE` texels per mm."""
    origin = (-150.0, -150.0)
    columns = round((geometry.width_mm + 300) * GROUND_SCALE)
    rows = round((geometry.height_mm + 300) * GROUND_SCALE)
    ys, xs = np.mgrid[0:rows, 0:columns].astype(np.float32)
    x = (xs.ravel() / GROUND_SCALE + origin[0]).astype(np.float32)
    y = (ys.ravel() / GROUND_SCALE + origin[1]).astype(np.float32)
    footprint = np.full(x.shape, 1 / GROUND_SCALE, np.float32)
    on_mat = (x >= 0) & (x < geometry.width_mm) & (y >= 0) & (y < geometry.height_mm)
    albedo = np.where(on_mat[:, None], mat.lookup(x, y, footprint) * paper,
                      table.lookup(x, y, footprint))
    return albedo.reshape(rows, columns, 3).astype(np.float32), origin


def _blocker(light: LightParams, centre: tuple[float, float]) -> Blocker | None:
    """A disc between the lamp and a point near the mat, high enough to be out of frame."""
    if not light.blocker:
        return None
    lx, ly, lz = lamp_position(light, centre)
    target = (centre[0] + light.blocker_target_mm[0], centre[1] + light.blocker_target_mm[1])
    height = min(light.blocker_height_mm, 0.8 * lz)
    share = (lz - height) / lz
    where = (lx + (target[0] - lx) * share, ly + (target[1] - ly) * share)
    away = math.hypot(where[0] - centre[0], where[1] - centre[1])
    facing = ((centre[0] - where[0]) / max(away, 1e-6), (centre[1] - where[1]) / max(away, 1e-6))
    return Blocker(where, height, light.blocker_radius_mm, facing)


def _coin(coin: CoinPlacement, owner: int, relief: float, shine: float
          ) -> tuple[Shape, SurfaceLook, CoinFace]:
    diameter, thickness, _metal, _reeded = COIN_SPECS[coin.letter]
    shape = coin_shape(coin.centre, coin.z, diameter / 2, thickness, coin.lean_deg,
                       coin.lean_axis_deg, owner)
    face = CoinFace(coin.letter, coin_radius(coin.letter), coin.design,
                    math.radians(coin.turn_deg), 0.09 * relief * (1 - 0.5 * coin.age),
                    0.10 * (1 - 0.4 * coin.age))
    return shape, coin_look(coin.letter, coin.age, shine), face


def _glare(light: LightParams, camera: Camera, geometry: MatGeometry) -> float:
    """How much brighter than its diffuse light a laminated mat's gloss makes the brightest
    point over a marker (0 when the mat is not laminated)."""
    if not light.laminated:
        return 0.0
    centre = (geometry.width_mm / 2, geometry.height_mm / 2)
    env = build_environment(light, centre)
    steps = np.linspace(-0.75, 0.75, 5)
    points = np.array([(m.centre[0] + a * m.side_mm, m.centre[1] + b * m.side_mm, 0.0)
                       for m in geometry.markers for a in steps for b in steps], np.float32)
    rays = points - np.array(camera.position, np.float32)
    rays /= np.linalg.norm(rays, axis=1, keepdims=True)
    px, py, pz = points.T
    dx, dy, dz = rays.T
    one = np.ones_like(px)
    zero = np.zeros_like(px)
    fresnel = schlick(np.full((len(px), 1), 0.045, np.float32), -dz)
    gloss = fresnel * env.glossy(px, py, pz, dx, dy, -dz, light.laminate_sigma * one, one, one,
                                 one)
    diffuse = env.diffuse(px, py, pz, zero, zero, one, one, one, one) * np.float32(
        light.paper_albedo / math.pi)
    return float((gloss.sum(axis=1) / diffuse.sum(axis=1)).max())


def glare_free(light: LightParams, camera: Camera, geometry: MatGeometry) -> LightParams:
    """``light`` with the lamp and window turned about the table (30 deg at a time) until the
    gloss of a laminated mat no longer washes out a marker (a player would move the lamp)."""
    for turn in range(12):
        turned = replace(light, lamp_azimuth_deg=(light.lamp_azimuth_deg + 30 * turn) % 360,
                         window_azimuth_deg=(light.window_azimuth_deg + 30 * turn) % 360)
        if _glare(turned, camera, geometry) < 0.5:
            return turned
    return replace(light, laminate_sigma=max(light.laminate_sigma, 0.3))


def build_model(scene: TableScene, camera: Camera) -> Model:
    """The tracer's model of ``scene`` seen by ``camera`` (with :func:`glare_free` light)."""
    geometry, variation = scene.geometry, scene.variation
    light, style = glare_free(variation.light, camera, geometry), variation.style
    centre = (geometry.width_mm / 2, geometry.height_mm / 2)
    mat = mat_texture(geometry)
    table = table_texture(light.table, light.table_tint, light.table_grain_deg, light.table_seed,
                          _table_bounds(camera, geometry))
    paper = (light.paper_albedo * np.array(light.paper_tint)).astype(np.float32)
    env: Environment = build_environment(light, centre)
    albedo, origin = _ground_albedo(geometry, mat, table, paper)
    env = with_ground(env, albedo, origin, GROUND_SCALE, table.mean())
    coins, pawns = place(geometry, scene.coins_by_region(), scene.pawns_by_region(),
                         scene.layout_seed, style, dict(scene.positions))
    shapes: list[Shape] = []
    looks: list[SurfaceLook] = []
    faces: list[CoinFace | None] = []
    for coin in coins:
        shape, look, face = _coin(coin, len(looks), style.relief, style.shine)
        shapes.append(shape)
        looks.append(look)
        faces.append(face)
    for pawn in pawns:
        owner = len(looks)
        shapes += pawn_shapes(style.pawn_shape, style.pawn_diameter_mm, style.pawn_height_mm,
                              pawn.foot, pawn.z, owner)
        looks.append(pawn_look(pawn.colour, pawn.hue_turn, pawn.brightness, style.pawn_f0,
                               style.pawn_sigma))
        faces.append(None)
    letters = [coin.letter for coin in coins]
    scale = float(np.mean([camera.px_per_mm(c) for c in
                           ((0.0, 0.0), (geometry.width_mm, geometry.height_mm),
                            (geometry.width_mm, 0.0), (0.0, geometry.height_mm))]))
    return Model(
        camera=camera, env=env, lights=LightSamples.of(env), shapes=tuple(shapes),
        owner=np.array([s.owner for s in shapes], np.int32), faces=tuple(faces),
        f0=np.array([look.f0 for look in looks], np.float32).reshape(-1, 3),
        sigma=np.array([look.sigma for look in looks], np.float32),
        diffuse=np.array([look.diffuse for look in looks], np.float32).reshape(-1, 3),
        is_coin=np.array([look.metal for look in looks], bool),
        reeded=np.array([COIN_SPECS[letter][3] for letter in letters]
                        + [False] * len(pawns), bool),
        geometry=geometry, mat=mat, table=table, paper=paper,
        laminate=(0.045, light.laminate_sigma) if light.laminated else None,
        table_gloss=TABLE_GLOSS.get(light.table, (0.0, 0.5)),
        blocker=_blocker(light, centre), px_per_mm=scale, coins=tuple(coins),
        pawns=tuple(pawns), light=light,
    )
