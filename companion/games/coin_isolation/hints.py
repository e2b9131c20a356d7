"""Evaluation hints for a search of Coin Isolation (:mod:`companion.analysis`): material and
mobility.

A playout is cut short after :data:`PLAYOUT_PLIES` plies and scored by :func:`win_chances`:
each seat's cents taken plus :data:`MOBILITY_CENTS` for every square its pawn could end a move
on now (the squares a seat reaches are the coins it may still take; a seat walled in takes no
more), turned into shares by a softmax whose scale is :data:`SCALE` cents.
"""

from __future__ import annotations

import math
from dataclasses import replace

from companion.games.base import Position
from companion.games.coin_isolation.position import CoinIsolationPosition
from companion.games.coin_isolation.rules import legal_targets

#: Plies a playout runs before it is scored.
PLAYOUT_PLIES = 10
#: What one reachable square is worth, in cents taken.
MOBILITY_CENTS = 1.5
#: A lead of this many cents makes a seat about e times likelier to win.
SCALE = 12.0


def win_chances(position: Position) -> dict[int, float]:
    """Each seat's chance to win from material and mobility."""
    assert isinstance(position, CoinIsolationPosition)
    values = {}
    for seat in range(1, position.players + 1):
        reach = legal_targets(replace(position, to_move=seat, passes=0)).bit_count()
        values[seat] = position.score(seat) + MOBILITY_CENTS * reach
    top = max(values.values())
    weights = {seat: math.exp((value - top) / SCALE) for seat, value in values.items()}
    total = sum(weights.values())
    return {seat: weight / total for seat, weight in weights.items()}
