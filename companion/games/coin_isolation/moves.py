"""Coin Isolation moves and their text notation.

Notation (no spaces, so a move is one command-line word)::

    pass                      the player has no move and passes
    c1-c2-d2-d3               a path, target last
    stay                      standing-still: take one coin from the source square
    N:stay                    ... under mixed-change, naming the coin type taken
    P:c1-c2                   mixed-change: the coin type named for the path
    P:c1-c2^N                 ... and the coin(s) moved from the source square (``^PN`` under
                              mixed-change-2008, bottom-to-top stack order)
    c1-c2x0                   semi-greedy: how many coins are taken from the target
    c1-c2-d2>e4,f5            transplant: the squares that receive the collected coins
    renegade:c1-c2            renegade: declare at the start of this turn, then move

The parts combine in this order: ``[renegade:][TYPE:]path[^COINS][xCOUNT][>PLACEMENTS]``.
Two moves are equal when they have the same outcome identity: the same set of path squares, the
same target and the same choices; the path's order is only the representative drawn and printed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from companion.games.base import Move, NotationError
from companion.games.coin_isolation.board import (
    COIN_VALUES,
    SQUARE_INDEX,
    SQUARE_NAMES,
    STACK_RANK,
)

PASS = "pass"
PATH = "path"
STAY = "stay"

_MOVE_PATTERN = re.compile(
    r"^(?P<renegade>renegade:)?"
    r"(?:(?P<coin>[A-Z]):)?"
    r"(?P<body>stay|[a-z][0-9](?:-[a-z][0-9])*)"
    r"(?:\^(?P<source>[A-Z]+))?"
    r"(?:x(?P<take>[0-9]+))?"
    r"(?:>(?P<placements>[a-z][0-9](?:,[a-z][0-9])*))?$"
)


@dataclass(frozen=True, eq=False, repr=False)
class CoinIsolationMove(Move):
    """One Coin Isolation action. ``steps`` are square indices of the path, target last.

    ``kind`` is ``path``, ``stay`` or ``pass``; ``coin`` is the named coin type (mixed-change, or
    the type taken when standing still under mixed-change); ``source_coins`` the coins moved from
    the source square (mixed-change); ``take`` how many coins are taken (semi-greedy, else None);
    ``placements`` the squares receiving collected coins (transplant), in index order;
    ``renegade`` whether the player declares renegade with this move.
    """

    steps: tuple[int, ...] = ()
    kind: str = PATH
    coin: str | None = None
    source_coins: str = ""
    take: int | None = None
    placements: tuple[int, ...] = ()
    renegade: bool = False

    @classmethod
    def parse(cls, text: str) -> CoinIsolationMove:
        """Parse the notation in the module docstring; raises :class:`NotationError`."""
        if text == PASS:
            return cls(kind=PASS)
        match = _MOVE_PATTERN.match(text)
        if match is None:
            raise NotationError(f"cannot read move {text!r}; expected e.g. 'c1-c2-d2' or 'pass'")
        coin = match["coin"]
        for letter in (coin or "") + (match["source"] or ""):
            if letter not in COIN_VALUES:
                raise NotationError(f"unknown coin letter {letter!r} in move {text!r}")
        body = match["body"]
        steps = () if body == STAY else _squares(body.split("-"), text)
        placements = _squares(match["placements"].split(","), text) if match["placements"] else ()
        if len(set(steps)) != len(steps):
            raise NotationError(f"move {text!r} visits a square twice")
        if len(set(placements)) != len(placements):
            raise NotationError(f"move {text!r} places two coins on one square")
        source = match["source"] or ""
        move = cls(
            steps=steps,
            kind=STAY if body == STAY else PATH,
            coin=coin,
            source_coins="".join(sorted(source, key=STACK_RANK.__getitem__)),
            take=None if match["take"] is None else int(match["take"]),
            placements=tuple(sorted(placements)),
            renegade=match["renegade"] is not None,
        )
        if move.text() != text:
            raise NotationError(f"move {text!r} is not in canonical form; write {move.text()!r}")
        return move

    @cached_property
    def path(self) -> tuple[str, ...]:
        """The representative path as square names, target last (empty for pass and stay)."""
        return tuple(SQUARE_NAMES[step] for step in self.steps)

    @cached_property
    def mask(self) -> int:
        """The set of path squares as a bitboard."""
        mask = 0
        for step in self.steps:
            mask |= 1 << step
        return mask

    @property
    def target(self) -> int | None:
        """The index of the target square, or None for pass and stay."""
        return self.steps[-1] if self.steps else None

    def key(self) -> tuple[object, ...]:
        """The outcome identity: what equality and hashing compare."""
        return (
            self.kind,
            self.coin,
            self.mask,
            self.target,
            self.source_coins,
            self.take,
            self.placements,
            self.renegade,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CoinIsolationMove):
            return NotImplemented
        return self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def text(self) -> str:
        """The move in the notation of the module docstring."""
        if self.kind == PASS:
            return PASS
        parts = ["renegade:" if self.renegade else ""]
        if self.coin is not None:
            parts.append(f"{self.coin}:")
        parts.append(STAY if self.kind == STAY else "-".join(self.path))
        if self.source_coins:
            parts.append(f"^{self.source_coins}")
        if self.take is not None:
            parts.append(f"x{self.take}")
        if self.placements:
            parts.append(">" + ",".join(SQUARE_NAMES[square] for square in self.placements))
        return "".join(parts)

    def regions(self) -> tuple[str, ...]:
        """The path to draw, target last, then the transplant placements."""
        return self.path + tuple(SQUARE_NAMES[square] for square in self.placements)

    def __repr__(self) -> str:
        return f"CoinIsolationMove.parse({self.text()!r})"


def _squares(names: list[str], text: str) -> tuple[int, ...]:
    squares = []
    for name in names:
        index = SQUARE_INDEX.get(name)
        if index is None:
            raise NotationError(f"bad square name {name!r} in move {text!r}; squares are a1..h8")
        squares.append(index)
    return tuple(squares)


def fast_path_move(steps: tuple[int, ...]) -> CoinIsolationMove:
    """A plain path move without the dataclass constructor's cost (hot loop of move generation)."""
    move = object.__new__(CoinIsolationMove)
    move.__dict__["steps"] = steps  # the other fields fall back to their class-level defaults
    return move


def placed_move(move: CoinIsolationMove, placements: tuple[int, ...]) -> CoinIsolationMove:
    """``move`` with other transplant ``placements`` (in index order), without the dataclass
    constructor's cost: it shares ``move``'s fields and its computed path and mask, which do not
    depend on the placements (hot loop of transplant generation)."""
    placed = object.__new__(CoinIsolationMove)
    placed.__dict__.update(move.__dict__)
    placed.__dict__["placements"] = placements
    return placed
