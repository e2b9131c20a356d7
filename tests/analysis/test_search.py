"""The search API on every registered game: it answers with legal moves and sane chances, a
seeded playout-bounded search is reproducible, and it refuses what it cannot search."""

import random

import pytest

from companion.analysis import SearchError, SearchLimits, search
from companion.games import game_names, get_game


def playable_position(game, seed):
    """A position a few random plies into a game, past any chance node, not finished."""
    players = max(2, game.info.min_players)
    rng = random.Random(seed)
    position = game.new_position(players, (), seed=seed)
    for _ in range(rng.randrange(0, 6)):
        if game.is_over(position):
            break
        position = game.apply(position, rng.choice(game.children(position)))
    while game.is_chance(position):
        position = game.apply(position, game.chance_outcomes(position)[0][0])
    if game.is_over(position):
        position = game.new_position(players, (), seed=seed)
    return position


@pytest.mark.parametrize("name", game_names())
def test_every_game_is_searched_with_legal_moves_and_chances_that_add_up(name):
    game = get_game(name)
    position = playable_position(game, 4)
    result = search(game, position, SearchLimits(playouts=60, seed=2))
    legal = {move.text() for move in game.legal_moves(position)}
    assert result.best.text() in legal
    assert {estimate.move.text() for estimate in result.estimates} <= legal
    assert result.playouts == 60
    assert sum(estimate.visits for estimate in result.estimates) == 60
    visits = [estimate.visits for estimate in result.estimates]
    assert visits == sorted(visits, reverse=True)
    assert result.best == result.estimates[0].move
    seats = set(game.scores(position))
    assert set(result.win_chance) == seats
    assert all(0.0 <= chance <= 1.0 for chance in result.win_chance.values())


@pytest.mark.parametrize("name", game_names())
def test_the_same_seed_and_playouts_give_the_same_answer(name):
    game = get_game(name)
    position = playable_position(game, 9)
    first = search(game, position, SearchLimits(playouts=80, seed=5))
    again = search(game, position, SearchLimits(playouts=80, seed=5))
    assert first == again


def test_another_seed_grows_another_tree():
    game = get_game("coin-isolation")
    position = game.new_position(2, (), seed=1)
    results = {tuple((e.move.text(), e.visits) for e in search(
        game, position, SearchLimits(playouts=200, seed=seed)).estimates) for seed in range(3)}
    assert len(results) > 1


def test_a_finished_game_and_a_chance_node_are_refused_in_a_sentence():
    game = get_game("coin-grid")
    position = game.new_position(2, (), seed=1)
    assert game.is_chance(position)
    with pytest.raises(SearchError, match="chance node"):
        search(game, position, SearchLimits(playouts=10))
    isolation = get_game("coin-isolation")
    position = isolation.new_position(2, (), seed=1)
    rng = random.Random(0)
    while not isolation.is_over(position):
        position = isolation.apply(position, rng.choice(isolation.legal_moves(position)))
    with pytest.raises(SearchError, match="game is over"):
        search(isolation, position, SearchLimits(playouts=10))


def test_limits_without_a_bound_are_refused():
    with pytest.raises(SearchError, match=r"time .* or a playout bound"):
        SearchLimits()
    with pytest.raises(SearchError, match="at least 1 worker"):
        SearchLimits(playouts=5, workers=0)


def test_two_workers_share_the_playouts_and_repeat_their_answer():
    from companion.analysis.search import worker_pool

    game = get_game("coin-isolation")
    position = game.new_position(2, (), seed=6)
    limits = SearchLimits(playouts=101, seed=4, workers=2)
    with worker_pool(2) as pool:
        first = search(game, position, limits, pool=pool)
        again = search(game, position, limits, pool=pool)
    assert first == again
    assert first.playouts == 101
    assert sum(estimate.visits for estimate in first.estimates) == 101
    alone = search(game, position, SearchLimits(playouts=101, seed=4))
    assert alone.estimates != first.estimates
