"""Rolls folded into a decision: a node where the mover may roll or do something else (Coin
Grid's turn start: roll one die, or make a double stack) lists each die face among the mover's
moves, since deciding to roll and the roll are one step of the game tree. The face is chance,
not the mover's choice, so a search takes those moves as one action, rolling, whose face it
samples by its odds; a bot that picks one of them rolls, and the face is thrown, not chosen.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from companion.games.base import Game, Move, Position

Rolls = list[tuple[Move, float]]


def folded_rolls(game: Game, position: Position) -> Rolls:
    """The faces of a roll folded into this decision node, with their odds; empty at a chance
    node, at the end, and where the mover does not roll."""
    if game.is_over(position) or game.is_chance(position) or not game.dice_rolls(position):
        return []
    return [(move, float(weight)) for move, weight in game.chance_outcomes(position)]


def action_text(game: Game, position: Position, move: Move) -> str:
    """How a search's move reads: ``roll`` for a face of a roll folded into the decision (the
    search's one action for rolling, whatever face stands for it), else the move's text."""
    if any(face == move for face, _ in folded_rolls(game, position)):
        return "roll"
    return move.text()


def thrown(game: Game, position: Position, move: Move, rng: random.Random) -> Move:
    """``move`` as played: a face of a folded roll becomes a face thrown at random by its
    odds (the mover chose to roll, not the face); any other move is itself."""
    rolls = folded_rolls(game, position)
    if all(face != move for face, _ in rolls):
        return move
    return sample(rolls, rng)


def sample(rolls: Sequence[tuple[Move, float]], rng: random.Random) -> Move:
    """One face by its odds."""
    return rng.choices([face for face, _ in rolls], [weight for _, weight in rolls])[0]
