"""Reading the dice in a tray: which face each die shows, from the rectified top view.

:func:`read_dice` works on the top view's crop of a ``tray`` region, in four steps, each from the
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
   width is ``|d|``. Eroding the blob along ``d`` leaves the top face. The direction's sign is
   the camera's lean (away from the camera's foot). Blobs of several touching dice are eroded
   by the lean the single dice of the frame show (or the camera's) and split in as many
   squares as their area holds.
3. **Flat or not.** A flat die's top is a square 12-20 mm on a side. A die cocked against
   another die or a wall shows its top foreshortened across the edge it stands on, and a side
   face beside it: what is left of it is no square of that size, its pips (4-6) lie on a grid
   longer one way than the other, or spots of contrast lie on the face where its layout has
   no pip; any of these makes the die unreadable (value None). So does a sweep far longer
   than the camera's lean (by ``lean_slack``). At 2 px/mm a die cocked 20-30° showing 1-3 can
   still look flat: see bench/bench_dice.py for how often.
4. **Pips.** Every standard face puts its pips on a 3x3 grid spaced about 0.27 of the edge:
   the contrast with the face's own colour is sampled at the nine points (over a few turns
   and spacings of the grid) and the value is the layout (1-6, either way round) whose pips
   are all clearly darker or lighter than every empty point. The gap between the weakest pip
   and the strongest empty point, against the pips' contrast, is the confidence; a face whose
   spots fit no layout is unreadable (None).

The die's colour is named from its face colour, white-balanced by the felt's printed colour.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from calibration.drawing import TRAY_FILL
from contract.observation import DieReading
from vision.parallax import CameraOverMat
from vision.rectify import TopView

if TYPE_CHECKING:
    from numpy.typing import NDArray

    Image = NDArray[Any]
    FloatArray = NDArray[Any]
else:
    Image = np.ndarray
    FloatArray = np.ndarray

#: The 3x3 grid points of a face, (column, row) in -1..1, in a fixed order.
GRID: tuple[tuple[int, int], ...] = tuple((c, r) for r in (-1, 0, 1) for c in (-1, 0, 1))
_CORNERS = frozenset({(-1, -1), (1, -1), (-1, 1), (1, 1)})
#: Every face's pips on the grid, either way round, with its value.
LAYOUTS: tuple[tuple[int, frozenset[tuple[int, int]]], ...] = (
    (1, frozenset({(0, 0)})),
    (2, frozenset({(-1, -1), (1, 1)})),
    (2, frozenset({(1, -1), (-1, 1)})),
    (3, frozenset({(-1, -1), (0, 0), (1, 1)})),
    (3, frozenset({(1, -1), (0, 0), (-1, 1)})),
    (4, _CORNERS),
    (5, _CORNERS | {(0, 0)}),
    (6, _CORNERS | {(-1, 0), (1, 0)}),
    (6, _CORNERS | {(0, -1), (0, 1)}),
)


@dataclass(frozen=True)
class DiceConfig:
    """How dice are found and read.

    A die's edge is ``edge_mm`` (the common dice are 12-20 mm). A pixel is a die's where its
    log chromaticity differs from the felt's by ``chroma`` or its log brightness by more than
    ``brighter`` above or ``darker`` below (a shadow darkens less than that). ``border_mm``
    of the crop's edge (the tray's printed frame) is ignored. A top face is square when its
    sides differ by at most ``square_tolerance`` of the longer and it fills ``least_fill`` of
    its rectangle. Pips lie ``spread`` of the edge from the face's middle; the contrast is
    sampled over discs ``sample_share`` of the edge across; a value is read when its weakest
    pip stands out from its strongest empty point by ``least_margin`` of the pip contrast
    (``sure_margin`` for full confidence) and by ``least_contrast`` (8-bit levels) at least.
    """

    edge_mm: tuple[float, float] = (12.0, 20.0)
    chroma: float = 0.2
    brighter: float = 0.4
    darker: float = 0.9
    border_mm: float = 1.6
    square_tolerance: float = 0.14
    least_fill: float = 0.6
    spread: float = 0.27
    sample_share: float = 0.12
    least_margin: float = 0.2
    sure_margin: float = 0.5
    least_contrast: float = 18.0
    spacings: tuple[float, ...] = (0.73, 0.8, 0.87, 0.94, 1.01)
    shifts: tuple[float, ...] = (0.0,)
    turns: tuple[float, ...] = (-4.0, 0.0, 4.0)
    lean_slack: float = 0.3
    most_stretch: float = 0.04
    stray_inset: float = 1.0
    pip_reach: tuple[float, float] = (0.6, 0.85)
    stray_share: float = 0.0
    stray_values: int = 6
    most_dice: int = 12
    edge_blur_mm: float = 1.5


_LOG_TABLE = np.log(np.arange(256, dtype=np.float32) + 4.0).reshape(1, 256)
_MEAN_ROW = np.full((1, 3), 1.0 / 3.0, np.float32)
_SUM_ROW = np.ones((1, 3), np.float32)
_DISC3 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))


@dataclass(frozen=True)
class _Face:
    """A top face found in the crop: its mask (a patch whose top-left corner lies at ``offset``
    in the crop), its rectangle (crop pixels) and whether it is a flat die's square top."""

    mask: Image
    offset: tuple[int, int]
    rect: tuple[tuple[float, float], tuple[float, float], float]
    flat: bool


