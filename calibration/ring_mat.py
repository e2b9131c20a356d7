"""The Jokers and Coins mat: a ring of ``sides × side length`` round spaces, HOME rows, and each
seat's supply and discard spot, for 2 to 6 seats (``calibration/MATS.md`` has it in prose).

The ring is a regular polygon, one side per seat (a square for two seats, who sit opposite),
with seat 1 at South's (bottom) edge. Each side starts at its corner: space 0 of a side is
centred on the polygon's vertex, and the spaces follow one another ``pitch`` apart, clockwise as
seen from above (along South's edge that is right to left, then up West's edge). Names follow
the engine (:mod:`companion.games.jokers_and_coins.ring`): ``t1``.. from seat 1's corner, and
``hS-K`` for seat S's HOME space K, K = 1 next to its IN space. A seat's HOME row leaves its IN
space towards the inside of the ring, perpendicular to its side where it fits, else turned by the
smallest multiple of 10 degrees that keeps every space clear of every other. Outside its side,
each seat has a round ``supply-S`` (kind ``cup``) and a square ``discard-S`` (kind ``discard``)
that holds a poker-size card at any rotation.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from calibration.geometry import (
    Circle,
    GeometryError,
    Mark,
    MarkKind,
    MatGeometry,
    Point,
    Rect,
    Region,
    Shape,
    corner_markers,
)

GAME_MAT = "jokers-and-coins"
MIN_PLAYERS, MAX_PLAYERS = 2, 6
DEFAULT_PLAYERS = 4
DEFAULT_SIDE, DEFAULT_IN, DEFAULT_START = 18, 3, 8
HOME_SPACES = 4
#: A track or HOME space: 28 mm across, so a quarter (24.26 mm) or a quarter-sized token lies
#: in it with about 2 mm to spare all round.
SPACE_RADIUS_MM = 14.0
#: Centre to centre along the ring: 4 mm of paper between two spaces, room for a seat mark.
SPACE_PITCH_MM = 32.0
#: A seat's supply: a circle 64 mm across, four quarters with room to spare.
SUPPLY_RADIUS_MM = 32.0
#: A poker-size card (63 x 88 mm) turns within a circle of its diagonal, 108.6 mm; the discard
#: square adds 5.7 mm a side, so a card at any rotation lies inside it.
CARD_MM = (63.0, 88.0)
DISCARD_SIDE_MM = 120.0
#: Paper between the ring and what lies outside it, and between supply and discard.
CLEARANCE_MM = 10.0
#: Ticks outside a corner, START or IN space: ``TICK_LENGTH_MM`` long and ``TICK_WIDTH_MM``
#: wide, from ``TICK_GAP_MM`` outside the space. No mark goes round a space: a printed circle
#: there looks like a coin's rim to the camera.
TICK_GAP_MM = 3.0
TICK_LENGTH_MM = 10.0
TICK_WIDTH_MM = 3.0
#: The grey ticks that show a space, ``SPACE_TICK_WIDTH_MM`` wide, from and to these distances
#: from its middle: along the ring in the 4 mm gap to the next space (two neighbours' ticks
#: nearly meet), across it 4 to 6 mm beyond its edge.
SPACE_TICK_ALONG_MM = (SPACE_RADIUS_MM + 0.4, SPACE_RADIUS_MM + 1.9)
SPACE_TICK_ACROSS_MM = (SPACE_RADIUS_MM + 4.0, SPACE_RADIUS_MM + 6.0)
SPACE_TICK_WIDTH_MM = 0.6
#: A seat's HOME row runs between two lines of its colour, this wide, this far either side
#: of the row's middle (9 mm beyond its spaces, past their ticks: a line close to a coin's
#: rim leaves a trace the camera can take for an edge).
HOME_BAR_MM = 1.5
HOME_LANE_MM = SPACE_RADIUS_MM + 9.0
#: Seat colours, printed around each seat's START, IN and HOME spaces, and the colours of its
#: pieces on the screen (``GameInfo.token_colours``): Okabe-Ito colours that colour-blind players
#: can tell apart. Seats 5 and 6 play tokens of the last two, blue and yellow.
SEAT_COLOURS: tuple[str, ...] = ("orange", "purple", "green", "red", "blue", "yellow")
#: Turns of a HOME row away from the perpendicular, tried in this order (degrees).
_HOME_TURNS = (0, 10, -10, 20, -20, 30, -30, 40, -40, 50, -50)
_LABEL_MM = 3.5
#: Each track space's number is printed this high inside the ring beside it, its middle this
#: far from the space's (IN's excepted: its HOME row lies there).
_NUMBER_MM = 2.5
_NUMBER_AT_MM = SPACE_RADIUS_MM + 11.0


@dataclass(frozen=True)
class RingLayout:
    """The ring's numbers: seats, sides, spaces a side and the IN and START offsets."""

    players: int = DEFAULT_PLAYERS
    side_length: int = DEFAULT_SIDE
    in_offset: int = DEFAULT_IN
    start_offset: int = DEFAULT_START
    pitch_mm: float = SPACE_PITCH_MM

    @property
    def sides(self) -> int:
        """A square for two seats, else one side per seat."""
        return 4 if self.players == 2 else self.players

    @property
    def size(self) -> int:
        return self.sides * self.side_length

    def seat_side(self, seat: int) -> int:
        """The side (0-based, clockwise from South's) where ``seat`` sits."""
        return (seat - 1) * (2 if self.players == 2 else 1)

    def check(self) -> None:
        """Raise :class:`GeometryError` for a ring the engine does not play."""
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise GeometryError(f"Jokers and Coins is for {MIN_PLAYERS} to {MAX_PLAYERS} "
                                f"players, not {self.players}")
        if not 10 <= self.side_length <= 30:
            raise GeometryError(f"a side of {self.side_length} spaces is out of range; use 10 "
                                "to 30")
        offsets = (self.in_offset, self.start_offset)
        if min(offsets) < 0 or max(offsets) >= self.side_length or len(set(offsets)) < 2:
            raise GeometryError(f"IN offset {self.in_offset} and START offset "
                                f"{self.start_offset} must differ and lie on the side "
                                f"(0 to {self.side_length - 1})")


