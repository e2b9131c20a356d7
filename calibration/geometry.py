"""Board geometry in millimetres: the regions of a mat and the four markers that locate it.

Mat coordinates are millimetres with the origin at the top-left corner of the printed mat as South
sees it (South sits at the bottom edge, North at the top), x growing to the right and y growing
down, like image pixels. Every game's board is a :class:`MatGeometry`: a tuple of named regions
(squares, pits, track spaces, cups, dice trays), each a rectangle or a circle, printed marks that
are no region (a wall, stars, X's), and four ArUco markers from ``DICT_4X4_50`` in the corners
outside the play area. Vision finds the markers, maps these millimetres onto the image and reads
each region; calibration prints the same geometry.
``calibration/MATS.md`` documents the layouts in prose.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from contract.errors import CompanionError

#: The ArUco dictionary every mat uses (OpenCV's ``cv2.aruco.DICT_4X4_50``).
MARKER_DICTIONARY = "DICT_4X4_50"

#: The kinds of region a mat can hold. ``pit`` and ``cup`` hold loose coins (a cup is also a
#: player's reserve or a supply of coins beside a board); a ``tray`` is where dice are rolled; a
#: ``discard`` spot is where a player lays the card they play, face up.
RegionKind = Literal["square", "pit", "track", "cup", "tray", "discard"]

#: Printed marks that are no region: a thick ``wall`` line, a ``star``, an X (``cross``); on a
#: ring, a dark bar by a ``corner`` space, a bar of a ``seat``'s colour and the grey ticks that
#: show where a round ``space`` lies; an arrow along a track (``inner-track`` or
#: ``outer-track``, a mancala's two tracks) and a ``label`` (words printed on the mat).
MarkKind = Literal["wall", "star", "cross", "corner", "seat", "label", "space", "inner-track",
                   "outer-track"]

Point = tuple[float, float]


class GeometryError(CompanionError):
    """A mat or region that does not exist, or a geometry that cannot be built."""


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle by its centre and size, in millimetres."""

    centre: Point
    size: Point

    @property
    def left(self) -> float:
        return self.centre[0] - self.size[0] / 2

    @property
    def top(self) -> float:
        return self.centre[1] - self.size[1] / 2

    @property
    def right(self) -> float:
        return self.centre[0] + self.size[0] / 2

    @property
    def bottom(self) -> float:
        return self.centre[1] + self.size[1] / 2

    def contains(self, point: Point) -> bool:
        """Whether ``point`` lies inside; half-open (left/top edges in, right/bottom out)."""
        x, y = point
        return self.left <= x < self.right and self.top <= y < self.bottom

    def bounds(self) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) in millimetres."""
        return (self.left, self.top, self.right, self.bottom)

    def area(self) -> float:
        return self.size[0] * self.size[1]


@dataclass(frozen=True)
class Circle:
    """A circle by its centre and radius, in millimetres."""

    centre: Point
    radius: float

    def contains(self, point: Point) -> bool:
        """Whether ``point`` lies strictly inside the circle."""
        return math.dist(point, self.centre) < self.radius

    def bounds(self) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) of the enclosing square, in millimetres."""
        x, y = self.centre
        return (x - self.radius, y - self.radius, x + self.radius, y + self.radius)

    def area(self) -> float:
        return math.pi * self.radius**2


Shape = Rect | Circle


@dataclass(frozen=True)
class Region:
    """One named place on a mat where coins and pawns lie: a square, pit, track space or cup.

    A ``piled`` region (a pit or cup of loose coins) is one where hands drop coins in heaps,
    touching and partly covering each other, rather than setting them down apart: the camera
    then reads it as a pile (:mod:`vision.loose`).
    """

    name: str
    kind: RegionKind
    shape: Shape
    piled: bool = False

    @property
    def centre(self) -> Point:
        return self.shape.centre

    def contains(self, point: Point) -> bool:
        return self.shape.contains(point)


