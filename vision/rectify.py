"""A top view of the mat's play area at a fixed number of pixels per millimetre.

:func:`rectify` warps the frame through the mat homography so that reading can measure coins in
millimetres, whatever the camera's tilt and distance. Only the play area (plus a small margin) is
warped, which is what reading needs and keeps the warp fast.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.geometry import MatGeometry
from vision.arrays import FloatArray, Image
from vision.errors import VisionError
from vision.lens import distort_points
from vision.markers import BoardLocation


@dataclass(frozen=True)
class RectifyConfig:
    """The top view's resolution and extent.

    ``pixels_per_mm`` of 2 matches what a 1080p camera sees of a 520 mm mat (finer would only
    interpolate) and gives coins 36-53 px across, so the 3 mm steps between silver coin sizes
    are 6 px, measured to sub-pixel by rim fits; the whole 400 mm board warps in a few ms.
    ``margin_mm`` of paper around the play area is kept so coins at the edge are whole. A lens
    with distortion is undone through a coordinate map computed every ``map_step`` pixels and
    interpolated (16 stays within 0.02 px of the exact map on 60 random cameras).
    """

    pixels_per_mm: float = 2.0
    margin_mm: float = 3.0
    map_step: int = 16


@dataclass(frozen=True, eq=False)
class TopView:
    """The rectified image and how its pixels map to mat millimetres.

    Pixel centre (column, row) is mat point ``origin_mm + ((column + 0.5), (row + 0.5)) /
    pixels_per_mm``.
    """

    image: Image
    pixels_per_mm: float
    origin_mm: tuple[float, float]

    def __repr__(self) -> str:
        height, width = self.image.shape[:2]
        return (
            f"TopView(<{width}x{height} image>, pixels_per_mm={self.pixels_per_mm!r}, "
            f"origin_mm={self.origin_mm!r})"
        )

    def to_pixels(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        """Mat millimetres -> top-view pixel coordinates (column, row), pixel centres at .0."""
        scale = self.pixels_per_mm
        return ((x_mm - self.origin_mm[0]) * scale - 0.5, (y_mm - self.origin_mm[1]) * scale - 0.5)

    def to_mm(self, column: float, row: float) -> tuple[float, float]:
        """Top-view pixel coordinates -> mat millimetres."""
        scale = self.pixels_per_mm
        return (
            self.origin_mm[0] + (column + 0.5) / scale,
            self.origin_mm[1] + (row + 0.5) / scale,
        )


def view_bounds(config: RectifyConfig, geometry: MatGeometry) -> tuple[float, float, int, int]:
    """(left mm, top mm, width px, height px) of the top view of ``geometry``."""
    left, top, right, bottom = geometry.play_area.bounds()
    left, top = left - config.margin_mm, top - config.margin_mm
    right, bottom = right + config.margin_mm, bottom + config.margin_mm
    width = round((right - left) * config.pixels_per_mm)
    height = round((bottom - top) * config.pixels_per_mm)
    return left, top, width, height


def view_homography(
    config: RectifyConfig, location: BoardLocation, geometry: MatGeometry
) -> FloatArray:
    """The homography from top-view pixels to image pixels."""
    left, top, _, _ = view_bounds(config, geometry)
    scale = config.pixels_per_mm
    # top-view pixel (c, r) -> mat mm: x = left + (c + 0.5) / scale, likewise y.
    view_to_mm = np.array(
        [[1 / scale, 0, left + 0.5 / scale], [0, 1 / scale, top + 0.5 / scale], [0, 0, 1]]
    )
    return np.asarray(location.homography @ view_to_mm)


def rectify(
    config: RectifyConfig, image: Image, location: BoardLocation, geometry: MatGeometry
) -> TopView:
    """Warp ``image`` into a top view of ``geometry``'s play area."""
    if not 0.5 <= config.pixels_per_mm <= 20.0:
        raise VisionError(f"{config.pixels_per_mm} pixels per mm is out of range; use 0.5 to 20")
    left, top, width, height = view_bounds(config, geometry)
    homography = view_homography(config, location, geometry)
    warped = _warp(image, location, homography, (width, height), config.map_step,
                   cv2.INTER_LINEAR)
    return TopView(warped, config.pixels_per_mm, (left, top))


