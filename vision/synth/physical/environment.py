"""The light around the table: a lamp, the room, maybe a window, and the table seen in reflection.

Each source gives the irradiance it puts on a surface (for diffuse paper, plastic, tarnish) and
the radiance a glossy surface sees along a reflected direction, already blurred by the
surface's lobe width ``sigma`` (radians): a disc or rectangle of directions convolved with the
lobe keeps its energy, so a mirror-flat coin at the lamp's mirror angle glints far brighter
than the paper while a dull one shows a wide, faint highlight. Units: the lamp puts an
irradiance of 1 on the mat centre.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.synth.physical.materials import kelvin_rgb
from vision.synth.physical.sampling import sample
from vision.synth.physical.variation import LightParams, lamp_position

F32 = npt.NDArray[Any]  # float32; numpy typing loses dtypes in arithmetic
F64 = npt.NDArray[Any]  # float64; numpy typing loses dtypes in arithmetic


def _sigmoid(x: F32) -> F32:
    return np.asarray(0.5 + 0.5 * np.tanh(0.5 * np.clip(x, -40, 40)), np.float32)


@dataclass(frozen=True, eq=False)
class Lamp:
    """A disc light: ``centre`` and ``axis`` (unit, the way it shines) in mat mm, ``radius``,
    ``intensity`` (irradiance times distance squared on its axis), ``beam`` its cos^n spot
    falloff; ``samples`` are points on the disc for soft shadows."""

    centre: F64
    axis: F64
    radius: float
    colour: F32
    intensity: float
    beam: float
    samples: F64

    def _towards(self, px: F32, py: F32, pz: F32) -> tuple[F32, F32, F32, F32, F32]:
        lx, ly, lz = (float(self.centre[i]) - p for i, p in enumerate((px, py, pz)))
        dist2 = lx * lx + ly * ly + lz * lz
        inv = 1.0 / np.sqrt(dist2)
        ax, ay, az = (float(v) for v in self.axis)
        emit = np.maximum(-(ax * lx + ay * ly + az * lz) * inv, np.float32(1e-6))
        spot = np.power(emit, np.float32(self.beam)) if self.beam > 0 else np.ones_like(emit)
        return lx * inv, ly * inv, lz * inv, dist2, spot

    def irradiance(self, px: F32, py: F32, pz: F32, nx: F32, ny: F32, nz: F32) -> F32:
        """Irradiance (scalar) on surfaces at P with normals n, unshadowed."""
        lx, ly, lz, dist2, spot = self._towards(px, py, pz)
        cosine = np.clip(nx * lx + ny * ly + nz * lz, 0, None)
        return np.asarray(self.intensity * spot * cosine / dist2, np.float32)

    def glossy(self, px: F32, py: F32, pz: F32, rx: F32, ry: F32, rz: F32, sigma: F32) -> F32:
        """Radiance (scalar) of the lamp seen along reflected directions r by a lobe sigma."""
        lx, ly, lz, dist2, spot = self._towards(px, py, pz)
        rho2 = self.radius * self.radius / dist2
        theta = np.sqrt(np.clip(2.0 * (1.0 - (rx * lx + ry * ly + rz * lz)), 0, None))
        spread2 = rho2 + 2.0 * sigma * sigma
        keep = rho2 / spread2
        soft = 0.35 * sigma + 0.1 * np.sqrt(rho2) + 1e-4
        profile = _sigmoid((np.sqrt(spread2) - theta) / soft)
        radiance = self.intensity / (math.pi * self.radius**2)
        return np.asarray(radiance * spot * keep * profile, np.float32)


@dataclass(frozen=True, eq=False)
class Window:
    """A bright rectangle of directions (sky through a window), far away: ``direction`` to its
    centre, ``across``/``up`` its axes, half-sizes in radians, ``radiance``; ``samples`` are far
    points in it for shadows."""

    direction: F64
    across: F64
    up: F64
    half: tuple[float, float]
    radiance: float
    colour: F32
    samples: F64

    def irradiance(self, nx: F32, ny: F32, nz: F32) -> F32:
        """Irradiance (scalar) on surfaces with normals n."""
        solid = 4 * math.sin(self.half[0]) * math.sin(self.half[1])
        w = [float(v) for v in self.direction]
        return np.asarray(self.radiance * solid * np.clip(nx * w[0] + ny * w[1] + nz * w[2], 0,
                                                           None), np.float32)

    def glossy(self, rx: F32, ry: F32, rz: F32, sigma: F32) -> F32:
        """Radiance (scalar) of the window seen along r by a lobe sigma."""
        w, a, u = ([float(v) for v in axis] for axis in (self.direction, self.across, self.up))
        facing = rx * w[0] + ry * w[1] + rz * w[2]
        inv = 1.0 / np.maximum(facing, 0.05)
        x = np.abs((rx * a[0] + ry * a[1] + rz * a[2]) * inv)
        y = np.abs((rx * u[0] + ry * u[1] + rz * u[2]) * inv)
        sig2 = 2.0 * sigma * sigma
        wide_x = np.sqrt(math.tan(self.half[0]) ** 2 + sig2)
        wide_y = np.sqrt(math.tan(self.half[1]) ** 2 + sig2)
        keep = math.tan(self.half[0]) * math.tan(self.half[1]) / (wide_x * wide_y)
        soft = 0.35 * sigma + 0.01
        profile = _sigmoid((wide_x - x) / soft) * _sigmoid((wide_y - y) / soft)
        return np.asarray(self.radiance * keep * profile * (facing > 0.05), np.float32)


@dataclass(frozen=True, eq=False)
class Ground:
    """The paper and table as seen in reflection: their radiance in mat space (sharp and
    blurred), ``origin`` (mm of texel 0) and ``scale`` (texels per mm), and the far mean."""

    sharp: F32
    blurred: F32
    origin: tuple[float, float]
    scale: float
    far: F32

    def radiance(self, px: F32, py: F32, pz: F32, rx: F32, ry: F32, rz: F32, sigma: F32
                 ) -> F32:
        """What a reflected ray from P going down sees (N x 3)."""
        down = np.minimum(rz, -0.02)
        reach = np.minimum(-pz / down, 400.0)
        qx = (px + rx * reach - self.origin[0]) * self.scale
        qy = (py + ry * reach - self.origin[1]) * self.scale
        near = sample(self.sharp, qx, qy)
        wide = sample(self.blurred, qx, qy)
        mix = np.clip(sigma * reach / 8.0 + 0.15, 0, 1)[:, None]
        seen = near + (wide - near) * mix
        fade = np.clip((-rz - 0.02) * 10.0, 0, 1)[:, None]
        return np.asarray(self.far + (seen - self.far) * fade, np.float32)


@dataclass(frozen=True, eq=False)
class Environment:
    """Lamp, room (a dome of ``room_radiance`` in ``room_colour``, brighter overhead and
    toward ``gradient``), window (or None) and ground."""

    lamp: Lamp
    room_colour: F32
    room_radiance: float
    gradient: F64
    window: Window | None
    ground: Ground | None

    def sky(self, rx: F32, ry: F32, rz: F32) -> F32:
        """Room radiance (scalar) along upward directions."""
        g = [float(v) for v in self.gradient]
        shape = 0.72 + 0.45 * np.clip(rz, 0, 1) + g[0] * rx + g[1] * ry
        return np.asarray(self.room_radiance * shape, np.float32)

    def diffuse(self, px: F32, py: F32, pz: F32, nx: F32, ny: F32, nz: F32, lamp_vis: F32,
                window_vis: F32, ambient: F32) -> F32:
        """Irradiance (N x 3) on surfaces at P with normals n, with the lamp's and window's
        visible fractions and the ambient occlusion."""
        lamp = self.lamp.irradiance(px, py, pz, nx, ny, nz) * lamp_vis
        out = lamp[:, None] * self.lamp.colour
        up = 0.5 + 0.5 * nz
        room = math.pi * self.room_radiance * 0.95 * up * ambient
        out += room[:, None] * self.room_colour
        if self.ground is not None:
            out += (math.pi * (1 - up) * ambient)[:, None] * self.ground.far
        if self.window is not None:
            out += (self.window.irradiance(nx, ny, nz) * window_vis)[:, None] * self.window.colour
        return np.asarray(out, np.float32)

    def glossy(self, px: F32, py: F32, pz: F32, rx: F32, ry: F32, rz: F32, sigma: F32,
               lamp_vis: F32, window_vis: F32, ambient: F32) -> F32:
        """Radiance (N x 3) seen along reflected directions r through a lobe sigma."""
        lamp = self.lamp.glossy(px, py, pz, rx, ry, rz, sigma) * lamp_vis
        out = lamp[:, None] * self.lamp.colour
        upward = _sigmoid(rz / (0.5 * sigma + 0.02))
        out += (self.sky(rx, ry, rz) * upward * ambient)[:, None] * self.room_colour
        below = np.flatnonzero(upward < 0.995)
        if self.ground is not None and below.size:
            seen = self.ground.radiance(px[below], py[below], pz[below], rx[below], ry[below],
                                        rz[below], sigma[below])
            out[below] += seen * ((1 - upward[below]) * ambient[below])[:, None]
        if self.window is not None:
            out += (self.window.glossy(rx, ry, rz, sigma) * window_vis)[:, None] \
                * self.window.colour
        return np.asarray(out, np.float32)


def _disc_samples(centre: F64, axis: F64, radius: float, count: int, turn: float) -> F64:
    """``count`` points spread evenly over a disc (a Vogel spiral), turned by ``turn``."""
    helper = np.array([0.0, 0.0, 1.0]) if abs(axis[2]) < 0.9 else np.array([1.0, 0.0, 0.0])
    first = np.cross(axis, helper)
    first /= np.linalg.norm(first)
    second = np.cross(axis, first)
    index = np.arange(count) + 0.5
    distance = radius * np.sqrt(index / count)
    angle = index * math.pi * (3 - math.sqrt(5)) + 2 * math.pi * turn
    return np.asarray(centre + distance[:, None] * (np.cos(angle)[:, None] * first
                                                     + np.sin(angle)[:, None] * second))


def _unit(azimuth_deg: float, elevation_deg: float) -> F64:
    a, e = math.radians(azimuth_deg), math.radians(elevation_deg)
    return np.array([math.cos(e) * math.cos(a), math.cos(e) * math.sin(a), math.sin(e)])


LAMP_SAMPLES = 12
WINDOW_SAMPLES = 4


def build_lamp(light: LightParams, centre: tuple[float, float]) -> Lamp:
    """The lamp of ``light`` over a mat centred at ``centre`` (irradiance 1 at the centre)."""
    position = np.array(lamp_position(light, centre))
    target = np.array([centre[0] + light.lamp_aim_mm[0], centre[1] + light.lamp_aim_mm[1], 0.0])
    axis = target - position
    axis /= np.linalg.norm(axis)
    to_centre = np.array([centre[0], centre[1], 0.0]) - position
    distance = float(np.linalg.norm(to_centre))
    spot = max(float(axis @ to_centre) / distance, 1e-3) ** light.lamp_beam
    incidence = -to_centre[2] / distance
    intensity = distance**2 / (spot * incidence)
    samples = _disc_samples(position, axis, light.lamp_radius_mm, LAMP_SAMPLES, light.sample_turn)
    colour = np.array(kelvin_rgb(light.lamp_kelvin), np.float32)
    return Lamp(position, axis, light.lamp_radius_mm, colour, intensity, light.lamp_beam, samples)


def build_window(light: LightParams, centre: tuple[float, float]) -> Window | None:
    """The window of ``light`` (None when ``light.window`` is 0); radiance relative to 1."""
    if light.window <= 0:
        return None
    direction = _unit(light.window_azimuth_deg, light.window_elevation_deg)
    across = np.cross(direction, np.array([0.0, 0.0, 1.0]))
    across /= np.linalg.norm(across)
    up = np.cross(across, direction)
    half = (math.radians(light.window_size_deg[0]) / 2, math.radians(light.window_size_deg[1]) / 2)
    points = []
    for i, j in ((-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)):
        ray = direction + math.tan(half[0]) * i * across + math.tan(half[1]) * j * up
        points.append(np.array([centre[0], centre[1], 0.0]) + 5000.0 * ray / np.linalg.norm(ray))
    colour = np.array(kelvin_rgb(light.window_kelvin), np.float32)
    return Window(direction, across, up, half, light.window, colour, np.array(points))


def build_environment(light: LightParams, centre: tuple[float, float]) -> Environment:
    """Lamp, room and window of ``light``; the ground is added by :func:`with_ground`."""
    lamp = build_lamp(light, centre)
    room_irradiance = 1.0 / light.lamp_to_room
    room_radiance = room_irradiance / (math.pi * 0.95)
    window = build_window(light, centre)
    if window is not None:
        window = Window(window.direction, window.across, window.up, window.half,
                        light.window * room_radiance, window.colour, window.samples)
    angle = math.radians(light.room_gradient_deg)
    gradient = light.room_gradient * np.array([math.cos(angle), math.sin(angle)])
    return Environment(lamp, np.array(kelvin_rgb(light.room_kelvin), np.float32), room_radiance,
                       gradient, window, None)


def with_ground(env: Environment, albedo: F32, origin: tuple[float, float], scale: float,
                far_albedo: F32) -> Environment:
    """``env`` with its ground: ``albedo`` (linear RGB texels over the plane from ``origin`` at
    ``scale`` texels/mm) lit by ``env`` without shadows; ``far_albedo`` beyond it."""
    height, width = albedo.shape[:2]
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    px = (xs.ravel() / scale + origin[0]).astype(np.float32)
    py = (ys.ravel() / scale + origin[1]).astype(np.float32)
    zero = np.zeros_like(px)
    one = np.ones_like(px)
    irradiance = env.diffuse(px, py, zero, zero, zero, one, one, one, one)
    radiance = (albedo.reshape(-1, 3) * irradiance / math.pi).reshape(height, width, 3)
    sharp = cv2.GaussianBlur(radiance, (0, 0), 1.0)
    blurred = cv2.GaussianBlur(radiance, (0, 0), 8.0)
    far = (far_albedo * irradiance.mean(axis=0) / math.pi).astype(np.float32)
    ground = Ground(sharp, blurred, origin, scale, far)
    return Environment(env.lamp, env.room_colour, env.room_radiance, env.gradient, env.window,
                       ground)