@dataclass(frozen=True)
class Mark:
    """A printed symbol that is no region: its kind and the rectangle it fills (mm).

    A ``wall`` is a dark bar filling ``rect``; a ``star`` (five points) and a ``cross`` (an X of
    two diagonals) are outlines inscribed in ``rect``, a square centred on their square's centre.
    A ``corner``, ``seat`` or ``space`` bar fills ``rect`` turned by ``angle_deg`` about its
    centre (its length along x before the turn; see :mod:`calibration.ring_mat`), a seat's in
    the colour named ``colour``; a track arrow runs along ``path`` (its first point to its
    last, the head at the last) and ``rect`` bounds it; a ``label`` prints ``text`` centred on
    ``rect``.
    """

    kind: MarkKind
    rect: Rect
    colour: str = ""
    text: str = ""
    angle_deg: float = 0.0
    path: tuple[Point, ...] = ()


@dataclass(frozen=True)
class Marker:
    """An ArUco marker of :data:`MARKER_DICTIONARY`: its id, centre and side in millimetres.

    ``side_mm`` is the black square including its black border (the 6x6 cells of a 4x4 marker).
    The marker is printed upright in mat coordinates, so its corners in the order OpenCV's
    ``ArucoDetector`` reports them (top-left, top-right, bottom-right, bottom-left) are
    :meth:`corners`. A white quiet zone surrounds it on the mat.
    """

    id: int
    centre: Point
    side_mm: float

    def corners(self) -> tuple[Point, Point, Point, Point]:
        """Corners in ArucoDetector order: top-left, top-right, bottom-right, bottom-left."""
        x, y = self.centre
        half = self.side_mm / 2
        return (
            (x - half, y - half),
            (x + half, y - half),
            (x + half, y + half),
            (x - half, y + half),
        )

    def rect(self) -> Rect:
        return Rect(self.centre, (self.side_mm, self.side_mm))


@dataclass(frozen=True)
class MatGeometry:
    """A printable board: its size, its play area, its regions and its four markers (all in mm).

    ``printed_regions``, when given, are all the regions printed on the mat, of which
    ``regions`` are those to read (a mat read in part looks the same: see
    :mod:`companion.judged_regions`); empty, the mat prints its ``regions``.
    """

    name: str
    width_mm: float
    height_mm: float
    play_area: Rect
    regions: tuple[Region, ...]
    markers: tuple[Marker, ...]
    quiet_zone_mm: float
    marks: tuple[Mark, ...] = ()
    printed_regions: tuple[Region, ...] = ()

    def __hash__(self) -> int:
        """Hashed once per object: the mat keys the per-geometry caches of every frame read,
        and hashing its many regions each time cost about half a millisecond a frame."""
        cached = self.__dict__.get("_hash")
        if cached is None:
            cached = hash((self.name, self.width_mm, self.height_mm, self.play_area,
                           self.regions, self.markers, self.quiet_zone_mm, self.marks,
                           self.printed_regions))
            object.__setattr__(self, "_hash", cached)
        return int(cached)

    def __getstate__(self) -> dict[str, object]:
        """Pickled without the cached hash, which another process would compute differently."""
        return {key: value for key, value in self.__dict__.items() if key != "_hash"}

    @property
    def printed(self) -> tuple[Region, ...]:
        """Every region printed on the mat (``regions`` unless it is read in part)."""
        return self.printed_regions or self.regions

    def region(self, name: str) -> Region:
        """The region called ``name``; raises :class:`GeometryError` when there is none."""
        for region in self.regions:
            if region.name == name:
                return region
        raise GeometryError(f"mat {self.name!r} has no region {name!r}")

    def region_names(self) -> tuple[str, ...]:
        return tuple(region.name for region in self.regions)

    def region_at(self, point: Point) -> Region | None:
        """The region containing ``point`` (mm), or None when it lies between regions."""
        for region in self.regions:
            if region.contains(point):
                return region
        return None

    def marker(self, marker_id: int) -> Marker:
        """The marker with id ``marker_id``; raises :class:`GeometryError` when there is none."""
        for marker in self.markers:
            if marker.id == marker_id:
                return marker
        raise GeometryError(f"mat {self.name!r} has no marker {marker_id}")

    def marker_ids(self) -> tuple[int, ...]:
        return tuple(marker.id for marker in self.markers)

    def marker_corners(self) -> dict[int, tuple[Point, Point, Point, Point]]:
        """Marker id -> its four corners in mm, in ArucoDetector order."""
        return {marker.id: marker.corners() for marker in self.markers}


