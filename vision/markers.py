"""Finding the mat in a camera frame from its ArUco markers.

:func:`find_board` detects the mat's ``DICT_4X4_50`` markers with OpenCV 5's
``cv2.aruco.ArucoDetector`` and fits the homography from mat millimetres to image pixels. Any three
of the four markers are enough (a hand may cover one corner); with fewer it raises
:class:`~vision.errors.MatNotFoundError` naming the missing markers. Detection runs on a
downscaled grey image for speed (a cheap pass finds where the markers lie, the full detector
then looks only there), then each corner is refined on the full-resolution image.
The lens is fitted by :mod:`vision.lens`, and reused while the markers stay put
(:class:`LensMemory`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache, lru_cache

import cv2
import numpy as np

from calibration.geometry import MatGeometry, Point, Rect
from vision.allocator import keep_freed_memory
from vision.arrays import FloatArray, Image
from vision.errors import ImageReadError, MatNotFoundError
from vision.lens import distort_points, fit_homography, fit_lens, undistort_points
from vision.lens_memory import LensMemory


@dataclass(frozen=True)
class MarkerConfig:
    """How markers are searched for.

    ``detect_width`` is the width in pixels the frame is shrunk to before detection (markers of
    a mat that fills a 1920-wide frame stay 40+ pixels wide); when too few markers are seen
    there, detection is retried at full size. ``min_markers`` is how many of the mat's markers
    must be seen (3 survives one covered corner). ``max_reprojection_px`` rejects a fit whose
    marker corners disagree with the homography (a marker cut out and moved, a folded mat).
    With ``fit_lens``, the lens's radial distortion (up to ``max_lens_k1``) is fitted too.
    Four markers alone pin it down poorly (their corners lie at much the same distance from
    the picture's centre), so with ``use_grid`` the printed grid's crossings, found within
    ``grid_window_px`` of where the markers put them, join the fit; crossings the fit misses by
    more than ``grid_tolerance_px`` (a coin's edge nearby) are dropped.

    The lens belongs to the camera, which stays put over the table: once fitted, its ``k1`` is
    reused (skipping the search) while every marker corner stays within ``lens_reuse_px`` of
    where it was when the lens was fitted, for up to ``lens_reuse_frames`` frames; the
    homography is still fitted to every frame. ``lens_reuse_frames`` of 0 fits every frame.
    """

    detect_width: int = 960
    min_markers: int = 3
    refine_corners: bool = True
    max_reprojection_px: float = 6.0
    fit_lens: bool = True
    max_lens_k1: float = 0.08
    use_grid: bool = True
    grid_window_px: int = 5
    grid_tolerance_px: float = 1.0
    lens_reuse_px: float = 1.0
    lens_reuse_frames: int = 30


@dataclass(frozen=True, eq=False)
class BoardLocation:
    """Where the mat lies in one frame.

    ``homography`` maps mat millimetres (x, y, 1) to ideal image pixels, which
    :func:`distort_points` with ``lens_k1`` bends into frame pixels; ``markers_found`` and
    ``markers_missing`` are marker ids; ``reprojection_px`` is the root-mean-square distance
    between detected marker corners and where the homography puts them.
    """

    homography: FloatArray
    markers_found: tuple[int, ...]
    markers_missing: tuple[int, ...]
    reprojection_px: float
    image_size: tuple[int, int]
    lens_k1: float = 0.0

    def __repr__(self) -> str:
        return (
            f"BoardLocation(markers_found={self.markers_found!r}, "
            f"markers_missing={self.markers_missing!r}, "
            f"reprojection_px={self.reprojection_px:.3f}, image_size={self.image_size!r}, "
            f"lens_k1={self.lens_k1:.4f})"
        )

    def to_image(self, points_mm: list[Point] | FloatArray) -> FloatArray:
        """Mat points in millimetres -> image pixel coordinates (N x 2)."""
        points = np.asarray(points_mm, np.float64).reshape(-1, 1, 2)
        ideal = cv2.perspectiveTransform(points, self.homography).reshape(-1, 2)
        return distort_points(ideal, self.lens_k1, self.image_size)

    def to_mat(self, points_px: list[Point] | FloatArray) -> FloatArray:
        """Image pixel coordinates -> mat points in millimetres (N x 2)."""
        ideal = undistort_points(np.asarray(points_px), self.lens_k1, self.image_size)
        points = ideal.reshape(-1, 1, 2)
        inverse = np.linalg.inv(self.homography)
        return np.asarray(cv2.perspectiveTransform(points, inverse).reshape(-1, 2))

    def play_area_polygon(self, geometry: MatGeometry) -> FloatArray:
        """The play area's four corners in image pixels (top-left, top-right, bottom-right,
        bottom-left as South sees the mat), for the steady-frame gate and for drawing."""
        left, top, right, bottom = geometry.play_area.bounds()
        return self.to_image([(left, top), (right, top), (right, bottom), (left, bottom)])

    def play_area_mask(self, geometry: MatGeometry, margin_mm: float = 0.0) -> Image:
        """A uint8 mask (255 inside) of the play area grown by ``margin_mm``, frame-sized."""
        left, top, right, bottom = geometry.play_area.bounds()
        corners = [
            (left - margin_mm, top - margin_mm),
            (right + margin_mm, top - margin_mm),
            (right + margin_mm, bottom + margin_mm),
            (left - margin_mm, bottom + margin_mm),
        ]
        width, height = self.image_size
        mask = np.zeros((height, width), np.uint8)
        polygon = np.round(self.to_image(corners)).astype(np.int32)
        cv2.fillConvexPoly(mask, polygon, 255)
        return mask

    def pixels_per_mm(self, geometry: MatGeometry) -> float:
        """The image's mean linear scale over the play area, in pixels per millimetre."""
        polygon = self.play_area_polygon(geometry).astype(np.float32)
        area_px = abs(float(cv2.contourArea(polygon)))
        return float(np.sqrt(area_px / geometry.play_area.area()))


@cache
def _detector(rough: bool = False) -> cv2.aruco.ArucoDetector:
    """The marker detector; ``rough``, one with only the first threshold pass, for finding
    where markers lie (its corners can differ by a pixel)."""
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    parameters = cv2.aruco.DetectorParameters()
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
    # Two threshold passes (windows 5 and 15 px) suit markers 25-80 px wide, as on a mat that
    # fills a frame shrunk to ``detect_width``; the default three passes cost half as much again.
    parameters.adaptiveThreshWinSizeMin = 5
    parameters.adaptiveThreshWinSizeMax = 5 if rough else 15
    parameters.adaptiveThreshWinSizeStep = 10
    return cv2.aruco.ArucoDetector(dictionary, parameters)


def to_grey(image: Image) -> Image:
    """A single-channel uint8 view of a BGR, BGRA or grey image; raises on anything else."""
    if image is None or not isinstance(image, np.ndarray) or image.size == 0:
        raise ImageReadError("the frame is empty; pass a decoded image")
    if image.dtype != np.uint8:
        raise ImageReadError(f"the frame has pixel type {image.dtype}; expected 8-bit")
    if image.ndim == 2:
        return image
    if image.ndim == 3 and image.shape[2] == 3:
        return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    if image.ndim == 3 and image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2GRAY)
    raise ImageReadError(f"the frame has shape {image.shape}; expected a grey or colour image")


