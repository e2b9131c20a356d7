"""What a Jokers and Coins position puts on the table, and reading a layout from the camera.

The regions are the ring's track spaces ``t1..tN`` and every seat's HOME spaces ``hS-K`` (see
:mod:`~companion.games.jokers_and_coins.ring`). Seats 1 to 4 play pennies, nickels, dimes and
quarters (:data:`SEAT_COINS`), so a coin's kind says whose it is; seats 5 and 6 play coloured
tokens, drawn as a token labelled with the seat's number (``"5"``, ``"6"``; the camera tells
them apart by hue, see ``GameInfo.token_colours``). A space holds one coin at most (landing
bumps), so the camera sees everything on the ring.

A coin not on the ring lies in its seat's supply, the mat's cup ``supply-S`` beside its side,
where players drop coins loose, touching (a ``piled`` region, counted by :mod:`vision.loose`):
the layout holds each coin seat's supply as loose coins of its kind, so the camera checks that
a bumped coin went back to its owner's supply and that an entry took one from the mover's
(``bench/bench_supply_read.py`` measures the counts). A token seat's supply shows its token
while it holds any: the reading names one token colour per region, not how many lie there.
The ring alone says which move was made (:func:`ring_looks`); the supplies are checked after,
by their count (:func:`supplies_counted`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from companion.games.base import PositionError
from companion.games.jokers_and_coins.cards import dealt
from companion.games.jokers_and_coins.position import JokersPosition
from companion.games.jokers_and_coins.ring import COINS, SUPPLY
from contract.observation import Observation
from contract.table_state import RegionContents, RegionLook, TableState

#: Seat -> its coin letter (seats 1 to 4).
SEAT_COINS: Mapping[int, str] = {1: "P", 2: "N", 3: "D", 4: "Q"}
COIN_KINDS = "PNDQ"
#: The supply cups' names: ``supply-S``.
SUPPLY_PREFIX = "supply-"
#: Names of what each seat plays, for seat names and messages.
SEAT_PIECES = ("pennies", "nickels", "dimes", "quarters", "blue tokens", "yellow tokens")


def seat_look(seat: int) -> RegionContents:
    """What a coin of ``seat`` looks like on a space: its coin, or its labelled token."""
    if seat in SEAT_COINS:
        return RegionContents(SEAT_COINS[seat])
    return RegionContents("", str(seat))


def supply_name(seat: int) -> str:
    """Seat ``seat``'s supply cup on the mat: ``supply-3``."""
    return f"{SUPPLY_PREFIX}{seat}"


def supply_contents(seat: int, count: int) -> RegionContents:
    """What ``count`` coins of ``seat`` in its supply look like: its coins loose, or its token
    (one token's colour, however many lie there)."""
    if seat in SEAT_COINS:
        return RegionContents(SEAT_COINS[seat] * count, loose=True)
    return RegionContents("", str(seat) if count else None, loose=True)


def layout(position: JokersPosition) -> TableState:
    """Every coin on the ring and in the supplies (see the module docstring)."""
    ring = position.ring
    regions = {}
    for seat, places in enumerate(position.coins, start=1):
        for place in places:
            if place != SUPPLY:
                regions[ring.place_name(seat, place)] = seat_look(seat)
        regions[supply_name(seat)] = supply_contents(seat, places.count(SUPPLY))
    return TableState(regions)


def supplies_counted(observation: Observation) -> Observation:
    """``observation`` with each coin seat's supply read as that many of the seat's coins:
    a supply is judged by its count (silver coins half under others are the camera's weakest
    reading, and the count is what tells where a bumped coin went)."""
    regions = dict(observation.regions)
    for seat, coin in SEAT_COINS.items():
        reading = regions.get(supply_name(seat))
        if reading is not None and reading.count:
            regions[supply_name(seat)] = replace(reading, kinds=(coin,) * reading.count)
    return replace(observation, regions=regions)


def ring_looks(looks: Mapping[str, RegionLook]) -> dict[str, RegionLook]:
    """``looks`` without the supplies: what tells one move from another."""
    return {name: look for name, look in looks.items() if not name.startswith(SUPPLY_PREFIX)}


def bump_notes(before: JokersPosition, after: JokersPosition, mover: int) -> list[str]:
    """What happened by hand to other seats' coins between two positions, one clause each:
    ``seat 2's coin on t25 goes back to its supply``."""
    ring = before.ring
    notes = []
    for seat in range(1, ring.players + 1):
        if seat == mover:
            continue
        gone = sorted(set(before.coins[seat - 1]) - set(after.coins[seat - 1]) - {SUPPLY})
        came = sorted(set(after.coins[seat - 1]) - set(before.coins[seat - 1]))
        for place in gone:
            where = (f"to its IN {ring.place_name(seat, came[0])}" if came and came[0] != SUPPLY
                     else "back to its supply")
            notes.append(f"seat {seat}'s coin on {ring.place_name(seat, place)} goes {where}")
    return notes


def position_from_reading(template: JokersPosition, observation: Observation
                          ) -> JokersPosition:
    """The position the players laid out: the template's ring, seat 1 to move, five cards
    dealt to each seat, each seat's coins where the camera saw them and the rest in their
    supply. Raises :class:`PositionError` saying what is wrong with the layout."""
    ring = template.ring
    owner_of = {coin: seat for seat, coin in SEAT_COINS.items() if seat <= ring.players}
    places: list[list[int]] = [[] for _ in range(ring.players)]
    for name, reading in sorted(observation.regions.items()):
        if name.startswith(("supply-", "discard-")):
            continue  # beside the ring: a coin not on it is in its supply
        seat = _seat_seen(name, reading.coin, reading.pawn, owner_of, ring.players)
        if seat is None:
            continue
        place = ring.place_of(seat, name)
        if place is None:
            raise PositionError(f"the layout has seat {seat}'s coin on {name}, which is not a "
                                f"space of this ring or is another seat's HOME")
        places[seat - 1].append(place)
    for seat, found in enumerate(places, start=1):
        if len(found) > COINS:
            raise PositionError(f"seat {seat} has {len(found)} coins on the ring; a seat "
                                f"plays {COINS}")
        found += [SUPPLY] * (COINS - len(found))
    coins = tuple(tuple(sorted(found)) for found in places)
    return JokersPosition(ring, coins, 1, dealt(ring.players))


def _seat_seen(name: str, coin: str | None, pawn: str | None, owner_of: Mapping[str, int],
               players: int) -> int | None:
    """Whose coin the camera saw on region ``name`` (None: nothing there)."""
    if coin is not None:
        if coin not in owner_of:
            raise PositionError(f"the layout has a {coin!r} coin on {name}; with {players} "
                                f"seats the coins are {''.join(owner_of)}")
        return owner_of[coin]
    if pawn is not None:
        if pawn not in {str(seat) for seat in range(5, players + 1)}:
            raise PositionError(f"the layout has a token {pawn!r} on {name}; tokens are seats "
                                "5 and 6")
        return int(pawn)
    return None
