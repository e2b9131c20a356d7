"""What a purposeful Shakala player goes for beyond the points a move takes: the end of the
game (:meth:`Shakala.purpose`, for the demo's ``purposeful`` bots in
:mod:`companion.analysis.bots`).

The rulings set no move limit, and a game ends only when the player to move has no beads.
Bots that play any legal move, or the one taking most points, take every gem and then sow
stones round and round: a greedy against a random bot had not ended a single game after 1,000
plies (``bench/bench_shakala_lengths.py``). A person plays the endgame to finish it, as the
rules text says: "players are no longer under the obligation to feed an opponent who ran out
of beads, but quite contrary find it their prime target, provided they have enough points".
So, on top of the points a move takes:

* a move that ends the game is worth :data:`WIN` to the winner (and costs a loser as much), and
  so is one after which every reply of the opponent ends it with the mover the winner;
* once no gem is left in a pit, only a capture from a cup still scores, so the mover keeps
  what they have: the move is charged the most points the opponent's best reply takes back
  (a two-ply look-ahead; while gems remain the bots take gems and do not look ahead, which
  made games three to six times longer when tried);
* with 20 points or more the mover starves the opponent: :data:`STARVING` less for each bead
  left on the opponent's side, so the opponent's own sowing empties it and a move that does
  not feed them wins. The whole of it is under one point, so it never outweighs a capture.
"""

from __future__ import annotations

from itertools import islice

from companion.games.shakala.board import other, side_pits
from companion.games.shakala.position import WIN_POINTS, ShakalaPosition
from companion.games.shakala.rules import is_over, successors, winner

#: What ending the game is worth to its winner, above any number of points.
WIN = 1000.0
#: Less for each bead on the opponent's side, for a mover with 20 points or more: the 16 stones
#: of the game together come to under one point.
STARVING = 0.05
#: The opponent's replies the look-ahead weighs at most (an endgame of stones has few; a pit
#: of many beads could have thousands).
REPLY_LIMIT = 2000


def purpose(position: ShakalaPosition, after: ShakalaPosition) -> float:
    """How much the move from ``position`` to ``after`` gets on with the game, for its mover,
    beyond the points it takes (see the module docstring)."""
    mover = position.to_move
    if is_over(after):
        return WIN if winner(after) == mover else -WIN
    return starving(after, mover) + keeping(after, mover)


def starving(after: ShakalaPosition, mover: int) -> float:
    """:data:`STARVING` less per bead on the opponent's side once the mover has 20 points."""
    if after.points(mover) < WIN_POINTS:
        return 0.0
    return -STARVING * sum(len(after.pits[pit]) for pit in side_pits(other(mover)))


def keeping(after: ShakalaPosition, mover: int) -> float:
    """In the endgame of stones: the points the opponent's best reply takes back, as a loss (a
    reply that ends the game with the mover losing costs :data:`WIN`), or :data:`WIN` when
    every reply ends it with the mover winning; 0 while gems remain in pits."""
    if after.gems_in_pits:
        return 0.0
    replies = [reply for _, reply in islice(successors(after), REPLY_LIMIT)]
    if replies and all(is_over(reply) and winner(reply) == mover for reply in replies):
        return WIN
    before = margin(after, mover)
    return min([0.0] + [margin(reply, mover) - before for reply in replies])

def margin(position: ShakalaPosition, player: int) -> float:
    """``player``'s points less the opponent's, or :data:`WIN` (a loss: minus) at the end."""
    if is_over(position):
        return WIN if winner(position) == player else -WIN
    return float(position.points(player) - position.points(other(player)))