@dataclass(frozen=True)
class _Side:
    """One side of the polygon: its corner (mm), its direction of play and its inward normal."""

    corner: Point
    along: Point
    inward: Point

    def at(self, along_mm: float, inward_mm: float) -> Point:
        return (self.corner[0] + along_mm * self.along[0] + inward_mm * self.inward[0],
                self.corner[1] + along_mm * self.along[1] + inward_mm * self.inward[1])


def _sides(ring: RingLayout) -> tuple[_Side, ...]:
    """The polygon's sides from South's, its first corner at (0, 0) (the caller shifts it)."""
    length = ring.side_length * ring.pitch_mm
    corner = (0.0, 0.0)
    found = []
    for index in range(ring.sides):
        angle = math.pi + 2 * math.pi * index / ring.sides  # South's edge runs right to left
        along = (math.cos(angle), math.sin(angle))
        found.append(_Side(corner, along, (-along[1], along[0])))
        corner = (corner[0] + length * along[0], corner[1] + length * along[1])
    return tuple(found)


def _track(ring: RingLayout, sides: tuple[_Side, ...]) -> list[Region]:
    return [Region(f"t{index * ring.side_length + step + 1}", "track",
                   Circle(side.at(step * ring.pitch_mm, 0.0), SPACE_RADIUS_MM))
            for index, side in enumerate(sides) for step in range(ring.side_length)]