def read_tray(config: DiceConfig, view: TopView, box: tuple[int, int, int, int],
              camera: CameraOverMat) -> tuple[DieReading, ...]:
    """The dice in the window ``box`` (pixels x0, y0, x1, y1) of a top view seen by ``camera``."""
    x0, y0, x1, y1 = box
    scale = view.pixels_per_mm
    middle = view.to_mm((x0 + x1) / 2, (y0 + y1) / 2)
    direction, size = camera.lean(np.array([middle]))
    lean = (float(direction[0, 0] * size[0]), float(direction[0, 1] * size[0]))
    origin = (view.origin_mm[0] + x0 / scale, view.origin_mm[1] + y0 / scale)
    return read_dice(config, view.image[y0:y1, x0:x1], scale, lean, origin)


def read_dice(
    config: DiceConfig, tray_image: Image, pixels_per_mm: float,
    lean: tuple[float, float] = (0.0, 0.0), origin_mm: tuple[float, float] = (0.0, 0.0),
) -> tuple[DieReading, ...]:
    """The dice in ``tray_image`` (BGR uint8, a top view's crop of a tray at ``pixels_per_mm``),
    ordered top to bottom. ``lean`` is how raised things lean in the view (mm per mm of height,
    away from the camera's foot: :meth:`vision.parallax.CameraOverMat.lean`); ``origin_mm``
    is the mat point of the crop's top-left pixel corner, for the dice's centres."""
    if tray_image.ndim != 3 or tray_image.shape[2] != 3 or tray_image.size == 0:
        return ()
    smooth = cv2.GaussianBlur(tray_image, (0, 0), 0.7)
    felt = np.median(smooth[::3, ::3].reshape(-1, 3), axis=0).astype(np.float32)
    bodies = _bodies(config, smooth, felt, pixels_per_mm)
    faces = _top_faces(config, bodies, pixels_per_mm, lean)
    readings = []
    for face in faces:
        reading = _read_face(config, smooth, felt, face, pixels_per_mm)
        (x, y), _, _ = face.rect
        centre = (origin_mm[0] + (x + 0.5) / pixels_per_mm,
                  origin_mm[1] + (y + 0.5) / pixels_per_mm)
        readings.append(DieReading(reading[0], reading[1], reading[2], centre))
    return tuple(sorted(readings, key=lambda die: (die.centre_mm[1], die.centre_mm[0])))


# -- bodies and top faces ------------------------------------------------------------------------


