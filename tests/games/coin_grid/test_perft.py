"""Coin Grid's game tree: golden perft counts (python-chess style files under
tests/data/coin-grid), the engine's children against the naive enumerator, and random games
played to the end through ``children`` with the game's invariants."""

import random
from pathlib import Path

import pytest

from companion.games import Game
from companion.games.coin_grid import GAME
from companion.games.coin_grid.position import coins_per_player, dead_coins
from tests.games.coin_grid.naive import naive_children, naive_perft
from tests.games.coin_grid.playout import chance_child
from tests.games.perft_files import read_perft_files

DATA = Path(__file__).resolve().parents[2] / "data" / "coin-grid"
#: Golden counts the naive enumerator re-counts in the tests (the generator checked more).
NAIVE_TEST_LIMIT = 5_000


CASES = read_perft_files(DATA)


def test_golden_files_exist():
    assert len(CASES) >= 12
    assert {case["id"].split("/")[0] for case in CASES} == {"start", "midgame", "rules"}
    phases = {case["position"]["phase"] for case in CASES}
    assert phases == {"start", "rolled", "battle", "reward"}


def _marks(case):
    return [pytest.mark.slow] if max(count for _, count in case["counts"]) > 1_000_000 else []


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


@pytest.mark.parametrize("case", CASES[:6], ids=[case["id"] for case in CASES[:6]])
def test_the_counting_perft_agrees_with_the_generic_one(case):
    """The engine counts the last step without building it; the base class builds every
    child through the public hooks."""
    position = GAME.read_position(case["position"])
    for depth, count in case["counts"][:3]:
        assert Game.perft(GAME, position, depth) == count


def test_divide_sums_to_perft():
    position = GAME.read_position(CASES[0]["position"])
    assert sum(count for _, count in GAME.divide(position, 3)) == GAME.perft(position, 3)


@pytest.mark.slow
def test_children_and_odds_match_the_naive_enumerator_along_random_games():
    """At least 600 nodes, of every phase (some 60,000 children, about 10 s)."""
    rng = random.Random(20261126)
    phases, nodes = set(), 0
    for index in range(40):
        if nodes >= 600 and len(phases) == 4:
            break
        variants = rng.choice([(), ("short",), ("dead-coins-1",), ("short", "dead-coins-12")])
        position = GAME.new_position(2, variants, seed=index)
        for ply in range(rng.randrange(100, 300)):
            if GAME.is_over(position):
                break
            children = GAME.children(position)
            move = (chance_child(position, rng) if GAME.is_chance(position)
                    else rng.choice(children))
            if ply % 3 == 0 or position.phase == "reward":
                phases.add(position.phase)
                nodes += 1
                check_against_naive(position, children)
            position = GAME.apply(position, move)
    assert phases == {"start", "rolled", "battle", "reward"}


def check_against_naive(position, children):
    engine = {GAME.apply(position, move).canonical_json(): move.text() for move in children}
    naive = naive_children(position.to_json())
    assert len(engine) == len(children), f"two children alike in {position!r}"
    assert engine == {child: label for child, (label, _) in naive.items()}, position
    if GAME.is_chance(position) or position.phase == "start":
        odds = {move.text(): chance for move, chance in GAME.chance_outcomes(position)}
        assert odds == {label: chance for label, chance in naive.values()
                        if chance is not None}


@pytest.mark.parametrize("variants", [(), ("short",), ("dead-coins-0",),
                                      ("short", "dead-coins-12")])
def test_random_games_through_children_end_and_keep_every_coin(variants):
    rng = random.Random(repr(variants))
    for game_number in range(3):
        position = GAME.new_position(2, variants, seed=game_number)
        total = 2 * coins_per_player(variants) + dead_coins(variants)
        left_play = 0
        for _ in range(20_000):
            if GAME.is_over(position):
                break
            children = GAME.children(position)
            assert children and len(set(children)) == len(children)
            move = (chance_child(position, rng) if GAME.is_chance(position)
                    else rng.choice(children))
            assert GAME.parse_move(move.text()) == move
            if move.text().startswith("dead:x"):
                left_play += position.piece_at(move.square).coins
            position = GAME.apply(position, move)
            held = sum(position.coins_on_board(p) + position.reserve(p) for p in (1, 2))
            assert held + position.supply + left_play == total
            assert not position.dead & position.double
        assert GAME.is_over(position), f"game {game_number} {variants} did not end"
        (winner,) = GAME.result(position).winners
        assert position.piece_count(winner) and not position.piece_count(3 - winner)
