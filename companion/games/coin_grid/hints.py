"""Evaluation hints for a search of Coin Grid (:mod:`companion.analysis`): material and
advancement.

A playout is cut short after :data:`PLAYOUT_PLIES` plies (a random game runs hundreds) and
scored by :func:`win_chances`. A seat's material is what its pieces are worth in battle: an
original single coin one die (:data:`SINGLE`), a double stack two (:data:`DOUBLE`), a dead coin
a halved die (:data:`DEAD`); coins in reserve may become double stacks (:data:`RESERVE_COIN`),
and each rank a piece has advanced towards the enemy star row adds :data:`ADVANCE_PER_RANK`
(the way to battles, double stacks and dead coins). A player with no piece loses, so the
estimate is a logistic of the log of the material ratio with scale :data:`SCALE`.
"""

from __future__ import annotations

import math

from companion.games.base import Position
from companion.games.coin_grid.board import FILE_COUNT, RANK_COUNT, bits, other
from companion.games.coin_grid.position import CoinGridPosition, Piece

#: Plies a playout runs before it is scored.
PLAYOUT_PLIES = 10
#: What each piece is worth: about its average battle roll, in dice.
SINGLE = 1.0
DOUBLE = 1.8
DEAD = 0.6
#: A coin in reserve: a double stack to be.
RESERVE_COIN = 0.5
#: The bonus per rank a piece stands from its own star row.
ADVANCE_PER_RANK = 0.03
#: A material ratio of r gives the ahead seat a chance of r ** (1 / SCALE) to 1.
SCALE = 0.12


def piece_value(piece: Piece) -> float:
    """What one piece is worth in battle."""
    if piece.dead:
        return DEAD
    return DOUBLE if piece.double else SINGLE


def material(position: CoinGridPosition, player: int) -> float:
    """``player``'s pieces (the attacker of a battle too), reserve and advancement."""
    mine = position.pieces_of(player)
    value = 0.0
    for square in bits(mine):
        bit = 1 << square
        value += DEAD if position.dead & bit else DOUBLE if position.double & bit else SINGLE
        rank = square // FILE_COUNT
        value += ADVANCE_PER_RANK * (rank if player == 1 else RANK_COUNT - 1 - rank)
    if position.attacker is not None and position.attacker.owner == player:
        value += piece_value(position.attacker)
    return value + RESERVE_COIN * position.reserve(player)


def win_chances(position: Position) -> dict[int, float]:
    """Each seat's chance to win from material: 0 or 1 once a side has no piece."""
    assert isinstance(position, CoinGridPosition)
    values = {player: material(position, player) for player in (1, 2)}
    for player in (1, 2):
        if position.piece_count(player) == 0:
            return {player: 0.0, other(player): 1.0}
    lead = math.log(values[1] / values[2])
    south = 1.0 / (1.0 + math.exp(-lead / SCALE))
    return {1: south, 2: 1.0 - south}
