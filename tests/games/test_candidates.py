"""candidates(position, observation) against brute force: every legal move whose result looks
the same to a camera that sees top coins and pawns, but not stack heights."""

import itertools
import random

import pytest

from companion.games.coin_isolation import GAME
from companion.games.coin_isolation.board import SQUARE_NAMES
from companion.games.coin_isolation.candidates import view
from companion.games.coin_isolation.position import VARIANTS
from contract.observation import Observation


def observe(position):
    """What a perfect camera reports for ``position`` (pawn labels are player numbers)."""
    seen = view(position)
    coins = {SQUARE_NAMES[i]: coin for i, (coin, _) in enumerate(seen) if coin}
    pawns = {pawn: SQUARE_NAMES[i] for i, (_, pawn) in enumerate(seen) if pawn}
    return Observation.of_board(coins, pawns)


def outcomes(position, moves):
    return [GAME.apply(position, move).canonical_json() for move in moves]


def brute_force(position, moves, observed):
    results = [GAME.apply(position, move) for move in moves]
    return {after.canonical_json() for after in results if view(after) == observed}


def random_position(rng, seed):
    variants = [variant for variant in VARIANTS if rng.random() < 0.25]
    if "diagonal" in variants and {"transplant", "transplant-variant-variant"} & set(variants):
        variants.remove("diagonal")  # listing those moves on a full board is slow (documented)
    position = GAME.new_position(rng.choice([2, 3, 4]), variants, seed=seed)
    for _ in range(rng.randrange(0, 30)):
        if GAME.is_over(position):
            break
        moves = list(itertools.islice(GAME.iter_moves(position), 200))
        position = GAME.apply(position, rng.choice(moves))
    return position


@pytest.mark.parametrize("block", range(8))
def test_candidates_match_brute_force_on_random_positions(block):
    rng = random.Random(1000 + block)
    checked = ambiguous = 0
    for seed in range(block * 40, block * 40 + 40):
        position = random_position(rng, seed)
        if GAME.is_over(position):
            continue
        moves = list(itertools.islice(GAME.iter_moves(position), 601))
        if len(moves) > 600:
            continue
        played = rng.choice(moves)
        after = GAME.apply(position, played)
        found = GAME.candidates(position, observe(after))
        keys = outcomes(position, found)
        assert len(keys) == len(set(keys)), "one outcome listed twice"
        assert set(keys) == brute_force(position, moves, view(after)), repr(position)
        assert after.canonical_json() in keys
        checked += 1
        ambiguous += len(found) > 1
    assert checked >= 20


def test_a_tall_stack_makes_candidates_ambiguous():
    position = GAME.position_from_json({
        "players": 2, "squares": {"a1": "PP", "b1": "PP", "c1": "N"},
        "pawns": {"1": None, "2": "h8"}, "taken": {"1": "", "2": ""},
    })
    after = GAME.apply(position, GAME.parse_move("a1-b1"))
    found = {move.text() for move in GAME.candidates(position, observe(after))}
    assert found == {"a1-b1", "b1"}  # the camera cannot tell whether a1 lost a penny


def test_transplant_placement_is_read_from_the_observation():
    position = GAME.position_from_json({
        "variants": ["transplant"], "players": 2,
        "squares": {"a1": "P", "b1": "P", "c1": "P"},
        "pawns": {"1": None, "2": "h8"}, "taken": {"1": "", "2": ""},
    })
    move = GAME.parse_move("a1-b1-c1>h1,h2")
    after = GAME.apply(position, move)
    assert GAME.candidates(position, observe(after)) == [move]


def test_no_candidates_when_the_pawn_is_not_seen_or_the_view_is_impossible():
    position = GAME.new_position(2, seed=5)
    assert GAME.candidates(position, Observation.of_board({})) == []
    board = observe(position)
    assert GAME.candidates(position, board) == []  # nothing moved, but a pass is not legal


def adversarial_position():
    squares = {f"{file}{rank}": "P" for file in "abcdef" for rank in range(2, 6)}
    return GAME.position_from_json({
        "variants": ["diagonal"], "players": 2, "squares": squares,
        "pawns": {"1": "g3", "2": "h8"}, "taken": {"1": "", "2": ""},
    })


def test_adversarial_block_candidates_find_the_long_path():
    position = adversarial_position()
    assert len(GAME.legal_targets(position)) == 24
    rng = random.Random(3)
    names = [f"{file}{rank}" for file in "abcdef" for rank in range(2, 6)]
    for _ in range(10):
        path = [rng.choice(["f2", "f3", "f4"])]
        while True:
            options = [
                name for name in names
                if name not in path
                and max(abs(ord(name[0]) - ord(path[-1][0])), abs(int(name[1]) - int(path[-1][1])))
                == 1
            ]
            if not options:
                break
            path.append(rng.choice(options))
        move = GAME.parse_move("-".join(path))
        after = GAME.apply(position, move)
        assert GAME.candidates(position, observe(after)) == [move]
