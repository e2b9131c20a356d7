"""What a printed mat looks like, as a list of simple shapes in millimetres.

The PNG renderer (:mod:`calibration.mats`) and the PDF writer (:mod:`calibration.pdf`) both draw
from this one list, so the raster and the vector mat cannot drift apart. Colours are RGB 0-255.
Markers are emitted as one filled rectangle per black cell, taken from OpenCV's own
``cv2.aruco.generateImageMarker``, so they are crisp at any scale.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import cache
from typing import Literal

from calibration.geometry import Circle, Mark, Marker, MatGeometry, Point, Rect, Region
from contract.colours import colour_rgb

Colour = tuple[int, int, int]

WHITE: Colour = (255, 255, 255)
BLACK: Colour = (0, 0, 0)
#: The tint of every other square: pale blue-grey, light enough that copper, silver and brass
#: coins stand out by hue and brightness and cheap in ink.
SQUARE_TINT: Colour = (222, 231, 242)
GRID_LINE: Colour = (150, 160, 172)
LABEL: Colour = (128, 138, 150)
BORDER: Colour = (70, 76, 84)
PIT_FILL: Colour = (232, 238, 246)
#: A dice tray (and a discard spot): a mid green like a felt tray, so white and coloured dice
#: (and white cards) stand out on it, framed
#: by a :data:`TRAY_FRAME_MM` line of :data:`BORDER`; its name is printed in :data:`TRAY_LABEL`.
TRAY_FILL: Colour = (88, 136, 108)
TRAY_LABEL: Colour = (200, 220, 208)
TRAY_FRAME_MM = 1.0
#: A wall between two halves of a board is a bar of this colour (the geometry gives its size).
WALL: Colour = BORDER
#: Stars and X's on squares: outlines of this colour, ``0.01 s`` wide (at least 0.35 mm).
SYMBOL: Colour = (128, 138, 150)

#: The two tracks of a mancala board, as arrows: the inner track blue, the outer one orange, in
#: lines :data:`TRACK_LINE_MM` wide with heads :data:`TRACK_HEAD_MM` long; labels in BORDER.
INNER_TRACK: Colour = (40, 96, 168)
OUTER_TRACK: Colour = (208, 110, 30)
TRACK_LINE_MM = 1.2
TRACK_HEAD_MM = 5.0

#: Cells on a side of a DICT_4X4_50 marker, black border included.
MARKER_CELLS = 6
#: How the dictionary is named on the printed mat.
MARKER_DICTIONARY_LABEL = "4X4_50"


@dataclass(frozen=True)
class FilledRect:
    rect: Rect
    colour: Colour


@dataclass(frozen=True)
class FilledCircle:
    circle: Circle
    colour: Colour


@dataclass(frozen=True)
class Line:
    start: Point
    end: Point
    width_mm: float
    colour: Colour


@dataclass(frozen=True)
class Text:
    """Text whose baseline passes through ``anchor``, aligned by ``align`` on it."""

    anchor: Point
    height_mm: float
    text: str
    colour: Colour
    align: Literal["left", "centre"] = "left"


Item = FilledRect | FilledCircle | Line | Text


@cache
def marker_cells(marker_id: int) -> tuple[tuple[bool, ...], ...]:
    """Black (True) / white cells of a DICT_4X4_50 marker, 6x6 rows top to bottom."""
    import cv2

    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    image = cv2.aruco.generateImageMarker(dictionary, marker_id, MARKER_CELLS)
    return tuple(tuple(bool(value < 128) for value in row) for row in image)


def marker_items(marker: Marker) -> list[Item]:
    """The marker as filled black cells on its white quiet zone."""
    cell = marker.side_mm / MARKER_CELLS
    left = marker.centre[0] - marker.side_mm / 2
    top = marker.centre[1] - marker.side_mm / 2
    items: list[Item] = []
    for row, cells in enumerate(marker_cells(marker.id)):
        for column, black in enumerate(cells):
            if black:
                centre = (left + (column + 0.5) * cell, top + (row + 0.5) * cell)
                items.append(FilledRect(Rect(centre, (cell, cell)), BLACK))
    return items


def _square_items(region: Region, index: int, label_mm: float) -> list[Item]:
    assert isinstance(region.shape, Rect)
    rect = region.shape
    items: list[Item] = []
    file_index = ord(region.name[0]) - ord("a")
    rank_index = int(region.name[1:]) - 1 if region.name[1:].isdigit() else index
    if (file_index + rank_index) % 2 == 0:
        items.append(FilledRect(rect, SQUARE_TINT))
    inset = label_mm * 0.5
    anchor = (rect.left + inset, rect.top + inset + label_mm)
    items.append(Text(anchor, label_mm, region.name, LABEL))
    return items


def _pit_items(region: Region, label_mm: float) -> list[Item]:
    """A pale filled circle or rectangle with a thin rim and the region's name inside its
    bottom edge; a round pit's name is a tenth of its radius tall (3 to 8 mm)."""
    shape = region.shape
    items: list[Item] = []
    if isinstance(shape, Circle):
        label_mm = max(label_mm, min(8.0, 0.1 * shape.radius))
        items.append(FilledCircle(shape, GRID_LINE))
        items.append(FilledCircle(Circle(shape.centre, shape.radius - 0.5), PIT_FILL))
        x, y = shape.centre
        anchor = (x, y + shape.radius - label_mm * 0.6)
    else:
        left, _, right, bottom = shape.bounds()
        items.append(FilledRect(shape, GRID_LINE))
        inner = Rect(shape.centre, (shape.size[0] - 1.0, shape.size[1] - 1.0))
        items.append(FilledRect(inner, PIT_FILL))
        anchor = ((left + right) / 2, bottom - label_mm * 0.6)
    items.append(Text(anchor, label_mm, region.name, LABEL, "centre"))
    return items


