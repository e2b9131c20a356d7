"""Reading the dice in a tray: which face each die shows, from the camera frame's own detail.

:func:`read_tray_in_frame` warps just the tray from the camera frame through the mat's
homography at ``DiceConfig.pixels_per_mm`` (the mat's top view, at 2 px/mm, would resample a
1.5-1.8 px/mm frame into 6 px pips, blurred twice), and :func:`read_dice` reads that image (or
any top view's crop of a ``tray`` region) in four steps, each from the
physics of a cube on felt rather than from a model fitted to one renderer:

1. **Bodies.** The felt is most of the tray, so its colour in this very frame is the crop's
   median. A pixel belongs to a die where its chromaticity (log colour ratios, which neither
   the light's strength nor its warmth change) differs from the felt's, or where it is much
   brighter, or darker than any shadow. Pips are holes in a body and are filled.
2. **Top faces.** Seen from a camera off to one side, a still die shows its top face swept
   away from the camera by its height, over the side faces that face the camera. A square
   swept along a segment ``d`` is as wide as the square across ``d`` and ``|d|`` longer along
   it, whatever the square's turn, and a square's second moments are the same in every
   direction: so the blob's principal axis is ``d``'s direction and its length less its
   width is ``|d|``. Eroding the blob along ``d`` leaves the top face. A single die is eroded
   by the ``d`` the camera's pose gives an upright die of its edge at its place (the camera
   placed by :mod:`vision.camera_pose` when its focal length is known; the blob's own
   length would take a cocked die's side face in), so a cocked die keeps part of a side face
   in its "top", which is then no square or off its pips' middle; other dice count as body
   where they touch it.
   Blobs of several touching dice are eroded by the lean the single dice of the frame show
   (or the camera's) and split in as many squares as their area holds (two face to face
   across the middle of their rectangle); a single blob whose top is no square is tried as
   two dice face to face. Bodies and top faces are found at ``segment_pixels_per_mm``.
3. **Flat or not.** A flat die's top is a square 12-20 mm on a side. A die cocked against
   another die or a wall shows its top foreshortened across the edge it stands on, and a side
   face beside it: what is left of it is no square of that size, its pips (4-6) lie on a grid
   longer one way than the other, its body sweeps further than the camera's lean (by
   ``lean_slack``) or sideways to it (``side_slack``), or reaches outside its top face swept
   towards the camera (``most_outside`` of it); any of these makes the die unreadable (value
   None). A die cocked 20-30° showing 1-3 can still pass for flat: see bench/bench_dice.py
   for how often.
4. **Pips** (:mod:`vision.dice_pips`). The contrast with the face's own colour, smoothed a
   little, has a local maximum at every pip, whatever its colour, size or shape: the
   strongest maxima on the face (away from its edges, where side faces' pips show) are the
   candidate pips. The value is the
   count ``n`` of the strongest that lie on a standard layout (1-6, either way round): centred
   on the face (every layout is symmetric about its middle), each near a point of a 3x3 grid
   at the face's turn, spaced 0.18-0.36 of the edge, its axes equally long (a die cocked up
   shows its top foreshortened, and is None). How far the ``n``-th maximum stands above the
   next (or above the face's plain level), against the pips' contrast, is the confidence.
   Spots that fit no layout clearly (a 6's columns blurred into bars) are fitted as a whole
   (:mod:`vision.dice_layout`: a blob at each grid point and a constant, by least squares),
   and a 2 or 3 (whose grid's squareness so few pips cannot show) is read only when that fit
   reads it too; a face that fits no layout either way is unreadable (None).

The die's colour is named from its face colour, white-balanced by the felt's printed colour.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.drawing import TRAY_FILL
from contract.observation import DieReading
from vision.arrays import FloatArray, Image
from vision.camera_pose import camera_pose
from vision.dice_layout import read_face_pips
from vision.dice_pips import median_colour
from vision.markers import BoardLocation
from vision.parallax import CameraOverMat
from vision.rectify import TopView, window_warper


@dataclass(frozen=True)
class DiceConfig:
    """How dice are found and read.

    A die's edge is ``edge_mm`` (the common dice are 12-20 mm). A pixel is a die's where its
    log chromaticity differs from the felt's by ``chroma`` or its log brightness by more than
    ``brighter`` above or ``darker`` below (a shadow darkens less than that). ``border_mm``
    of the crop's edge (the tray's printed frame) is ignored. A top face is square when its
    sides differ by at most ``square_tolerance`` of the longer and it fills ``least_fill`` of
    its rectangle. The tray is warped from the frame at ``pixels_per_mm``. Pips are maxima of
    the contrast with the face's colour smoothed by ``pip_blur`` of the edge, within the
    face's middle ``face_inset`` and ``pip_apart`` of the grid's spacing (``spread`` of the
    edge) apart; their centre lies within ``off_centre`` of the edge from the face's, each
    within ``snap`` of the spacing from its grid point, the grid spaced ``spacing_range`` of
    the edge and its axes differing by ``most_stretch`` at most. A value is read when its
    weakest pip stands out from the next maximum by ``least_margin`` of the pip contrast
    (``sure_margin`` for full confidence) and by ``least_contrast`` (8-bit levels) at least;
    it is not sure (``uneven_confidence`` at most, under the referee's
    :data:`companion.referee_rolls.SURE_DIE`, so the roller throws again) when its weakest
    pip is under ``even_pips`` of its strongest (a face's pips are all alike). Bodies and top
    faces are found at about ``segment_pixels_per_mm``. A value's pips must each be a spot
    no wider than ``widest_pip`` of the edge (at half its contrast), and no point of the 3x3
    grid its layout leaves empty may stand out by ``empty_share`` of its weakest pip's
    contrast. A pixel is a body's
    only where its difference from the felt reaches ``edge_share`` of the most within
    ``edge_blur_mm`` (so that touching dice of different colours come apart); a blob is one
    die when no wider across the lean than ``most_across`` of its edge. ``side_slack`` and
    ``most_outside`` tell cocked dice (above). ``focal_px`` is the camera's focal length in
    frame pixels where it is known (calibrated; the synthetic table's camera tells its own):
    the camera's place over the mat is then solved from the mat's homography with it
    (:func:`vision.camera_pose.camera_pose`) instead of taken from a camera whose principal
    point is assumed in the frame's middle. A single die's top is the body less the sweep an
    upright die of its edge shows there; when the top's side differs from that edge by more
    than ``edge_agreement`` of it, the body is eroded again by the top's own side. Pips that
    make no layout found spot by spot are fitted as a whole (:mod:`vision.dice_layout`): the
    value is read when the least pip's height stands ``fit_gap`` of the tallest above every
    empty grid point (``fit_sure_gap`` for full confidence), the grid's middle lies within
    ``fit_most_offset`` of the edge from the face's, and pips of one height explain
    ``fit_least_share`` of the face's contrast. Values in ``confirmed_values`` (few pips,
    whose grid's squareness the spots alone cannot show) are read only when the fit reads
    them too.
    """

    edge_mm: tuple[float, float] = (12.0, 20.0)
    chroma: float = 0.2
    brighter: float = 0.4
    darker: float = 0.9
    border_mm: float = 1.6
    square_tolerance: float = 0.17
    least_fill: float = 0.6
    spread: float = 0.27
    least_margin: float = 0.2
    sure_margin: float = 0.5
    least_contrast: float = 18.0
    lean_slack: float = 0.3
    most_stretch: float = 0.05
    most_dice: int = 12
    edge_blur_mm: float = 1.5
    edge_share: float = 0.5
    most_across: float = 1.5
    side_slack: float = 0.25
    even_pips: float = 0.7
    uneven_confidence: float = 0.45
    most_outside: float = 0.03
    pixels_per_mm: float = 4.0
    segment_pixels_per_mm: float = 2.0
    pip_blur: float = 0.03
    face_inset: float = 0.8
    pip_apart: float = 0.8
    off_centre: float = 0.11
    snap: float = 0.35
    spacing_range: tuple[float, float] = (0.18, 0.36)
    widest_pip: float = 0.26
    empty_share: float = 0.9
    focal_px: float | None = None
    edge_agreement: float = 0.05
    fit_gap: float = 0.35
    fit_sure_gap: float = 0.7
    fit_most_offset: float = 0.1
    fit_least_share: float = 0.5
    confirmed_values: tuple[int, ...] = (2, 3)


_LOG_TABLE = np.log(np.arange(256, dtype=np.float32) + 4.0).reshape(1, 256)
_MEAN_ROW = np.full((1, 3), 1.0 / 3.0, np.float32)
_SUM_ROW = np.ones((1, 3), np.float32)
_DISC3 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
_DISC5 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))


@dataclass(frozen=True)
class _Face:
    """A top face found in the crop: its mask (a patch whose top-left corner lies at ``offset``
    in the crop), its rectangle (crop pixels) and whether it is a flat die's square top."""

    mask: Image
    offset: tuple[int, int]
    rect: tuple[tuple[float, float], tuple[float, float], float]
    flat: bool
    why: str = ""


def read_tray(config: DiceConfig, view: TopView, box: tuple[int, int, int, int],
              camera: CameraOverMat) -> tuple[DieReading, ...]:
    """The dice in the window ``box`` (pixels x0, y0, x1, y1) of a top view seen by ``camera``."""
    return tuple(die for die, _ in explain_tray(config, view, box, camera))


def explain_tray(config: DiceConfig, view: TopView, box: tuple[int, int, int, int],
                 camera: CameraOverMat) -> tuple[tuple[DieReading, str], ...]:
    """:func:`read_tray`, each die with why it was read as None ("" when read)."""
    x0, y0, x1, y1 = box
    scale = view.pixels_per_mm
    middle = view.to_mm((x0 + x1) / 2, (y0 + y1) / 2)
    direction, size = camera.lean(np.array([middle]))
    lean = (float(direction[0, 0] * size[0]), float(direction[0, 1] * size[0]))
    origin = (view.origin_mm[0] + x0 / scale, view.origin_mm[1] + y0 / scale)
    return explain_dice(config, view.image[y0:y1, x0:x1], scale, lean, origin, camera)


def read_tray_in_frame(config: DiceConfig, image: Image, location: BoardLocation,
                       bounds_mm: tuple[float, float, float, float],
                       camera: CameraOverMat) -> tuple[DieReading, ...]:
    """The dice in the tray ``bounds_mm`` (mat mm: left, top, right, bottom) of a camera
    frame, warped from the frame itself at ``config.pixels_per_mm`` (the mat's top view is
    too coarse for pips, and resampling it again would blur them twice). Given
    ``config.focal_px``, the camera is found again from ``location`` with it."""
    return tuple(die for die, _ in explain_tray_in_frame(config, image, location, bounds_mm,
                                                         camera))


def explain_tray_in_frame(config: DiceConfig, image: Image, location: BoardLocation,
                          bounds_mm: tuple[float, float, float, float],
                          camera: CameraOverMat) -> tuple[tuple[DieReading, str], ...]:
    """:func:`read_tray_in_frame`, each die with why it was read as None ("" when read)."""
    if config.focal_px is not None:
        camera = camera_pose(location.homography, location.image_size, config.focal_px)
    left, top, right, bottom = bounds_mm
    scale = config.pixels_per_mm
    factor = max(1, round(scale / config.segment_pixels_per_mm))
    # The whole tray at the outlines' detail; only the dice's windows at the pips'.
    warp = window_warper(image, location, bounds_mm, scale)
    size = (max(1, round((right - left) * scale)), max(1, round((bottom - top) * scale)))
    coarse = warp((0, 0, size[0], size[1]), factor)

    def window(box: tuple[int, int, int, int]) -> Image:
        return warp(box, 1)

    middle = ((left + right) / 2, (top + bottom) / 2)
    direction, length = camera.lean(np.array([middle]))
    lean = (float(direction[0, 0] * length[0]), float(direction[0, 1] * length[0]))
    return explain_dice(config, coarse, scale / factor, lean, (left, top), camera,
                        FineSource(window, scale, size))


def read_dice(
    config: DiceConfig, tray_image: Image, pixels_per_mm: float,
    lean: tuple[float, float] = (0.0, 0.0), origin_mm: tuple[float, float] = (0.0, 0.0),
    camera: CameraOverMat | None = None,
) -> tuple[DieReading, ...]:
    """The dice in ``tray_image`` (BGR uint8, a top view's crop of a tray at ``pixels_per_mm``),
    ordered top to bottom. ``lean`` is how raised things lean in the view (mm per mm of height,
    away from the camera's foot: :meth:`vision.parallax.CameraOverMat.lean`); ``origin_mm``
    is the mat point of the crop's top-left pixel corner, for the dice's centres. Given the
    ``camera``, the lean is taken at each die instead (it changes across a tray)."""
    return tuple(die for die, _ in explain_dice(config, tray_image, pixels_per_mm, lean,
                                                origin_mm, camera))


@dataclass(frozen=True)
class FineSource:
    """Where pips are read: the tray at ``pixels_per_mm`` (``size`` pixels wide and high),
    of which ``window`` gives the part (x0, y0, x1, y1) asked for. Warping only the dice's
    windows from the frame at the pips' detail, not the whole tray, spares most of the
    warp."""

    window: Callable[[tuple[int, int, int, int]], Image]
    pixels_per_mm: float
    size: tuple[int, int]


def _crop_source(image: Image, pixels_per_mm: float) -> FineSource:
    """A :class:`FineSource` that crops ``image`` itself."""
    def window(box: tuple[int, int, int, int]) -> Image:
        return image[box[1]:box[3], box[0]:box[2]]
    return FineSource(window, pixels_per_mm, (image.shape[1], image.shape[0]))


def explain_dice(
    config: DiceConfig, tray_image: Image, pixels_per_mm: float,
    lean: tuple[float, float] = (0.0, 0.0), origin_mm: tuple[float, float] = (0.0, 0.0),
    camera: CameraOverMat | None = None, fine: FineSource | None = None,
) -> tuple[tuple[DieReading, str], ...]:
    """:func:`read_dice`, each die with why it was read as None ("" when read): the test that
    refused it (no top face, leaning, top no square, pips faint, fitting no layout, ...).
    Given ``fine``, the pips are read there and ``tray_image`` serves for bodies and top
    faces only."""
    if tray_image.ndim != 3 or tray_image.shape[2] != 3 or tray_image.size == 0:
        return ()
    # Bodies and top faces are found at about ``segment_pixels_per_mm`` (enough for a die's
    # outline, and cheap), pips at the fine source's scale.
    if fine is None:
        fine = _crop_source(tray_image, pixels_per_mm)
    height, width = tray_image.shape[:2]
    factor = max(1, round(pixels_per_mm / config.segment_pixels_per_mm))
    coarse = tray_image
    if factor > 1:
        coarse = cv2.resize(tray_image, (max(1, width // factor), max(1, height // factor)),
                            interpolation=cv2.INTER_AREA)
    scale_x = coarse.shape[1] / fine.size[0]
    scale_y = coarse.shape[0] / fine.size[1]
    ppm = fine.pixels_per_mm * math.sqrt(scale_x * scale_y)
    smooth = cv2.GaussianBlur(coarse, (0, 0), 0.7)
    felt = median_colour(smooth[::3, ::3].reshape(-1, 3))
    bodies = _bodies(config, smooth, felt, ppm)
    if camera is None:
        def lean_at(point: FloatArray) -> FloatArray:
            return np.asarray(lean, np.float64)
    else:
        def lean_at(point: FloatArray) -> FloatArray:
            where = np.array([[origin_mm[0] + (point[0] + 0.5) / ppm,
                               origin_mm[1] + (point[1] + 0.5) / ppm]])
            direction, size = camera.lean(where)
            return np.asarray(direction[0] * size[0], np.float64)

    faces = _top_faces(config, bodies, ppm, lean_at)
    readings = []
    for face in faces:
        (x, y), (w, h), angle = face.rect
        rect = (((x + 0.5) / scale_x - 0.5, (y + 0.5) / scale_y - 0.5),
                (w / scale_x, h / scale_y), angle)
        value, confidence, colour, why = _read_face(config, smooth, fine, felt, face, rect)
        centre = (origin_mm[0] + (rect[0][0] + 0.5) / fine.pixels_per_mm,
                  origin_mm[1] + (rect[0][1] + 0.5) / fine.pixels_per_mm)
        readings.append((DieReading(value, confidence, colour, centre), why))
    return tuple(sorted(readings, key=lambda item: (item[0].centre_mm[1], item[0].centre_mm[0])))


# -- bodies and top faces ------------------------------------------------------------------------


def _bodies(config: DiceConfig, image: Image, felt: FloatArray, ppm: float
            ) -> list[tuple[Image, tuple[int, int]]]:
    """Every die body of the crop as a patch (uint8 0/1, holes (pips) filled, print and specks
    removed) and where its top-left corner lies.

    A pixel's difference from the felt is measured in units of the least a die shows; it
    belongs to a die where that reaches 1 and half the most any pixel within the blur's reach
    shows (the middle of a blurred edge), so that outlines do not grow with the blur and
    touching dice of different colours come apart."""
    # Each channel's log less the felt's, looked up at once.
    table = np.repeat(_LOG_TABLE[:, :, None], 3, axis=2) - np.log(felt + 4.0).astype(np.float32)
    logs = cv2.LUT(image, table)
    level = cv2.transform(logs, _MEAN_ROW)
    squares = cv2.transform(cv2.multiply(logs, logs), _SUM_ROW)
    difference = cv2.subtract(squares, cv2.multiply(level, level, scale=3.0))
    chroma = cv2.sqrt(np.maximum(difference, 0.0, out=difference))
    score = cv2.max(cv2.max(chroma * np.float32(1.0 / config.chroma),
                            level * np.float32(1.0 / config.brighter)),
                    level * np.float32(-1.0 / config.darker))
    reach = max(3, 2 * round(config.edge_blur_mm * ppm) + 1)
    nearby = cv2.dilate(score, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach)))
    mask = ((score > 1.0) & (score > config.edge_share * nearby)).astype(np.uint8)
    border = max(2, round(config.border_mm * ppm))
    mask[:border], mask[-border:], mask[:, :border], mask[:, -border:] = 0, 0, 0, 0
    opened = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _DISC3)
    contours, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    least = 0.5 * (config.edge_mm[0] * ppm) ** 2
    bodies = []
    for contour in contours:
        if cv2.contourArea(contour) < least:
            continue
        x, y, width, height = cv2.boundingRect(contour)
        body = np.zeros((height + 4, width + 4), np.uint8)
        cv2.drawContours(body, [contour], -1, 1, cv2.FILLED, offset=(2 - x, 2 - y))
        bodies.append((body, (x - 2, y - 2)))
    return bodies[:config.most_dice]


def _sweep(points: FloatArray) -> tuple[FloatArray, float, float, float]:
    """A blob's principal direction (unit), its length along it, its width across it (px) and
    the area its outline encloses (px^2)."""
    centred = points - points.mean(axis=0)
    covariance = centred.T @ centred / max(1, len(points))
    values, vectors = np.linalg.eigh(covariance)
    axis = vectors[:, int(np.argmax(values))]
    along = centred @ axis
    across = centred @ np.array([-axis[1], axis[0]])
    return axis, float(np.ptp(along)) + 1.0, float(np.ptp(across)) + 1.0, float(len(points))


def _top_faces(config: DiceConfig, bodies: list[tuple[Image, tuple[int, int]]], ppm: float,
               lean_at: Callable[[FloatArray], FloatArray]) -> list[_Face]:
    """The top face of every die in the crop: single dice eroded by their own sweep along the
    camera's lean at them (``lean_at``: crop pixel -> lean, pixels per pixel of height),
    blobs of touching dice by the sweep the single dice show, then split.

    A square swept along a direction is as wide across it as the square, and longer along it
    by the sweep, whatever the square's turn: so the sweep is the blob's length along the lean
    less its width across, which holds however much of the side faces shows against the felt
    (a black die's shaded sides hardly do)."""
    low, high = (edge * ppm for edge in config.edge_mm)
    groups: list[tuple[Image, tuple[int, int], FloatArray]] = []
    faces: list[_Face] = []
    edges: list[float] = []
    ratios: list[float] = []
    retry: list[tuple[Image, tuple[int, int], _Face]] = []
    for patch, (x0, y0) in bodies:
        rows, columns = np.nonzero(patch)
        points = np.column_stack([columns, rows]).astype(np.float64)
        lean = np.asarray(lean_at(points.mean(axis=0) + np.array([x0, y0])), np.float64)
        lean_size = float(np.linalg.norm(lean))
        # The blob's own principal axis measures its sweep better than the camera's lean
        # direction does (whose ends catch blur and shadow); the lean gives its sign.
        axis, along, across, _ = _sweep(points)
        if lean_size > 0.02 and axis @ lean < 0:
            axis = -axis
        swept = max(0.0, along - across)
        area = float(len(points))
        edge = math.sqrt(max(1.0, area - swept * across))
        single = (0.85 * low <= edge <= 1.1 * high and across <= config.most_across * edge
                  and swept <= 1.5 * edge)
        if not single:
            groups.append((patch, (x0, y0), axis))
            continue
        # A flat die's side faces show as wide as the camera's lean makes them: a sweep much
        # longer than that is a die cocked up on one side.
        # And it sweeps along the lean: a die cocked up shows a side face on the side it rises,
        # whichever way that is.
        sideways = swept * abs(float(axis[0] * lean[1] - axis[1] * lean[0])) / max(
            lean_size, 1e-9)
        upright = (swept / edge <= lean_size + config.lean_slack
                   and sideways / edge <= config.side_slack)
        # The top face is where an upright cube's would be: the body less the sweep the
        # camera gives a die of this edge here. A die cocked up keeps part of a side face in
        # it, off its pips' middle or no square.
        top = _erode_beside(patch, (x0, y0), bodies, lean * edge)
        face = _face(config, top, (x0, y0), ppm, upright)
        if face.rect[1][0] > 0:
            # The body's edge counts blur and shadow in; the top's own side is the die's.
            side = math.sqrt(face.rect[1][0] * face.rect[1][1])
            if abs(side - edge) > config.edge_agreement * edge:
                top = _erode_beside(patch, (x0, y0), bodies, lean * side)
                face = _face(config, top, (x0, y0), ppm, upright)
        if face.flat and _outside_sweep(patch, face, (x0, y0), lean) > config.most_outside:
            face = _Face(face.mask, face.offset, face.rect, False, "body outside its sweep")
        if not face.flat:
            # Perhaps two dice face to face rather than one die (cocked, or too large).
            retry.append((patch, (x0, y0), face))
            continue
        faces.append(face)
        edges.append(edge)
        ratios.append(swept / edge)
    typical = float(np.median(edges)) if edges else 16.0 * ppm
    ratio = float(np.median(ratios)) if ratios else None
    for patch, offset, _ in groups:
        faces.extend(_group_faces(config, patch, offset, ppm, lean_at, typical, ratio))
    for patch, offset, face in retry:
        parts = _group_faces(config, patch, offset, ppm, lean_at, typical, ratio)
        split = len(parts) >= 2 and any(part.flat for part in parts)
        faces.extend(parts if split else [face])
    return [face for face in faces if face.mask.any()]


def _group_faces(config: DiceConfig, patch: Image, offset: tuple[int, int], ppm: float,
                 lean_at: Callable[[FloatArray], FloatArray], typical: float,
                 ratio: float | None) -> list[_Face]:
    """The top faces of a blob of touching dice of edge ``typical`` (px) whose sides show
    ``ratio`` of their edge (by default, as the camera's lean makes them)."""
    rows, columns = np.nonzero(patch)
    lean = np.asarray(lean_at(np.array([columns.mean() + offset[0],
                                        rows.mean() + offset[1]])), np.float64)
    size = float(np.linalg.norm(lean))
    direction = lean / max(size, 1e-9)
    top = _erode_along(patch, direction * (size if ratio is None else ratio) * typical)
    area = float(top.sum())
    parts = max(1, min(config.most_dice, round(area / (typical * typical))))
    return [_face(config, part, offset, ppm) for part in _split(top, parts)]


def _outside_sweep(patch: Image, face: _Face, offset: tuple[int, int], lean: FloatArray
                   ) -> float:
    """The share of a body outside its top face swept towards the camera by the die's height
    (its edge times the camera's ``lean``): none of a flat die is, but a cocked die shows a
    side face on the side it rises, whichever way that is."""
    (x, y), (width, height), angle = face.rect
    edge = math.sqrt(width * height)
    box = cv2.boxPoints(((x - offset[0], y - offset[1]), (width, height), angle))
    hull = cv2.convexHull(np.vstack([box, box - lean[None, :] * edge]).astype(np.float32))
    expected = np.zeros_like(patch)
    cv2.fillConvexPoly(expected, np.round(hull).astype(np.int32).reshape(-1, 2), 1)
    grow = max(3, 2 * round(0.08 * edge) + 1)
    expected = cv2.dilate(expected, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (grow, grow)))
    return float((patch & (1 - expected)).sum()) / max(1.0, float(patch.sum()))


