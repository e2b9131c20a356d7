"""Jokers and Coins positions: the frozen value, its JSON form and the start.

JSON (every field required; the schema is
``contract/schemas/position-jokers-and-coins.schema.json``)::

    {"game": "jokers-and-coins", "variants": [], "players": 4,
     "ring": {"sides": 4, "side_length": 18, "in": 3, "start": 8},
     "teams": [[1, 3], [2, 4]],
     "to_move": 1,
     "coins": {"1": ["supply", "supply", "t9", "h1-2"], "2": [...], ...},
     "cards": {...}}

``ring`` and ``teams`` follow from ``players`` and ``variants`` (see
:mod:`~companion.games.jokers_and_coins.ring`); they are written out for readers and checked
on reading. ``coins`` lists each seat's four coins by place: ``supply``, a track space ``tN`` or
one of the seat's own HOME spaces ``hS-K`` (written in order: supply, track, HOME). Two coins
never share a space. ``cards`` is the public knowledge of the cards, described in
:mod:`~companion.games.jokers_and_coins.cards`.

Reading checks every field and refuses unknown and missing ones with a sentence naming the
field: ``position has 'coins.2' = ['t9', 't9', ...]; two coins stand on t9``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from companion.games.base import Position, PositionError
from companion.games.jokers_and_coins.cards import Cards, dealt, read_cards
from companion.games.jokers_and_coins.ring import COINS, SUPPLY, VARIANTS, Ring, ring_for
from companion.games.position_fields import bad_field, check_fields, short

GAME_NAME = "jokers-and-coins"
MIN_PLAYERS, MAX_PLAYERS = 2, 6
FIELDS = ("game", "variants", "players", "ring", "teams", "to_move", "coins", "cards")


@dataclass(frozen=True, repr=False)
class JokersPosition(Position):
    """A Jokers and Coins position: the ring, each seat's coins as sorted engine places (by
    seat - 1; see :mod:`~companion.games.jokers_and_coins.ring`), the mover and the cards."""

    ring: Ring
    coins: tuple[tuple[int, ...], ...]
    to_move: int
    cards: Cards

    @property
    def players(self) -> int:
        """How many seats play."""
        return self.ring.players

    @property
    def variants(self) -> tuple[str, ...]:
        """The variants in force (defaults left out)."""
        return self.ring.variants()

    @cached_property
    def board(self) -> dict[int, int]:
        """Track index -> seat of the coin standing there."""
        size = self.ring.size
        return {place: seat for seat, places in enumerate(self.coins, start=1)
                for place in places if 0 <= place < size}

    def home_count(self, seat: int) -> int:
        """How many of ``seat``'s coins are in its HOME."""
        size = self.ring.size
        return sum(1 for place in self.coins[seat - 1] if place >= size)

    def to_json(self) -> dict[str, Any]:
        """The JSON object of the module docstring."""
        ring = self.ring
        return {
            "game": GAME_NAME,
            "variants": list(ring.variants()),
            "players": ring.players,
            "ring": ring.to_json(),
            "teams": [list(team) for team in ring.teams],
            "to_move": self.to_move,
            "coins": {str(seat): [ring.place_name(seat, place) for place in places]
                      for seat, places in enumerate(self.coins, start=1)},
            "cards": self.cards.to_json(),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> JokersPosition:
        """Read and check a JSON object; raises :class:`PositionError` naming the bad field."""
        return read_position(data)

    def __repr__(self) -> str:
        return f"JokersPosition.from_json({self.to_json()!r})"


def starting_position(players: int, variants: Sequence[str] = ()) -> JokersPosition:
    """Seat 1 (left of the dealer) to move, every coin in its supply, five cards dealt."""
    ring = ring_for(players, variants)
    coins = tuple((SUPPLY,) * COINS for _ in range(players))
    return JokersPosition(ring, coins, 1, dealt(players))


def with_coins(position: JokersPosition, coins: Sequence[Sequence[int]]) -> JokersPosition:
    """``position`` with these coins (each seat's sorted)."""
    return JokersPosition(position.ring, tuple(tuple(sorted(places)) for places in coins),
                          position.to_move, position.cards)


def read_position(data: Mapping[str, Any]) -> JokersPosition:
    """Check every field of a position's JSON and build the position."""
    check_fields(data, FIELDS, FIELDS)
    if data["game"] != GAME_NAME:
        raise bad_field("game", data["game"], f"it must be {GAME_NAME!r}")
    players = data["players"]
    if not _whole(players) or players not in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        raise bad_field("players", players, "Jokers and Coins is for 2 to 6 players")
    ring = _read_ring(data, players)
    to_move = data["to_move"]
    if not _whole(to_move) or to_move not in range(1, players + 1):
        raise bad_field("to_move", to_move, f"it must be a seat from 1 to {players}")
    coins = _read_coins(data["coins"], ring)
    return JokersPosition(ring, coins, to_move, read_cards(data["cards"], players))


def _read_ring(data: Mapping[str, Any], players: int) -> Ring:
    variants = data["variants"]
    if not isinstance(variants, list) or not all(isinstance(name, str) for name in variants):
        raise bad_field("variants", variants, "it must be a list of variant names")
    if len(set(variants)) != len(variants):
        raise bad_field("variants", variants, "it names a variant twice")
    try:
        ring = ring_for(players, variants)
    except PositionError as error:
        raise bad_field("variants", variants, str(error)) from None
    if list(ring.variants()) != sorted(variants, key=VARIANTS.index):
        raise bad_field("variants", variants, f"write them as {list(ring.variants())!r} "
                        "(defaults left out, in the documented order)")
    if data["ring"] != ring.to_json():
        raise bad_field("ring", data["ring"], f"for {players} players and these variants it is "
                        f"{ring.to_json()}")
    if data["teams"] != [list(team) for team in ring.teams]:
        raise bad_field("teams", data["teams"], f"for {players} players and these variants "
                        f"they are {[list(team) for team in ring.teams]}")
    return ring


def _read_coins(raw: Any, ring: Ring) -> tuple[tuple[int, ...], ...]:
    seats = [str(seat) for seat in range(1, ring.players + 1)]
    if not isinstance(raw, Mapping) or sorted(raw) != sorted(seats):
        raise bad_field("coins", raw, f"it must list the coins of seats {', '.join(seats)}")
    taken: dict[int, str] = {}
    coins = []
    for seat in range(1, ring.players + 1):
        places = _read_seat_coins(raw[str(seat)], seat, ring)
        for place in places:
            if 0 <= place < ring.size and place in taken:
                raise bad_field(f"coins.{seat}", raw[str(seat)], f"seat {taken[place]} already "
                                f"has a coin on {ring.place_name(seat, place)}")
            if 0 <= place < ring.size:
                taken[place] = str(seat)
        coins.append(places)
    return tuple(coins)


def _read_seat_coins(raw: Any, seat: int, ring: Ring) -> tuple[int, ...]:
    name = f"coins.{seat}"
    if not isinstance(raw, list) or len(raw) != COINS:
        raise bad_field(name, raw, "it must list the seat's 4 coins")
    places = []
    for entry in raw:
        place = ring.place_of(seat, entry) if isinstance(entry, str) else None
        if place is None:
            raise bad_field(name, raw, f"{short(entry)} is no place for seat {seat}'s coin; "
                            f"places are 'supply', t1..t{ring.size}, h{seat}-1..h{seat}-4")
        places.append(place)
    on_spaces = [place for place in places if place != SUPPLY]
    if len(set(on_spaces)) != len(on_spaces):
        twice = next(p for p in on_spaces if on_spaces.count(p) > 1)
        raise bad_field(name, raw, f"two coins stand on {ring.place_name(seat, twice)}")
    return tuple(sorted(places))


def _whole(value: Any) -> bool:
    """Whether ``value`` is a JSON whole number (not a boolean, not 4.0)."""
    return isinstance(value, int) and not isinstance(value, bool)
