"""The golden perft files of tests/data/jokers-and-coins (made by make_perft_files.py, whose
counts up to its limit the naive enumerator confirmed): the engine gives every count small
enough to run quickly, and the naive enumerator agrees with the engine's first two plies."""

from pathlib import Path

import pytest

from companion.games.base import Game
from companion.games.jokers_and_coins import GAME
from tests.games.jokers_and_coins.naive import naive_perft
from tests.games.perft_files import read_perft_files

DATA = Path(__file__).resolve().parents[2] / "data" / "jokers-and-coins"
CASES = read_perft_files(DATA)
#: Counts above this are left to make_perft_files.py (the engine does ~20,000 leaves a second).
ENGINE_LIMIT = 25_000


def test_the_files_cover_the_starts_and_the_rules():
    ids = {case["id"] for case in CASES}
    for wanted in ("start/two-players", "start/three-players", "start/four-players",
                   "start/six-players", "rules/splits", "rules/seven-backward", "rules/bumps",
                   "rules/hit-man", "rules/joker", "rules/home-rows", "rules/partners",
                   "rules/penalty-and-reshuffle"):
        assert wanted in ids


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_engine_perft_matches_the_golden_counts(case):
    position = GAME.read_position(case["position"])
    for depth, count in case["counts"]:
        if count <= ENGINE_LIMIT:
            assert GAME.perft(position, depth) == count, (case["id"], depth)


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_naive_enumerator_agrees_on_the_first_two_plies(case):
    counts = dict(case["counts"])
    for depth in (1, 2):
        if counts.get(depth, ENGINE_LIMIT + 1) <= 2_000:
            assert naive_perft(case["position"], depth) == counts[depth], (case["id"], depth)


def test_perft_through_the_generic_hooks_counts_the_same():
    position = GAME.read_position(CASES[0]["position"])
    assert Game.perft(GAME, position, 3) == GAME.perft(position, 3)