def _erode_beside(patch: Image, offset: tuple[int, int],
                  bodies: list[tuple[Image, tuple[int, int]]], sweep: FloatArray) -> Image:
    """:func:`_erode_along` of one body, where the other bodies count as body too: a die
    cut from a touching one by colour lacks the side face the other hides or stands on, and
    its top must not be eroded for it."""
    reach = math.ceil(float(np.abs(sweep).max())) + 1
    height, width = patch.shape
    x0, y0 = offset[0] - reach, offset[1] - reach
    window = np.zeros((height + 2 * reach, width + 2 * reach), np.uint8)
    for other, (ox, oy) in bodies:
        left, top = ox - x0, oy - y0
        right, bottom = left + other.shape[1], top + other.shape[0]
        if right <= 0 or bottom <= 0 or left >= window.shape[1] or top >= window.shape[0]:
            continue
        a, b = max(0, left), max(0, top)
        c, d = min(window.shape[1], right), min(window.shape[0], bottom)
        window[b:d, a:c] |= other[b - top:d - top, a - left:c - left]
    # The seam between two bodies cut apart belongs to neither; close it.
    window = cv2.morphologyEx(window, cv2.MORPH_CLOSE, _DISC5)
    eroded = _erode_along(window, sweep)[reach:reach + height, reach:reach + width]
    return eroded & patch


