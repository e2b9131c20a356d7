"""The synthetic table's camera model: a pinhole over the mat plane plus mild radial distortion.

Pure numpy and OpenCV maths, no drawing. A pose (tilt, which side is nearer, image rotation, how
much of the frame the mat fills, where) gives the ideal homography from mat millimetres to image
pixels; :func:`distort_points` then bends ideal pixels into the frame the camera delivers, and
:func:`remap_tables` builds the tables that draw a mat-space canvas straight into that frame with
one ``cv2.remap``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

#: OpenCV's stubs type results loosely, so arrays here stay loose too.
FloatArray = npt.NDArray[Any]


@dataclass(frozen=True)
class CameraPose:
    """Where the camera looks from, relative to the mat.

    ``tilt_deg`` is the angle between the optical axis and the table's normal (0 = straight down);
    ``tilt_azimuth_deg`` says which side of the mat is nearer the camera (0 = South's edge,
    90 = East, in mat terms); ``rotation_deg`` turns the picture about the optical axis;
    ``fill`` is the share of the frame the mat's bounding box may use (0.5..0.98);
    ``offset`` moves the mat's centre off the frame centre, as fractions of the free space
    (-1..1 each); ``focal_px`` is the focal length in pixels at 1920 pixels of width.
    """

    tilt_deg: float = 0.0
    tilt_azimuth_deg: float = 0.0
    rotation_deg: float = 0.0
    fill: float = 0.85
    offset: tuple[float, float] = (0.0, 0.0)
    focal_px: float = 1400.0


def _rotation(pose: CameraPose) -> FloatArray:
    """Rotation from mat-centred coordinates (x right, y down, z into the table) to camera."""
    azimuth = -math.radians(pose.tilt_azimuth_deg)
    tilt = math.radians(pose.tilt_deg)
    roll = math.radians(pose.rotation_deg)
    # Turn the mat so the nearer side faces the camera's bottom edge, tilt about the camera's
    # x axis (the bottom of the picture comes nearer), then roll the picture.
    turn = np.array(
        [[math.cos(azimuth), math.sin(azimuth), 0], [-math.sin(azimuth), math.cos(azimuth), 0],
         [0, 0, 1]]
    )
    pitch = np.array(
        [[1, 0, 0], [0, math.cos(tilt), math.sin(tilt)], [0, -math.sin(tilt), math.cos(tilt)]]
    )
    spin = np.array(
        [[math.cos(roll), -math.sin(roll), 0], [math.sin(roll), math.cos(roll), 0], [0, 0, 1]]
    )
    return spin @ pitch @ turn


def _project(points: FloatArray, rotation: FloatArray, distance: float, focal: float) -> FloatArray:
    """Pinhole projection of mat-centred points (N x 2, mm) onto a centred image plane."""
    world = np.column_stack([points, np.zeros(len(points))])
    camera = world @ rotation.T
    camera[:, 2] += distance
    return focal * camera[:, :2] / camera[:, 2:3]


def pose_homography(
    pose: CameraPose, mat_size_mm: tuple[float, float], image_size: tuple[int, int]
) -> FloatArray:
    """The 3x3 homography from mat millimetres (origin top-left) to ideal image pixels.

    The camera distance is the one at which a straight-down view of the mat fills ``fill`` of
    the frame, so a tilted view shows the usual perspective; the projection is then scaled and
    shifted so the mat's bounding box uses ``fill`` of the frame and sits at ``offset``.
    """
    width_mm, height_mm = mat_size_mm
    corners = np.array(
        [[-width_mm / 2, -height_mm / 2], [width_mm / 2, -height_mm / 2],
         [width_mm / 2, height_mm / 2], [-width_mm / 2, height_mm / 2]]
    )
    projected, middle, scale, centre = _fitted_projection(pose, corners, image_size)
    target = ((projected - middle) * scale + centre).astype(np.float32)
    source = (corners + np.array([width_mm / 2, height_mm / 2])).astype(np.float32)
    return cv2.getPerspectiveTransform(source, target).astype(np.float64)


def _fitted_projection(pose: CameraPose, corners: FloatArray, image_size: tuple[int, int]
                       ) -> tuple[FloatArray, FloatArray, float, FloatArray]:
    """The mat's corners (mat-centred mm) projected by the pose's lens (centred image
    pixels), their bounding box's middle, and the scale and frame point that middle is put
    at to fit the frame."""
    width_px, height_px = image_size
    focal = pose.focal_px * width_px / 1920.0
    diagonal = float(np.hypot(*(corners.max(axis=0) - corners.min(axis=0))))
    distance = focal * diagonal / (pose.fill * min(width_px, height_px))
    projected = _project(corners, _rotation(pose), distance, focal)
    low, high = projected.min(axis=0), projected.max(axis=0)
    extent = high - low
    scale = pose.fill * min(width_px / extent[0], height_px / extent[1])
    free = np.array([width_px, height_px]) - extent * scale
    centre = np.array([width_px / 2, height_px / 2]) + np.array(pose.offset) * free / 2
    return projected, (low + high) / 2, float(scale), centre


def pose_intrinsics(
    pose: CameraPose, mat_size_mm: tuple[float, float], image_size: tuple[int, int]
) -> tuple[float, tuple[float, float]]:
    """The focal length (px) and principal point (px) of the camera of :func:`pose_homography`:
    fitting the mat to the frame scales the lens's focal length and shifts the principal point
    off the frame's middle, as a crop of a larger sensor would (what a calibration of this
    camera would find)."""
    width_mm, height_mm = mat_size_mm
    corners = np.array(
        [[-width_mm / 2, -height_mm / 2], [width_mm / 2, -height_mm / 2],
         [width_mm / 2, height_mm / 2], [-width_mm / 2, height_mm / 2]]
    )
    _, middle, scale, centre = _fitted_projection(pose, corners, image_size)
    focal = pose.focal_px * image_size[0] / 1920.0
    principal = centre - middle * scale
    return focal * scale, (float(principal[0]), float(principal[1]))


def camera_centre(
    pose: CameraPose, mat_size_mm: tuple[float, float], image_size: tuple[int, int]
) -> tuple[float, float, float]:
    """Where the camera of :func:`pose_homography` stands: (x mm, y mm) over the mat (origin
    top-left) and its height above the mat plane (mm). Scaling and shifting the picture, as
    that function does to fit the mat, changes the intrinsics, not this centre."""
    width_mm, height_mm = mat_size_mm
    focal = pose.focal_px * image_size[0] / 1920.0
    distance = focal * math.hypot(width_mm, height_mm) / (pose.fill * min(image_size))
    centre = -_rotation(pose).T @ np.array([0.0, 0.0, distance])
    return (float(centre[0] + width_mm / 2), float(centre[1] + height_mm / 2), float(-centre[2]))


def apply_homography(homography: FloatArray, points: FloatArray) -> FloatArray:
    """Map N x 2 points through a 3x3 homography."""
    points = np.asarray(points, np.float64).reshape(-1, 2)
    homogeneous = np.column_stack([points, np.ones(len(points))]) @ homography.T
    return homogeneous[:, :2] / homogeneous[:, 2:3]


def _norm(image_size: tuple[int, int]) -> float:
    """The radius that distortion coefficients are relative to: half the frame diagonal."""
    return math.hypot(*image_size) / 2


def undistort_points(points: FloatArray, k1: float, image_size: tuple[int, int]) -> FloatArray:
    """Frame pixels -> ideal pixels: ``p = c + (q - c)(1 + k1 |q - c|^2 / R^2)``.

    This direction defines the lens (it is what the remap tables use); ``R`` is half the frame
    diagonal, ``c`` the frame centre. Positive ``k1`` is barrel distortion (the frame's edges
    show more of the scene), negative is pincushion.
    """
    centre = np.array(image_size, np.float64) / 2
    offsets = np.asarray(points, np.float64).reshape(-1, 2) - centre
    radius_squared = (offsets**2).sum(axis=1, keepdims=True) / _norm(image_size) ** 2
    return centre + offsets * (1 + k1 * radius_squared)


def distort_points(points: FloatArray, k1: float, image_size: tuple[int, int]) -> FloatArray:
    """Ideal pixels -> frame pixels, the exact inverse of :func:`undistort_points` (Newton)."""
    centre = np.array(image_size, np.float64) / 2
    offsets = np.asarray(points, np.float64).reshape(-1, 2) - centre
    norm = _norm(image_size)
    target = np.hypot(offsets[:, 0], offsets[:, 1]) / norm
    radius = target.copy()
    for _ in range(8):
        value = radius * (1 + k1 * radius**2) - target
        radius -= value / (1 + 3 * k1 * radius**2)
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = np.where(target > 0, radius / np.where(target > 0, target, 1), 1.0)
    return centre + offsets * ratio[:, None]


def remap_tables(
    homography: FloatArray,
    k1: float,
    image_size: tuple[int, int],
    canvas_pixels_per_mm: float,
    step: int = 8,
) -> tuple[FloatArray, FloatArray]:
    """Tables for ``cv2.remap`` from a mat canvas (at ``canvas_pixels_per_mm``) to the frame.

    Computed on a grid every ``step`` pixels and interpolated: the mapping is smooth, so the
    error stays below a tenth of a canvas pixel, and the cost drops by ``step`` squared.
    """
    width, height = image_size
    # cv2.resize by a factor ``step`` samples source point (x + 0.5) / step - 0.5 for output
    # pixel x, so coarse point k must hold frame pixel (k + 0.5) step - 0.5; one extra coarse
    # point on each side keeps the borders interpolated, not clamped.
    count_x, count_y = width // step + 3, height // step + 3
    columns = (np.arange(count_x, dtype=np.float64) - 0.5) * step - 0.5
    rows = (np.arange(count_y, dtype=np.float64) - 0.5) * step - 0.5
    grid_x, grid_y = np.meshgrid(columns, rows)
    frame_points = np.column_stack([grid_x.ravel(), grid_y.ravel()])
    ideal = undistort_points(frame_points, k1, image_size)
    mat_mm = apply_homography(np.linalg.inv(homography), ideal)
    canvas = (mat_mm * canvas_pixels_per_mm - 0.5).astype(np.float32)
    fine = []
    for channel in (0, 1):
        coarse = np.ascontiguousarray(canvas[:, channel].reshape(grid_x.shape))
        big = cv2.resize(coarse, (count_x * step, count_y * step), interpolation=cv2.INTER_LINEAR)
        fine.append(np.ascontiguousarray(big[step : step + height, step : step + width]))
    map_xy, map_fraction = cv2.convertMaps(fine[0], fine[1], cv2.CV_16SC2)
    return map_xy, map_fraction


def pixels_per_mm_at(homography: FloatArray, point_mm: tuple[float, float]) -> float:
    """The image scale (pixels per millimetre) near a mat point, averaged over both axes."""
    x, y = point_mm
    points = np.array([[x, y], [x + 1.0, y], [x, y + 1.0]])
    image = apply_homography(homography, points)
    return float((np.linalg.norm(image[1] - image[0]) + np.linalg.norm(image[2] - image[0])) / 2)
