"""The search finds what a player should find: a winning move in a position of each game where
one wins at once and the others do not (Coin Isolation's is made by hand; the others were
picked from random games by trying every move), and a chance node's outcomes are sampled by
their odds."""

import json
import random
from pathlib import Path

import pytest

from companion.analysis import SearchLimits, search
from companion.analysis.evaluation import evaluation_for
from companion.analysis.tree import Worker
from companion.games import get_game

DATA = Path(__file__).resolve().parents[1] / "data" / "analysis"
GAMES = ("coin-isolation", "coin-grid", "jokers-and-coins", "shakala")
#: Playouts a root move at least: Jokers and Coins' root has 16 moves, Shakala's 12.


def load(name):
    data = json.loads((DATA / f"{name}-win-in-one.json").read_text())
    game = get_game(name)
    return game, game.read_position(data["position"]), set(data["wins"])


@pytest.mark.parametrize("name", GAMES)
def test_the_search_plays_the_move_that_wins(name):
    game, position, wins = load(name)
    moves = game.legal_moves(position)
    assert wins < {move.text() for move in moves}, "the fixture offers moves that do not win"
    result = search(game, position, SearchLimits(playouts=max(60, 12 * len(moves)), seed=3))
    assert result.best.text() in wins
    mover = game.to_move(position)
    assert result.estimates[0].win_chance[mover] > 0.5
    losing = [estimate for estimate in result.estimates if estimate.move.text() not in wins]
    assert result.estimates[0].visits > 1.5 * losing[0].visits


def test_coin_isolation_win_is_certain_and_the_other_move_lost():
    game, position, _ = load("coin-isolation")
    result = search(game, position, SearchLimits(playouts=40, seed=1))
    chances = {estimate.move.text(): estimate.win_chance[1] for estimate in result.estimates}
    assert chances == {"b1": 1.0, "a2": 0.0}


def test_a_battle_is_sampled_by_its_odds():
    game, position, wins = load("coin-grid")
    evaluation = evaluation_for(game, position)
    worker = Worker(evaluation, position, random.Random(7))
    worker.run(600, None)
    attack = next(move for move in worker.root.moves if move.text() in wins)
    battle = worker.root.children[attack]
    assert battle.chance
    visits = sum(child.visits for child in battle.children.values())
    for outcome, weight in game.chance_outcomes(battle.position):
        share = battle.children[outcome].visits / visits
        assert abs(share - float(weight)) < 0.07, (outcome.text(), share, float(weight))