def rectify_window(
    image: Image, location: BoardLocation, bounds_mm: tuple[float, float, float, float],
    pixels_per_mm: float, map_step: int = 16, interpolation: int = cv2.INTER_LINEAR,
    lens_tolerance_px: float = 0.1,
) -> TopView:
    """A top view of just the mat rectangle ``bounds_mm`` (left, top, right, bottom), warped
    from the camera frame at ``pixels_per_mm`` (finer than :func:`rectify`'s view when a small
    region needs the frame's full detail: sampling the frame once keeps what it shows)."""
    left, top = bounds_mm[:2]
    homography, (width, height) = _window_homography(location, bounds_mm, pixels_per_mm)
    if location.lens_k1 != 0.0:
        # Over a small region the lens bends the plane's image little: a homography fitted
        # to the lens-bent grid stands in for it where it stays within ``lens_tolerance_px``,
        # and spares computing a coordinate map per pixel.
        fitted = _lens_homography(homography, location, (width, height), map_step,
                                  lens_tolerance_px)
        if fitted is not None:
            bare = BoardLocation(location.homography, location.markers_found,
                                 location.markers_missing, location.reprojection_px,
                                 location.image_size, 0.0)
            warped = _warp(image, bare, fitted, (width, height), map_step, interpolation)
            return TopView(warped, pixels_per_mm, (left, top))
    warped = _warp(image, location, homography, (width, height), map_step, interpolation)
    return TopView(warped, pixels_per_mm, (left, top))


