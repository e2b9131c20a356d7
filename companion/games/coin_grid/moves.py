"""Coin Grid actions and their text notation.

One word per action, no spaces, so an action is one command-line argument::

    roll:4            turn start: the mover rolls (deciding to roll and the roll are one step)
    double:c9         turn start: a reserve coin goes under the mover's single coin on c9
    b2-c4             after a roll: the piece on b2 moves to the empty square c4
    b2xc4             ... onto the enemy piece on c4: a battle follows
    pass              after a roll: the mover has no legal move
    attacker-wins     battle outcome (chance)
    defender-wins     battle outcome (chance)
    dead:a1           reward: a dead coin from the supply onto the empty square a1
    dead:xa1          reward: ... in exchange for the mover's own piece on a1, which leaves play
    decline           reward: no dead coin

``parse(text).text() == text`` for every action, and a text that is not in this form is a
:class:`~companion.games.base.NotationError` naming it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from companion.games.base import Move, NotationError
from companion.games.coin_grid.board import SQUARE_INDEX, SQUARE_NAMES, SQUARE_PATTERN

ROLL = "roll"
DOUBLE = "double"
STEP = "step"
PASS = "pass"
BATTLE = "battle"
DEAD = "dead"
DECLINE = "decline"
KINDS = (ROLL, DOUBLE, STEP, PASS, BATTLE, DEAD, DECLINE)
WINNERS = ("attacker", "defender")

_PATTERNS = (
    (ROLL, re.compile(r"roll:(?P<value>[1-6])")),
    (DOUBLE, re.compile(rf"double:(?P<square>{SQUARE_PATTERN})")),
    (STEP, re.compile(rf"(?P<origin>{SQUARE_PATTERN})(?P<sep>[-x])(?P<square>{SQUARE_PATTERN})")),
    (BATTLE, re.compile(r"(?P<winner>attacker|defender)-wins")),
    (DEAD, re.compile(rf"dead:(?P<sep>x?)(?P<square>{SQUARE_PATTERN})")),
)


@dataclass(frozen=True, repr=False)
class CoinGridMove(Move):
    """One Coin Grid action (see the module docstring for each ``kind``).

    ``square`` is the square the action ends on or names (a step's target, the double stack,
    the dead coin's square), ``origin`` a step's starting square (indices of
    :mod:`~companion.games.coin_grid.board`); ``capture`` marks a step onto an enemy piece and
    a dead coin exchanged for one of the mover's pieces; ``value`` is the rolled face and
    ``winner`` the side that wins a battle.
    """

    kind: str
    square: int | None = None
    origin: int | None = None
    capture: bool = False
    value: int | None = None
    winner: str | None = None

    @classmethod
    def parse(cls, text: str) -> CoinGridMove:
        """Read one action; raises :class:`NotationError` naming the text."""
        return parse_move(text)

    def text(self) -> str:
        """The notation of the module docstring."""
        if self.kind == STEP:
            assert self.origin is not None and self.square is not None
            separator = "x" if self.capture else "-"
            return f"{SQUARE_NAMES[self.origin]}{separator}{SQUARE_NAMES[self.square]}"
        if self.kind == ROLL:
            return f"roll:{self.value}"
        if self.kind == DOUBLE:
            assert self.square is not None
            return f"double:{SQUARE_NAMES[self.square]}"
        if self.kind == BATTLE:
            return f"{self.winner}-wins"
        if self.kind == DEAD:
            assert self.square is not None
            return f"dead:{'x' if self.capture else ''}{SQUARE_NAMES[self.square]}"
        return self.kind

    def regions(self) -> tuple[str, ...]:
        """The squares to draw: a step's origin and target, or the square a double stack or a
        dead coin goes to; none for rolls, battle outcomes, declining and passing."""
        if self.kind == STEP:
            assert self.origin is not None and self.square is not None
            return (SQUARE_NAMES[self.origin], SQUARE_NAMES[self.square])
        if self.square is not None:
            return (SQUARE_NAMES[self.square],)
        return ()

    def __repr__(self) -> str:
        return f"CoinGridMove.parse({self.text()!r})"


def parse_move(text: str) -> CoinGridMove:
    """Read the notation of the module docstring; raises :class:`NotationError`."""
    if not isinstance(text, str):
        raise NotationError(f"a Coin Grid move is text, not {text!r}")
    if text in (PASS, DECLINE):
        return CoinGridMove(text)
    for kind, pattern in _PATTERNS:
        match = pattern.fullmatch(text)
        if match is None:
            continue
        found = match.groupdict()
        if kind == ROLL:
            return roll_move(int(found["value"]))
        if kind == BATTLE:
            return battle_move(found["winner"])
        square = SQUARE_INDEX[found["square"]]
        if kind == DOUBLE:
            return CoinGridMove(DOUBLE, square)
        if kind == DEAD:
            return dead_move(square, found["sep"] == "x")
        origin = SQUARE_INDEX[found["origin"]]
        if origin == square:
            raise NotationError(f"Coin Grid move {text!r} ends where it starts")
        return step_move(origin, square, found["sep"] == "x")
    raise NotationError(f"cannot read Coin Grid move {text!r}; expected e.g. 'roll:4', "
                        "'b2-c4', 'b2xc4', 'double:c9', 'attacker-wins', 'dead:a1', "
                        "'decline' or 'pass'")


@cache
def step_move(origin: int, square: int, capture: bool) -> CoinGridMove:
    """The step from ``origin`` to ``square`` (onto an enemy piece when ``capture``); one
    shared value per step, as move lists build the same steps again and again."""
    return CoinGridMove(STEP, square, origin, capture)


@cache
def roll_move(value: int) -> CoinGridMove:
    """The turn-start action that rolls ``value``."""
    return CoinGridMove(ROLL, value=value)


@cache
def battle_move(winner: str) -> CoinGridMove:
    """The battle outcome won by ``winner`` (``attacker`` or ``defender``)."""
    return CoinGridMove(BATTLE, winner=winner)


@cache
def dead_move(square: int, exchange: bool) -> CoinGridMove:
    """The reward placing a dead coin on ``square`` (exchanging the piece there if
    ``exchange``)."""
    return CoinGridMove(DEAD, square, capture=exchange)


PASS_MOVE = CoinGridMove(PASS)
DECLINE_MOVE = CoinGridMove(DECLINE)
