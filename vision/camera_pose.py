"""Where the camera stands over the mat, from the mat's homography and what is known of the lens.

A homography from the mat plane to ideal pixels holds the camera's pose and its intrinsic
matrix ``K`` together: ``H ~ K [r1 r2 t]``. With square pixels and no skew, ``K`` has three
unknowns (the focal length ``f`` and the principal point ``c``), and the homography's two
rotation columns being orthonormal gives two equations: so one of the three must be known.
:func:`camera_pose` takes the focal length when it is known (a calibrated camera, or the
synthetic camera's own) and solves the principal point, which a camera that shows a crop of
its sensor (as the synthetic table's does, to frame the mat) moves far from the frame's middle;
otherwise it puts the principal point in the middle of the frame and solves the focal length
(:func:`vision.parallax.camera_over_mat`).

Written as equations in the image of the absolute conic ``w = K^-T K^-1`` (up to scale,
``[[1, 0, -cx], [0, 1, -cy], [-cx, -cy, f^2 + cx^2 + cy^2]]``), the two conditions
``h1' w h2 = 0`` and ``h1' w h1 = h2' w h2`` are linear in ``(cx, cy, q)`` with
``q = f^2 + cx^2 + cy^2``: the solutions form a line, and a known ``f`` leaves the points of it
where ``q - cx^2 - cy^2 = f^2``, a quadratic. Of its two roots the one nearer the frame's
middle is the camera's.
"""

from __future__ import annotations

import math

import numpy as np

from vision.arrays import FloatArray
from vision.parallax import CameraOverMat, camera_over_mat, solve_focal_px

#: A camera tilted this much (degrees) from straight down shows enough perspective for its
#: principal point to be solved; less, and it is drawn towards the frame's middle.
SURE_TILT_DEG = 2.0


def middle_of_view(homography: FloatArray, pixel: tuple[float, float]) -> tuple[float, float]:
    """The mat point (mm) seen at ``pixel`` (ideal pixels)."""
    point = np.linalg.solve(np.asarray(homography, np.float64), np.array([*pixel, 1.0]))
    return float(point[0] / point[2]), float(point[1] / point[2])


def principal_point(homography: FloatArray, focal_px: float,
                    image_size: tuple[int, int]) -> tuple[float, float] | None:
    """The principal point (px) that makes ``homography`` (mat mm -> ideal px) the view of a
    camera of focal length ``focal_px`` with square pixels; None when no point in the frame
    does (a focal length far from the camera's, or a homography too near an affine one)."""
    h = np.asarray(homography, np.float64)
    # The conditions hold for any common scale of the two columns.
    size = np.linalg.norm(h[:, :2])
    first, second = h[:, 0] / size, h[:, 1] / size

    def row(a: FloatArray, b: FloatArray) -> FloatArray:
        """Coefficients of (cx, cy, q, 1) in a' w b."""
        return np.array([-(a[0] * b[2] + a[2] * b[0]), -(a[1] * b[2] + a[2] * b[1]),
                         a[2] * b[2], a[0] * b[0] + a[1] * b[1]])

    system = np.vstack([row(first, second), row(first, first) - row(second, second)])
    # Solutions of system @ (cx, cy, q, 1) = 0: a particular point plus the null direction.
    matrix, constant = system[:, :3], -system[:, 3]
    _, singular, vectors = np.linalg.svd(matrix)
    if singular[1] < 1e-12 * max(1e-300, singular[0]):
        return None
    base = np.linalg.lstsq(matrix, constant, rcond=None)[0]
    direction = vectors[-1]
    # (base + s direction) must satisfy q - cx^2 - cy^2 = f^2.
    a = -(direction[0] ** 2 + direction[1] ** 2)
    b = direction[2] - 2 * (base[0] * direction[0] + base[1] * direction[1])
    c = base[2] - base[0] ** 2 - base[1] ** 2 - focal_px ** 2
    roots = _quadratic_roots(a, b, c)
    if not roots:
        return None
    middle = np.array(image_size, np.float64) / 2
    points = [base[:2] + root * direction[:2] for root in roots]
    best = min(points, key=lambda point: float(np.linalg.norm(point - middle)))
    if np.any(np.abs(best - middle) > middle):
        return None  # a lens's axis meets its own frame
    return float(best[0]), float(best[1])