def _home_row(ring: RingLayout, side: _Side, seat: int, turn_degrees: float) -> list[Region]:
    """Seat ``seat``'s HOME spaces leaving its IN space inwards, turned by ``turn_degrees``
    towards the direction of play."""
    turn = math.radians(turn_degrees)
    along, inward = math.sin(turn), math.cos(turn)
    base = ring.in_offset * ring.pitch_mm
    return [Region(f"h{seat}-{space}", "track",
                   Circle(side.at(base + space * ring.pitch_mm * along,
                                  space * ring.pitch_mm * inward), SPACE_RADIUS_MM))
            for space in range(1, HOME_SPACES + 1)]


def _circles_clear(first: list[Region], second: list[Region], distance: float) -> bool:
    return all(math.dist(a.centre, b.centre) >= distance - 1e-6
               for a in first for b in second if a is not b)


def _homes(ring: RingLayout, sides: tuple[_Side, ...], track: list[Region]) -> list[Region]:
    """Every seat's HOME row, each at the first turn that keeps it a pitch from all others."""
    placed: list[Region] = []
    for seat in range(1, ring.players + 1):
        side = sides[ring.seat_side(seat)]
        for turn in _HOME_TURNS:
            row = _home_row(ring, side, seat, turn)
            if _circles_clear(row, track + placed, ring.pitch_mm) and _circles_clear(
                    row, row, ring.pitch_mm):
                placed.extend(row)
                break
        else:
            raise GeometryError(f"seat {seat}'s HOME row does not fit between the spaces "
                                f"with IN {ring.in_offset} spaces after the corner; choose "
                                "another IN offset")
    return placed


def _reach(direction: Point, half_side: float) -> float:
    """How far an upright square of half side ``half_side`` reaches along ``direction``."""
    return half_side * (abs(direction[0]) + abs(direction[1]))


def _seat_places(ring: RingLayout, side: _Side, seat: int) -> tuple[Region, Region]:
    """Outside seat ``seat``'s side: its supply a third of the way along, then its discard.
    The supply is ``piled``: players drop a bumped coin there as it falls, touching the others."""
    outward = (-side.inward[0], -side.inward[1])
    length = ring.side_length * ring.pitch_mm
    half = DISCARD_SIDE_MM / 2
    supply_along = 0.35 * length
    supply_out = SPACE_RADIUS_MM + CLEARANCE_MM + SUPPLY_RADIUS_MM
    discard_along = supply_along + SUPPLY_RADIUS_MM + CLEARANCE_MM + _reach(side.along, half)
    discard_out = SPACE_RADIUS_MM + CLEARANCE_MM + _reach(outward, half)
    return (Region(f"supply-{seat}", "cup",
                   Circle(side.at(supply_along, -supply_out), SUPPLY_RADIUS_MM), piled=True),
            Region(f"discard-{seat}", "discard",
                   Rect(side.at(discard_along, -discard_out), (DISCARD_SIDE_MM, DISCARD_SIDE_MM))))


def _bar(kind: MarkKind, start: Point, end: Point, width: float, colour: str = "") -> Mark:
    """A straight bar from ``start`` to ``end`` (mm), ``width`` wide."""
    length = math.dist(start, end)
    angle = math.degrees(math.atan2(end[1] - start[1], end[0] - start[0]))
    centre = ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2)
    return Mark(kind, Rect(centre, (length, width)), colour, angle_deg=angle)