def _shrink(grey: Image, scale: float) -> Image:
    if scale == 1.0:
        return grey
    return cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)


def _detect(small: Image, scale: float) -> dict[int, FloatArray]:
    """Markers in the whole of ``small``, the frame shrunk by ``scale``.

    Found with one threshold pass (a third of the cost of a full search), whose corners,
    refined on the whole frame, are those of a full search (a median 0.002 px apart on 210
    random frames; 2 of them had a corner 3 px off, which the fit with the grid's crossings
    absorbs: no square read differently); the full search only when it finds fewer than four.
    """
    rough = _markers_in(small, scale, (0, 0), rough=True)
    if len(rough) >= 4:
        return rough
    return _markers_in(small, scale, (0, 0))


def _markers_in(
    small: Image, scale: float, offset: tuple[int, int], rough: bool = False
) -> dict[int, FloatArray]:
    """Markers in ``small``, a window at ``offset`` of the frame shrunk by ``scale``: id ->
    corners in full-size pixels (found by the ``rough`` detector, or the full one)."""
    corners, ids, _ = _detector(rough).detectMarkers(small)
    found: dict[int, FloatArray] = {}
    if ids is None:
        return found
    for raw_id, quad in zip(ids.ravel().tolist(), corners, strict=True):
        marker_id = int(raw_id)
        # Corner coordinates are pixel centres; map them back to full-size pixel centres.
        points = (quad.reshape(4, 2).astype(np.float64) + offset + 0.5) / scale - 0.5
        # The same id twice: keep the larger, the other is noise.
        if marker_id in found and _area(points) <= _area(found[marker_id]):
            continue
        found[marker_id] = points
    return found


def _area(quad: FloatArray) -> float:
    return abs(float(cv2.contourArea(quad.astype(np.float32))))