def _bodies(config: DiceConfig, image: Image, felt: FloatArray, ppm: float
            ) -> list[tuple[Image, tuple[int, int]]]:
    """Every die body of the crop as a patch (uint8 0/1, holes (pips) filled, print and specks
    removed) and where its top-left corner lies.

    A pixel's difference from the felt is measured in units of the least a die shows; it
    belongs to a die where that reaches 1 and half the most any pixel within the blur's reach
    shows (the middle of a blurred edge), so that outlines do not grow with the blur and
    touching dice of different colours come apart."""
    logs = cv2.LUT(image, _LOG_TABLE)
    logs -= np.log(felt + 4.0).astype(np.float32)
    level = cv2.transform(logs, _MEAN_ROW)
    squares = cv2.transform(cv2.multiply(logs, logs), _SUM_ROW)
    chroma = cv2.sqrt(np.maximum(squares - 3.0 * level * level, 0.0))
    score = np.maximum(np.maximum(chroma / config.chroma, level / config.brighter),
                       -level / config.darker)
    reach = max(3, 2 * round(config.edge_blur_mm * ppm) + 1)
    nearby = cv2.dilate(score, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach)))
    mask = ((score > 1.0) & (score > 0.5 * nearby)).astype(np.uint8)
    border = max(2, round(config.border_mm * ppm))
    mask[:border], mask[-border:], mask[:, :border], mask[:, -border:] = 0, 0, 0, 0
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _DISC3)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
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
               lean: tuple[float, float]) -> list[_Face]:
    """The top face of every die in the crop: single dice eroded by their own sweep, blobs of
    touching dice by the frame's lean, then split."""
    low, high = (edge * ppm for edge in config.edge_mm)
    lean_size = math.hypot(*lean)
    singles: list[tuple[Image, tuple[int, int], FloatArray, bool]] = []
    groups: list[tuple[Image, tuple[int, int]]] = []
    ratios: list[tuple[float, FloatArray]] = []
    for patch, (x0, y0) in bodies:
        rows, columns = np.nonzero(patch)
        axis, along, across, area = _sweep(np.column_stack([columns, rows]).astype(np.float64))
        swept = max(0.0, along - across)
        edge = math.sqrt(max(1.0, area - swept * across))
        single = (0.85 * low <= edge <= 1.1 * high and 0.95 <= across / edge <= 1.5
                  and swept <= 1.5 * edge)
        if not single:
            groups.append((patch, (x0, y0)))
            continue
        if lean_size > 0.02 and axis @ np.array(lean) < 0:
            axis = -axis
        sweep = axis * swept
        # A flat die's side faces show as wide as the camera's lean makes them: a sweep much
        # longer than that is a die cocked up on one side.
        upright = swept / edge <= lean_size + config.lean_slack
        singles.append((patch, (x0, y0), sweep, upright))
        ratios.append((swept / edge, axis))
    faces = [_face(config, _erode_along(patch, sweep), offset, ppm, upright)
             for patch, offset, sweep, upright in singles]
    if ratios:
        ratio = float(np.median([value for value, _ in ratios]))
        mean_axis = np.sum([axis for _, axis in ratios], axis=0)
        direction = mean_axis / max(1e-9, float(np.linalg.norm(mean_axis)))
    else:
        ratio = lean_size
        direction = np.array(lean) / max(lean_size, 1e-9)
    typical = float(np.median([math.sqrt(face.rect[1][0] * face.rect[1][1])
                               for face in faces])) if faces else 16.0 * ppm
    for patch, offset in groups:
        top = _erode_along(patch, direction * ratio * typical)
        area = float(top.sum())
        parts = max(1, min(config.most_dice, round(area / (typical * typical))))
        for part in _split(top, parts):
            faces.append(_face(config, part, offset, ppm))
    return [face for face in faces if face.mask.any()]


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
        return _Face(top, offset, ((0.0, 0.0), (0.0, 0.0), 0.0), False)
    best = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    piece = (labels == best).astype(np.uint8)
    contours, _ = cv2.findContours(piece, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    (x, y), (width, height), angle = cv2.minAreaRect(contours[0])
    # minAreaRect measures between pixel centres; a pixel's extent adds one.
    width, height = width + 1.0, height + 1.0
    long, short = max(width, height), min(width, height)
    fill = float(piece.sum()) / max(1.0, width * height)
    low, high = (edge * ppm for edge in config.edge_mm)
    flat = upright and (long - short <= config.square_tolerance * long and fill >= config.least_fill
            and 0.9 * low <= math.sqrt(width * height) <= 1.2 * high)
    rect = ((x + offset[0], y + offset[1]), (width, height), angle)
    return _Face(piece, offset, rect, flat)


# -- pips and colour -----------------------------------------------------------------------------


def _read_face(config: DiceConfig, image: Image, felt: FloatArray, face: _Face, ppm: float
               ) -> tuple[int | None, float, str]:
    """(value or None, confidence, colour name) of one face."""
    height, width = face.mask.shape
    crop = image[face.offset[1]:face.offset[1] + height, face.offset[0]:face.offset[0] + width]
    inner = cv2.erode(face.mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    pixels = crop[inner > 0] if inner.any() else crop[face.mask > 0]
    if len(pixels) == 0:
        return None, 0.0, "unknown"
    body = np.median(pixels.astype(np.float32), axis=0)
    colour = colour_name(body, felt)
    if not face.flat:
        return None, 0.9, colour
    (cx, cy), (w, h), angle = face.rect
    edge = (w + h) / 2
    step = config.spread * edge
    turn = math.radians(angle)
    u = np.array([math.cos(turn), math.sin(turn)])
    v = np.array([-math.sin(turn), math.cos(turn)])
    left, top = max(0, int(cx - edge)), max(0, int(cy - edge))
    right = min(image.shape[1], int(cx + edge) + 2)
    bottom = min(image.shape[0], int(cy + edge) + 2)
    local = image[top:bottom, left:right].astype(np.float32)
    raw = np.sqrt(((local - body) ** 2).sum(axis=2))
    contrast = cv2.GaussianBlur(raw, (0, 0), max(0.5, config.sample_share * edge / 2.5))
    middle = np.array([cx - left, cy - top])
    best_value, best_margin, best_low, scale, best_pips, best_grid = _best_layout(
        config, contrast, middle, step, turn)
    share = best_margin / scale
    if best_value is not None and best_value >= 4 and share >= config.least_margin:
        centre, spacing, u, v = best_grid
        stretch = _stretch(raw, centre, spacing, u, v, best_pips)
        if stretch > config.most_stretch:
            return None, 0.9, colour
    if share < config.least_margin or best_low < config.least_contrast:
        return None, float(np.clip(1.0 - share / config.least_margin, 0.0, 1.0)) * 0.9, colour
    # Every spot of contrast on the face must be one of the layout's pips: a grid laid off
    # the face's middle can fit a few pips (1-3, which have no square of pips to show
    # foreshortening) while the face's real pips lie elsewhere, as on a cocked die.
    if best_value is not None and best_value <= config.stray_values:
        reach = config.pip_reach[0] if best_value <= 3 else config.pip_reach[1]
        stray = _stray(config, contrast, face, (left, top), best_grid, best_pips, reach)
        if stray > best_low - config.stray_share * best_margin:
            return None, 0.8, colour
    span = config.sure_margin - config.least_margin
    confidence = 0.5 + 0.5 * float(np.clip((share - config.least_margin) / span, 0.0, 1.0))
    return best_value, confidence, colour


_LAYOUT_MASKS = np.array([[spot in pips for spot in GRID] for _, pips in LAYOUTS])


def _best_layout(config: DiceConfig, contrast: FloatArray, middle: FloatArray, step: float,
                 turn: float) -> tuple[int | None, float, float, float,
                                       frozenset[tuple[int, int]],
                                       tuple[FloatArray, float, FloatArray, FloatArray]]:
    """The layout whose pips stand out most clearly from its empty points, over small shifts,
    turns and spacings of the grid: (value, margin, weakest pip, strongest sample, pips, grid
    as centre, spacing and unit axes)."""
    shifts = np.array([(dx, dy) for dx in config.shifts for dy in config.shifts])
    turns = np.radians(np.array(config.turns)) + turn
    spacings = np.array(config.spacings) * step
    grid = np.array(GRID, np.float64)
    # Every candidate grid: turn x spacing x shift, nine points each.
    cos, sin = np.cos(turns), np.sin(turns)
    u = np.stack([cos, sin], axis=1)
    v = np.stack([-sin, cos], axis=1)
    points = (middle[None, None, None, None, :]
              + shifts[None, None, :, None, :]
              + spacings[None, :, None, None, None]
              * (grid[None, None, None, :, 0:1] * u[:, None, None, None, :]
                 + grid[None, None, None, :, 1:2] * v[:, None, None, None, :]))
    flat = points.reshape(-1, 2).astype(np.float32)
    values = cv2.remap(contrast.astype(np.float32), flat[:, 0].reshape(-1, 1),
                       flat[:, 1].reshape(-1, 1), cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_REPLICATE).reshape(-1, 9)
    on_low = np.where(_LAYOUT_MASKS[None], values[:, None, :], np.inf).min(axis=2)
    off_high = np.where(~_LAYOUT_MASKS[None], values[:, None, :], -np.inf).max(axis=2)
    margins = on_low - off_high
    candidate, layout = np.unravel_index(int(np.argmax(margins)), margins.shape)
    value, pips = LAYOUTS[layout]
    turn_index, spacing_index, shift_index = np.unravel_index(
        candidate, (len(turns), len(spacings), len(shifts)))
    chosen = (middle + shifts[shift_index], float(spacings[spacing_index]), u[turn_index],
              v[turn_index])
    scale = max(float(values[candidate].max()), config.least_contrast)
    return (value, float(margins[candidate, layout]), float(on_low[candidate, layout]), scale,
            pips, chosen)


def _stray(config: DiceConfig, contrast: FloatArray, face: _Face, corner: tuple[int, int],
           grid: tuple[FloatArray, float, FloatArray, FloatArray],
           pips: frozenset[tuple[int, int]], reach: float) -> float:
    """The most contrast on the face (away from its edges) that none of ``pips`` explains
    (each explains a disc ``reach`` of the grid's spacing around it)."""
    inside = _face_in(contrast.shape, face, corner)
    if not inside.any():
        return 0.0
    centre, spacing, u, v = grid
    inset = max(3, 2 * round(config.stray_inset * spacing) + 1)
    inner = np.asarray(cv2.erode(inside, cv2.getStructuringElement(
        cv2.MORPH_ELLIPSE, (inset, inset))), np.uint8)
    for column, row in pips:
        spot = centre + spacing * (column * u + row * v)
        cv2.circle(inner, (round(float(spot[0])), round(float(spot[1]))),
                   max(1, round(reach * spacing)), 0, -1)
    return float(contrast[inner > 0].max()) if inner.any() else 0.0


def _face_in(shape: tuple[int, ...], face: _Face, corner: tuple[int, int]) -> Image:
    """The face's mask in an image of ``shape`` whose top-left lies at ``corner`` of the crop."""
    height, width = shape[:2]
    inside = np.zeros((height, width), np.uint8)
    patch_height, patch_width = face.mask.shape
    x0, y0 = face.offset[0] - corner[0], face.offset[1] - corner[1]
    sx0, sy0 = max(0, -x0), max(0, -y0)
    tx0, ty0 = max(0, x0), max(0, y0)
    tx1, ty1 = min(width, x0 + patch_width), min(height, y0 + patch_height)
    if tx0 < tx1 and ty0 < ty1:
        inside[ty0:ty1, tx0:tx1] = face.mask[sy0:sy0 + ty1 - ty0, sx0:sx0 + tx1 - tx0]
    return inside


def _stretch(contrast: FloatArray, middle: FloatArray, step: float, u: FloatArray,
             v: FloatArray, pips: frozenset[tuple[int, int]]) -> float:
    """How much longer one axis of the pips' grid is than the other (0: a square grid), from
    each pip's centre of contrast and a least-squares grid through them. A die cocked up on
    one side shows its top foreshortened across the edge it stands on."""
    height, width = contrast.shape
    reach = max(1, round(0.45 * step))
    rows_used, found = [], []
    for column, row in pips:
        guess = middle + step * (column * u + row * v)
        x0, y0 = max(0, round(guess[0]) - reach), max(0, round(guess[1]) - reach)
        x1, y1 = min(width, round(guess[0]) + reach + 1), min(height, round(guess[1]) + reach + 1)
        window = contrast[y0:y1, x0:x1]
        if window.size == 0:
            return 1.0
        weight = np.maximum(window - 0.5 * float(window.max()), 0.0)
        total = float(weight.sum())
        if total <= 0:
            return 1.0
        ys, xs = np.mgrid[y0:y1, x0:x1]
        found.append(((xs * weight).sum() / total, (ys * weight).sum() / total))
        rows_used.append((1.0, float(column), float(row)))
    design = np.array(rows_used)
    solution, *_ = np.linalg.lstsq(design, np.array(found), rcond=None)
    axis_u, axis_v = solution[1], solution[2]
    lengths = sorted((float(np.linalg.norm(axis_u)), float(np.linalg.norm(axis_v))))
    return 1.0 - lengths[0] / max(lengths[1], 1e-9)


def _bilinear(image: FloatArray, point: FloatArray) -> float:
    """``image`` at a sub-pixel point (clamped to the image)."""
    height, width = image.shape
    x = min(max(float(point[0]), 0.0), width - 1.001)
    y = min(max(float(point[1]), 0.0), height - 1.001)
    x0, y0 = int(x), int(y)
    fx, fy = x - x0, y - y0
    top = image[y0, x0] * (1 - fx) + image[y0, x0 + 1] * fx
    bottom = image[y0 + 1, x0] * (1 - fx) + image[y0 + 1, x0 + 1] * fx
    return float(top * (1 - fy) + bottom * fy)


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
