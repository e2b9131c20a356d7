"""Reading a flat die's value from its pips (step 4 of :mod:`vision.dice`): the contrast with
the face's own colour, its local maxima as the pips, and the standard layout they make on the
face's 3x3 grid, with a confidence from how far the weakest pip stands above the next spot."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.arrays import FloatArray, Image
from vision.recent import RecentResults

if TYPE_CHECKING:
    from vision.dice import DiceConfig

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


#: How far from its peak a pip's spot is measured (a share of the edge): a pip is at most
#: about a quarter of the edge across, so a disc this wide holds it whole, and several pips
#: blurred into one fill it.
WIDTH_REACH = 0.25
_LAYOUT_SETS: dict[frozenset[tuple[int, int]], int] = {pips: value for value, pips in LAYOUTS}
_SUM_ROW = np.ones((1, 3), np.float32)
#: How much shorter a 6's columns of three pips can look than its rows: the blur pulls the
#: end pips' peaks towards the middle one, by up to 0.16 of their spacing just before the
#: three merge into one spot (discs 0.19 of the edge across and 0.27 apart, blurred by
#: Gaussians of 0.02-0.12 of the edge, centres found as :func:`_peak_centre` finds them; a
#: blur along the column, as an oblique camera's in the top view, pulls them alike). The
#: rows' pips are two spacings apart and hardly pulled; a cocked die's pips are not blurred
#: together, and its 6 is held to ``most_stretch`` both ways.
COLUMN_PULL = 0.16


#: From this many 8-bit pixels up, :func:`median_colour` counts a histogram instead of ranking.
HISTOGRAM_LEAST = 2048


def median_colour(pixels: FloatArray) -> FloatArray:
    """The per-channel median of ``pixels`` (n by 3; the upper of the two middle values when n
    is even), cheaper than :func:`numpy.median` on the few hundred pixels of a face."""
    if len(pixels) == 0:
        return np.zeros(pixels.shape[1:], np.float32)
    middle = len(pixels) // 2
    if pixels.dtype == np.uint8 and len(pixels) >= HISTOGRAM_LEAST and pixels.shape[1:] == (3,):
        # Many 8-bit pixels (the felt's thousands): the value whose cumulative count first
        # passes the middle, from each channel's histogram, is the same median for less.
        image = np.ascontiguousarray(pixels).reshape(-1, 1, 3)
        return np.array([np.searchsorted(np.cumsum(cv2.calcHist(
            [image], [channel], None, [256], [0, 256]).ravel()), middle, side="right")
            for channel in range(3)], np.float32)
    return np.asarray(np.partition(pixels, middle, axis=0)[middle], np.float32)


def masked_median(image: Image, mask: Image) -> FloatArray:
    """:func:`median_colour` of every second pixel of ``image`` (rows by columns by 3) where
    ``mask`` is set, in row order; the pixels are taken by their flat index, not by a boolean
    mask over three channels (several times as costly), and a median is the same whether
    uint8 or float32 values are ranked. (numpy lists a boolean mask's pixels, and takes rows
    by ``take``, several times as fast as it lists an 8-bit mask's or indexes them.)"""
    chosen = np.flatnonzero(mask != 0)[::2]
    return median_colour(np.take(image.reshape(-1, image.shape[-1]), chosen, axis=0))


def read_pips(config: DiceConfig, image: Image, body: FloatArray,
               rect: tuple[tuple[float, float], tuple[float, float], float]
               ) -> tuple[int | None, float, str, tuple[float, float, float] | None]:
    """(value or None, confidence, why None: "" when read, the read pips' middle in
    ``image``'s pixels and the turn (degrees) their diagonal gives the grid, or None) of a
    flat face, from its pips found as they are.

    The contrast with the face's own colour is smoothed a little, and its local maxima on
    the face (away from its edges) are the candidate pips, strongest first. The value is the
    count ``n`` of the strongest that lie on a standard layout: centred on the face (every
    layout is symmetric about its middle), each near a point of the 3x3 grid at the face's
    turn, the grid's two axes equally long (a die cocked up shows its top foreshortened). The
    confidence is how far the ``n``-th maximum stands above the next (or the face's plain
    level), against the pips' contrast."""
    (cx, cy), (w, h), angle = rect
    edge = (w + h) / 2
    face = _face_spots(config, image, rect)
    if isinstance(face, str):
        return None, 0.0, face, None
    contrast, inside, (left, top), spots = face
    middle = np.array([cx - left, cy - top])
    if not spots:
        return None, 0.0, "pips: none", None
    values = contrast[inside > 0]
    plain = float(np.partition(values, len(values) // 4)[len(values) // 4])
    strongest = spots[0][0]
    if strongest < config.least_contrast:
        return None, 0.0, "pips: faint", None
    turn = math.radians(angle)
    u = np.array([math.cos(turn), math.sin(turn)])
    v = np.array([-math.sin(turn), math.cos(turn)])
    share, value = _best_count(config, spots, plain, middle, edge, u, v)
    if value is None:
        return None, 0.0, "pips: no layout", None
    if share < config.least_margin:
        return None, float(np.clip(share, 0.0, 1.0)) * 0.5, "pips: count doubtful", None
    untrue = _untrue_to_layout(config, contrast, inside, spots[:value], plain, edge, u, v)
    if untrue:
        return None, 0.4, untrue, None
    span = config.sure_margin - config.least_margin
    confidence = 0.5 + 0.5 * float(np.clip((share - config.least_margin) / span, 0.0, 1.0))
    # A face's pips are all alike: one much fainter than the strongest may be something else
    # (a fleck, a reflection, a side face's pip), and the reading is not sure.
    evenness = spots[value - 1][0] / max(strongest, 1e-9)
    if evenness < config.even_pips:
        confidence = min(confidence, config.uneven_confidence)
    middle_x, middle_y = np.mean([point for _, point in spots[:value]], axis=0)
    return value, confidence, "", (float(middle_x) + left, float(middle_y) + top,
                                   _diagonal_turn([point for _, point in spots[:value]]))


def _diagonal_turn(points: list[FloatArray]) -> float:
    """The turn (degrees) of the square grid whose diagonal joins the two pips farthest apart
    of ``points``: every layout from 2 up has pips in two opposite corners, and a square grid
    is the same turned a quarter, so they fix its turn (0 for a single pip)."""
    best, turn = -1.0, 0.0
    for index, first in enumerate(points):
        for second in points[index + 1:]:
            step = second - first
            length = float(step @ step)
            if length > best:
                best, turn = length, math.degrees(math.atan2(float(step[1]), float(step[0])))
    return turn - 45.0


FaceSpots = tuple[FloatArray, Image, tuple[int, int], list[tuple[float, FloatArray]]]
#: The last faces' contrast and spots: a face whose pips fail is looked at again about its
#: pips' own middle (:mod:`vision.dice_recentre`) in the same window and rectangle, and finds
#: the same spots (four kept: a re-read in the face's own part comes between).
_RECENT_SPOTS: RecentResults[FaceSpots | str] = RecentResults(4)


def _face_spots(config: DiceConfig, image: Image,
                rect: tuple[tuple[float, float], tuple[float, float], float]
                ) -> FaceSpots | str:
    """:func:`_face_contrast` and the strongest spots on it (:func:`_strongest_spots`), found
    once for an image and rectangle however often they are asked for."""
    def work() -> FaceSpots | str:
        face = _face_contrast(config, image, rect)
        if isinstance(face, str):
            return face
        contrast, inside, origin = face
        edge = (rect[1][0] + rect[1][1]) / 2
        return contrast, inside, origin, _strongest_spots(config, contrast, inside, edge)

    return _RECENT_SPOTS.get(image, (rect, config), work)


def _face_contrast(config: DiceConfig, image: Image,
                   rect: tuple[tuple[float, float], tuple[float, float], float]
                   ) -> tuple[FloatArray, Image, tuple[int, int]] | str:
    """A face's contrast with its own colour, smoothed a little, in a window about it; the
    face's inset middle in that window; and the window's top-left corner in ``image``. Why
    not, where the face lies outside the image or has no middle."""
    (cx, cy), (w, h), angle = rect
    edge = (w + h) / 2
    reach = int(0.75 * edge) + 2
    left, top = max(0, int(cx) - reach), max(0, int(cy) - reach)
    right = min(image.shape[1], int(cx) + reach + 1)
    bottom = min(image.shape[0], int(cy) + reach + 1)
    window = image[top:bottom, left:right]
    if window.size == 0:
        return "face outside the tray"
    inside = np.zeros(window.shape[:2], np.uint8)
    box = cv2.boxPoints(((cx - left, cy - top), (w * config.face_inset, h * config.face_inset),
                         angle))
    cv2.fillConvexPoly(inside, np.round(box).astype(np.int32), 1)
    if not inside.any():
        return "face empty"
    # The face's own colour, from its middle at full detail: the coarse outline's median may
    # take in felt or a side face, and then the face itself would stand out.
    body = masked_median(window, inside)
    # OpenCV takes the scalar as float32 and converts the 8-bit window as it subtracts: the
    # same difference as numpy's, without a float copy of the window first.
    colour = (float(body[0]), float(body[1]), float(body[2]), 0.0)
    difference = cv2.subtract(window, colour, dtype=cv2.CV_32F)  # type: ignore[call-overload]
    raw = cv2.sqrt(cv2.transform(cv2.multiply(difference, difference), _SUM_ROW))
    contrast = cv2.GaussianBlur(raw, (0, 0), max(0.5, config.pip_blur * edge))
    return contrast, inside, (left, top)


def _strongest_spots(config: DiceConfig, contrast: FloatArray, inside: Image, edge: float
                     ) -> list[tuple[float, FloatArray]]:
    """Up to seven local maxima of the contrast on the face, strongest first, none nearer
    another than half the pips' spacing, each placed at its peak's centre."""
    size = max(3, 2 * round(config.pip_apart * config.spread * edge / 2) + 1)
    # Local maxima are looked for on the face only: the contrast is dilated over the face's
    # box and the kernel's reach round it (the same maxima there as the whole window's).
    found = cv2.boundingRect(inside)
    reach = size // 2
    x0, y0 = max(0, found[0] - reach), max(0, found[1] - reach)
    x1 = min(contrast.shape[1], found[0] + found[2] + reach)
    y1 = min(contrast.shape[0], found[1] + found[3] + reach)
    near = contrast[y0:y1, x0:x1]
    peaks = cv2.dilate(near, np.ones((size, size), np.uint8))
    rows, columns = np.nonzero((near >= peaks) & (inside[y0:y1, x0:x1] > 0))
    heights = near[rows, columns]
    rows, columns = rows + y0, columns + x0
    spots: list[tuple[float, FloatArray]] = []
    least_apart = 0.5 * config.spread * edge
    kept: list[tuple[float, float]] = []
    for index in np.argsort(-heights):
        x, y = float(columns[index]), float(rows[index])
        if any((x - kx) ** 2 + (y - ky) ** 2 < least_apart ** 2 for kx, ky in kept):
            continue
        kept.append((x, y))
        spots.append((float(heights[index]), np.array([x, y])))
        if len(spots) > 6:
            break
    return [(height, _peak_centre(contrast, point, 0.7 * least_apart, height))
            for height, point in spots]


def _best_count(config: DiceConfig, spots: list[tuple[float, FloatArray]], plain: float,
                middle: FloatArray | None, edge: float, u: FloatArray, v: FloatArray
                ) -> tuple[float, int | None]:
    """The count of strongest spots that lie on their standard layout about ``middle`` (about
    their own middle where None) and stand furthest above the next (or the face's plain
    level), with that margin as a share of the pips' contrast; (-1, None) where no count
    does."""
    strongest = spots[0][0]
    best: tuple[float, int | None] = (-1.0, None)
    for count in range(1, min(6, len(spots)) + 1):
        weakest = spots[count - 1][0]
        after = spots[count][0] if count < len(spots) else plain
        share = (weakest - max(after, plain)) / max(strongest - plain, 1e-9)
        if weakest < config.least_contrast or share <= best[0]:
            continue
        points = np.array([point for _, point in spots[:count]])
        about = points.mean(axis=0) if middle is None else middle
        if _layout_of(config, points, about, edge, u, v) == count:
            best = (share, count)
    return best


def _untrue_to_layout(config: DiceConfig, contrast: FloatArray, inside: Image,
                      spots: list[tuple[float, FloatArray]], plain: float, edge: float,
                      u: FloatArray, v: FloatArray) -> str:
    """Why the pips read do not make their layout as a real face would ("" when they do):
    each spot no wider than
    a pip can be (``widest_pip`` of the edge: several pips blurred into one spot, or a pip
    and a fleck, are wider), and no grid point the layout leaves empty standing out like a pip
    (``empty_share`` of the weakest pip's contrast: a pip missed, a 4 read as 1)."""
    points = np.array([point for _, point in spots])
    weakest = spots[-1][0]
    for height, point in spots:
        if _spot_width(contrast, inside, point, height, plain, edge, points) > config.widest_pip:
            return "pips: a spot too wide"
    empty = _empty_points(contrast, points, len(spots), edge, u, v, plain, weakest)
    return "" if empty < config.empty_share else "pips: an empty grid point stands out"


def _empty_points(contrast: FloatArray, points: FloatArray, value: int, edge: float,
                  u: FloatArray, v: FloatArray, plain: float, weakest: float) -> float:
    """How strongly the face's grid points without a pip in layout ``value`` stand out, as a
    share of its weakest pip's contrast over the face's plain level: near 0 on a true face,
    near 1 where a pip was missed (a 4 read as 1, a 6 as 2). For a single pip the grid is
    taken at every spacing a die's layout may have (0.22-0.32 of the edge)."""
    if value == 1:
        grids = [(points[0], u * share * edge, v * share * edge)
                 for share in (0.22, 0.25, 0.28, 0.32)]
        layout = frozenset({(0, 0)})
    else:
        centre = points.mean(axis=0)
        relative = points - centre
        spacing = float(np.linalg.norm(relative, axis=1).max()) / math.sqrt(2.0)
        local = np.column_stack([relative @ u, relative @ v]) / max(spacing, 1e-9)
        snapped = np.clip(np.round(local), -1, 1)
        grids = [_square_grid(points, snapped)]
        layout = frozenset((int(c), int(r)) for c, r in snapped)
    reach = max(1, round(0.05 * edge))
    rows, columns = contrast.shape
    steps = np.array([point for point in GRID if point not in layout], np.float64)
    most = 0.0
    for centre, axis_u, axis_v in grids:
        # Each point as centre + column * axis_u + row * axis_v, rounded half to even.
        places = np.rint(centre + steps[:, :1] * axis_u + steps[:, 1:] * axis_v)
        for x, y in places.astype(np.int64).tolist():
            if 0 <= x < columns and 0 <= y < rows:
                # The most of the contrast within ``reach`` of the point (clipped to the
                # window's edges), as a dilation of the whole window gives it there.
                near = contrast[max(0, y - reach):y + reach + 1, max(0, x - reach):x + reach + 1]
                most = max(most, float(near.max()))
            elif -reach <= x < columns + reach and -reach <= y < rows + reach:
                window = contrast[max(0, y - reach):y + reach + 1, max(0, x - reach):x + reach + 1]
                most = max(most, float(window.max()))
    return max(0.0, most - plain) / max(weakest - plain, 1e-9)


def _spot_width(contrast: FloatArray, inside: Image, point: FloatArray, height: float,
                plain: float, edge: float, pips: FloatArray) -> float:
    """The width of the spot peaking at ``point`` (the side of a square as large as its part
    above half its height over the plain level, connected to the peak), as a share of the
    edge: a pip is 0.14-0.25 of it, more when blurred; several pips blurred into one are
    wider."""
    reach = max(2, round(WIDTH_REACH * edge))
    rows, columns = contrast.shape
    x, y = round(float(point[0])), round(float(point[1]))
    x0, y0 = max(0, x - reach), max(0, y - reach)
    x1, y1 = min(columns, x + reach + 1), min(rows, y + reach + 1)
    ys, xs = np.arange(y0, y1)[:, None], np.arange(x0, x1)[None, :]
    disc = (xs - x) ** 2 + (ys - y) ** 2 <= reach * reach
    above = ((contrast[y0:y1, x0:x1] >= plain + 0.5 * (height - plain))
             & (inside[y0:y1, x0:x1] > 0) & disc).astype(np.uint8)
    _, labels = cv2.connectedComponents(above, connectivity=8)
    label = labels[min(y - y0, labels.shape[0] - 1), min(x - x0, labels.shape[1] - 1)]
    if label == 0:
        return 0.0
    held = 0
    for other in pips:
        column, row = round(float(other[0])) - x0, round(float(other[1])) - y0
        if 0 <= row < labels.shape[0] and 0 <= column < labels.shape[1]:
            held += int(labels[row, column] == label)
    area = float((labels == label).sum()) / max(1, held)
    return math.sqrt(area) / max(edge, 1e-9)


def _square_grid(points: FloatArray, snapped: FloatArray
                 ) -> tuple[FloatArray, FloatArray, FloatArray]:
    """The square grid (centre, column step, row step; pixels) through pips at grid places
    ``snapped``: a least-squares fit of a centre and one step ``a``, the row step being ``a``
    turned a quarter (a face is square, so two pips on a diagonal fix the whole grid)."""
    columns, rows = snapped[:, 0], snapped[:, 1]
    ones, zeros = np.ones(len(points)), np.zeros(len(points))
    design = np.vstack([np.column_stack([ones, zeros, columns, -rows]),
                        np.column_stack([zeros, ones, rows, columns])])
    target = np.concatenate([points[:, 0], points[:, 1]])
    solution, *_ = np.linalg.lstsq(design, target, rcond=None)
    step = solution[2:4]
    return solution[0:2], step, np.array([-step[1], step[0]])


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
    across = weight.sum(axis=0) @ np.arange(x0, x1, dtype=np.float64)
    down = weight.sum(axis=1) @ np.arange(y0, y1, dtype=np.float64)
    return np.array([across / total, down / total])


def _layout_of(config: DiceConfig, points: FloatArray, middle: FloatArray, edge: float,
               u: FloatArray, v: FloatArray) -> int | None:
    """The value whose layout ``points`` (pips' centres, pixels) make on a face of ``edge``
    centred at ``middle`` turned along ``u``, ``v``; None when they make none. A 6's columns
    may be as much shorter than its rows as the blur between their pips can pull them
    (:data:`COLUMN_PULL`), never longer."""
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
    if value == 6:
        # A 6's columns hold three pips each, close enough for the blur to pull the end ones
        # in: the column may be shorter than the row by that pull, never longer.
        in_column = 1 if np.all(np.abs(snapped[:, 0]) == 1) else 0
        column = float(np.linalg.norm(solution[1 + in_column]))
        row = float(np.linalg.norm(solution[2 - in_column]))
        if column > row * (1.0 + config.most_stretch) or \
                column < row * (1.0 - COLUMN_PULL) * (1.0 - config.most_stretch):
            return None
        spacing = (column + row) / 2
    elif value >= 4:
        lengths = sorted((float(np.linalg.norm(axis_u)), float(np.linalg.norm(axis_v))))
        if 1.0 - lengths[0] / max(lengths[1], 1e-9) > config.most_stretch:
            return None
        spacing = (lengths[0] + lengths[1]) / 2
    else:
        spacing = float(np.linalg.norm(relative, axis=1).max()) / math.sqrt(2.0)
    if not config.spacing_range[0] <= spacing / edge <= config.spacing_range[1]:
        return None
    return value


def spots_middle(config: DiceConfig, image: Image,
                 rect: tuple[tuple[float, float], tuple[float, float], float]
                 ) -> tuple[float, float] | None:
    """The middle (``image``'s pixels) of the strongest spots of the face ``rect`` that make a
    standard layout about their own middle, wherever on the face that lies (the count whose
    weakest stands furthest above the next, as :func:`read_pips` chooses); None where no
    count does. :func:`read_pips` asks the layout to lie about the outline's middle too."""
    _, (w, h), angle = rect
    edge = (w + h) / 2
    face = _face_spots(config, image, rect)
    if isinstance(face, str):
        return None
    contrast, inside, (left, top), spots = face
    if not spots or spots[0][0] < config.least_contrast:
        return None
    values = contrast[inside > 0]
    plain = float(np.partition(values, len(values) // 4)[len(values) // 4])
    turn = math.radians(angle)
    u = np.array([math.cos(turn), math.sin(turn)])
    v = np.array([-math.sin(turn), math.cos(turn)])
    _, count = _best_count(config, spots, plain, None, edge, u, v)
    if count is None:
        return None
    middle_x, middle_y = np.array([point for _, point in spots[:count]]).mean(axis=0)
    return float(middle_x) + left, float(middle_y) + top