def _refine(grey: Image, quads: dict[int, FloatArray], scale: float) -> dict[int, FloatArray]:
    """Sub-pixel corners on the full-resolution image, with a window fitted to the marker size."""
    if not quads:
        return quads
    stacked = np.concatenate(list(quads.values())).astype(np.float32).reshape(-1, 1, 2)
    side = min(float(np.linalg.norm(quad[0] - quad[1])) for quad in quads.values())
    half_window = int(max(2, min(8, round(side / 12), round(1.5 / scale))))
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.03)
    refined = cv2.cornerSubPix(grey, stacked, (half_window, half_window), (-1, -1), criteria)
    points = refined.reshape(-1, 4, 2).astype(np.float64)
    return {marker_id: points[index] for index, marker_id in enumerate(quads)}


def detect_markers(config: MarkerConfig, image: Image) -> dict[int, FloatArray]:
    """Every ``DICT_4X4_50`` marker in ``image``: id -> its 4 corners in pixels (ArUco order)."""
    return _detect_grey(config, to_grey(image))


def _detect_near(
    small: Image, scale: float, previous: dict[int, FloatArray]
) -> dict[int, FloatArray]:
    """The ``previous`` markers (full-size corners) found again in ``small`` (the frame shrunk
    by ``scale``), each searched for in a window around where it was; {} unless every one is
    found there, not far from where it was.

    The windows keep half a marker's diagonal of margin (at least 16 px of the shrunk frame),
    beyond the adaptive threshold's 7 px reach and within the marker's quiet zone, so a marker
    is found with exactly the corners a search of the whole frame gives, for a fraction of the
    time (a whole diagonal of margin costs twice as much, and gave the same corners on 210
    random frames).
    """
    height, width = small.shape[:2]
    found: dict[int, FloatArray] = {}
    for marker_id, quad in previous.items():
        corners = (quad + 0.5) * scale - 0.5
        margin = max(16.0, float(np.linalg.norm(corners[0] - corners[2])) / 2)
        x0, y0 = np.maximum(np.floor(corners.min(axis=0) - margin), 0).astype(int)
        x1, y1 = np.ceil(corners.max(axis=0) + margin).astype(int) + 1
        window = small[y0 : min(y1, height), x0 : min(x1, width)]
        again = _markers_in(window, scale, (int(x0), int(y0))).get(marker_id)
        if again is None or np.abs(again - quad).max() > margin / scale / 2:
            return {}
        found[marker_id] = again
    return found


def _detect_grey(
    config: MarkerConfig, grey: Image, previous: dict[int, FloatArray] | None = None
) -> dict[int, FloatArray]:
    """Markers in a grey frame; ``previous`` (where the markers were) are looked for first."""
    scale = min(1.0, config.detect_width / grey.shape[1])
    small = _shrink(grey, scale)  # once, for both searches
    quads = _detect_near(small, scale, previous) if previous else {}
    if not quads:
        quads = _detect(small, scale)
    if scale < 1.0 and len(quads) < 4:
        quads = {**quads, **_detect(grey, 1.0)}
        scale = 1.0
    if config.refine_corners:
        quads = _refine(grey, quads, scale)
    return quads


def locate(
    config: MarkerConfig, quads: dict[int, FloatArray], geometry: MatGeometry,
    image_size: tuple[int, int],
    extra: tuple[FloatArray, FloatArray] | None = None,
    known_lens_k1: float | None = None,
    lens_near: float | None = None,
) -> BoardLocation:
    """Fit the mat homography from detected marker corners; raises when too few are usable.

    ``extra`` adds more (mat mm, image px) point pairs, such as grid crossings. With
    ``config.fit_lens``, ``known_lens_k1`` is used as the lens instead of fitting it, and
    the lens is searched for only close to ``lens_near`` when that is given.
    """
    expected = geometry.marker_ids()
    found = tuple(marker_id for marker_id in expected if marker_id in quads)
    missing = tuple(marker_id for marker_id in expected if marker_id not in quads)
    needed = min(config.min_markers, len(expected))
    if len(found) < needed:
        raise MatNotFoundError(_missing_message(geometry, found, missing, needed), found, missing)
    mat_corners = geometry.marker_corners()
    source = np.array([mat_corners[m] for m in found], np.float64).reshape(-1, 2)
    target = np.concatenate([quads[m] for m in found]).reshape(-1, 2)
    if extra is not None:
        source = np.concatenate([source, extra[0]])
        target = np.concatenate([target, extra[1]])
    lens_k1 = 0.0
    if not config.fit_lens or (len(found) < 4 and extra is None):
        homography, error = fit_homography(source, target, 0.0, image_size)
    elif known_lens_k1 is None:
        lens_k1, homography, error = fit_lens(config.max_lens_k1, source, target, image_size,
                                              lens_near)
    else:
        lens_k1 = known_lens_k1
        homography, error = fit_homography(source, target, lens_k1, image_size)
    if homography is None:
        raise MatNotFoundError(
            f"markers {_ids(found)} of mat {geometry.name!r} do not fit a flat mat; "
            "lay the mat flat and keep all four corners in view", found, missing,
        )
    if error > config.max_reprojection_px:
        raise MatNotFoundError(
            f"markers {_ids(found)} of mat {geometry.name!r} disagree by {error:.1f} px; "
            "lay the mat flat and make sure it is the right mat", found, missing,
        )
    return BoardLocation(homography, found, missing, error, image_size, lens_k1)


