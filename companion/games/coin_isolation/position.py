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

Mixed stacks are allowed only with mixed-change(-2008) and are kept largest coin at the bottom,
smallest on top (a stack read in another order is put in that order).
"""

from __future__ import annotations

import random
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


def _read_position(data: Mapping[str, Any]) -> CoinIsolationPosition:
    game = data.get("game", GAME_NAME)
    if game != GAME_NAME:
        raise PositionError(f"position is for game {game!r}, not {GAME_NAME!r}")
    raw_variants = data.get("variants", [])
    if not isinstance(raw_variants, list) or not all(isinstance(v, str) for v in raw_variants):
        raise PositionError(f"'variants' must be a list of names, not {raw_variants!r}")
    variants = normalise_variants(raw_variants)
    players = _integer(data.get("players", 2), "players")
    if players not in DEFAULT_SIDES:
        raise PositionError(f"Coin Isolation is for 2 to 4 players, not {players}")
    sides = _read_sides(data.get("sides"), players)
    squares = _read_squares(data.get("squares", {}), bool(MIXED_VARIANTS & set(variants)))
    pawns = _read_pawns(data.get("pawns", {}), players)
    taken = _read_taken(data.get("taken", {}), players)
    to_move = _player(data.get("to_move", 1), players, "to_move")
    last_taker = data.get("last_taker")
    take_order = _read_take_order(data.get("take_order"), last_taker, players, taken)
    renegades = tuple(
        sorted(_player(p, players, "renegades") for p in _list(data.get("renegades", [])))
    )
    return CoinIsolationPosition(
        squares=squares,
        pawns=pawns,
        sides=sides,
        variants=variants,
        to_move=to_move,
        taken=taken,
        passes=_integer(data.get("passes", 0), "passes"),
        take_order=take_order,
        renegades=renegades,
        quiet=_integer(data.get("quiet", 0), "quiet"),
    )


def _integer(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise PositionError(f"{field!r} must be a whole number, not {value!r}")
    return value


def _player(value: Any, players: int, field: str) -> int:
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= players:
        raise PositionError(f"{field!r} names player {value!r}; players are 1..{players}")
    return value


def _list(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise PositionError(f"expected a list, not {value!r}")
    return value


def _mapping(value: Any, field: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise PositionError(f"{field!r} must be an object, not {value!r}")
    return value


def _square(name: Any, field: str) -> int:
    index = SQUARE_INDEX.get(name) if isinstance(name, str) else None
    if index is None:
        raise PositionError(f"bad square name {name!r} in {field!r}; squares are a1..h8")
    return index


def _read_sides(raw: Any, players: int) -> tuple[str, ...]:
    if raw is None:
        return DEFAULT_SIDES[players]
    mapping = _mapping(raw, "sides")
    sides = []
    for player in range(1, players + 1):
        side = mapping.get(str(player))
        if side not in SIDE_ROWS:
            raise PositionError(f"player {player} has side {side!r}; sides: {', '.join(SIDE_ROWS)}")
        sides.append(side)
    if len(set(sides)) != players:
        raise PositionError(f"two players share a side in {dict(mapping)!r}")
    return tuple(sides)


def _read_squares(raw: Any, mixed: bool) -> tuple[str, ...]:
    squares = [""] * 64
    for name, stack in _mapping(raw, "squares").items():
        index = _square(name, "squares")
        if not isinstance(stack, str):
            raise PositionError(f"square {name} must hold a string of coin letters, not {stack!r}")
        for coin in stack:
            if coin not in COIN_VALUES:
                raise PositionError(f"unknown coin letter {coin!r} on square {name}; use P N D Q")
        if len(set(stack)) > 1 and not mixed:
            raise PositionError(f"square {name} mixes coin types ({stack}) without mixed-change")
        squares[index] = sort_stack(stack) if mixed else stack
    return tuple(squares)


def _read_pawns(raw: Any, players: int) -> tuple[int | None, ...]:
    mapping = _mapping(raw, "pawns")
    for key in mapping:
        _player(key, players, "pawns")
    pawns: list[int | None] = []
    for player in range(1, players + 1):
        name = mapping.get(str(player))
        if name is None:
            pawns.append(None)
            continue
        index = SQUARE_INDEX.get(name) if isinstance(name, str) else None
        if index is None:
            raise PositionError(f"pawn {player} is off the board at {name!r}; squares are a1..h8")
        if index in pawns:
            raise PositionError(f"two pawns share square {name}")
        pawns.append(index)
    return tuple(pawns)


def _read_taken(raw: Any, players: int) -> tuple[str, ...]:
    mapping = _mapping(raw, "taken")
    taken = []
    for player in range(1, players + 1):
        coins = mapping.get(str(player), "")
        if not isinstance(coins, str) or any(coin not in COIN_VALUES for coin in coins):
            raise PositionError(f"player {player} has taken {coins!r}; use coin letters P N D Q")
        taken.append(coins)
    return tuple(taken)


def _read_take_order(
    raw: Any, last_taker: Any, players: int, taken: tuple[str, ...]
) -> tuple[int, ...]:
    if raw is not None:
        order = tuple(_player(p, players, "take_order") for p in _list(raw))
        if len(set(order)) != len(order):
            raise PositionError(f"'take_order' repeats a player: {raw!r}")
        if last_taker is not None and (not order or order[0] != last_taker):
            raise PositionError(f"'last_taker' {last_taker!r} is not first in 'take_order'")
        return order
    if last_taker is None:
        return ()
    first = _player(last_taker, players, "last_taker")
    others = [p for p in range(1, players + 1) if p != first and taken[p - 1]]
    return (first, *others) if len(others) <= 1 else (first,)
