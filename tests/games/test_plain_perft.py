"""Coin Isolation's fast perft for the plain variants (bitboards and heights, the last two plies
counted from one changed bitboard) against the plain move-by-move recursion of
:meth:`companion.games.base.Game.perft`, on positions from random playouts under every
combination of the plain variants, with 2 to 4 players."""

import itertools
import random

import pytest

from companion.games.base import Game
from companion.games.coin_isolation import GAME
from companion.games.coin_isolation.board import ADJACENT, SIDE_ROWS
from companion.games.coin_isolation.perft import (
    PLAIN_VARIANTS,
    PlainCounter,
    Rules,
    count_states,
    node_of,
    plain_perft,
    states,
)
from companion.games.coin_isolation.search import count_outcomes

COMBINATIONS = [combination for size in range(len(PLAIN_VARIANTS) + 1)
                for combination in itertools.combinations(sorted(PLAIN_VARIANTS), size)]


def playout_positions(variants, seed, count):
    """Positions met along random games (each game's first 12 plies at most)."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        position = GAME.new_position(rng.choice([2, 3, 4]), variants, seed=rng.randrange(10**6))
        for _ in range(rng.randrange(1, 12)):
            if GAME.is_over(position):
                break
            found.append(position)
            moves = list(itertools.islice(GAME.iter_moves(position), 400))
            position = GAME.apply(position, rng.choice(moves))
    return rng.sample(found, count)


def rules_of(position):
    variants = position.variant_set
    return Rules(tuple(SIDE_ROWS[side] for side in position.sides), "diagonal" in variants,
                 "greedy" in variants, "cleanup" in variants)


@pytest.mark.parametrize("variants", COMBINATIONS, ids=lambda names: "+".join(names) or "none")
def test_fast_perft_equals_move_by_move_perft(variants):
    positions = playout_positions(variants, seed=len(variants) * 97 + 1, count=4)
    for number, position in enumerate(positions):
        depth = 3 if number == 0 and "diagonal" not in variants else 2
        for level in range(1, depth + 1):
            assert plain_perft(position, level) == Game.perft(GAME, position, level), (
                position, level)


@pytest.mark.parametrize("variants", COMBINATIONS, ids=lambda names: "+".join(names) or "none")
def test_fast_children_are_the_applied_moves(variants):
    """Every child node is the node of one legal move's position, and the other way round;
    and a child's bitboards and heights agree with a position read from scratch."""
    for position in playout_positions(variants, seed=len(variants) * 31 + 7, count=5):
        counter = PlainCounter(rules_of(position))
        fast = sorted(counter.children(node_of(position)))
        applied = sorted(node_of(GAME.apply(position, move)) for move in GAME.legal_moves(position))
        assert fast == applied, position


def test_state_counts_equal_the_enumerated_states():
    rng = random.Random(3)
    for _ in range(300):
        allowed = rng.getrandbits(64) & rng.getrandbits(64) | rng.getrandbits(64) & (0xFF << 24)
        starts = rng.getrandbits(64) & rng.getrandbits(64)
        diagonal = rng.random() < 0.3
        listed = list(states(starts, allowed, ADJACENT[diagonal]))
        assert len(set(listed)) == len(listed)
        assert count_states(starts, allowed, diagonal) == len(listed)
        assert count_outcomes(starts, allowed, diagonal) == len(listed)


def test_the_orthogonal_start_of_the_bench():
    position = GAME.new_position(2, seed=1)
    assert plain_perft(position, 3) == Game.perft(GAME, position, 3) == 12240
    assert GAME.perft(position, 4) == 141282


def test_other_variants_keep_the_general_perft():
    position = GAME.new_position(2, ["transplant"], seed=4)
    assert GAME.perft(position, 2) == Game.perft(GAME, position, 2)
