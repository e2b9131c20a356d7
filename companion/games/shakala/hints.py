"""Evaluation hints for a search of Shakala (:mod:`companion.analysis`): points in each cup and
the gems still in the pits.

A playout is cut short after :data:`PLAYOUT_PLIES` plies and scored by :func:`win_chances`.
Gems are captured from the opponent's side, so each seat expects its cup plus
:data:`OPPONENT_SIDE_SHARE` of the gems in the opponent's pits and the rest of those in its own;
the estimate is a logistic of the difference with scale :data:`SCALE` points. A seat with 20
points (:data:`~companion.games.shakala.position.WIN_POINTS`) whose opponent cannot reach 20 even
with every gem left wins whatever happens (whoever empties the other), but only once the game
ends, so such a position scores :data:`DECIDED` and not 1: the search still prefers ending the
game now to sowing on.

The playouts are cut at once (0 plies): the tree's leaves are scored by the estimate directly,
as Jokers and Coins' are. Eight random sowings moved gems between pits and cups by more than a
move's difference, and made a playout fourteen times dearer (128 against 1834 a processor
second). With the bench's 40-ply cap told to the search, a 1-second search (1834 playouts) won
10 of 10 games against greedy; 128 playouts won 3 of 10, and 128 at 8 plies, the cap not told,
1.5 of 10 (issue 22).
"""

from __future__ import annotations

import math

from companion.games.base import Position
from companion.games.shakala.board import other, side_pits
from companion.games.shakala.position import WIN_POINTS, ShakalaPosition

#: Plies a playout runs before it is scored (a random Shakala game runs hundreds).
PLAYOUT_PLIES = 0
#: The share of the gems on a seat's opponent's side that seat is expected to capture.
OPPONENT_SIDE_SHARE = 0.55
#: A lead of this many expected points makes a seat about e times likelier to win.
SCALE = 1.5
#: The chance given to a seat that has won unless the game never ends.
DECIDED = 0.8


def expected_points(position: ShakalaPosition, player: int) -> float:
    """``player``'s cup plus their expected share of the gems still in the pits."""
    mine = sum(sum(position.pits[pit]) for pit in side_pits(player))
    theirs = sum(sum(position.pits[pit]) for pit in side_pits(other(player)))
    return (position.points(player) + OPPONENT_SIDE_SHARE * theirs
            + (1 - OPPONENT_SIDE_SHARE) * mine)


def win_chances(position: Position) -> dict[int, float]:
    """Each seat's chance to win from the points taken and still to take."""
    assert isinstance(position, ShakalaPosition)
    left = sum(sum(beads) for beads in position.pits)
    for player in (1, 2):
        opponent = other(player)
        if position.points(player) >= WIN_POINTS > position.points(opponent) + left:
            return {player: DECIDED, opponent: 1.0 - DECIDED}
    lead = expected_points(position, 1) - expected_points(position, 2)
    south = 1.0 / (1.0 + math.exp(-lead / SCALE))
    return {1: south, 2: 1.0 - south}
