"""Why a Coin Grid action is illegal, in a sentence for the player.

:func:`check` lets a child of the node through (:func:`~companion.games.coin_grid.rules.is_legal`
tells without listing the children) and raises
:class:`~companion.games.base.IllegalMoveError` for anything else, naming the action and the
rule it breaks (wrong step of the turn, a square out of reach, the wall, the
move-every-original-coin-first rule, no reserve for a double stack, a dead coin's square).
"""

from __future__ import annotations

from companion.games.base import IllegalMoveError
from companion.games.coin_grid.board import SQUARE_NAMES, WALL_ROLL, bits
from companion.games.coin_grid.moves import (
    BATTLE,
    DEAD,
    DECLINE,
    DOUBLE,
    PASS,
    ROLL,
    STEP,
    CoinGridMove,
)
from companion.games.coin_grid.position import CoinGridPosition
from companion.games.coin_grid.rules import is_legal, is_over, reach, reward_squares

#: The kinds of action each step of the turn takes, and how to write them.
EXPECTED = {
    "start": ((ROLL, DOUBLE), "a roll (roll:N) or a double stack (double:SQUARE)"),
    "rolled": ((STEP, PASS), "a step (b2-c4, or b2xc4 onto an enemy piece) or pass"),
    "battle": ((BATTLE,), "attacker-wins or defender-wins"),
    "reward": ((DEAD, DECLINE), "a dead coin (dead:SQUARE or dead:xSQUARE) or decline"),
}


def check(position: CoinGridPosition, move: CoinGridMove) -> None:
    """Raise :class:`IllegalMoveError` saying why, unless ``move`` is a child of the node."""
    if is_legal(position, move):
        return
    text = move.text()
    if is_over(position):
        raise IllegalMoveError(f"illegal Coin Grid move {text!r}: the game is over")
    kinds, wanted = EXPECTED[position.phase]
    if move.kind not in kinds:
        raise IllegalMoveError(f"illegal Coin Grid move {text!r} in phase {position.phase!r}; "
                               f"the turn needs {wanted}")
    raise IllegalMoveError(f"illegal Coin Grid move {text!r}: {_why(position, move)}")


def _why(position: CoinGridPosition, move: CoinGridMove) -> str:
    """Why a move of the right kind for the phase is not legal here."""
    player = position.to_move
    if move.kind == STEP and move.origin is not None and move.square is not None:
        return _why_step(position, move.origin, move.square, move.capture)
    if move.kind == DOUBLE:
        if not position.reserve(player):
            return f"player {player} has no coin in reserve"
        return "a double stack goes under one's own single original coin in the enemy half"
    if move.kind == DEAD:
        squares, exchange = reward_squares(position)
        where = ", ".join(SQUARE_NAMES[index] for index in bits(squares)) or "no square"
        written = "dead:xSQUARE, an exchange" if exchange else "dead:SQUARE"
        return f"the dead coin may go to {where} ({written}), or the player may decline"
    if move.kind == PASS:
        return "the mover has a legal move"
    return "that side cannot win this battle"


def _why_step(position: CoinGridPosition, origin: int, square: int, capture: bool) -> str:
    player, roll = position.to_move, position.roll or 0
    name, target_name = SQUARE_NAMES[origin], SQUARE_NAMES[square]
    if not position.pieces_of(player) >> origin & 1:
        return f"player {player} has no piece on {name}"
    quiet, attacks = reach(position, origin, roll)
    target = 1 << square
    if not (quiet | attacks) & target:
        over_quiet, over_attacks = reach(position, origin, roll, crossing=True)
        if roll < WALL_ROLL and (over_quiet | over_attacks) & target:
            return (f"the piece on {name} would cross the wall to reach {target_name}, which "
                    f"needs a roll of {WALL_ROLL} or more, not {roll}")
        return (f"the piece on {name} cannot reach {target_name} with a {roll} through "
                "empty squares")
    if bool(attacks & target) != capture:
        separator = "x" if attacks & target else "-"
        return f"write {name}{separator}{target_name}"
    return (f"the piece on {name} has moved, and every original coin moves once before any "
            "coin moves twice")
