"""A pinhole webcam with radial lens distortion, placed over the table in mat millimetres.

World coordinates are the mat's: x right, y down the printed mat (toward South), z up from the
paper. The camera's axes are right, down and forward (OpenCV's), given as world vectors.
A world point projects as ``x_n = right.(X - C) / forward.(X - C)`` (same for y with down),
then ``x_d = x_n (1 + k1 r^2 + k2 r^4)`` with ``r^2 = x_n^2 + y_n^2``, then
``u = f x_d + c_x``. Pixel centres are at integer coordinates, as in OpenCV.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from calibration.geometry import MatGeometry
from vision.synth.physical.sampling import sample
from vision.synth.physical.variation import CameraParams

FloatArray = npt.NDArray[Any]  # float64; numpy typing loses dtypes in arithmetic
Float32 = npt.NDArray[Any]  # float32; numpy typing loses dtypes in arithmetic
Vec3 = tuple[float, float, float]

#: Spacing of the grid on which pixel rays are computed exactly (interpolated in between).
_GRID = 8


@dataclass(frozen=True)
class Camera:
    """Pose (``position`` and the ``right``/``down``/``forward`` axes), intrinsics, lens."""

    position: Vec3
    right: Vec3
    down: Vec3
    forward: Vec3
    focal_px: float
    principal: tuple[float, float]
    k1: float
    k2: float
    size: tuple[int, int] = (1920, 1080)
    _cache: dict[str, object] = field(default_factory=dict, compare=False, repr=False,
                                      hash=False)

    @property
    def rotation(self) -> FloatArray:
        """World-to-camera rotation: rows are the right, down and forward axes."""
        return np.array([self.right, self.down, self.forward], np.float64)

    def to_json(self) -> dict[str, object]:
        """The camera as plain numbers (position in mat mm, rotation rows, intrinsics)."""
        return {"position_mm": list(self.position), "rotation": self.rotation.tolist(),
                "focal_px": self.focal_px, "principal_point_px": list(self.principal),
                "k1": self.k1, "k2": self.k2, "image_size": list(self.size)}

    def distort(self, x: FloatArray, y: FloatArray) -> tuple[FloatArray, FloatArray]:
        """Ideal normalised coordinates -> distorted normalised coordinates."""
        r2 = x * x + y * y
        scale = 1 + self.k1 * r2 + self.k2 * r2 * r2
        return x * scale, y * scale

    def undistort(self, x: FloatArray, y: FloatArray) -> tuple[FloatArray, FloatArray]:
        """Distorted normalised coordinates -> ideal ones (Newton steps on the radius)."""
        target = np.hypot(x, y)
        radius = target.copy()
        for _ in range(8):
            r2 = radius * radius
            value = radius * (1 + self.k1 * r2 + self.k2 * r2 * r2) - target
            slope = 1 + 3 * self.k1 * r2 + 5 * self.k2 * r2 * r2
            radius = radius - value / slope
        ratio = np.divide(radius, target, out=np.ones_like(target), where=target > 1e-12)
        return x * ratio, y * ratio

    def project(self, points_mm: npt.ArrayLike) -> FloatArray:
        """World points (N x 3, or N x 2 on the paper z = 0) -> frame pixels (N x 2)."""
        points = np.asarray(points_mm, np.float64).reshape(-1, np.shape(points_mm)[-1])
        if points.shape[1] == 2:
            points = np.column_stack([points, np.zeros(len(points))])
        local = (points - np.array(self.position)) @ self.rotation.T
        depth = np.maximum(local[:, 2], 1e-6)
        x, y = self.distort(local[:, 0] / depth, local[:, 1] / depth)
        return np.column_stack([self.focal_px * x + self.principal[0],
                                self.focal_px * y + self.principal[1]])

    def to_plane(self, pixels: npt.ArrayLike, z_mm: float = 0.0) -> FloatArray:
        """Frame pixels (N x 2) -> points (N x 2, mm) where their rays meet the plane z."""
        pixels = np.asarray(pixels, np.float64).reshape(-1, 2)
        x, y = self.undistort((pixels[:, 0] - self.principal[0]) / self.focal_px,
                              (pixels[:, 1] - self.principal[1]) / self.focal_px)
        rays = np.column_stack([x, y, np.ones_like(x)]) @ self.rotation
        t = (z_mm - self.position[2]) / rays[:, 2]
        return np.asarray(np.array(self.position[:2]) + rays[:, :2] * t[:, None])

    def px_per_mm(self, point_mm: tuple[float, float]) -> float:
        """The frame's linear scale at a point of the paper (square root of the area ratio)."""
        x, y = point_mm
        pts = self.project([(x, y), (x + 1, y), (x, y + 1)])
        a, b = pts[1] - pts[0], pts[2] - pts[0]
        return float(math.sqrt(abs(a[0] * b[1] - a[1] * b[0])))

    def min_px_per_mm(self, point_mm: tuple[float, float]) -> float:
        """The frame's scale at a point of the paper along its most foreshortened direction."""
        x, y = point_mm
        pts = self.project([(x, y), (x + 1, y), (x, y + 1)])
        jacobian = np.column_stack([pts[1] - pts[0], pts[2] - pts[0]])
        return float(np.linalg.svd(jacobian, compute_uv=False).min())

    def _grid(self) -> Float32:
        """Ideal normalised coordinates of pixels every :data:`_GRID` pixels (2 channels)."""
        grid = self._cache.get("grid")
        if grid is None:
            width, height = self.size
            u = np.arange(0, width + _GRID, _GRID, dtype=np.float64)
            v = np.arange(0, height + _GRID, _GRID, dtype=np.float64)
            uu, vv = np.meshgrid(u, v)
            x, y = self.undistort((uu - self.principal[0]) / self.focal_px,
                                  (vv - self.principal[1]) / self.focal_px)
            grid = np.dstack([x, y]).astype(np.float32)
            self._cache["grid"] = grid
        return grid  # type: ignore[return-value]

    def _world(self, x: Float32, y: Float32) -> tuple[Float32, Float32, Float32]:
        r, d, f = (np.array(axis, np.float32) for axis in (self.right, self.down, self.forward))
        dx = x * r[0] + y * d[0] + f[0]
        dy = x * r[1] + y * d[1] + f[1]
        dz = x * r[2] + y * d[2] + f[2]
        norm = 1.0 / np.sqrt(dx * dx + dy * dy + dz * dz)
        return dx * norm, dy * norm, dz * norm

    def rays(self) -> tuple[Float32, Float32, Float32]:
        """Unit ray directions of every pixel centre, three H x W float32 arrays."""
        width, height = self.size
        map_x, map_y = _pixel_maps(width, height)
        ideal = cv2.remap(self._grid(), map_x, map_y, cv2.INTER_LINEAR)
        return self._world(ideal[..., 0], ideal[..., 1])

    def grid_rays(self) -> tuple[Float32, Float32, Float32]:
        """Unit ray directions on the coarse grid (every 8 pixels, both frame edges included)."""
        grid = self._grid()
        return self._world(grid[..., 0], grid[..., 1])

    def upsample(self, values: Float32) -> Float32:
        """Values on the coarse grid (as :meth:`grid_rays`) interpolated to every pixel."""
        width, height = self.size
        map_x, map_y = _pixel_maps(width, height)
        return np.asarray(cv2.remap(values, map_x, map_y, cv2.INTER_LINEAR))

    def rays_at(self, u: Float32, v: Float32) -> tuple[Float32, Float32, Float32]:
        """Unit ray directions through sub-pixel positions ``u``, ``v`` (flat arrays)."""
        ideal = sample(self._grid(), u / _GRID, v / _GRID)
        return self._world(ideal[:, 0], ideal[:, 1])


