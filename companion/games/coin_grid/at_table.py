"""Coin Grid at the table: the real dice each node needs, what they give, and what the mover is
told to do.

A turn start is one roll of one die by the mover (also where a double stack could be made
instead). A battle is two rolls, the attacker's then the defender's, one die a side or two for a
double stack; a total rolled against a dead coin or against a double stack in its owner's half
counts half, rounded down (:func:`~companion.games.coin_grid.battle.half_damage`), and a tie is
rolled again.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.base import DiceRoll, RulesError
from companion.games.coin_grid.battle import half_damage
from companion.games.coin_grid.board import SQUARE_NAMES, bits, other
from companion.games.coin_grid.moves import CoinGridMove, battle_move, roll_move
from companion.games.coin_grid.position import CoinGridPosition
from companion.games.coin_grid.rules import (
    double_squares,
    held_back,
    is_over,
    reward_squares,
    step_reaches,
)

SIDE_TITLES = ("South", "North")


def side(player: int) -> str:
    """``South`` or ``North``."""
    return SIDE_TITLES[player - 1]


def dice_rolls(position: CoinGridPosition) -> tuple[DiceRoll, ...]:
    """The rolls that settle the node: the mover's die at a turn start, both sides' dice in a
    battle; none elsewhere."""
    if is_over(position):
        return ()
    if position.phase == "start":
        return (DiceRoll(position.to_move, 1, f"{side(position.to_move)}'s roll"),)
    square, attacker = position.battle_square, position.attacker
    if position.phase != "battle" or square is None or attacker is None:
        return ()
    defender = position.piece_at(square)
    assert defender is not None
    name = SQUARE_NAMES[square]
    return (
        DiceRoll(attacker.owner, attacker.coins, f"{side(attacker.owner)}'s attack on {name}",
                 halved=half_damage(defender, square)),
        DiceRoll(defender.owner, defender.coins, f"{side(defender.owner)}'s defence of {name}",
                 halved=half_damage(attacker, square)),
    )


def outcome_of_dice(position: CoinGridPosition, faces: Sequence[Sequence[int]]
                    ) -> CoinGridMove | None:
    """``roll:N`` at a turn start; the battle's winner from both totals (None for a tie)."""
    rolls = dice_rolls(position)
    if not rolls or len(faces) != len(rolls):
        raise RulesError(f"this node takes {len(rolls)} roll(s) of dice, not {len(faces)}")
    for roll, rolled in zip(rolls, faces, strict=True):
        if len(rolled) != roll.dice or not all(1 <= face <= 6 for face in rolled):
            raise RulesError(f"{roll.label} is {roll.dice} die face(s) of 1 to 6, not "
                             f"{list(rolled)}")
    if position.phase == "start":
        return roll_move(faces[0][0])
    attack, defence = (roll.total(rolled) for roll, rolled in zip(rolls, faces, strict=True))
    if attack == defence:
        return None
    return battle_move("attacker" if attack > defence else "defender")


def prompt(position: CoinGridPosition) -> str:
    """What the mover does now, for the screen."""
    if is_over(position):
        return ""
    mover = side(position.to_move)
    if position.phase == "start":
        doubles = _names(double_squares(position))
        if doubles:
            return (f"{mover} may roll, or put a reserve coin under their coin on {doubles} "
                    "and declare the double stack with select and confirm.")
        return ""
    if position.phase == "rolled":
        if not step_reaches(position):
            return f"{mover} rolled {position.roll} and has no legal move."
        waiting = _names(held_back(position))
        rule = (f" {waiting} must wait: every original coin moves once before any moves twice."
                if waiting else "")
        return f"{mover} rolled {position.roll}: move a piece up to {position.roll} squares.{rule}"
    if position.phase == "reward":
        squares, exchange = reward_squares(position)
        how = "in exchange for your piece on" if exchange else "onto"
        return (f"{mover} may bring a dead coin (a dime) from the supply {how} "
                f"{_names(squares)}, then press your button; press it with the board as it is "
                "to decline.")
    return f"Battle: {side(position.to_move)} attacks {side(other(position.to_move))}."


def table_note(position: CoinGridPosition, move: CoinGridMove) -> str:
    """What the players do by hand that the camera cannot check: the loser's coins into the
    winner's reserve after a battle (the winner's own coin stays on top), a reserve coin under
    a double stack."""
    if move.kind == "double" and move.square is not None:
        return (f"Put a coin from your reserve under your coin on {SQUARE_NAMES[move.square]}; "
                "the screen marks the double stack.")
    square, attacker = position.battle_square, position.attacker
    if move.kind != "battle" or square is None or attacker is None:
        return ""
    defender = position.piece_at(square)
    assert defender is not None
    winner, loser = (attacker, defender) if move.winner == "attacker" else (defender, attacker)
    coins = "coins" if loser.coins > 1 else "coin"
    where = "from under the winner's coin" if move.winner == "attacker" else "off the top"
    return (f"{side(loser.owner)}'s {coins} on {SQUARE_NAMES[square]} ({where}) go into "
            f"{side(winner.owner)}'s reserve.")


def seat_notes(position: CoinGridPosition) -> dict[int, str]:
    """``3 in reserve, 1 dead coin`` per player (the screen's words beside the score)."""
    notes = {}
    for player in (1, 2):
        dead = len(bits(position.pieces_of(player) & position.dead))
        note = f"{position.reserve(player)} in reserve"
        if dead:
            note += f", {dead} dead coin{'s' if dead > 1 else ''}"
        notes[player] = note
    return notes


def _names(squares: int, limit: int = 6) -> str:
    names = [SQUARE_NAMES[square] for square in bits(squares)]
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")
