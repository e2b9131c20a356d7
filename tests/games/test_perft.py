"""Golden perft counts for Coin Isolation (python-chess style .perft files), and the engine's
move lists checked against a deliberately naive path enumerator."""

import itertools
import random
from pathlib import Path

import pytest

from companion.games.coin_isolation import GAME
from companion.games.coin_isolation.position import VARIANTS
from tests.games.naive_coin_isolation import naive_children
from tests.games.perft_files import read_perft_files

DATA = Path(__file__).resolve().parents[1] / "data" / "coin-isolation"


CASES = read_perft_files(DATA)


def test_golden_files_exist():
    assert len(CASES) >= 15
    assert {case["id"].split("/")[0] for case in CASES} == {"standard", "diagonal", "variants"}


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_perft_matches_golden_counts(case):
    """Every count of every file, the largest (188,550 leaves) included: about 0.3 s."""
    position = GAME.position_from_json(case["position"])
    for depth, count in case["counts"]:
        assert GAME.perft(position, depth) == count, (case["id"], depth)


def _naive_marks(case):
    """The largest first plies (6,285 outcomes: the naive enumerator walks every raw path, about
    2 s) are slow tests; none is skipped."""
    return [pytest.mark.slow] if dict(case["counts"])[1] > 1500 else []


@pytest.mark.parametrize("case", [pytest.param(case, id=case["id"], marks=_naive_marks(case))
                                  for case in CASES])
def test_depth_one_matches_naive_enumerator(case):
    position = GAME.position_from_json(case["position"])
    engine = {GAME.apply(position, move).canonical_json() for move in GAME.legal_moves(position)}
    assert engine == set(naive_children(position))


def test_perft_divide_sums_to_perft():
    position = GAME.position_from_json(CASES[0]["position"])
    divided = GAME.divide(position, 2)
    assert sum(count for _, count in divided) == GAME.perft(position, 2)


def random_midgame(rng, variants, seed):
    position = GAME.new_position(rng.choice([2, 3, 4]), variants, seed=seed)
    for _ in range(rng.randrange(4, 30)):
        if GAME.is_over(position):
            break
        moves = list(itertools.islice(GAME.iter_moves(position), 200))
        position = GAME.apply(position, rng.choice(moves))
    return position


def test_random_positions_match_naive_enumerator():
    rng = random.Random(20261122)
    checked = 0
    for seed in range(60):
        variants = [variant for variant in VARIANTS if rng.random() < 0.3]
        if "diagonal" in variants and {"transplant", "transplant-variant-variant"} & set(variants):
            continue  # the engine's full list there is slow (see the game module), not wrong
        position = random_midgame(rng, variants, seed)
        walks_empty = {"renegade", "empty-squares"} & set(variants)
        if "diagonal" in variants and walks_empty:
            continue  # too many raw paths over empty squares for the naive enumerator
        moves = list(itertools.islice(GAME.iter_moves(position), 301))
        if len(moves) > 300 or ("diagonal" in variants and len(moves) > 60):
            continue
        engine = {GAME.apply(position, move).canonical_json(): move for move in moves}
        assert len(engine) == len(moves), f"two moves with one outcome in {position!r}"
        assert set(engine) == set(naive_children(position)), repr(position)
        checked += 1
    assert checked >= 25
