"""A search told how many plies are left before the game is stopped at a ply cap (issue 22):
a line that reaches the cap is scored as the cap scores it (the leader on progress wins), not
by the hints' guess at what lies beyond."""

import random

import pytest

from companion.analysis import SearchError, SearchLimits, search
from companion.analysis.evaluation import leader_wins
from companion.games import get_game

GAME = get_game("shakala")


def position_with_a_capture(seed: int):
    """A Shakala position, a few random plies in, where some move scores points now."""
    rng = random.Random(seed)
    position = GAME.new_position(2)
    while True:
        children = GAME.children(position)
        mover = GAME.to_move(position)
        before = GAME.scores(position)[mover]
        if any(GAME.scores(GAME.apply(position, move))[mover] > before for move in children):
            return position
        position = GAME.apply(position, rng.choice(children))


@pytest.mark.parametrize("seed", [1, 2])
def test_with_one_ply_left_every_move_is_scored_by_the_cup_points_it_leaves(seed):
    position = position_with_a_capture(seed)
    moves = GAME.legal_moves(position)
    limits = SearchLimits(playouts=3 * len(moves), seed=3, plies_left=1)
    result = search(GAME, position, limits)
    assert len(result.estimates) == len(moves)
    mover = GAME.to_move(position)
    shares = {}
    for estimate in result.estimates:
        after = GAME.apply(position, estimate.move)
        shares[estimate.move] = leader_wins(GAME.progress(after), 2)[mover - 1]
        assert estimate.win_chance[mover] == shares[estimate.move]
    assert shares[result.best] == max(shares.values())


def test_no_ply_left_is_refused_in_a_sentence():
    with pytest.raises(SearchError, match="at least 1 ply left"):
        SearchLimits(playouts=10, plies_left=0)
