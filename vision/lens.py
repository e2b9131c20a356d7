"""The camera's lens: one radial distortion coefficient ``k1`` fitted so that points of the flat
mat map onto the frame by one homography, and the conversions between frame pixels and ideal
(pinhole) pixels. :mod:`vision.markers` fits it to the markers' corners and the printed grid.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.arrays import FloatArray


def fit_homography(
    source: FloatArray, target: FloatArray, lens_k1: float, image_size: tuple[int, int]
) -> tuple[FloatArray | None, float]:
    """Homography from mat mm to ideal pixels for a lens ``lens_k1``, and its RMS error (px)."""
    ideal = undistort_points(target, lens_k1, image_size)
    homography, _ = cv2.findHomography(source, ideal, 0)
    if homography is None:
        return None, math.inf
    projected = cv2.perspectiveTransform(source.reshape(-1, 1, 2), homography).reshape(-1, 2)
    return homography, float(np.sqrt(np.mean(np.sum((projected - ideal) ** 2, axis=1))))


def fit_lens(
    max_k1: float, source: FloatArray, target: FloatArray, image_size: tuple[int, int],
    near: float | None = None,
) -> tuple[float, FloatArray | None, float]:
    """The radial distortion (``k1`` within ``max_k1`` either way) that makes the points fit
    one plane best, with its homography and error: the misfit is smooth in ``k1``, so a few
    candidates fitted at once and a parabola through the best three find its minimum. Given a
    lens ``near`` the answer (a fit of nearly the same points), only the finer search around
    it is made."""
    plane = _PlaneFit(source, target, image_size)
    candidates = np.linspace(-max_k1, max_k1, 9)
    step = candidates[1] - candidates[0]
    if near is None:
        errors = plane.errors(candidates)
        centre = candidates[int(np.clip(np.argmin(errors), 1, len(candidates) - 2))]
    else:
        centre = float(np.clip(near, candidates[1], candidates[-2]))
    fine = centre + np.linspace(-step, step, 9)
    errors = plane.errors(fine)
    index = int(np.clip(np.argmin(errors), 1, len(fine) - 2))
    low, middle, high = errors[index - 1 : index + 2]
    curvature = low - 2 * middle + high
    offset = 0.5 * (low - high) / curvature if curvature > 1e-12 else 0.0
    best_k1 = float(fine[index] + np.clip(offset, -1, 1) * (fine[1] - fine[0]))
    homography, error = fit_homography(source, target, best_k1, image_size)
    return best_k1, homography, error


class _PlaneFit:
    """How well ``source`` (mat mm) maps onto ``target`` (frame px) by one homography, for
    candidate lenses: a batched, normalised direct linear transform. What does not depend on
    the lens is computed once, for both rounds of the search."""

    def __init__(
        self, source: FloatArray, target: FloatArray, image_size: tuple[int, int]
    ) -> None:
        self.centre = np.array(image_size, np.float64) / 2
        self.offsets = target - self.centre
        self.squared = (self.offsets**2).sum(axis=1) / (math.hypot(*image_size) / 2) ** 2
        source_mean, source_scale = source.mean(axis=0), np.abs(source - source.mean(axis=0)).mean()
        x, y = ((source - source_mean) / source_scale).T
        self.plane_points = np.column_stack([x, y, np.ones_like(x)])
        points = len(source)
        self.outer = (self.plane_points[:, :, None] * self.plane_points[:, None, :]).reshape(
            points, 9
        )

    def errors(self, candidates: FloatArray) -> FloatArray:
        """RMS misfit (px) of the best homography with each candidate ``k1``."""
        offsets, squared = self.offsets, self.squared
        ideal = self.centre + offsets[None] * (
            1 + candidates[:, None, None] * squared[None, :, None]
        )
        ideal_mean = ideal.mean(axis=1, keepdims=True)
        ideal_scale = np.abs(ideal - ideal_mean).mean(axis=(1, 2), keepdims=True)
        normalised = (ideal - ideal_mean) / ideal_scale
        u, v = normalised[..., 0], normalised[..., 1]
        count = len(candidates)
        homographies = np.linalg.eigh(_dlt_normal(self.outer, u, v))[1][:, :, 0]
        plane = self.plane_points @ homographies.reshape(count, 3, 3).transpose(0, 2, 1)
        projected = plane[..., :2] / plane[..., 2:3]
        misfit = (projected - normalised) * ideal_scale
        return np.asarray(np.sqrt((misfit**2).sum(axis=2).mean(axis=1)))


def _dlt_normal(outer: FloatArray, u: FloatArray, v: FloatArray) -> FloatArray:
    """The (K, 9, 9) normal matrices of the direct linear transforms from plane points ``p``
    (their outer products ``p p^T``, N x 9) to each candidate's (K, N) points ``u, v``.

    Each point adds rows ``(p, 0, -u p)`` and ``(0, p, -v p)``, so the normal matrix is made of
    the 3 x 3 blocks ``sum w p p^T`` with weights 1, u, v and u^2 + v^2: four weighted sums
    instead of a product of the whole (K, 2N, 9) system.
    """
    count = len(u)
    weights = np.stack([np.ones_like(u), u, v, u * u + v * v], axis=1)
    plain, by_u, by_v, by_both = (weights @ outer).reshape(count, 4, 3, 3).transpose(1, 0, 2, 3)
    normal = np.zeros((count, 9, 9))
    normal[:, :3, :3] = normal[:, 3:6, 3:6] = plain
    normal[:, :3, 6:] = normal[:, 6:, :3] = -by_u
    normal[:, 3:6, 6:] = normal[:, 6:, 3:6] = -by_v
    normal[:, 6:, 6:] = by_both
    return normal


def undistort_points(
    points: FloatArray, lens_k1: float, image_size: tuple[int, int]
) -> FloatArray:
    """Frame pixels -> ideal (pinhole) pixels under radial distortion ``lens_k1``.

    ``ideal = c + (p - c)(1 + k1 |p - c|^2 / R^2)`` with ``c`` the frame centre and ``R`` half
    the frame diagonal: one coefficient is enough for the mild distortion of webcams.
    """
    points = np.asarray(points, np.float64).reshape(-1, 2)
    if lens_k1 == 0.0:
        return points
    centre = np.array(image_size, np.float64) / 2
    offsets = points - centre
    squared = (offsets**2).sum(axis=1, keepdims=True) / (math.hypot(*image_size) / 2) ** 2
    return np.asarray(centre + offsets * (1 + lens_k1 * squared))


def distort_points(
    points: FloatArray, lens_k1: float, image_size: tuple[int, int]
) -> FloatArray:
    """Ideal pixels -> frame pixels: the inverse of :func:`undistort_points` (Newton steps)."""
    points = np.asarray(points, np.float64).reshape(-1, 2)
    if lens_k1 == 0.0:
        return points
    centre = np.array(image_size, np.float64) / 2
    offsets = points - centre
    norm = math.hypot(*image_size) / 2
    target = np.hypot(offsets[:, 0], offsets[:, 1]) / norm
    radius = target.copy()
    for _ in range(6):
        radius -= (radius * (1 + lens_k1 * radius**2) - target) / (1 + 3 * lens_k1 * radius**2)
    ratio = np.divide(radius, target, out=np.ones_like(radius), where=target > 0)
    return np.asarray(centre + offsets * ratio[:, None])
