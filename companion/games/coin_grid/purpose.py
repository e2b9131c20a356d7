"""What a purposeful Coin Grid player goes for beyond the coins a move wins: battles, double
stacks, and closing in on the enemy's pieces (:meth:`CoinGrid.purpose`, for the demo's
``purposeful`` bots in :mod:`companion.analysis.bots`).

A player loses with their last piece, so the game moves on only through battles. Bots that
play any legal move, or the one adding most coins at once (an even battle adds none on
average), wander about their own half and a demo game ran 150 to 650 steps. A person goes for
the enemy: attacks a piece when the odds are not against them, makes a double stack (two dice
in battle) when a reserve coin allows one, and otherwise steps towards the nearest enemy piece
(crossing the wall on a 4 or more). The values are bonuses added to the move's expected gain
in coins, so a battle at poor odds still loses to a quiet step.
"""

from __future__ import annotations

from companion.games.coin_grid.battle import battle_odds
from companion.games.coin_grid.board import FILE_COUNT, bits, other
from companion.games.coin_grid.moves import DOUBLE, STEP, CoinGridMove
from companion.games.coin_grid.position import CoinGridPosition

#: A battle at odds of one in two or better: worth more than any quiet step.
ATTACK = 0.6
#: A double stack made instead of rolling: two dice in the battles to come.
DOUBLE_STACK = 0.8
#: Each king step a quiet move brings the piece nearer the nearest enemy piece.
CLOSING = 0.1


def purpose(position: CoinGridPosition, move: CoinGridMove) -> float:
    """How much ``move`` gets on with the game, beyond the coins it adds: :data:`ATTACK` for a
    battle not against the odds, :data:`DOUBLE_STACK` for a double stack, :data:`CLOSING` per
    king step nearer the enemy for a quiet step; 0 for a roll, a pass or a reward."""
    if move.kind == DOUBLE:
        return DOUBLE_STACK
    if move.kind != STEP or move.origin is None or move.square is None:
        return 0.0
    if move.capture:
        attacker, defender = position.piece_at(move.origin), position.piece_at(move.square)
        assert attacker is not None and defender is not None
        wins, _ = battle_odds(attacker, defender, move.square)
        return ATTACK if 2 * wins >= 1 else 0.0
    enemy = position.pieces_of(other(position.to_move))
    return CLOSING * (distance(move.origin, enemy) - distance(move.square, enemy))


def distance(square: int, pieces: int) -> int:
    """King steps from ``square`` to the nearest of ``pieces`` (0 when there are none)."""
    file, rank = square % FILE_COUNT, square // FILE_COUNT
    return min((max(abs(file - other_square % FILE_COUNT), abs(rank - other_square // FILE_COUNT))
                for other_square in bits(pieces)), default=0)
