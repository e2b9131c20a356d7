"""One random step of a Coin Grid game, for the tests, the perft file maker and the bench: a
chance node's outcome drawn with its exact odds, else any child alike."""

from __future__ import annotations

import random

from companion.games.base import Move
from companion.games.coin_grid import GAME
from companion.games.coin_grid.position import CoinGridPosition


def chance_child(position: CoinGridPosition, rng: random.Random) -> Move:
    """An outcome of the chance node ``position``, drawn with its probability."""
    outcomes = GAME.chance_outcomes(position)
    return rng.choices([move for move, _ in outcomes],
                       weights=[float(chance) for _, chance in outcomes])[0]


def random_child(position: CoinGridPosition, rng: random.Random) -> Move:
    """A chance outcome by its odds, or any of a decision's children."""
    if GAME.is_chance(position):
        return chance_child(position, rng)
    return rng.choice(GAME.children(position))