def _seat_marks(ring: RingLayout, sides: tuple[_Side, ...], regions: dict[str, Region],
                seat_colours: tuple[str, ...]) -> list[Mark]:
    """A dark tick outside every corner space (away from the ring's middle); a tick of the
    seat's colour outside its START and IN spaces, their names (grey) beyond; lines of its colour
    either side of its HOME row, and ``HOME S`` beyond its end. Nothing is printed round a
    space, where a coin's rim is sought."""
    marks = _space_ticks(ring, sides, regions)
    near, far = SPACE_RADIUS_MM + TICK_GAP_MM, SPACE_RADIUS_MM + TICK_GAP_MM + TICK_LENGTH_MM
    for index, side in enumerate(sides):
        corner = regions[f"t{index * ring.side_length + 1}"].centre
        before = sides[index - 1].inward
        inward = _unit((0.0, 0.0), (side.inward[0] + before[0], side.inward[1] + before[1]))
        marks.append(_bar("corner", _moved(corner, inward, -near), _moved(corner, inward, -far),
                          TICK_WIDTH_MM))
    for seat in range(1, ring.players + 1):
        colour = seat_colours[seat - 1]
        side_index = ring.seat_side(seat)
        side = sides[side_index]
        first = side_index * ring.side_length + 1
        for word, offset in (("IN", ring.in_offset), ("START", ring.start_offset)):
            centre = regions[f"t{first + offset}"].centre
            marks.append(_bar("seat", _moved(centre, side.inward, -near),
                              _moved(centre, side.inward, -far), TICK_WIDTH_MM, colour))
            marks.append(_label(_moved(centre, side.inward, -(far + _LABEL_MM)),
                                f"{word} {seat}", ""))
        row = [regions[f"t{first + ring.in_offset}"].centre,
               *(regions[f"h{seat}-{space}"].centre for space in range(1, HOME_SPACES + 1))]
        step = _unit(row[0], row[1])
        across = (-step[1], step[0])
        begin = _moved(row[0], step, SPACE_RADIUS_MM + TICK_GAP_MM)
        end = _moved(row[-1], step, SPACE_RADIUS_MM)
        for sign in (1.0, -1.0):
            marks.append(_bar("seat", _moved(begin, across, sign * HOME_LANE_MM),
                              _moved(end, across, sign * HOME_LANE_MM), HOME_BAR_MM, colour))
        marks.append(_label(_moved(row[-1], step, SPACE_RADIUS_MM + 4 * _LABEL_MM),
                            f"HOME {seat}", ""))
    return marks