def _track_items(region: Region, label_mm: float) -> list[Item]:
    """A round track space on a mat that marks its spaces with ``space`` ticks (see
    :mod:`calibration.ring_mat`): nothing inside it, for a printed circle the size of a coin,
    or letters under its rim, look like a coin to the camera. Other track spaces as pits."""
    return []


def _tray_items(region: Region, label_mm: float) -> list[Item]:
    """A framed green rectangle with the region's name at the bottom, inside."""
    assert isinstance(region.shape, Rect)
    rect = region.shape
    inner = Rect(rect.centre, (rect.size[0] - 2 * TRAY_FRAME_MM, rect.size[1] - 2 * TRAY_FRAME_MM))
    anchor = (rect.centre[0], rect.bottom - TRAY_FRAME_MM - label_mm * 0.6)
    return [FilledRect(rect, BORDER), FilledRect(inner, TRAY_FILL),
            Text(anchor, label_mm, region.name, TRAY_LABEL, "centre")]


def _outline(points: list[Point], width: float) -> list[Item]:
    return [Line(points[index], points[(index + 1) % len(points)], width, SYMBOL)
            for index in range(len(points))]


def _ring_mark_items(mark: Mark) -> list[Item]:
    """A bar turned by the mark's angle: dark for a corner, grey for a space's tick, in the
    seat's colour for a seat."""
    x, y = mark.rect.centre
    colour = ({"corner": BORDER, "space": GRID_LINE}.get(mark.kind)
              or (colour_rgb(mark.colour) if mark.colour else LABEL))
    length, width = mark.rect.size
    angle = math.radians(mark.angle_deg)
    half = (length / 2 * math.cos(angle), length / 2 * math.sin(angle))
    return [Line((x - half[0], y - half[1]), (x + half[0], y + half[1]), width, colour)]


def _arrow_items(path: tuple[Point, ...], colour: Colour) -> list[Item]:
    """Lines along ``path`` and a head of two strokes at its last point, 30 degrees aside."""
    items: list[Item] = [Line(start, end, TRACK_LINE_MM, colour)
                         for start, end in itertools.pairwise(path)]
    (x0, y0), (x1, y1) = path[-2], path[-1]
    back = math.atan2(y0 - y1, x0 - x1)
    for turn in (-math.pi / 6, math.pi / 6):
        angle = back + turn
        tip = (x1 + TRACK_HEAD_MM * math.cos(angle), y1 + TRACK_HEAD_MM * math.sin(angle))
        items.append(Line((x1, y1), tip, TRACK_LINE_MM, colour))
    return items


def _mark_items(mark: Mark, square_mm: float) -> list[Item]:
    """A wall bar, a five-pointed star outline (a point towards North), an X, a ring's bar, a
    track arrow or a label (grey unless the mark names a colour)."""
    if mark.kind in ("corner", "seat", "space"):
        return _ring_mark_items(mark)
    if mark.kind == "wall":
        return [FilledRect(mark.rect, WALL)]
    if mark.kind in ("inner-track", "outer-track"):
        return _arrow_items(mark.path, INNER_TRACK if mark.kind == "inner-track" else OUTER_TRACK)
    if mark.kind == "label":
        x, y = mark.rect.centre
        height = mark.rect.size[1]
        colour = colour_rgb(mark.colour) if mark.colour else LABEL
        return [Text((x, y + height / 2), height, mark.text, colour, "centre")]
    width = max(0.35, 0.01 * square_mm)
    x, y = mark.rect.centre
    half = mark.rect.size[0] / 2
    if mark.kind == "cross":
        return [Line((x - half, y - half), (x + half, y + half), width, SYMBOL),
                Line((x - half, y + half), (x + half, y - half), width, SYMBOL)]
    inner = half * math.sin(math.radians(18)) / math.sin(math.radians(54))
    points = []
    for index in range(10):
        radius = half if index % 2 == 0 else inner
        angle = math.radians(-90 + 36 * index)
        points.append((x + radius * math.cos(angle), y + radius * math.sin(angle)))
    return _outline(points, width)


