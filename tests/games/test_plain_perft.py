"""Coin Isolation's fast perft for the plain variants (bitboards and heights, the last two plies
counted from one changed bitboard) against the plain move-by-move recursion over
``legal_moves`` and ``apply``, on positions from random playouts under every combination of
the plain variants, with 2 to 4 players."""

import itertools
import random

import pytest

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


def reference_perft(position, depth):
    """perft the straightforward way: every legal move applied, the last ply listed."""
    if depth <= 0:
        return 1
    moves = GAME.legal_moves(position)
    if depth == 1:
        return len(moves)
    return sum(reference_perft(GAME.apply(position, move), depth - 1) for move in moves)


def rules_of(position):
    variants = position.variant_set
    return Rules(tuple(SIDE_ROWS[side] for side in position.sides), "diagonal" in variants,
                 "greedy" in variants, "cleanup" in variants)


@pytest.mark.parametrize("variants", COMBINATIONS, ids=lambda names: "+".join(names) or "none")
def test_fast_perft_equals_move_by_move_perft(variants):
    positions = playout_positions(variants, seed=len(variants) * 97 + 1, count=4)
    for number, position in enumerate(positions):
        depth = 3 if number == 0 and "diagonal" not in variants else 2
        if reference_perft(position, 1) > 300:
            depth = 1  # a diagonal start: thousands of children, each listed by the reference
        for level in range(1, depth + 1):
            assert plain_perft(position, level) == reference_perft(position, level), (
                position, level)


@pytest.mark.parametrize("variants", COMBINATIONS, ids=lambda names: "+".join(names) or "none")
def test_fast_children_are_the_applied_moves(variants):
    """Every child node is the node of one legal move's position, and the other way round;
    and a child's bitboards and heights agree with a position read from scratch."""
    for position in playout_positions(variants, seed=len(variants) * 31 + 7, count=5):
        counter = PlainCounter(rules_of(position))
        fast = sorted(counter.children(node_of(position)))
        moves = GAME.legal_moves(position)[:2000]
        if len(moves) == 2000:
            continue  # a diagonal start: the state counts are checked apart
        applied = sorted(node_of(GAME.apply(position, move)) for move in moves)
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
    assert plain_perft(position, 3) == reference_perft(position, 3) == 12240
    assert GAME.perft(position, 4) == 141282


def test_other_variants_keep_the_general_perft():
    position = GAME.new_position(2, ["transplant"], seed=4)
    assert GAME.perft(position, 2) == reference_perft(position, 2)


@pytest.mark.parametrize("variants", [(), ("mixed-change", "standing-still"), ("transplant",),
                                      ("mixed-change-2008", "greedy", "cleanup"),
                                      ("empty-squares", "renegade", "semi-greedy"),
                                      ("transplant-variant-variant", "mixed-change")],
                         ids=lambda names: "+".join(names) or "none")
def test_played_positions_carry_the_top_coin_bitboards_right(variants):
    """``play`` updates the top-coin bitboards on the squares a move touches; they must equal
    the bitboards read from all 64 squares of the same position made from scratch."""
    rng = random.Random(len(variants))
    for _ in range(6):
        position = GAME.new_position(rng.choice([2, 3, 4]), variants, seed=rng.randrange(999))
        for _ in range(12):
            if GAME.is_over(position):
                break
            _ = position.top_masks
            moves = list(itertools.islice(GAME.iter_moves(position), 300))
            position = GAME.apply(position, rng.choice(moves))
            fresh = GAME.position_from_json(position.to_json())
            assert "top_masks" in vars(position)
            assert position.top_masks == fresh.top_masks, position
            assert position.type_masks == fresh.type_masks, position