def _space_ticks(ring: RingLayout, sides: tuple[_Side, ...], regions: dict[str, Region]
                 ) -> list[Mark]:
    """Grey ticks that show every space without a circle round it (four ticks at a circle's
    distance look like a coin's rim to the camera): two in the gaps to its neighbours along
    the ring (or its HOME row), and two across, far enough out that no coin is their size;
    and each track space's number inside the ring."""
    marks: list[Mark] = []
    rows = {}
    for seat in range(1, ring.players + 1):
        first = ring.seat_side(seat) * ring.side_length + 1
        rows[seat] = _unit(regions[f"t{first + ring.in_offset}"].centre,
                           regions[f"h{seat}-1"].centre)
    for region in regions.values():
        if region.kind != "track":
            continue
        signs: tuple[float, ...] = (1.0, -1.0)
        if region.name.startswith("t"):
            side = sides[(int(region.name[1:]) - 1) // ring.side_length]
            along, across = side.along, side.inward
            if (int(region.name[1:]) - 1) % ring.side_length != ring.in_offset:
                marks.append(_label(_moved(region.centre, side.inward, _NUMBER_AT_MM),
                                    region.name[1:], "", _NUMBER_MM))
            else:
                signs = (-1.0,)  # the HOME row leaves an IN space inwards
        else:
            along = rows[int(region.name[1:].split("-")[0])]
            across = (-along[1], along[0])
        for direction, (near, far), sides_of in ((along, SPACE_TICK_ALONG_MM, (1.0, -1.0)),
                                                 (across, SPACE_TICK_ACROSS_MM, signs)):
            for sign in sides_of:
                marks.append(_bar("space", _moved(region.centre, direction, sign * near),
                                  _moved(region.centre, direction, sign * far),
                                  SPACE_TICK_WIDTH_MM))
    return marks


def _unit(start: Point, end: Point) -> Point:
    length = math.dist(start, end)
    return ((end[0] - start[0]) / length, (end[1] - start[1]) / length)


def _moved(point: Point, direction: Point, distance: float) -> Point:
    return (point[0] + distance * direction[0], point[1] + distance * direction[1])


def _label(centre: Point, text: str, colour: str, height: float = 0.0) -> Mark:
    """Text ``height`` high (by default ``_LABEL_MM``) centred on ``centre``, in ``colour``
    (grey when none)."""
    height = height or _LABEL_MM
    return Mark("label", Rect(centre, (height * 0.6 * len(text), height)), colour, text)


def _bounds(shapes: list[Shape]) -> tuple[float, float, float, float]:
    boxes = [shape.bounds() for shape in shapes]
    return (min(box[0] for box in boxes), min(box[1] for box in boxes),
            max(box[2] for box in boxes), max(box[3] for box in boxes))


def _shifted(region: Region, dx: float, dy: float) -> Region:
    shape = region.shape
    centre = (shape.centre[0] + dx, shape.centre[1] + dy)
    moved: Shape = (Circle(centre, shape.radius) if isinstance(shape, Circle)
                    else Rect(centre, shape.size))
    return Region(region.name, region.kind, moved, region.piled)


@lru_cache(maxsize=32)
def ring_mat(ring: RingLayout = RingLayout(),
             seat_colours: tuple[str, ...] = SEAT_COLOURS) -> MatGeometry:
    """The mat of ``ring``: track, HOME rows, supplies and discard spots, seat marks, and the
    four markers (60 mm) around a play area at least ``CLEARANCE_MM`` beyond every region,
    rounded up to whole millimetres, the regions centred in it."""
    ring.check()
    sides = _sides(ring)
    track = _track(ring, sides)
    homes = _homes(ring, sides, track)
    places = [_seat_places(ring, sides[ring.seat_side(seat)], seat)
              for seat in range(1, ring.players + 1)]
    seats = [supply for supply, _ in places] + [discard for _, discard in places]
    left, top, right, bottom = _bounds([region.shape for region in track + homes + seats])
    marker_side = 60.0
    quiet = marker_side / 4
    margin = 2 * quiet + marker_side
    width = math.ceil(right - left + 2 * CLEARANCE_MM)
    height = math.ceil(bottom - top + 2 * CLEARANCE_MM)
    dx = margin + (width - (right - left)) / 2 - left
    dy = margin + (height - (bottom - top)) / 2 - top
    regions = tuple(_shifted(region, dx, dy) for region in track + homes + seats)
    by_name = {region.name: region for region in regions}
    shifted_sides = tuple(_Side((side.corner[0] + dx, side.corner[1] + dy), side.along,
                                side.inward) for side in sides)
    play = Rect((margin + width / 2, margin + height / 2), (width, height))
    return MatGeometry(
        name=GAME_MAT, width_mm=width + 2 * margin, height_mm=height + 2 * margin,
        play_area=play, regions=regions,
        markers=corner_markers(play, marker_side, quiet, (0, 1, 2, 3)), quiet_zone_mm=quiet,
        marks=tuple(_seat_marks(ring, shifted_sides, by_name, seat_colours)),
    )


def ring_layout(players: int, variants: Sequence[str] = ()) -> RingLayout:
    """The ring of ``players`` seats under the engine's geometry variants ``side-L``, ``in-K``
    and ``start-K`` (others, such as ``teams-of-three``, leave the mat as it is); raises
    :class:`GeometryError` for a geometry variant that is not a number."""
    values = {"side": DEFAULT_SIDE, "in": DEFAULT_IN, "start": DEFAULT_START}
    for variant in variants:
        kind, _, number = variant.rpartition("-")
        if kind in values:
            if not number.isdigit():
                raise GeometryError(f"variant {variant!r} needs a whole number of spaces")
            values[kind] = int(number)
    ring = RingLayout(players, values["side"], values["in"], values["start"])
    ring.check()
    return ring


def jokers_mat(players: int = DEFAULT_PLAYERS, variants: Sequence[str] = ()) -> MatGeometry:
    """The Jokers and Coins mat for ``players`` seats (2 to 6) and the ring's variants."""
    return ring_mat(ring_layout(players, variants))
