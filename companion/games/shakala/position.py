"""Shakala positions: the frozen position value, its JSON form, variants and the start.

JSON (every field required; the schema is ``contract/schemas/position-shakala.schema.json``)::

    {"game": "shakala", "variants": ["north-first"], "players": 2,
     "sides": {"1": "south", "2": "north"},
     "to_move": 1,
     "pits": {"A": {"stones": 1, "gems": [1]}, ..., "h": {"stones": 0, "gems": []}},
     "cups": {"1": [2, 4], "2": []}}

``pits`` holds all sixteen pits ``A``..``H`` (South's) and ``a``..``h`` (North's), see
:mod:`~companion.games.shakala.board`; each pit's beads are a multiset: how many stones, and the
gems by value (a sorted list, a value once per gem). ``cups`` holds the gems each player has
captured, by value, sorted; a player's score is the sum. ``to_move`` is the player whose turn
it is (1 South, 2 North).

Variants (the options of the rulings): ``gems-WXYZ-STUV`` puts gems worth W, X, Y, Z in the back
row pits ``A B C D`` and S, T, U, V in the front row pits ``E F G H`` (the same on North's
``a``..``h``); each value is a digit 1..9 and at most four values differ (one coin kind each
on the table). The default is ``gems-1234-4321``, which the variant list leaves out.
``north-first`` has North move first.

Reading checks every field (names, types, ranges, gems of the values in force, no more beads
than the game has) and refuses unknown and missing ones, naming the field:
``position has 'pits.C.stones' = -1; it must be a whole number from 0 to 16``. A position may
hold fewer beads than the game (a study position); stones never leave the board in play.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from companion.games.base import Position, PositionError
from companion.games.position_fields import (
    bad_field,
    check_fields,
    json_object,
    variant_list,
    whole_number,
)
from companion.games.shakala.board import PIT_INDEX, PIT_NAMES, SIDES, side_pits

GAME_NAME = "shakala"
STONE = 0
#: The gem values of the back row (A B C D) and the front row (E F G H) by default.
DEFAULT_GEMS = "gems-1234-4321"
NORTH_FIRST = "north-first"
GEMS_PATTERN = re.compile(r"gems-([1-9]{4})-([1-9]{4})")
#: One line per variant saying what it changes (for help texts).
VARIANT_NOTES: dict[str, str] = {
    "gems-WXYZ-STUV": "gems worth W X Y Z in pits A B C D and S T U V in E F G H (each side; "
                      f"digits 1..9, at most 4 values; default {DEFAULT_GEMS})",
    NORTH_FIRST: "North moves first instead of South",
}
MAX_GEM_KINDS = 4
STONES = 16
WIN_POINTS = 20
FIELDS = ("game", "variants", "players", "sides", "to_move", "pits", "cups")
PIT_FIELDS = ("stones", "gems")

Beads = tuple[int, ...]


@dataclass(frozen=True, repr=False)
class ShakalaPosition(Position):
    """A Shakala position: each pit's beads as a sorted tuple (0 a stone, a positive number a
    gem of that value), each player's cup as a sorted tuple of gem values, the player to move
    and the variants."""

    pits: tuple[Beads, ...]
    cups: tuple[Beads, Beads] = ((), ())
    to_move: int = 1
    variants: tuple[str, ...] = ()

    players = 2

    def cup(self, player: int) -> Beads:
        """The gems ``player`` has captured."""
        return self.cups[player - 1]

    def points(self, player: int) -> int:
        """The value of ``player``'s cup."""
        return sum(self.cups[player - 1])

    def has_beads(self, player: int) -> bool:
        """Whether any of ``player``'s pits holds a bead."""
        return any(self.pits[pit] for pit in side_pits(player))

    @cached_property
    def gems_in_pits(self) -> bool:
        """Whether any pit holds a gem (the endgame starts when none does)."""
        return any(bead for beads in self.pits for bead in beads)

    def to_json(self) -> dict[str, Any]:
        """The JSON object of the module docstring."""
        return {
            "game": GAME_NAME,
            "variants": list(self.variants),
            "players": 2,
            "sides": {"1": SIDES[0], "2": SIDES[1]},
            "to_move": self.to_move,
            "pits": {PIT_NAMES[pit]: {"stones": beads.count(STONE),
                                      "gems": [bead for bead in beads if bead != STONE]}
                     for pit, beads in enumerate(self.pits)},
            "cups": {"1": list(self.cups[0]), "2": list(self.cups[1])},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ShakalaPosition:
        """Read and check a JSON object; raises :class:`PositionError` naming the bad field."""
        return _read_position(data)

    def __repr__(self) -> str:
        return f"ShakalaPosition.from_json({self.to_json()!r})"


# ------------------------------------------------------------------------------ variants, starts


def normalise_variants(variants: Sequence[str]) -> tuple[str, ...]:
    """Variants in canonical order (gem values first); raises :class:`PositionError` for an
    unknown one, one named twice, two gem layouts or more than four gem values."""
    gems = [variant for variant in variants if GEMS_PATTERN.fullmatch(variant)]
    for variant in variants:
        if variant != NORTH_FIRST and variant not in gems:
            raise PositionError(f"unknown Shakala variant {variant!r}; known: gems-WXYZ-STUV "
                                f"(four digits 1..9 each), {NORTH_FIRST}")
    if len(set(variants)) != len(variants):
        raise PositionError(f"Shakala variants {list(variants)!r} name one twice")
    if len(gems) > 1:
        raise PositionError(f"Shakala variants {list(variants)!r} give two gem layouts")
    if gems and len(set(gems[0].replace("gems-", "").replace("-", ""))) > MAX_GEM_KINDS:
        raise PositionError(f"Shakala variant {gems[0]!r} has more than {MAX_GEM_KINDS} gem "
                            "values; the table has four coins for gems")
    return (*gems, *(v for v in variants if v == NORTH_FIRST))


def start_gems(variants: Sequence[str]) -> tuple[int, ...]:
    """The gem value in each of South's pits A..H at the start (North's a..h the same)."""
    layout = next((v for v in variants if GEMS_PATTERN.fullmatch(v)), DEFAULT_GEMS)
    match = GEMS_PATTERN.fullmatch(layout)
    assert match is not None
    return tuple(int(digit) for digit in match.group(1) + match.group(2))


def gem_values(variants: Sequence[str]) -> tuple[int, ...]:
    """The distinct gem values in force, smallest first."""
    return tuple(sorted(set(start_gems(variants))))


def first_player(variants: Sequence[str]) -> int:
    """Who moves first: South (1), or North (2) with ``north-first``."""
    return 2 if NORTH_FIRST in variants else 1


def starting_position(variants: Sequence[str] = ()) -> ShakalaPosition:
    """One stone and one gem in every pit, gems as the variants place them."""
    canonical = normalise_variants(variants)
    gems = start_gems(canonical)
    pits = tuple(tuple(sorted((STONE, gems[pit % 8]))) for pit in range(16))
    return ShakalaPosition(pits=pits, to_move=first_player(canonical), variants=canonical)


# ------------------------------------------------------------------------------------ reading


def _read_position(data: Mapping[str, Any]) -> ShakalaPosition:
    """Check every field and build the position; messages start with ``position`` and name
    the field."""
    check_fields(data, FIELDS, FIELDS)
    if data["game"] != GAME_NAME:
        raise bad_field("game", data["game"], f"it must be {GAME_NAME!r}")
    variants = variant_list(data["variants"], normalise_variants)
    if isinstance(data["players"], bool) or data["players"] != 2:
        raise bad_field("players", data["players"], "Shakala is for 2 players")
    sides = json_object(data["sides"], "sides")
    if dict(sides) != {"1": "south", "2": "north"}:
        raise bad_field("sides", sides, 'Shakala seats are {"1": "south", "2": "north"}')
    to_move = whole_number(data["to_move"], "to_move", 1, 2)
    allowed = Counter(start_gems(variants) * 2)
    pits = _read_pits(data["pits"], allowed)
    cups = _read_cups(data["cups"], allowed)
    _check_totals(pits, cups, allowed)
    return ShakalaPosition(pits=pits, cups=cups, to_move=to_move, variants=variants)


def _read_gems(raw: Any, field_name: str, allowed: Counter[int]) -> Beads:
    if not isinstance(raw, list):
        raise bad_field(field_name, raw, "it must be a list of gem values")
    values = ", ".join(map(str, sorted(allowed)))
    for value in raw:
        if isinstance(value, bool) or not isinstance(value, int) or value not in allowed:
            raise bad_field(field_name, raw, f"gems are worth {values} in this game")
    return tuple(sorted(raw))


def _read_pits(raw: Any, allowed: Counter[int]) -> tuple[Beads, ...]:
    pits = json_object(raw, "pits")
    check_fields(pits, tuple(PIT_NAMES), tuple(PIT_NAMES), "position's 'pits'")
    read: list[Beads] = [()] * 16
    for name, value in pits.items():
        if not isinstance(value, Mapping):
            raise bad_field(f"pits.{name}", value, 'a pit is {"stones": N, "gems": [...]}')
        check_fields(value, PIT_FIELDS, PIT_FIELDS, f"position's 'pits.{name}'")
        stones = whole_number(value["stones"], f"pits.{name}.stones", 0, STONES)
        gems = _read_gems(value["gems"], f"pits.{name}.gems", allowed)
        read[PIT_INDEX[name]] = (STONE,) * stones + gems
    return tuple(read)


def _read_cups(raw: Any, allowed: Counter[int]) -> tuple[Beads, Beads]:
    cups = json_object(raw, "cups")
    if sorted(cups) != ["1", "2"]:
        raise bad_field("cups", cups, 'it must have exactly the players "1" and "2"')
    return (_read_gems(cups["1"], "cups.1", allowed), _read_gems(cups["2"], "cups.2", allowed))


def _check_totals(pits: Sequence[Beads], cups: Sequence[Beads], allowed: Counter[int]) -> None:
    """No more stones than 16 and no more gems of a value than the game has."""
    stones = sum(beads.count(STONE) for beads in pits)
    if stones > STONES:
        raise bad_field("pits", f"{stones} stones", f"the game has {STONES}")
    gems = Counter(bead for beads in (*pits, *cups) for bead in beads if bead != STONE)
    for value, count in sorted(gems.items()):
        if count > allowed[value]:
            raise bad_field("pits", f"{count} gems worth {value}",
                            f"the game has {allowed[value]} (pits and cups together)")