def corner_markers(
    play_area: Rect, side_mm: float, quiet_mm: float, ids: tuple[int, int, int, int]
) -> tuple[Marker, ...]:
    """Four markers diagonally outside the corners of ``play_area``.

    Each sits ``quiet_mm`` away from the play area in both directions, so its centre is
    ``quiet_mm + side_mm / 2`` beyond the play area's corner on each axis. ``ids`` are given in
    the order top-left, top-right, bottom-right, bottom-left (as South sees the mat).
    """
    offset = quiet_mm + side_mm / 2
    left, top, right, bottom = play_area.bounds()
    centres = (
        (left - offset, top - offset),
        (right + offset, top - offset),
        (right + offset, bottom + offset),
        (left - offset, bottom + offset),
    )
    pairs = zip(ids, centres, strict=True)
    return tuple(Marker(marker_id, centre, side_mm) for marker_id, centre in pairs)


def _mat_around(
    name: str,
    play_width: float,
    play_height: float,
    marker_side: float,
    regions_at: Callable[[float, float], tuple[Region, ...]],
    marks_at: Callable[[float, float], tuple[Mark, ...]] = lambda left, top: (),
) -> MatGeometry:
    """A mat whose play area is surrounded by a margin band holding the corner markers.

    The margin on every side is ``quiet + marker_side + quiet`` with ``quiet = marker_side / 4``;
    ``regions_at(left, top)`` builds the regions for a play area whose top-left corner is given,
    ``marks_at(left, top)`` its printed marks.
    """
    quiet = marker_side / 4
    margin = 2 * quiet + marker_side
    play_area = Rect((margin + play_width / 2, margin + play_height / 2), (play_width, play_height))
    return MatGeometry(
        name=name,
        width_mm=play_width + 2 * margin,
        height_mm=play_height + 2 * margin,
        play_area=play_area,
        regions=regions_at(margin, margin),
        markers=corner_markers(play_area, marker_side, quiet, (0, 1, 2, 3)),
        quiet_zone_mm=quiet,
        marks=marks_at(margin, margin),
    )


def square_name(file_index: int, rank_index: int) -> str:
    """``a1``-style name from zero-based file (a = 0, left as South sees it) and rank (1 = 0)."""
    return f"{chr(ord('a') + file_index)}{rank_index + 1}"


def _squares_at(left: float, top: float, files: int, ranks: int, square_mm: float
                ) -> tuple[Region, ...]:
    """``files`` x ``ranks`` squares a1.. whose board's top-left corner is (left, top)."""
    regions = []
    for rank in range(ranks):
        for file in range(files):
            centre = (left + (file + 0.5) * square_mm, top + (ranks - rank - 0.5) * square_mm)
            shape = Rect(centre, (square_mm, square_mm))
            regions.append(Region(square_name(file, rank), "square", shape))
    return tuple(regions)


@lru_cache(maxsize=16)
def grid_mat(name: str, files: int, ranks: int, square_mm: float) -> MatGeometry:
    """A board of ``files`` x ``ranks`` squares named a1.., rank 1 at South's (bottom) edge.

    Markers are ``0.8 * square_mm`` on a side, so they scale with the board and the camera sees
    them at the same size relative to the squares. The same arguments give the same object
    (a mat is immutable): every cache keyed by the mat then finds it by identity, where an
    equal copy costs a comparison of every region, a millisecond a frame.
    """
    if not 10.0 <= square_mm <= 200.0:
        raise GeometryError(f"square size {square_mm} mm is out of range; use 10 to 200 mm")
    if not (1 <= files <= 26 and 1 <= ranks <= 99):
        raise GeometryError(f"a {files}x{ranks} grid is out of range")

    def squares(left: float, top: float) -> tuple[Region, ...]:
        return _squares_at(left, top, files, ranks, square_mm)

    return _mat_around(name, files * square_mm, ranks * square_mm, 0.8 * square_mm, squares)