def _erode_along(mask: Image, sweep: FloatArray) -> Image:
    """The points ``p`` of ``mask`` with the whole segment from ``p - sweep`` to ``p`` in it."""
    dx, dy = round(float(sweep[0])), round(float(sweep[1]))
    if dx == 0 and dy == 0:
        return mask
    kernel = np.zeros((abs(dy) + 1, abs(dx) + 1), np.uint8)
    start = (abs(dx) if dx > 0 else 0, abs(dy) if dy > 0 else 0)
    cv2.line(kernel, start, (start[0] - dx, start[1] - dy), 1, 1)
    return cv2.erode(mask, kernel, anchor=start, borderType=cv2.BORDER_CONSTANT, borderValue=0)


def _split(mask: Image, parts: int) -> list[Image]:
    """``mask`` cut into ``parts`` compact pieces (k-means on its pixels' places)."""
    if parts <= 1:
        return [mask]
    rows, columns = np.nonzero(mask)
    if parts == 2:
        # Two dice face to face: their tops make a rectangle twice as long as wide, cut
        # across its middle.
        points = np.column_stack([columns, rows]).astype(np.float32)
        (x, y), (width, height), angle = cv2.minAreaRect(points)
        long, short = max(width, height) + 1.0, min(width, height) + 1.0
        if 1.6 <= long / short <= 2.5:
            turn = math.radians(angle if width >= height else angle + 90.0)
            along = (columns - x) * math.cos(turn) + (rows - y) * math.sin(turn)
            pieces = []
            for side in (along < 0, along >= 0):
                piece = np.zeros_like(mask)
                piece[rows[side], columns[side]] = 1
                pieces.append(piece)
            return pieces
    points = np.column_stack([columns, rows]).astype(np.float32)
    if len(points) < parts:
        return [mask]
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    _, labels, _ = cv2.kmeans(points, parts, None, criteria, 3,  # type: ignore[call-overload]
                              cv2.KMEANS_PP_CENTERS)
    pieces = []
    for part in range(parts):
        piece = np.zeros_like(mask)
        chosen = labels.ravel() == part
        piece[rows[chosen], columns[chosen]] = 1
        pieces.append(piece)
    return pieces


