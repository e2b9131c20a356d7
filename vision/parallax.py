"""Where the camera stands over the mat, from the mat's homography: how raised things lean.

A coin's top face lies a coin's thickness above the paper, a stack's many thicknesses, a pawn's
head 10-25 mm. The top view shows the paper plane, so a raised point appears shifted straight
away from the point under the camera (its foot), by its height times the distance from the foot
over the camera's height. Under a tilted camera a stack therefore shows as its base disc swept
away from the camera, as wide as the coin across that direction, and a pawn leans away from its
foot. :func:`camera_over_mat` recovers the foot and height from the homography alone (pinhole,
square pixels, principal point at the image centre: the focal length follows from the
homography's two rotation columns being orthonormal).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from calibration.geometry import MatGeometry
from vision.arrays import FloatArray

#: Focal length (as a share of the image width) assumed where the homography cannot tell it:
#: a camera looking nearly straight down, whose parallax is then small anyway.
DEFAULT_FOCAL_SHARE = 0.85


@dataclass(frozen=True, eq=False)
class CameraOverMat:
    """The camera's foot on the mat plane (mat mm), its height above it (mm), its focal
    length (px) and the homography it was found from (None: unknown)."""

    foot_mm: tuple[float, float]
    height_mm: float
    focal_px: float
    homography: FloatArray | None = None

    def pixels_per_mm(self, points_mm: FloatArray) -> FloatArray:
        """How many camera pixels a millimetre of mat spans at each point (N,; NaN where the
        homography is unknown): the square root of the homography's local area scale."""
        points = np.asarray(points_mm, np.float64).reshape(-1, 2)
        if self.homography is None:
            return np.full(len(points), np.nan)
        h = self.homography
        x, y = points[:, 0], points[:, 1]
        w = h[2, 0] * x + h[2, 1] * y + h[2, 2]
        u = (h[0, 0] * x + h[0, 1] * y + h[0, 2]) / w
        v = (h[1, 0] * x + h[1, 1] * y + h[1, 2]) / w
        # The Jacobian of (u, v) with respect to (x, y).
        du_dx, du_dy = (h[0, 0] - u * h[2, 0]) / w, (h[0, 1] - u * h[2, 1]) / w
        dv_dx, dv_dy = (h[1, 0] - v * h[2, 0]) / w, (h[1, 1] - v * h[2, 1]) / w
        return np.sqrt(np.abs(du_dx * dv_dy - du_dy * dv_dx))

    def lean(self, points_mm: FloatArray) -> tuple[FloatArray, FloatArray]:
        """Per mat point (N x 2): the unit direction raised things lean in the top view
        (N x 2, away from the foot) and how far they lean per mm of height (N,)."""
        away = np.asarray(points_mm, np.float64) - np.asarray(self.foot_mm)
        distance = np.hypot(away[:, 0], away[:, 1])
        direction = away / np.maximum(distance, 1e-9)[:, None]
        return direction, distance / self.height_mm

    def tilt_deg(self, point_mm: tuple[float, float]) -> float:
        """The angle between the camera's line of sight to ``point_mm`` and the vertical."""
        distance = math.dist(point_mm, self.foot_mm)
        return math.degrees(math.atan2(distance, self.height_mm))


def _focal_px(centred: FloatArray, width: int) -> float:
    """The focal length that makes the homography's first two columns orthogonal and of equal
    length, in the least-squares sense; :data:`DEFAULT_FOCAL_SHARE` of ``width`` where that
    is ill-posed or implausible."""
    focal = solve_focal_px(centred, width)
    return DEFAULT_FOCAL_SHARE * width if focal is None else focal


def solve_focal_px(centred: FloatArray, width: int) -> float | None:
    """The focal length (px) that makes the homography ``centred`` (mat mm -> pixels from the
    principal point) the view of a camera with square pixels: its first two columns, less
    the intrinsics, orthogonal and of equal length, in the least-squares sense. None where
    that is ill-posed (a camera looking straight down shows no perspective to measure it by)
    or implausible (outside 0.3-5 times ``width``)."""
    a1, a2 = centred[:, 0], centred[:, 1]
    orthogonal = (a1[0] * a2[0] + a1[1] * a2[1], a1[2] * a2[2])
    equal = (a1[0] ** 2 + a1[1] ** 2 - a2[0] ** 2 - a2[1] ** 2, a1[2] ** 2 - a2[2] ** 2)
    # Each constraint reads p / f^2 + q = 0; solve both for 1 / f^2 at once.
    denominator = orthogonal[0] ** 2 + equal[0] ** 2
    if denominator <= 0:
        return None
    inverse_square = -(orthogonal[0] * orthogonal[1] + equal[0] * equal[1]) / denominator
    if inverse_square <= 0:
        return None
    focal = 1.0 / math.sqrt(inverse_square)
    if not 0.3 * width <= focal <= 5.0 * width:
        return None
    return focal


def camera_over_mat(homography: FloatArray, image_size: tuple[int, int]) -> CameraOverMat:
    """The camera's foot and height from the homography (mat mm -> ideal image pixels)."""
    width, height = image_size
    shift = np.array([[1.0, 0.0, -width / 2], [0.0, 1.0, -height / 2], [0.0, 0.0, 1.0]])
    centred = shift @ np.asarray(homography, np.float64)
    focal = _focal_px(centred, width)
    columns = np.diag([1 / focal, 1 / focal, 1.0]) @ centred
    scale = 2.0 / (np.linalg.norm(columns[:, 0]) + np.linalg.norm(columns[:, 1]))
    if columns[2, 2] < 0:
        scale = -scale  # the mat lies in front of the camera
    first, second, offset = (columns[:, index] * scale for index in range(3))
    third = np.cross(first, second)
    rotation = np.column_stack([first, second, third / np.linalg.norm(third)])
    centre = -rotation.T @ offset
    return CameraOverMat((float(centre[0]), float(centre[1])), float(abs(centre[2])), focal,
                         np.asarray(homography, np.float64))


def overhead_camera(geometry: MatGeometry, height_mm: float = 1000.0) -> CameraOverMat:
    """A camera straight above the middle of ``geometry``'s mat, for views of unknown origin."""
    middle = (geometry.width_mm / 2, geometry.height_mm / 2)
    return CameraOverMat(middle, height_mm, 0.0)
