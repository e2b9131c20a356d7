"""Shakala's game tree: golden perft counts (tests/data/shakala), the engine's children against
the naive enumerator position by position, and random games played through ``children``."""

import random
from pathlib import Path

import pytest

from companion.games import Game
from companion.games.shakala import GAME
from tests.games.perft_files import read_perft_files
from tests.games.shakala.helpers import board
from tests.games.shakala.naive import naive_children, naive_perft

DATA = Path(__file__).resolve().parents[2] / "data" / "shakala"
#: Golden counts the naive enumerator re-counts in the tests (the generator checked more).
NAIVE_TEST_LIMIT = 5_000
#: Golden counts above this are counted by the engine only in the slow tests.
FAST_LIMIT = 60_000

CASES = read_perft_files(DATA)


def test_golden_files_exist():
    assert len(CASES) >= 12
    assert {case["id"].split("/")[0] for case in CASES} == {"start", "midgame", "rules"}


def _marks(case):
    return [pytest.mark.slow] if max(count for _, count in case["counts"]) > FAST_LIMIT else []


@pytest.mark.parametrize("case", [pytest.param(case, id=case["id"], marks=_marks(case))
                                  for case in CASES])
def test_perft_matches_golden_counts(case):
    position = GAME.read_position(case["position"])
    for depth, count in case["counts"]:
        assert GAME.perft(position, depth) == count, (case["id"], depth)


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_naive_enumerator_agrees_with_the_golden_counts(case):
    for depth, count in case["counts"]:
        if count <= NAIVE_TEST_LIMIT:
            assert naive_perft(case["position"], depth) == count, (case["id"], depth)


@pytest.mark.parametrize("case", CASES[:8], ids=[case["id"] for case in CASES[:8]])
def test_the_engine_perft_agrees_with_the_generic_one(case):
    """The engine's perft walks its own children; the base class applies every move's text
    through the public hooks."""
    position = GAME.read_position(case["position"])
    for depth, count in case["counts"][:2]:
        assert Game.perft(GAME, position, depth) == count


def test_divide_sums_to_perft():
    position = GAME.new_position(2)
    assert sum(count for _, count in GAME.divide(position, 2)) == GAME.perft(position, 2) == 441


def test_children_match_the_naive_enumerator_along_random_games():
    """Some 500 positions, captures and laps among them: the same set of children."""
    rng = random.Random(20261126)
    nodes = 0
    for index in range(12):
        position = GAME.new_position(2, rng.choice([(), ("gems-1223-3221",)]))
        for ply in range(rng.randrange(60, 200)):
            if GAME.is_over(position):
                break
            children = GAME.legal_moves(position)
            if ply % 2 == 0 and max(len(beads) for beads in position.pits) <= 7:
                engine = {GAME.apply(position, move).canonical_json() for move in children}
                assert len(engine) == len(children), f"two children alike in {position!r}"
                assert engine == naive_children(position.to_json()), position
                nodes += 1
            position = GAME.apply(position, rng.choice(children))
        del index
    assert nodes >= 300


@pytest.mark.parametrize("variants", [(), ("north-first",), ("gems-4444-1111",)])
def test_random_games_through_children_keep_every_bead(variants):
    """Random games through ``children`` keep 16 stones and 16 gems; the ones that end give
    the win by the rulings (random play may circle in the endgame, which has no limit)."""
    rng = random.Random(repr(variants))
    ended = 0
    for _ in range(4):
        position = GAME.new_position(2, variants)
        for _ in range(1500):
            if GAME.is_over(position):
                break
            children = GAME.children(position)
            assert children
            position = GAME.apply(position, rng.choice(children))
            pits = [bead for beads in position.pits for bead in beads]
            assert pits.count(0) == 16
            assert len(pits) - 16 + len(position.cups[0]) + len(position.cups[1]) == 16
        if GAME.is_over(position):
            ended += 1
            last = 3 - position.to_move
            (winner,) = GAME.result(position).winners
            assert winner == (last if position.points(last) >= 20 else position.to_move)
    assert ended


def lap_position(rng):
    """A pit of 8 or 9 beads (it laps the inner track) among pits of one bead, gems in
    both cups: where a capture counts a bead dropped earlier in the same move."""
    mover = rng.choice((1, 2))
    pits = {name: "" for name in "ABCDEFGHabcdefgh"}
    heavy = rng.choice("ABCDEFGH" if mover == 1 else "abcdefgh")
    pits[heavy] = "s" * rng.randrange(6, 8) + "".join(rng.choice("1234") for _ in range(2))
    for name in rng.sample(sorted(pits), 8):
        if name != heavy:
            pits[name] = rng.choice(["s", "s", "1", "4", ""])
    return board(pits, cups=((2,), (3, 1)), to_move=mover)


def test_children_match_the_naive_enumerator_on_laps():
    rng = random.Random(9)
    for _ in range(6):
        position = lap_position(rng)
        engine = {child.canonical_json() for child in
                  (GAME.apply(position, move) for move in GAME.legal_moves(position))}
        assert engine == naive_children(position.to_json()), position
