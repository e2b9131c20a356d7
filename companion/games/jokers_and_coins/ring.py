"""The Jokers and Coins track: a ring of sides × spaces, seats, teams, and the names of regions.

Figure 1 of the rules text is lost; RULINGS.md gives the default geometry (after Pegs and
Jokers): a ring of ``sides × 18`` spaces played clockwise, one side per seat (two players sit
opposite on a 4-sided ring). Each side starts at its corner (offset 0). A seat's IN space is
offset 3 from its corner and its START offset 8; HOME is four spaces branching off IN.

Regions (the names a mat, an observation and the move notation use):

``t1`` .. ``tN``
    track spaces, ``N = sides × side length``, numbered clockwise from seat 1's corner
    (``t1`` is seat 1's corner, so with the defaults seat 1's IN is ``t4``, its START ``t9``).
``hS-K``
    seat S's HOME space K (1..4), K = 1 next to IN: ``h3-2`` is seat 3's second HOME space.

Inside the engine a coin's place is one int: :data:`SUPPLY` (-1), a track index ``0..N-1``,
or ``N + K - 1`` for HOME space K of the coin's owner.

Variants (options; :data:`VARIANTS`): ``side-L`` (L spaces a side, 10..30, default 18),
``in-K`` and ``start-K`` (IN and START offsets from the corner, 0..29, each below the side
length and different from each other), ``teams-of-three`` (6 players: seats 1 3 5 against
2 4 6 instead of three pairs of opposite seats).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, cached_property

from companion.games.base import PositionError

SUPPLY = -1
HOME_SPACES = 4
COINS = 4
DEFAULT_SIDE = 18
DEFAULT_IN = 3
DEFAULT_START = 8
MIN_SIDE, MAX_SIDE = 10, 30
TEAMS_OF_THREE = "teams-of-three"
#: Every variant, in the order written to JSON.
VARIANTS: tuple[str, ...] = (
    *(f"side-{n}" for n in range(MIN_SIDE, MAX_SIDE + 1)),
    *(f"in-{n}" for n in range(MAX_SIDE)),
    *(f"start-{n}" for n in range(MAX_SIDE)),
    TEAMS_OF_THREE,
)
#: One line per family of variants saying what it changes (the help of ``--variants``).
VARIANT_NOTES: dict[str, str] = {
    "side-L": f"L spaces a side ({MIN_SIDE} to {MAX_SIDE}) instead of {DEFAULT_SIDE}",
    "in-K": f"IN is K spaces after the side's corner instead of {DEFAULT_IN}",
    "start-K": f"START is K spaces after the side's corner instead of {DEFAULT_START}",
    TEAMS_OF_THREE: "6 players: two teams of three (seats 1 3 5 and 2 4 6) instead of "
                    "three pairs of opposite seats",
}
_VARIANT_ORDER = {name: index for index, name in enumerate(VARIANTS)}
_TRACK = re.compile(r"t([1-9][0-9]*)")
_HOME = re.compile(r"h([1-6])-([1-4])")


@dataclass(frozen=True)
class Ring:
    """The geometry and the seating of one game: how many seats, sides and spaces a side, the
    IN and START offsets, and the teams (tuples of seats, each seat in exactly one)."""

    players: int
    side_length: int = DEFAULT_SIDE
    in_offset: int = DEFAULT_IN
    start_offset: int = DEFAULT_START
    teams_of_three: bool = False

    @property
    def sides(self) -> int:
        """Sides of the ring: 4 for two players (sitting opposite), else one per seat."""
        return 4 if self.players == 2 else self.players

    @cached_property
    def size(self) -> int:
        """Track spaces on the ring."""
        return self.sides * self.side_length

    @cached_property
    def corners(self) -> tuple[int, ...]:
        """Track index of each seat's corner, by seat - 1."""
        step = 2 if self.players == 2 else 1
        return tuple(seat * step * self.side_length for seat in range(self.players))

    @cached_property
    def ins(self) -> tuple[int, ...]:
        """Track index of each seat's IN space, by seat - 1."""
        return tuple(corner + self.in_offset for corner in self.corners)

    @cached_property
    def starts(self) -> tuple[int, ...]:
        """Track index of each seat's START space, by seat - 1."""
        return tuple(corner + self.start_offset for corner in self.corners)

    @cached_property
    def hit_corners(self) -> tuple[int, ...]:
        """The corner directly ahead of each seat's START (where a Hit Man lands)."""
        length = self.side_length
        return tuple(((start // length) + 1) * length % self.size for start in self.starts)

    @cached_property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        """4 players: 1+3, 2+4; 6: opposite pairs, or 1 3 5 and 2 4 6; else each alone."""
        if self.players == 4:
            return ((1, 3), (2, 4))
        if self.players == 6:
            return ((1, 3, 5), (2, 4, 6)) if self.teams_of_three else ((1, 4), (2, 5), (3, 6))
        return tuple((seat,) for seat in range(1, self.players + 1))

    @cached_property
    def team_of(self) -> tuple[tuple[int, ...], ...]:
        """Each seat's team, by seat (index 0 unused)."""
        found: list[tuple[int, ...]] = [()]
        for seat in range(1, self.players + 1):
            found.append(next(team for team in self.teams if seat in team))
        return tuple(found)

    @cached_property
    def helped(self) -> tuple[tuple[int, ...], ...]:
        """By seat: the teammates whose coins it plays once its own are HOME, in the order it
        helps them (the next seats to its left, in turn order)."""
        found: list[tuple[int, ...]] = [()]
        for seat in range(1, self.players + 1):
            team = self.team_of[seat]
            after = sorted(team, key=lambda other: (other - seat) % self.players)
            found.append(tuple(other for other in after if other != seat))
        return tuple(found)

    def variants(self) -> tuple[str, ...]:
        """The variant names that give this ring (defaults left out)."""
        names = []
        if self.side_length != DEFAULT_SIDE:
            names.append(f"side-{self.side_length}")
        if self.in_offset != DEFAULT_IN:
            names.append(f"in-{self.in_offset}")
        if self.start_offset != DEFAULT_START:
            names.append(f"start-{self.start_offset}")
        if self.teams_of_three:
            names.append(TEAMS_OF_THREE)
        return tuple(names)

    def to_json(self) -> dict[str, int]:
        """The ``ring`` object of the position JSON."""
        return {"sides": self.sides, "side_length": self.side_length, "in": self.in_offset,
                "start": self.start_offset}

    # Region names -------------------------------------------------------------------------

    def place_name(self, seat: int, place: int) -> str:
        """The region (or ``supply``) of a coin of ``seat`` at engine place ``place``."""
        if place == SUPPLY:
            return "supply"
        if place < self.size:
            return f"t{place + 1}"
        return f"h{seat}-{place - self.size + 1}"

    def place_of(self, seat: int, name: str) -> int | None:
        """The engine place of region ``name`` for a coin of ``seat`` (None: not on this
        ring, or another seat's HOME)."""
        if name == "supply":
            return SUPPLY
        track = _TRACK.fullmatch(name)
        if track:
            index = int(track.group(1)) - 1
            return index if index < self.size else None
        home = _HOME.fullmatch(name)
        if home and int(home.group(1)) == seat:
            return self.size + int(home.group(2)) - 1
        return None

    def regions(self) -> tuple[str, ...]:
        """Every region of the ring: track spaces, then each seat's HOME spaces."""
        track = tuple(f"t{index + 1}" for index in range(self.size))
        homes = tuple(f"h{seat}-{space}" for seat in range(1, self.players + 1)
                      for space in range(1, HOME_SPACES + 1))
        return track + homes


def ring_for(players: int, variants: Sequence[str]) -> Ring:
    """The ring of ``players`` seats under ``variants``; raises :class:`PositionError` for an
    unknown variant, one given twice, or offsets that do not fit the side."""
    values = {"side": DEFAULT_SIDE, "in": DEFAULT_IN, "start": DEFAULT_START}
    given: set[str] = set()
    teams_of_three = False
    for variant in variants:
        if variant not in _VARIANT_ORDER:
            raise PositionError(f"unknown Jokers and Coins variant {variant!r}; known: side-L "
                                f"({MIN_SIDE}..{MAX_SIDE}), in-K, start-K, {TEAMS_OF_THREE}")
        if variant == TEAMS_OF_THREE:
            teams_of_three = True
            continue
        kind, number = variant.rsplit("-", 1)
        if kind in given:
            raise PositionError(f"Jokers and Coins variants {list(variants)!r} give {kind} twice")
        given.add(kind)
        values[kind] = int(number)
    if teams_of_three and players != 6:
        raise PositionError(f"{TEAMS_OF_THREE} is for 6 players, not {players}")
    side, in_offset, start = values["side"], values["in"], values["start"]
    if in_offset >= side or start >= side or in_offset == start:
        raise PositionError(f"IN offset {in_offset} and START offset {start} must differ and "
                            f"both be below the side length {side}")
    return _ring(players, side, in_offset, start, teams_of_three)


@cache
def _ring(players: int, side: int, in_offset: int, start: int, teams_of_three: bool) -> Ring:
    """One shared Ring per geometry, so positions compare and hash it cheaply."""
    return Ring(players, side, in_offset, start, teams_of_three)