def _grid_lines(geometry: MatGeometry) -> list[Item]:
    """Thin lines along every square edge."""
    edges: set[tuple[Point, Point]] = set()
    for region in geometry.printed:
        if region.kind == "square" and isinstance(region.shape, Rect):
            left, top, right, bottom = region.shape.bounds()
            edges.update({((left, top), (right, top)), ((left, bottom), (right, bottom))})
            edges.update({((left, top), (left, bottom)), ((right, top), (right, bottom))})
    return [Line(start, end, 0.35, GRID_LINE) for start, end in sorted(edges)]


def _border(rect: Rect, width: float) -> list[Item]:
    left, top, right, bottom = rect.bounds()
    corners = [(left, top), (right, top), (right, bottom), (left, bottom)]
    return [
        Line(corners[index], corners[(index + 1) % 4], width, BORDER) for index in range(4)
    ]


def _ruler(left: float, baseline: float, label_mm: float) -> list[Item]:
    """A 100 mm bar with centimetre ticks, so the user can check the print scale."""
    items: list[Item] = [Line((left, baseline), (left + 100.0, baseline), 0.5, BORDER)]
    for tick in range(11):
        x = left + tick * 10.0
        height = 3.0 if tick % 5 == 0 else 1.8
        items.append(Line((x, baseline), (x, baseline - height), 0.3, BORDER))
    items.append(
        Text((left + 104.0, baseline), label_mm, "100 mm: check the print scale", LABEL)
    )
    return items


def mat_items(geometry: MatGeometry) -> list[Item]:
    """Everything printed on ``geometry``'s mat, back to front, in millimetres."""
    squares = [region for region in geometry.printed if region.kind == "square"]
    label_mm = 3.0
    square_mm = 50.0
    if squares:
        first = squares[0].shape
        assert isinstance(first, Rect)
        square_mm = first.size[0]
        label_mm = max(2.0, min(4.0, square_mm * 0.07))
    items: list[Item] = []
    ticked = any(mark.kind == "space" for mark in geometry.marks)
    for index, region in enumerate(geometry.printed):
        if region.kind == "square" and isinstance(region.shape, Rect):
            items.extend(_square_items(region, index, label_mm))
        elif region.kind in ("tray", "discard") and isinstance(region.shape, Rect):
            items.extend(_tray_items(region, label_mm))
        elif region.kind == "track" and ticked:
            items.extend(_track_items(region, label_mm))
        else:
            items.extend(_pit_items(region, label_mm))
    items.extend(_grid_lines(geometry))
    for mark in geometry.marks:
        items.extend(_mark_items(mark, square_mm))
    items.extend(_border(geometry.play_area, 0.8))
    items.extend(_margin_text(geometry, label_mm))
    for marker in geometry.markers:
        items.extend(marker_items(marker))
    return items


def _margin_text(geometry: MatGeometry, label_mm: float) -> list[Item]:
    """Title and orientation in the bottom margin, 'North' in the top one, and a scale ruler."""
    play = geometry.play_area
    centre_x = play.centre[0]
    margin_mid_bottom = (play.bottom + geometry.height_mm) / 2
    margin_mid_top = play.top / 2
    title = f"{geometry.name}  -  South  -  markers {MARKER_DICTIONARY_LABEL} ids " + ",".join(
        str(marker_id) for marker_id in geometry.marker_ids()
    )
    text_mm = label_mm * 1.2
    items: list[Item] = [
        Text((centre_x, margin_mid_bottom - text_mm * 0.2), text_mm, title, LABEL, "centre"),
        Text((centre_x, margin_mid_top + text_mm / 2), text_mm, "North", LABEL, "centre"),
    ]
    ruler_left = centre_x - 80.0
    if ruler_left > geometry.markers[3].centre[0] + geometry.markers[3].side_mm:
        items.extend(_ruler(ruler_left, margin_mid_bottom + text_mm * 2.2, label_mm))
    return items

