"""Reading a flat die's value from its pips (step 4 of :mod:`vision.dice`): the contrast with
the face's own colour, its local maxima as the pips, and the standard layout they make on the
face's 3x3 grid, with a confidence from how far the weakest pip stands above the next spot."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from vision.dice import DiceConfig

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


_LAYOUT_SETS: dict[frozenset[tuple[int, int]], int] = {pips: value for value, pips in LAYOUTS}


def read_pips(config: DiceConfig, image: Image, body: FloatArray,
               rect: tuple[tuple[float, float], tuple[float, float], float]
               ) -> tuple[int | None, float]:
    """(value or None, confidence) of a flat face, from its pips found as they are.

    The contrast with the face's own colour is smoothed a little, and its local maxima on
    the face (away from its edges) are the candidate pips, strongest first. The value is the
    count ``n`` of the strongest that lie on a standard layout: centred on the face (every
    layout is symmetric about its middle), each near a point of the 3x3 grid at the face's
    turn, the grid's two axes equally long (a die cocked up shows its top foreshortened). The
    confidence is how far the ``n``-th maximum stands above the next (or the face's plain
    level), against the pips' contrast."""
    (cx, cy), (w, h), angle = rect
    edge = (w + h) / 2
    reach = int(0.75 * edge) + 2
    left, top = max(0, int(cx) - reach), max(0, int(cy) - reach)
    right = min(image.shape[1], int(cx) + reach + 1)
    bottom = min(image.shape[0], int(cy) + reach + 1)
    local = image[top:bottom, left:right].astype(np.float32)
    if local.size == 0:
        return None, 0.0
    middle = np.array([cx - left, cy - top])
    inside = np.zeros(local.shape[:2], np.uint8)
    box = cv2.boxPoints(((float(middle[0]), float(middle[1])),
                         (w * config.face_inset, h * config.face_inset), angle))
    cv2.fillConvexPoly(inside, np.round(box).astype(np.int32), 1)
    if not inside.any():
        return None, 0.0
    # The face's own colour, from its middle at full detail: the coarse outline's median may
    # take in felt or a side face, and then the face itself would stand out.
    body = np.median(local[inside > 0][::2], axis=0)
    raw = np.sqrt(((local - body) ** 2).sum(axis=2))
    contrast = cv2.GaussianBlur(raw, (0, 0), max(0.5, config.pip_blur * edge))
    size = max(3, 2 * round(config.pip_apart * config.spread * edge / 2) + 1)
    peaks = cv2.dilate(contrast, np.ones((size, size), np.uint8))
    rows, columns = np.nonzero((contrast >= peaks) & (inside > 0))
    if len(rows) == 0:
        return None, 0.0
    heights = contrast[rows, columns]
    order = np.argsort(-heights)
    turn = math.radians(angle)
    u = np.array([math.cos(turn), math.sin(turn)])
    v = np.array([-math.sin(turn), math.cos(turn)])
    spots: list[tuple[float, FloatArray]] = []
    least_apart = 0.5 * config.spread * edge
    for index in order:
        point = np.array([columns[index], rows[index]], np.float64)
        if any(np.linalg.norm(point - other) < least_apart for _, other in spots):
            continue
        spots.append((float(heights[index]), point))
        if len(spots) > 6:
            break
    spots = [(height, _peak_centre(contrast, point, 0.7 * least_apart, height))
             for height, point in spots]
    values = contrast[inside > 0]
    plain = float(np.partition(values, len(values) // 4)[len(values) // 4])
    strongest = spots[0][0]
    if strongest < config.least_contrast:
        return None, 0.0
    best: tuple[float, int | None] = (-1.0, None)
    for count in range(1, min(6, len(spots)) + 1):
        weakest = spots[count - 1][0]
        after = spots[count][0] if count < len(spots) else plain
        share = (weakest - max(after, plain)) / max(strongest - plain, 1e-9)
        if weakest < config.least_contrast or share <= best[0]:
            continue
        points = np.array([point for _, point in spots[:count]])
        if _layout_of(config, points, middle, edge, u, v) == count:
            best = (share, count)
    share, value = best
    if value is None or share < config.least_margin:
        return None, float(np.clip(share, 0.0, 1.0)) * 0.5
    span = config.sure_margin - config.least_margin
    confidence = 0.5 + 0.5 * float(np.clip((share - config.least_margin) / span, 0.0, 1.0))
    # A face's pips are all alike: one much fainter than the strongest may be something else
    # (a fleck, a reflection, a side face's pip), and the reading is not sure.
    evenness = spots[value - 1][0] / max(strongest, 1e-9)
    if evenness < config.even_pips:
        confidence = min(confidence, config.uneven_confidence)
    return value, confidence


def _peak_centre(contrast: FloatArray, point: FloatArray, reach: float, height: float
                 ) -> FloatArray:
    """The centre of a spot of contrast peaking at ``point``: the centroid of its upper half
    within ``reach`` (sub-pixel, for the grid's proportions)."""
    rows, columns = contrast.shape
    size = max(1, round(reach))
    x0, y0 = max(0, int(point[0]) - size), max(0, int(point[1]) - size)
    x1, y1 = min(columns, int(point[0]) + size + 1), min(rows, int(point[1]) + size + 1)
    weight = np.maximum(contrast[y0:y1, x0:x1] - 0.5 * height, 0.0)
    total = float(weight.sum())
    if total <= 0:
        return point
    ys, xs = np.mgrid[y0:y1, x0:x1]
    return np.array([(xs * weight).sum() / total, (ys * weight).sum() / total])


def _layout_of(config: DiceConfig, points: FloatArray, middle: FloatArray, edge: float,
               u: FloatArray, v: FloatArray) -> int | None:
    """The value whose layout ``points`` (pips' centres, pixels) make on a face of ``edge``
    centred at ``middle`` turned along ``u``, ``v``; None when they make none."""
    centre = points.mean(axis=0)
    if np.linalg.norm(centre - middle) > config.off_centre * edge:
        return None
    if len(points) == 1:
        return 1
    relative = points - centre
    # The grid's spacing from the pips themselves (the face's outline may take in some of a
    # side face): every layout from 2 up has pips in two opposite corners, the farthest from
    # its middle. Its turn is the face's (a cocked die's pips need not lie square to it).
    reach = np.linalg.norm(relative, axis=1)
    spacing = float(reach.max()) / math.sqrt(2.0)
    local = np.column_stack([relative @ u, relative @ v]) / max(spacing, 1e-9)
    snapped = np.clip(np.round(local), -1, 1)
    if np.abs(local - snapped).max() > config.snap:
        return None
    spots = frozenset((int(c), int(r)) for c, r in snapped)
    value = _LAYOUT_SETS.get(spots)
    if value is None or value != len(points):
        return None
    # The grid through the pips: its spacing (a share of the edge) and, from four pips up,
    # whether both axes are as long (a cocked die's top is foreshortened across its tilt).
    design = np.column_stack([np.ones(len(points)), snapped])
    solution, *_ = np.linalg.lstsq(design, relative, rcond=None)
    axis_u, axis_v = solution[1], solution[2]
    if value >= 4:
        lengths = sorted((float(np.linalg.norm(axis_u)), float(np.linalg.norm(axis_v))))
        if 1.0 - lengths[0] / max(lengths[1], 1e-9) > config.most_stretch:
            return None
        spacing = (lengths[0] + lengths[1]) / 2
    else:
        spacing = float(np.linalg.norm(relative, axis=1).max()) / math.sqrt(2.0)
    if not config.spacing_range[0] <= spacing / edge <= config.spacing_range[1]:
        return None
    return value