@lru_cache(maxsize=4)
def _pixel_maps(width: int, height: int) -> tuple[Float32, Float32]:
    map_x = np.tile(np.arange(width, dtype=np.float32) / _GRID, (height, 1))
    map_y = np.tile((np.arange(height, dtype=np.float32) / _GRID)[:, None], (1, width))
    return map_x, map_y


def _axes(tilt_deg: float, azimuth_deg: float, roll_deg: float
          ) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Unit vector from the aim point to the camera, and the camera's right, down, forward."""
    tilt, azimuth, roll = (math.radians(a) for a in (tilt_deg, azimuth_deg, roll_deg))
    back = np.array([math.sin(tilt) * math.cos(azimuth), math.sin(tilt) * math.sin(azimuth),
                     math.cos(tilt)])
    forward = -back
    down = np.array([math.cos(azimuth), math.sin(azimuth), 0.0])
    down = down - (down @ forward) * forward
    down /= np.linalg.norm(down)
    right = np.cross(forward, down)
    right, down = (math.cos(roll) * right + math.sin(roll) * down,
                   -math.sin(roll) * right + math.cos(roll) * down)
    return back, right, down, forward


def _floats(vector: FloatArray) -> Vec3:
    return (float(vector[0]), float(vector[1]), float(vector[2]))


def _frame_points(geometry: MatGeometry) -> list[tuple[float, float]]:
    """Marker corners widened by their quiet zone: what must lie inside the frame."""
    points = []
    for marker in geometry.markers:
        x, y = marker.centre
        half = marker.side_mm / 2 + geometry.quiet_zone_mm
        points += [(x - half, y - half), (x + half, y - half), (x + half, y + half),
                   (x - half, y + half)]
    return points


def _mat_corners(geometry: MatGeometry) -> list[tuple[float, float]]:
    return [(0.0, 0.0), (geometry.width_mm, 0.0), (geometry.width_mm, geometry.height_mm),
            (0.0, geometry.height_mm)]


def build_camera(params: CameraParams, geometry: MatGeometry,
                 size: tuple[int, int] = (1920, 1080), margin_px: float = 8.0) -> Camera:
    """The camera ``params`` describe: at the distance where the mat's coarsest corner is seen
    at ``params.px_per_mm``, backed off if need be until every marker (with its quiet zone) is
    ``margin_px`` inside the frame."""
    back, right, down, forward = _axes(params.tilt_deg, params.azimuth_deg, params.roll_deg)
    aim = np.array([geometry.width_mm / 2 + params.aim_mm[0],
                    geometry.height_mm / 2 + params.aim_mm[1], 0.0])
    principal = (size[0] / 2 - 0.5 + params.principal_px[0],
                 size[1] / 2 - 0.5 + params.principal_px[1])

    def at(distance: float) -> Camera:
        return Camera(_floats(aim + distance * back), _floats(right), _floats(down),
                      _floats(forward), params.focal_px, principal, params.k1, params.k2, size)

    distance = params.focal_px / params.px_per_mm
    for _ in range(4):
        coarsest = min(at(distance).px_per_mm(corner) for corner in _mat_corners(geometry))
        distance *= coarsest / params.px_per_mm
    corners = _frame_points(geometry)
    camera = at(distance)
    for _ in range(80):
        pixels = camera.project(corners)
        if (pixels.min() >= margin_px and pixels[:, 0].max() <= size[0] - 1 - margin_px
                and pixels[:, 1].max() <= size[1] - 1 - margin_px):
            break
        distance *= 1.02
        camera = at(distance)
    return camera