#: The smallest Coin Isolation square that still holds a quarter (24.26 mm) with room around it.
MIN_COIN_SQUARE_MM = 27.0


def coin_isolation_mat(square_mm: float = 50.0) -> MatGeometry:
    """The Coin Isolation board: 8x8 squares a1..h8, 50 mm each by default."""
    if not MIN_COIN_SQUARE_MM <= square_mm <= 200.0:
        raise GeometryError(
            f"square size {square_mm:g} mm is out of range for Coin Isolation; use "
            f"{MIN_COIN_SQUARE_MM:g} to 200 mm (a quarter is 24.26 mm across)"
        )
    return grid_mat("coin-isolation", 8, 8, square_mm)


#: A die's edge in millimetres (the common 16 mm die) and the circle it sweeps at any rotation.
DIE_MM = 16.0
DIE_DIAGONAL_MM = DIE_MM * math.sqrt(2)
#: How far a die's top face leans away from its base in the image of a camera tilted 35°.
DIE_LEAN_MM = DIE_MM * math.tan(math.radians(35.0))
#: Clear paper a die needs around it in the tray (from the frame and from the other die).
DIE_CLEARANCE_MM = 10.0
#: The narrowest side column of the Coin Grid mat (tray, reserves, supply), whatever the square:
#: two dice side by side across the tray, each in a circle of its diagonal plus its lean, with
#: the clearance on both sides and between them, inside the 1 mm frame:
#: 2 (22.63 + 11.20) + 3 * 10 + 2 = 99.7 mm, rounded up.
COIN_GRID_MIN_COLUMN_MM = 100.0


def coin_grid_column_mm(square_mm: float) -> float:
    """Width of each side column of the Coin Grid mat: ``max(2 s, 100 mm)``."""
    return max(2.0 * square_mm, COIN_GRID_MIN_COLUMN_MM)


@lru_cache(maxsize=16)
def coin_grid_mat(square_mm: float = 50.0) -> MatGeometry:
    """The Coin Grid mat: 6x12 squares a1..f12 beside a tray, two reserves and a supply.

    With ``s = square_mm`` and ``c = max(2 s, 100 mm)`` the play area holds, left to right: the
    West column (``c`` wide: ``supply``, the dead coins, beside the wall), a gap of ``0.4 s``,
    the board (``6 s`` by ``12 s``, rank 1 at South's edge), a gap of ``0.4 s`` and the East
    column (``c`` wide: ``reserve-north`` beside North's half, ``tray`` beside the wall,
    ``reserve-south`` beside South's half). The play area is ``12 s`` tall; each column region
    is ``c`` by ``3.8 s``, centred ``2 s``, ``6 s`` and ``10 s`` below the play area's top. The
    marks: the wall, a bar ``0.06 s`` thick across the board between ranks 6 and 7; a star
    ``0.4 s`` across on every square of ranks 1 and 12 (the star rows) and an X ``0.28 s``
    across on every square of ranks 2 and 11 (the X rows). ``calibration/MATS.md`` has it all.
    """
    if not MIN_COIN_SQUARE_MM <= square_mm <= 200.0:
        raise GeometryError(
            f"square size {square_mm:g} mm is out of range for Coin Grid; use "
            f"{MIN_COIN_SQUARE_MM:g} to 200 mm (a nickel is 21.21 mm across)"
        )
    s = square_mm
    column = coin_grid_column_mm(s)
    gap = 0.4 * s
    play_width = 2 * column + 2 * gap + 6 * s
    play_height = 12 * s

    def regions(left: float, top: float) -> tuple[Region, ...]:
        board_left = left + column + gap
        west_x = left + column / 2
        east_x = board_left + 6 * s + gap + column / 2
        size = (column, 3.8 * s)
        sides = (
            Region("reserve-north", "cup", Rect((east_x, top + 2 * s), size)),
            Region("tray", "tray", Rect((east_x, top + 6 * s), size)),
            Region("reserve-south", "cup", Rect((east_x, top + 10 * s), size)),
            Region("supply", "cup", Rect((west_x, top + 6 * s), size)),
        )
        return _squares_at(board_left, top, 6, 12, s) + sides

    def marks(left: float, top: float) -> tuple[Mark, ...]:
        board_left = left + column + gap
        found = [Mark("wall", Rect((board_left + 3 * s, top + 6 * s), (6 * s, 0.06 * s)))]
        symbols: tuple[tuple[int, MarkKind, float], ...] = (
            (1, "star", 0.4), (12, "star", 0.4), (2, "cross", 0.28), (11, "cross", 0.28)
        )
        for rank, kind, across in symbols:
            y = top + (12 - rank + 0.5) * s
            for file in range(6):
                centre = (board_left + (file + 0.5) * s, y)
                found.append(Mark(kind, Rect(centre, (across * s, across * s))))
        return tuple(found)

    return _mat_around("coin-grid", play_width, play_height, 0.8 * s, regions, marks)