def _quadratic_roots(a: float, b: float, c: float) -> list[float]:
    """The real roots of ``a s^2 + b s + c``."""
    if abs(a) < 1e-18:
        return [] if abs(b) < 1e-18 else [-c / b]
    discriminant = b * b - 4 * a * c
    if discriminant < 0:
        return []
    root = math.sqrt(discriminant)
    return [(-b + root) / (2 * a), (-b - root) / (2 * a)]


def decompose(homography: FloatArray, focal_px: float,
              principal_px: tuple[float, float]) -> CameraOverMat:
    """The camera's foot on the mat (mm), height (mm) and focal length, for intrinsics
    ``focal_px`` and ``principal_px``: ``K^-1 H`` is ``[r1 r2 t]`` up to scale, its rotation
    columns are made orthonormal (the nearest rotation, by SVD) and the centre is ``-R' t``."""
    h = np.asarray(homography, np.float64)
    inverse = np.array([[1.0 / focal_px, 0.0, -principal_px[0] / focal_px],
                        [0.0, 1.0 / focal_px, -principal_px[1] / focal_px],
                        [0.0, 0.0, 1.0]])
    columns = inverse @ h
    scale = 2.0 / (np.linalg.norm(columns[:, 0]) + np.linalg.norm(columns[:, 1]))
    if columns[2, 2] < 0:
        scale = -scale  # the mat lies in front of the camera
    columns = columns * scale
    left, _, right = np.linalg.svd(columns[:, :2], full_matrices=False)
    planar = left @ right
    third = np.cross(planar[:, 0], planar[:, 1])
    rotation = np.column_stack([planar, third])
    centre = -rotation.T @ columns[:, 2]
    return CameraOverMat((float(centre[0]), float(centre[1])), float(abs(centre[2])),
                         float(focal_px), h)


def camera_pose(homography: FloatArray, image_size: tuple[int, int],
                focal_px: float | None = None) -> CameraOverMat:
    """The camera over the mat from ``homography`` (mat mm -> ideal px of a frame of
    ``image_size``): with ``focal_px`` known, its principal point is solved (the frame's
    middle when none fits); without, the principal point is the frame's middle and the focal
    length is solved."""
    if focal_px is None or focal_px <= 0:
        return camera_over_mat(homography, image_size)
    middle = (image_size[0] / 2, image_size[1] / 2)
    point = principal_point(homography, focal_px, image_size)
    if point is None:
        return decompose(homography, focal_px, middle)
    # Looking nearly straight down, the mat shows too little perspective to place the
    # principal point (marker noise moves it by hundreds of pixels): below
    # ``SURE_TILT_DEG`` it is drawn towards the middle, all the way at none.
    tilt = decompose(homography, focal_px, middle).tilt_deg(middle_of_view(homography,
                                                                          middle))
    weight = min(1.0, max(0.0, tilt / SURE_TILT_DEG))
    blended = (middle[0] + weight * (point[0] - middle[0]),
               middle[1] + weight * (point[1] - middle[1]))
    return decompose(homography, focal_px, blended)


#: Below this tilt (degrees) one view of the mat shows too little perspective for its
#: homography to tell the focal length (marker noise then decides it).
LEAST_TILT_FOR_FOCAL_DEG = 8.0


def focal_from_homography(homography: FloatArray, image_size: tuple[int, int]) -> float | None:
    """The camera's focal length (px) from one view of the planar mat, as calibration can
    learn it: with square pixels and the principal point taken in the frame's middle, the
    homography's two rotation columns being orthonormal give it (see
    :func:`vision.parallax.solve_focal_px`). None when the view is too nearly straight down
    (under :data:`LEAST_TILT_FOR_FOCAL_DEG`) or no focal length fits. A camera whose principal
    point lies far from the frame's middle gets a focal length off by as much."""
    width, height = image_size
    shift = np.array([[1.0, 0.0, -width / 2], [0.0, 1.0, -height / 2], [0.0, 0.0, 1.0]])
    focal = solve_focal_px(shift @ np.asarray(homography, np.float64), width)
    if focal is None:
        return None
    middle = (width / 2, height / 2)
    camera = decompose(homography, focal, middle)
    if camera.tilt_deg(middle_of_view(homography, middle)) < LEAST_TILT_FOR_FOCAL_DEG:
        return None
    return focal
