"""Coin Grid's fast perft (a roll's quiet steps counted once for all, and reach remembered
by board) against the straightforward counted perft, on nodes of every phase met along random
games under several option sets."""

import random

import pytest

from companion.games.base import counted_perft
from companion.games.coin_grid import GAME
from companion.games.coin_grid.perft import perft, rolled_two
from companion.games.coin_grid.rules import children, count_children, play, reach
from tests.games.coin_grid.playout import random_child


def reference_perft(position, depth):
    """Every child built, the last ply counted: the perft the engine had before."""
    return counted_perft(position, depth,
                         lambda node: (play(node, move) for move in children(node)),
                         count_children)


def nodes_along_random_games(variants, seed, count):
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        position = GAME.new_position(2, variants, seed=rng.randrange(1000))
        for _ in range(rng.randrange(20, 400)):
            if GAME.is_over(position):
                break
            if rng.random() < 0.1:
                found.append(position)
            position = GAME.apply(position, random_child(position, rng))
        else:
            found.append(position)
    return found[:count]


@pytest.mark.parametrize("variants", [(), ("short",), ("dead-coins-0",),
                                      ("short", "dead-coins-12")],
                         ids=lambda names: "+".join(names) or "none")
def test_fast_perft_equals_the_built_perft(variants):
    nodes = nodes_along_random_games(variants, seed=len(variants) + 11, count=40)
    phases = {node.phase for node in nodes}
    assert {"start", "rolled"} <= phases
    for node in nodes:
        for depth in (1, 2, 3):
            assert perft(node, depth) == reference_perft(node, depth), (node, depth)
        if node.phase == "rolled":
            assert rolled_two(node) == reference_perft(node, 2)


def test_remembered_reach_equals_a_fresh_flood():
    """reach on the same piece and board asked twice, and at every roll, is the layer by
    layer flood worked out again (the cache is keyed by everything the flood reads)."""
    for node in nodes_along_random_games((), seed=5, count=30):
        mine = node.pieces_of(node.to_move)
        for origin in range(72):
            if not mine >> origin & 1:
                continue
            for roll in range(1, 7):
                first = reach(node, origin, roll)
                assert reach(node, origin, roll) == first
                assert first == _plain_reach(node, origin, roll)


def _plain_reach(position, origin, roll):
    from companion.games.coin_grid.board import BOARD, HOME, WALL_ROLL, king_steps, other

    player = position.to_move
    home, away = HOME[player], BOARD & ~HOME[player]
    empty = BOARD & ~position.occupied
    enemy = position.pieces_of(other(player))
    visited = frontier = 1 << origin
    attacks = 0
    for _ in range(roll):
        if roll >= WALL_ROLL:
            near = king_steps(frontier)
        else:
            near = king_steps(frontier & away) | (king_steps(frontier & home) & home)
        attacks |= near & enemy
        frontier = near & empty & ~visited
        if not frontier:
            break
        visited |= frontier
    return visited ^ (1 << origin), attacks