@lru_cache(maxsize=16)
def test_pit_mat(pit_radius_mm: float = 30.0) -> MatGeometry:
    """A small board for testing loose-coin regions: two rows of four pits and two cups.

    Pits ``s1``..``s4`` (South's row, bottom) and ``n1``..``n4`` (North's row, top) are circles
    of ``pit_radius_mm``, numbered left to right as South sees them; the cups ``cup-w`` and
    ``cup-e`` are taller rectangles at the West and East ends.
    """
    pitch = 2 * pit_radius_mm + 10.0
    cup_width = pitch
    play_width = 4 * pitch + 2 * (cup_width + 10.0)
    play_height = 2 * pitch

    def pits(left: float, top: float) -> tuple[Region, ...]:
        regions: list[Region] = []
        first_x = left + cup_width + 10.0 + pitch / 2
        for row, y in (("n", top + pitch / 2), ("s", top + 1.5 * pitch)):
            for index in range(4):
                centre = (first_x + index * pitch, y)
                regions.append(Region(f"{row}{index + 1}", "pit", Circle(centre, pit_radius_mm)))
        cup_size = (cup_width, play_height - 10.0)
        mid_y = top + play_height / 2
        regions.append(Region("cup-w", "cup", Rect((left + cup_width / 2, mid_y), cup_size)))
        regions.append(
            Region("cup-e", "cup", Rect((left + play_width - cup_width / 2, mid_y), cup_size))
        )
        return tuple(regions)

    return _mat_around("test-pits", play_width, play_height, 40.0, pits)


test_pit_mat.__test__ = False  # type: ignore[attr-defined]  # a factory, not a pytest test


@lru_cache(maxsize=4)
def test_ring_mat(spaces: int = 12, space_radius_mm: float = 22.0) -> MatGeometry:
    """A small ring track for testing games of another shape: ``spaces`` round track spaces
    ``t1``.. (``t1`` at South's side, numbered anticlockwise as South sees it)."""
    ring = spaces * (2 * space_radius_mm + 8.0) / (2 * math.pi)
    side = 2 * (ring + space_radius_mm) + 20.0

    def track(left: float, top: float) -> tuple[Region, ...]:
        middle = (left + side / 2, top + side / 2)
        regions = []
        for index in range(spaces):
            angle = math.pi / 2 - 2 * math.pi * index / spaces  # t1 at the bottom, then right
            centre = (middle[0] + ring * math.cos(angle), middle[1] + ring * math.sin(angle))
            regions.append(Region(f"t{index + 1}", "track", Circle(centre, space_radius_mm)))
        return tuple(regions)

    return _mat_around("test-ring", side, side, 40.0, track)


