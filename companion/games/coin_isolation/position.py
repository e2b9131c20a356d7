"""Coin Isolation positions: the frozen value, its JSON form, validation and random starts.

JSON (DESIGN.md), with the fields some variants add::

    {"game": "coin-isolation", "variants": ["diagonal"], "players": 2,
     "sides": {"1": "south", "2": "north"}, "to_move": 1,
     "squares": {"a1": "P", "b1": "NN", "c4": "QP"},      stacks bottom to top, absent = empty
     "pawns": {"1": null, "2": "d5"},                   null = not on the board yet
     "taken": {"1": "PQ", "2": ""}, "passes": 0, "last_taker": 1,
     "take_order": [1, 3],        3+ players: who took a coin most recently first (tie-break)
     "renegades": [2],            with renegade: players who declared
     "quiet": 0}                  with semi-greedy, empty-squares or renegade: turns in a row
                                  in which no coin was taken (see the game module's end rule)

``players``, ``squares``, ``pawns`` (null for each pawn not yet placed) and ``taken`` (every
player's coins, "" for none) are required; the others default to: game ``coin-isolation``, no
variants, the default sides, player 1 to move, no passes, no last taker, no renegades, quiet 0.
Reading checks every field and refuses unknown ones, wrong types and impossible numbers (passes
above the number of players, more than the set's 64 coins), naming the field: nothing is guessed.
The same rules are written as a JSON Schema,
``contract/schemas/position-coin-isolation.schema.json``, which
:meth:`~companion.games.base.Game.read_position` also checks files against.

Mixed stacks are allowed only with mixed-change(-2008) and are kept largest coin at the bottom,
smallest on top (a stack read in another order is put in that order).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from companion.games.base import Position, PositionError
from companion.games.coin_isolation.board import (
    COIN_VALUES,
    DEFAULT_SIDES,
    SIDE_ROWS,
    SQUARE_INDEX,
    SQUARE_NAMES,
    sort_stack,
    stack_value,
)
from companion.games.position_fields import bad_field, check_fields, short

GAME_NAME = "coin-isolation"

#: Every variant, in the order the rulings list them (also the order written to JSON).
VARIANTS: tuple[str, ...] = (
    "diagonal",
    "many-pennies",
    "many-many-pennies",
    "mixed-change",
    "mixed-change-2008",
    "transplant",
    "transplant-variant-variant",
    "standing-still",
    "greedy",
    "semi-greedy",
    "cleanup",
    "empty-squares",
    "renegade",
)
#: Variants under which a turn can pass without taking a coin, so the quiet count is kept.
QUIET_VARIANTS = frozenset({"semi-greedy", "empty-squares", "renegade"})
MIXED_VARIANTS = frozenset({"mixed-change", "mixed-change-2008"})

#: Starting coins: (pennies, nickels, dimes, quarters).
STANDARD_COINS = (24, 24, 12, 4)
MANY_PENNIES_COINS = (27, 22, 11, 4)
MANY_MANY_PENNIES_COINS = (30, 20, 10, 4)


@dataclass(frozen=True, repr=False)
class CoinIsolationPosition(Position):
    """A Coin Isolation position. Players are numbered 1..N; tuples hold player 1 first.

    ``squares`` holds 64 stacks bottom to top ("" empty) indexed ``rank * 8 + file``;
    ``pawns`` the square index of each pawn or None; ``take_order`` the players who took a coin,
    most recent first (its head is ``last_taker``).
    """

    squares: tuple[str, ...]
    pawns: tuple[int | None, ...]
    sides: tuple[str, ...]
    variants: tuple[str, ...] = ()
    to_move: int = 1
    taken: tuple[str, ...] = ()
    passes: int = 0
    take_order: tuple[int, ...] = ()
    renegades: tuple[int, ...] = ()
    quiet: int = 0

    @property
    def players(self) -> int:
        """The number of players."""
        return len(self.sides)

    @property
    def last_taker(self) -> int | None:
        """The player who last took a coin, or None."""
        return self.take_order[0] if self.take_order else None

    def has(self, variant: str) -> bool:
        """Whether ``variant`` is in force."""
        return variant in self.variants

    @cached_property
    def variant_set(self) -> frozenset[str]:
        """The variants in force, as a set."""
        return frozenset(self.variants)

    @cached_property
    def pawn_mask(self) -> int:
        """Squares holding a pawn."""
        mask = 0
        for square in self.pawns:
            if square is not None:
                mask |= 1 << square
        return mask

    @cached_property
    def coin_mask(self) -> int:
        """Squares holding at least one coin."""
        mask = 0
        for top_mask in self.top_masks.values():
            mask |= top_mask
        return mask

    @cached_property
    def top_masks(self) -> dict[str, int]:
        """For each coin letter, the squares whose top coin is of it."""
        masks = dict.fromkeys(COIN_VALUES, 0)
        for index, stack in enumerate(self.squares):
            if stack:
                masks[stack[-1]] |= 1 << index
        return masks

    @cached_property
    def type_masks(self) -> dict[str, int]:
        """For each coin letter, the squares holding at least one coin of it."""
        if not MIXED_VARIANTS & self.variant_set:
            return self.top_masks  # stacks hold one type only
        masks = dict.fromkeys(COIN_VALUES, 0)
        for index, stack in enumerate(self.squares):
            for coin in set(stack):
                masks[coin] |= 1 << index
        return masks

    def score(self, player: int) -> int:
        """Cents taken by ``player``."""
        return stack_value(self.taken[player - 1])

    def coins_on_board(self) -> str:
        """Every coin on the board, sorted (for conservation checks)."""
        return "".join(sorted("".join(self.squares)))

    def to_json(self) -> dict[str, Any]:
        """The JSON object of the module docstring."""
        data: dict[str, Any] = {
            "game": GAME_NAME,
            "variants": list(self.variants),
            "players": self.players,
            "sides": {str(player): side for player, side in enumerate(self.sides, 1)},
            "to_move": self.to_move,
            "squares": {
                SQUARE_NAMES[index]: stack for index, stack in enumerate(self.squares) if stack
            },
            "pawns": {
                str(player): None if square is None else SQUARE_NAMES[square]
                for player, square in enumerate(self.pawns, 1)
            },
            "taken": {str(player): coins for player, coins in enumerate(self.taken, 1)},
            "passes": self.passes,
            "last_taker": self.last_taker,
        }
        if self.players > 2:
            data["take_order"] = list(self.take_order)
        if "renegade" in self.variants:
            data["renegades"] = list(self.renegades)
        if QUIET_VARIANTS & set(self.variants):
            data["quiet"] = self.quiet
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CoinIsolationPosition:
        """Read and validate a JSON object; raises :class:`PositionError` naming the bad input."""
        return _read_position(data)

    def __repr__(self) -> str:
        return f"CoinIsolationPosition.from_json({self.to_json()!r})"


def normalise_variants(variants: Sequence[str]) -> tuple[str, ...]:
    """Variants in canonical order; raises :class:`PositionError` for an unknown one."""
    for variant in variants:
        if variant not in VARIANTS:
            raise PositionError(f"unknown variant {variant!r}; known: {', '.join(VARIANTS)}")
    return tuple(variant for variant in VARIANTS if variant in variants)


def starting_coins(variants: Sequence[str]) -> str:
    """The coins of a starting layout (many-many-pennies wins over many-pennies)."""
    if "many-many-pennies" in variants:
        counts = MANY_MANY_PENNIES_COINS
    elif "many-pennies" in variants:
        counts = MANY_PENNIES_COINS
    else:
        counts = STANDARD_COINS
    return "".join(coin * count for coin, count in zip("PNDQ", counts, strict=True))


def random_position(
    players: int, variants: Sequence[str] = (), seed: int | None = None
) -> CoinIsolationPosition:
    """A random starting layout, one coin a square, pawns off the board, player 1 to move."""
    import random  # here: reading a position, as the rules commands do, needs no dice

    if players not in DEFAULT_SIDES:
        raise PositionError(f"Coin Isolation is for 2 to 4 players, not {players}")
    canonical = normalise_variants(variants)
    coins = list(starting_coins(canonical))
    random.Random(seed).shuffle(coins)
    return CoinIsolationPosition(
        squares=tuple(coins),
        pawns=(None,) * players,
        sides=DEFAULT_SIDES[players],
        variants=canonical,
        taken=("",) * players,
    )


#: Every field a position may have; the first four are required (see the module docstring).
FIELDS = (
    "game", "variants", "players", "sides", "to_move", "squares", "pawns", "taken", "passes",
    "last_taker", "take_order", "renegades", "quiet",
)  # fmt: skip
REQUIRED_FIELDS = ("players", "squares", "pawns", "taken")
#: Every Coin Isolation set holds 64 coins (see :func:`starting_coins`).
TOTAL_COINS = 64
#: The most turns in a row without a take any position can hold (10 rounds of 4 players).
MAX_QUIET = 40
COIN_RULE = "use coin letters P N D Q"


def _read_position(data: Mapping[str, Any]) -> CoinIsolationPosition:
    """Check every field (names, types, ranges) and build the position; nothing is guessed
    but the documented defaults of the optional fields. Messages start with ``position`` and
    name the field, as ``position has 'passes' = 7; it must be a whole number from 0 to 2``."""
    check_fields(data, FIELDS, REQUIRED_FIELDS)
    if data.get("game", GAME_NAME) != GAME_NAME:
        raise bad_field("game", data["game"], f"it must be {GAME_NAME!r}")
    variants = _read_variants(data.get("variants", []))
    players = data["players"]
    if isinstance(players, bool) or not isinstance(players, int) or players not in DEFAULT_SIDES:
        raise bad_field("players", players, "Coin Isolation is for 2 to 4 players")
    squares = _read_squares(data["squares"], bool(MIXED_VARIANTS & set(variants)))
    taken = _read_taken(data["taken"], players)
    _check_coin_count(squares, taken)
    return CoinIsolationPosition(
        squares=squares,
        pawns=_read_pawns(data["pawns"], players),
        sides=_read_sides(data.get("sides"), players),
        variants=variants,
        to_move=_player(data.get("to_move", 1), players, "to_move"),
        taken=taken,
        passes=_integer(data.get("passes", 0), "passes", players),
        take_order=_read_take_order(data.get("take_order"), data.get("last_taker"), players,
                                    taken),
        renegades=_read_renegades(data.get("renegades", []), players, variants),
        quiet=_read_quiet(data.get("quiet", 0), variants),
    )


def _read_variants(raw: Any) -> tuple[str, ...]:
    if not isinstance(raw, list) or not all(isinstance(v, str) for v in raw):
        raise bad_field("variants", raw, "it must be a list of variant names")
    if len(set(raw)) != len(raw):
        raise bad_field("variants", raw, "it names a variant twice")
    return normalise_variants(raw)


def _integer(value: Any, field: str, most: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= most:
        raise bad_field(field, value, f"it must be a whole number from 0 to {most}")
    return value


def _player(value: Any, players: int, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= players:
        raise bad_field(field, value, f"players are 1..{players}")
    return value


def _list(value: Any, field: str) -> list[Any]:
    if not isinstance(value, list):
        raise bad_field(field, value, "it must be a list")
    return value


def _mapping(value: Any, field: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise bad_field(field, value, "it must be an object")
    return value


def _by_player(raw: Any, players: int, field: str) -> Mapping[str, Any]:
    """An object with one entry per player, keyed "1".."N", and no other keys."""
    mapping = _mapping(raw, field)
    keys = [str(player) for player in range(1, players + 1)]
    for key in mapping:
        if key not in keys:
            raise PositionError(f"position has a key {short(key)} in {field!r}; "
                                f"players are 1..{players}")
    missing = [key for key in keys if key not in mapping]
    if missing:
        raise PositionError(f"position has nothing for player {missing[0]} in {field!r}; "
                            f'add "{missing[0]}"')
    return mapping


def _read_sides(raw: Any, players: int) -> tuple[str, ...]:
    if raw is None:
        return DEFAULT_SIDES[players]
    mapping = _by_player(raw, players, "sides")
    sides = []
    for player in range(1, players + 1):
        side = mapping[str(player)]
        if side not in SIDE_ROWS:
            raise bad_field(f"sides.{player}", side, f"sides are {', '.join(SIDE_ROWS)}")
        sides.append(side)
    if len(set(sides)) != players:
        raise bad_field("sides", dict(mapping), "two players share a side")
    return tuple(sides)


def _read_squares(raw: Any, mixed: bool) -> tuple[str, ...]:
    squares = [""] * 64
    for name, stack in _mapping(raw, "squares").items():
        index = SQUARE_INDEX.get(name)
        if index is None:
            raise PositionError(f"position has a key {short(name)} in 'squares'; "
                                "squares are a1..h8")
        if not isinstance(stack, str) or any(coin not in COIN_VALUES for coin in stack):
            raise bad_field(f"squares.{name}", stack, COIN_RULE)
        if len(set(stack)) > 1 and not mixed:
            raise bad_field(f"squares.{name}", stack, "a stack mixes coin types only with "
                       "mixed-change")
        squares[index] = sort_stack(stack) if mixed else stack
    return tuple(squares)


def _read_pawns(raw: Any, players: int) -> tuple[int | None, ...]:
    mapping = _by_player(raw, players, "pawns")
    pawns: list[int | None] = []
    for player in range(1, players + 1):
        name = mapping[str(player)]
        index = SQUARE_INDEX.get(name) if isinstance(name, str) else None
        if name is not None and index is None:
            raise bad_field(f"pawns.{player}", name, "a pawn stands on a1..h8, or is null before "
                       "it is placed")
        if index is not None and index in pawns:
            raise bad_field(f"pawns.{player}", name, "two pawns share that square")
        pawns.append(index)
    return tuple(pawns)


def _read_taken(raw: Any, players: int) -> tuple[str, ...]:
    mapping = _by_player(raw, players, "taken")
    taken = []
    for player in range(1, players + 1):
        coins = mapping[str(player)]
        if not isinstance(coins, str) or any(coin not in COIN_VALUES for coin in coins):
            raise bad_field(f"taken.{player}", coins, COIN_RULE)
        taken.append(coins)
    return tuple(taken)


def _check_coin_count(squares: tuple[str, ...], taken: tuple[str, ...]) -> None:
    count = sum(map(len, squares)) + sum(map(len, taken))
    if count > TOTAL_COINS:
        raise PositionError(f"position holds {count} coins in 'squares' and 'taken'; a Coin "
                            f"Isolation set has {TOTAL_COINS}")


def _read_renegades(raw: Any, players: int, variants: tuple[str, ...]) -> tuple[int, ...]:
    renegades = [_player(p, players, "renegades") for p in _list(raw, "renegades")]
    if len(set(renegades)) != len(renegades):
        raise bad_field("renegades", raw, "it names a player twice")
    if renegades and "renegade" not in variants:
        raise bad_field("renegades", raw, "renegades declare only under the renegade variant")
    return tuple(sorted(renegades))


def _read_quiet(raw: Any, variants: tuple[str, ...]) -> int:
    quiet = _integer(raw, "quiet", MAX_QUIET)
    if quiet and not QUIET_VARIANTS & set(variants):
        raise bad_field("quiet", quiet, f"it counts only under {', '.join(sorted(QUIET_VARIANTS))}")
    return quiet


def _read_take_order(
    raw: Any, last_taker: Any, players: int, taken: tuple[str, ...]
) -> tuple[int, ...]:
    if raw is not None:
        order = tuple(_player(p, players, "take_order") for p in _list(raw, "take_order"))
        if len(set(order)) != len(order):
            raise bad_field("take_order", raw, "it names a player twice")
        if last_taker is not None and (not order or order[0] != last_taker):
            raise bad_field("last_taker", last_taker, "it must come first in 'take_order'")
        return order
    if last_taker is None:
        return ()
    first = _player(last_taker, players, "last_taker")
    others = [p for p in range(1, players + 1) if p != first and taken[p - 1]]
    return (first, *others) if len(others) <= 1 else (first,)