def _face(config: DiceConfig, top: Image, offset: tuple[int, int], ppm: float,
          upright: bool = True) -> _Face:
    """The largest piece of ``top`` as a face, with whether it is a flat die's square top."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(top, connectivity=8)
    if count <= 1:
        return _Face(top, offset, ((0.0, 0.0), (0.0, 0.0), 0.0), False, "no top face")
    best = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    piece = (labels == best).astype(np.uint8)
    contours, _ = cv2.findContours(piece, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    (x, y), (width, height), angle = cv2.minAreaRect(contours[0])
    # minAreaRect measures between pixel centres; a pixel's extent adds one.
    width, height = width + 1.0, height + 1.0
    long, short = max(width, height), min(width, height)
    fill = float(piece.sum()) / max(1.0, width * height)
    low, high = (edge * ppm for edge in config.edge_mm)
    why = ""
    if not upright:
        why = "sweep leaning"
    elif long - short > config.square_tolerance * long:
        why = "top no square"
    elif fill < config.least_fill:
        why = "top unfilled"
    elif not 0.9 * low <= math.sqrt(width * height) <= 1.2 * high:
        why = "top size"
    rect = ((x + offset[0], y + offset[1]), (width, height), angle)
    return _Face(piece, offset, rect, not why, why)


# -- pips and colour -----------------------------------------------------------------------------


def _read_face(config: DiceConfig, image: Image, fine: FineSource, felt: FloatArray,
               face: _Face, rect: tuple[tuple[float, float], tuple[float, float], float]
               ) -> tuple[int | None, float, str, str]:
    """(value or None, confidence, colour name, why None) of one face, found in ``image``; its
    pips are read in a window of ``fine``, where the face's rectangle is ``rect``."""
    height, width = face.mask.shape
    crop = image[face.offset[1]:face.offset[1] + height, face.offset[0]:face.offset[0] + width]
    inner = cv2.erode(face.mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    pixels = crop[inner > 0] if inner.any() else crop[face.mask > 0]
    if len(pixels) == 0:
        return None, 0.0, "unknown", "no top face"
    body = median_colour(pixels[::2].astype(np.float32))
    colour = colour_name(body, felt)
    if not face.flat:
        return None, 0.9, colour, face.why or "not flat"
    (cx, cy), (w, h), angle = rect
    reach = int(0.75 * (w + h) / 2) + 2
    x0, y0 = max(0, int(cx) - reach), max(0, int(cy) - reach)
    x1, y1 = min(fine.size[0], int(cx) + reach + 1), min(fine.size[1], int(cy) + reach + 1)
    if x0 >= x1 or y0 >= y1:
        return None, 0.0, colour, "face outside the tray"
    window = fine.window((x0, y0, x1, y1))
    local = ((cx - x0, cy - y0), (w, h), angle)
    value, confidence, why = read_face_pips(config, window, body, local)
    return value, confidence, colour, why


def colour_name(body: FloatArray, felt: FloatArray) -> str:
    """A die's body colour (BGR) named after white-balancing by the felt's printed colour."""
    printed = np.array(TRAY_FILL[::-1], np.float32)
    balanced = np.clip(np.asarray(body, np.float32) * printed / np.maximum(felt, 1.0), 0, 255)
    pixel = balanced.astype(np.uint8).reshape(1, 1, 3)
    hue, saturation, value = (int(channel) for channel in cv2.cvtColor(
        pixel, cv2.COLOR_BGR2HSV)[0, 0])
    if value < 70:
        return "black"
    if saturation < 70:
        return "white" if value > 140 else "grey"
    if hue < 10 or hue >= 160:
        return "red"
    if hue < 22:
        return "orange"
    if hue < 38:
        return "yellow"
    if hue < 85:
        return "green"
    if hue < 130:
        return "blue"
    return "purple"