test_ring_mat.__test__ = False  # type: ignore[attr-defined]  # a factory, not a pytest test


@lru_cache(maxsize=4)
def test_card_mat(spot_mm: float = 110.0) -> MatGeometry:
    """A small board for testing card reading: two discard spots ``discard-1`` and
    ``discard-2`` (squares of ``spot_mm``: a poker card at any turn, with room), and two
    track spaces ``t1`` and ``t2`` beside them."""
    gap = 10.0
    space = 22.0
    play_width = 2 * spot_mm + 3 * gap + 2 * space
    play_height = spot_mm + 2 * gap

    def regions(left: float, top: float) -> tuple[Region, ...]:
        middle_y = top + play_height / 2
        found = [Region(f"discard-{index + 1}", "discard",
                        Rect((left + gap + spot_mm / 2 + index * (spot_mm + gap), middle_y),
                             (spot_mm, spot_mm)))
                 for index in range(2)]
        track_x = left + 2 * spot_mm + 2 * gap + gap + space
        found += [Region(f"t{index + 1}", "track",
                         Circle((track_x, middle_y + (index - 0.5) * (space + 16.0)),
                                space / 2 + 4.0))
                  for index in range(2)]
        return tuple(found)

    return _mat_around("test-cards", play_width, play_height, 40.0, regions)


test_card_mat.__test__ = False  # type: ignore[attr-defined]  # a factory, not a pytest test
def _shakala_mat() -> MatGeometry:
    """Shakala's mat, built in its own module (:mod:`calibration.shakala_mat`)."""
    from calibration.shakala_mat import shakala_mat

    return shakala_mat()


#: Mat factories by game name; each takes no arguments or keyword options with defaults.
#: Those of :data:`_SIZED` also take the side of a square.
_MATS: dict[str, Callable[[], MatGeometry]] = {
    "coin-isolation": coin_isolation_mat,
    "coin-grid": coin_grid_mat,
    "shakala": _shakala_mat,
    "test-pits": test_pit_mat,
    "test-ring": test_ring_mat,
    "test-cards": test_card_mat,
}


_SIZED: dict[str, Callable[[float], MatGeometry]] = {
    "coin-isolation": coin_isolation_mat,
    "coin-grid": coin_grid_mat,
}


#: Mats drawn for a number of seats (the Jokers and Coins ring, 2 to 6 seats).
SEATED_MATS = ("jokers-and-coins",)


def mat_names() -> tuple[str, ...]:
    """Names accepted by :func:`mat_for_game`."""
    return tuple(sorted((*_MATS, *SEATED_MATS)))


def mat_for_game(name: str, square_mm: float | None = None, players: int | None = None,
                 variants: tuple[str, ...] = ()) -> MatGeometry:
    """The default mat of game ``name``; ``square_mm`` resizes grid boards, ``players`` sets
    the seats of a mat of :data:`SEATED_MATS` (4 by default) and ``variants`` its game's
    variants that change the mat (the ring's ``side-L``, ``in-K``, ``start-K``).

    Raises :class:`GeometryError` for an unknown game, naming the known ones, or an option
    the mat does not have.
    """
    if name not in mat_names():
        raise GeometryError(f"no mat for game {name!r}; known: {', '.join(mat_names())}")
    if players is not None and name not in SEATED_MATS:
        raise GeometryError(f"mat {name!r} has no number of players to set")
    if square_mm is not None:
        if name not in _SIZED:
            raise GeometryError(f"mat {name!r} has no square size to set")
        return _SIZED[name](square_mm)
    if name in SEATED_MATS:
        from calibration.ring_mat import DEFAULT_PLAYERS, jokers_mat

        return jokers_mat(DEFAULT_PLAYERS if players is None else players, variants)
    return _MATS[name]()