@lru_cache(maxsize=8)
def grid_crossings(geometry: MatGeometry) -> FloatArray:
    """Every corner of the mat's square regions (mm), where printed grid lines cross
    (read-only: computed once per mat)."""
    corners: set[tuple[float, float]] = set()
    for region in geometry.regions:
        if region.kind == "square" and isinstance(region.shape, Rect):
            left, top, right, bottom = region.shape.bounds()
            corners.update({(left, top), (right, top), (right, bottom), (left, bottom)})
    crossings = np.array(sorted(corners), np.float64).reshape(-1, 2)
    crossings.setflags(write=False)
    return crossings


def _grid_points(
    config: MarkerConfig, grey: Image, location: BoardLocation, geometry: MatGeometry
) -> tuple[FloatArray, FloatArray] | None:
    """Grid crossings found near where ``location`` puts them: (mm, px) pairs, or None."""
    crossings = grid_crossings(geometry)
    if len(crossings) < 4:
        return None
    predicted = location.to_image(crossings).astype(np.float32).reshape(-1, 1, 2)
    half = config.grid_window_px
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.05)
    refined = cv2.cornerSubPix(grey, predicted.copy(), (half, half), (-1, -1), criteria)
    moved = np.linalg.norm((refined - predicted).reshape(-1, 2), axis=1)
    height, width = grey.shape[:2]
    points = refined.reshape(-1, 2).astype(np.float64)
    inside = (points[:, 0] > half) & (points[:, 0] < width - half)
    inside &= (points[:, 1] > half) & (points[:, 1] < height - half)
    keep = inside & (moved < half * 0.8)
    if keep.sum() < 4:
        return None
    return crossings[keep], points[keep]


def find_board(config: MarkerConfig, image: Image, geometry: MatGeometry) -> BoardLocation:
    """Detect ``geometry``'s markers in ``image`` and locate the mat.

    Raises :class:`~vision.errors.MatNotFoundError` (with ``found`` and ``missing`` ids) when
    fewer than ``config.min_markers`` of the mat's markers are seen.
    """
    keep_freed_memory()  # once per process: later frames reuse this frame's memory
    grey = to_grey(image)
    size = (image.shape[1], image.shape[0])
    quads = _detect_grey(config, grey, _LENS_MEMORY.corners(config, geometry, size))
    height, width = image.shape[:2]
    if not config.use_grid:
        return locate(config, quads, geometry, (width, height))
    # The markers alone place the grid well enough to find its crossings; the lens is fitted
    # once with all points.
    location = locate(replace(config, fit_lens=False), quads, geometry, (width, height))
    pairs = _grid_points(config, grey, location, geometry)
    if pairs is None:
        return location
    # Refit with the crossings, drop those the fit disagrees with (a coin's edge), refit.
    # A still camera reuses the lenses both fits found when it was last fitted.
    known = _LENS_MEMORY.recall(config, geometry, (width, height), quads)
    first = locate(config, quads, geometry, (width, height), pairs, known[0] if known else None)
    misfit = np.linalg.norm(first.to_image(pairs[0]) - pairs[1], axis=1)
    good = misfit < config.grid_tolerance_px
    refined = first
    if 4 <= good.sum() < len(good):
        refined = locate(config, quads, geometry, (width, height),
                         (pairs[0][good], pairs[1][good]), known[1] if known else None,
                         lens_near=first.lens_k1)
    if known is None and config.fit_lens:
        _LENS_MEMORY.store(
            config, geometry, (width, height), quads, (first.lens_k1, refined.lens_k1)
        )
    return refined


#: The process's lens memory, used by :func:`find_board`.
_LENS_MEMORY = LensMemory()


def forget_lens() -> None:
    """Make the next :func:`find_board` of every camera set-up fit the lens afresh."""
    _LENS_MEMORY.forget()


def _ids(ids: tuple[int, ...]) -> str:
    return ", ".join(str(marker_id) for marker_id in ids) or "none"


def _missing_message(
    geometry: MatGeometry, found: tuple[int, ...], missing: tuple[int, ...], needed: int
) -> str:
    return (
        f"mat {geometry.name!r} not found: markers {_ids(missing)} missing "
        f"(found {_ids(found)}, need {needed} of {len(geometry.markers)}); "
        "uncover the mat's corners and keep them in view"
    )
