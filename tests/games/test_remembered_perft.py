"""perft with subtree counts remembered by (position, depth) (transpositions counted once)
against perft that walks every line, on a small tree full of transpositions and on nodes met
along random games of the games that use it."""

import random

import pytest

from companion.games import get_game
from companion.games.base import counted_perft, remembered_perft


def test_a_tree_of_transpositions_counts_every_line():
    def children(number):
        return [number + 1, number + 2, number * 2 % 17]

    def count(number):
        return len(children(number)) - (number % 5 == 0)

    for depth in range(6):
        assert remembered_perft(3, depth, children, count) == counted_perft(
            3, depth, children, count)


def walked_perft(game, position, depth):
    """Every child made through the public hooks, the last ply listed."""
    if depth <= 0:
        return 1
    actions = game.children(position)
    if depth == 1:
        return len(actions)
    return sum(walked_perft(game, game.apply(position, action), depth - 1)
               for action in actions)


def random_nodes(game, players, seed, count):
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        position = game.new_position(players, seed=rng.randrange(1000))
        for _ in range(rng.randrange(5, 60)):
            if game.is_over(position):
                break
            if game.is_chance(position):
                outcomes = game.chance_outcomes(position)
                action = rng.choices([move for move, _ in outcomes],
                                     weights=[float(odds) for _, odds in outcomes])[0]
            else:
                action = rng.choice(game.children(position))
            position = game.apply(position, action)
        found.append(position)
    return found


@pytest.mark.parametrize(("name", "players", "depth"), [("shakala", 2, 2),
                                                        ("jokers-and-coins", 4, 3),
                                                        ("jokers-and-coins", 2, 3)])
def test_engine_perft_equals_the_walked_perft(name, players, depth):
    game = get_game(name)
    for position in random_nodes(game, players, seed=len(name) * players, count=8):
        for level in range(1, depth + 1):
            assert game.perft(position, level) == walked_perft(game, position, level), (
                position, level)