def window_warper(
    image: Image, location: BoardLocation, bounds_mm: tuple[float, float, float, float],
    pixels_per_mm: float, lens_tolerance_px: float = 0.1,
) -> Callable[[tuple[int, int, int, int], int], Image]:
    """Parts of the view :func:`rectify_window` would give of ``bounds_mm``: the returned
    function warps just the pixels (x0, y0, x1, y1) of that view, every ``step``-th one (the
    middle of each ``step`` by ``step`` block), where the lens is straight or a homography
    fitted once over the whole of ``bounds_mm`` stands in for it. Reading a few small windows
    of a large region at full detail, and the whole at less, then costs a few small warps."""
    left, top = bounds_mm[:2]
    plane, (width, height) = _window_homography(location, bounds_mm, pixels_per_mm)
    homography: FloatArray | None = plane
    if location.lens_k1 != 0.0:
        homography = _lens_homography(plane, location, (width, height), 48, lens_tolerance_px)
    if homography is None:
        def crop(box: tuple[int, int, int, int], step: int = 1) -> Image:
            x0, y0, x1, y1 = box
            part = (left + x0 / pixels_per_mm, top + y0 / pixels_per_mm,
                    left + x1 / pixels_per_mm, top + y1 / pixels_per_mm)
            return rectify_window(image, location, part, pixels_per_mm / step).image
        return crop
    whole = homography
    # Every window lies in the view, so the frame's part under the whole view, given a fourth
    # channel once, serves every warp (twice as fast, the same to the bit).
    corners = np.array([[[-0.5, -0.5]], [[width - 0.5, -0.5]], [[-0.5, height - 0.5]],
                        [[width - 0.5, height - 0.5]]])
    reach = cv2.perspectiveTransform(corners, whole).reshape(-1, 2)
    source = _four_channel(image, reach[:, 0], reach[:, 1])

    def warp(box: tuple[int, int, int, int], step: int = 1) -> Image:
        x0, y0, x1, y1 = box
        shift = (step - 1) / 2
        shifted = whole @ np.array([[step, 0.0, x0 + shift], [0.0, step, y0 + shift],
                                    [0.0, 0.0, 1.0]])
        size = (max(1, (x1 - x0) // step), max(1, (y1 - y0) // step))
        warped = cv2.warpPerspective(source, shifted, size,
                                     flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                     borderMode=cv2.BORDER_REPLICATE)
        if source is not image:
            warped = cv2.cvtColor(warped, cv2.COLOR_BGRA2BGR)
        return np.asarray(warped)
    return warp


def _window_homography(location: BoardLocation, bounds_mm: tuple[float, float, float, float],
                       pixels_per_mm: float) -> tuple[FloatArray, tuple[int, int]]:
    """The homography (view pixels -> ideal frame pixels) of a top view of the mat rectangle
    ``bounds_mm`` (left, top, right, bottom) at ``pixels_per_mm``, and the view's size."""
    left, top, right, bottom = bounds_mm
    width = max(1, round((right - left) * pixels_per_mm))
    height = max(1, round((bottom - top) * pixels_per_mm))
    view_to_mm = np.array([[1 / pixels_per_mm, 0, left + 0.5 / pixels_per_mm],
                           [0, 1 / pixels_per_mm, top + 0.5 / pixels_per_mm], [0, 0, 1]])
    return np.asarray(location.homography @ view_to_mm), (width, height)


def _lens_homography(homography: FloatArray, location: BoardLocation, size: tuple[int, int],
                     map_step: int, lens_tolerance_px: float) -> FloatArray | None:
    """A homography (view pixels -> frame pixels) standing in for ``homography`` and the
    location's lens over a view of ``size``, or None where it strays more than
    ``lens_tolerance_px`` from the lens-bent grid."""
    grid = _lens_grid(homography, location, size, map_step)
    count_y, count_x = grid.shape[:2]
    columns = (np.arange(count_x, dtype=np.float64) - 0.5) * map_step - 0.5
    rows = (np.arange(count_y, dtype=np.float64) - 0.5) * map_step - 0.5
    view_points = np.stack(np.meshgrid(columns, rows), axis=-1).reshape(-1, 2)
    frame_points = grid.reshape(-1, 2)
    fitted, _ = cv2.findHomography(view_points, frame_points, 0)
    if fitted is None:
        return None
    reach = cv2.perspectiveTransform(view_points.reshape(-1, 1, 2), fitted)
    if np.abs(reach.reshape(-1, 2) - frame_points).max() > lens_tolerance_px:
        return None
    return np.asarray(fitted)


def _warp(image: Image, location: BoardLocation, homography: FloatArray,
          size: tuple[int, int], map_step: int, interpolation: int) -> Image:
    """``image`` warped through ``homography`` (view pixels -> ideal frame pixels) and the
    location's lens into a view of ``size``."""
    width, height = size
    if location.lens_k1 == 0.0:
        corners = np.array([[[-0.5, -0.5]], [[width - 0.5, -0.5]], [[-0.5, height - 0.5]],
                            [[width - 0.5, height - 0.5]]])
        reach = cv2.perspectiveTransform(corners, homography).reshape(-1, 2)
        source = _four_channel(image, reach[:, 0], reach[:, 1])
        warped = cv2.warpPerspective(
            source, homography, (width, height),
            flags=interpolation | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_REPLICATE,
        )
    else:
        coarse = _lens_grid(homography, location, (width, height), map_step)
        source = _four_channel(image, coarse[..., 0], coarse[..., 1])
        map_x, map_y = _fine_maps(coarse, (width, height), map_step)
        warped = cv2.remap(source, map_x, map_y, interpolation,
                           borderMode=cv2.BORDER_REPLICATE)
    if source is not image:  # warped with a fourth channel added
        warped = cv2.cvtColor(warped, cv2.COLOR_BGRA2BGR)
    return np.asarray(warped)


def _four_channel(image: Image, columns: FloatArray, rows: FloatArray) -> Image:
    """A colour frame with a fourth channel where frame coordinates ``columns``, ``rows`` (and
    the pixels bilinear interpolation reads beside them) can sample it: OpenCV warps four
    interleaved channels about twice as fast as three. Only that part of the frame is
    converted, and the rest of the buffer is never read, so the warp is the same to the bit."""
    if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        return image
    image_height, image_width = image.shape[:2]
    left = int(np.clip(np.floor(np.min(columns)) - 1, 0, image_width - 1))
    right = int(np.clip(np.ceil(np.max(columns)) + 2, left + 1, image_width))
    top = int(np.clip(np.floor(np.min(rows)) - 1, 0, image_height - 1))
    bottom = int(np.clip(np.ceil(np.max(rows)) + 2, top + 1, image_height))
    converted = np.empty((image_height, image_width, 4), np.uint8)
    cv2.cvtColor(image[top:bottom, left:right], cv2.COLOR_BGR2BGRA,
                 dst=converted[top:bottom, left:right])
    return converted


def _lens_grid(
    homography: FloatArray, location: BoardLocation, size: tuple[int, int], step: int
) -> FloatArray:
    """Frame coordinates (column, row) through homography and lens of top-view pixels on a grid
    every ``step`` pixels, one step beyond the view on every side."""
    width, height = size
    count_x, count_y = width // step + 3, height // step + 3
    columns = (np.arange(count_x, dtype=np.float64) - 0.5) * step - 0.5
    rows = (np.arange(count_y, dtype=np.float64) - 0.5) * step - 0.5
    grid_x, grid_y = np.meshgrid(columns, rows)
    points = np.column_stack([grid_x.ravel(), grid_y.ravel()]).reshape(-1, 1, 2)
    ideal = cv2.perspectiveTransform(points, homography).reshape(-1, 2)
    frame = distort_points(ideal, location.lens_k1, location.image_size)
    return np.asarray(frame.reshape(count_y, count_x, 2))


def _fine_maps(
    coarse: FloatArray, size: tuple[int, int], step: int
) -> tuple[FloatArray, FloatArray]:
    """Every top-view pixel's frame coordinates, interpolated from the grid of
    :func:`_lens_grid` (the mapping is smooth)."""
    width, height = size
    count_y, count_x = coarse.shape[:2]
    maps = []
    for channel in (0, 1):
        grid = np.ascontiguousarray(coarse[..., channel], np.float32)
        fine = cv2.resize(grid, (count_x * step, count_y * step), interpolation=cv2.INTER_LINEAR)
        maps.append(fine[step : step + height, step : step + width])  # remap takes row strides
    return maps[0], maps[1]

