"""Coin Grid's perft: the game tree of RULINGS.md counted with its last ply not built, and the
last two plies after a roll counted mostly without building the steps' positions.

After a roll, every step onto an empty square that does not earn a reward leads to the other
player's turn start, and what that node offers (its rolls, and the double stacks of the other
player's pieces and reserve, which the step leaves alone; or nothing, when the game is over,
which a quiet step does not change either) is the same for all such steps. So one of them is
built and counted, and its count stands for all; a step onto an enemy piece (a battle) or onto
the enemy star row while the supply holds a dead coin (a reward) is built and counted alone.
The straightforward :func:`~companion.games.base.counted_perft` stays the reference; the tests
compare both.
"""

from __future__ import annotations

from companion.games.coin_grid.board import STAR_ROW, bits, other
from companion.games.coin_grid.moves import PASS_MOVE, step_move
from companion.games.coin_grid.position import CoinGridPosition
from companion.games.coin_grid.rules import (
    children,
    count_children,
    is_over,
    play,
    step_reaches,
)


def perft(position: CoinGridPosition, depth: int) -> int:
    """The leaves of the game tree ``depth`` steps below ``position``."""
    if depth <= 0:
        return 1
    if depth == 1:
        return count_children(position)
    if depth == 2 and position.phase == "rolled" and not is_over(position):
        return rolled_two(position)
    return sum(perft(play(position, move), depth - 1) for move in children(position))


def rolled_two(position: CoinGridPosition) -> int:
    """perft 2 of a node after a roll: the quiet steps' turn starts counted once for all."""
    reaches = step_reaches(position, remembered=True)
    if not reaches:
        return count_children(play(position, PASS_MOVE))
    rewarding = STAR_ROW[other(position.to_move)] if position.supply else 0
    total = quiet_steps = 0
    sample = None
    for origin, quiet, attacks in reaches:
        ordinary = quiet & ~rewarding
        if ordinary and sample is None:
            sample = step_move(origin, (ordinary & -ordinary).bit_length() - 1, False)
        quiet_steps += ordinary.bit_count()
        for square in bits((quiet & rewarding) | attacks):
            move = step_move(origin, square, bool(attacks >> square & 1))
            total += count_children(play(position, move))
    if sample is not None:
        total += quiet_steps * count_children(play(position, sample))
    return total
