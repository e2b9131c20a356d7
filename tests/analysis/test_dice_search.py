"""The search's parts for dice games (issue 22's Coin Grid round): a playout that stops on a
battle is scored by both outcomes weighted by their exact odds, a chance node's value in the
tree is its outcomes' values by their odds, progressive widening keeps a node below the root to
its best few moves by the hints' prior, and Coin Grid's hints see the next roll's threats."""

import math
import random
from dataclasses import replace

import pytest

from companion.analysis import tree
from companion.analysis.evaluation import evaluation_for
from companion.analysis.tree import Worker
from companion.games import get_game
from companion.games.coin_grid import hints
from companion.games.coin_grid.board import SQUARE_INDEX
from companion.games.coin_grid.moves import parse_move
from companion.games.coin_grid.position import CoinGridPosition, Piece, with_piece

GAME = get_game("coin-grid")


def board(pieces: dict[str, Piece], to_move: int = 1, phase: str = "start",
          roll: int | None = None) -> CoinGridPosition:
    """A position with only ``pieces`` (every one moved), ``to_move`` in ``phase``."""
    position = CoinGridPosition(south=0, north=0, to_move=to_move, phase=phase, roll=roll)
    for name, piece in pieces.items():
        position = with_piece(position, SQUARE_INDEX[name], replace(piece, moved=True))
    return position


def test_a_playout_stopping_on_a_battle_scores_both_outcomes_by_their_odds():
    position = board({"c7": Piece(1, double=True), "d8": Piece(2), "a12": Piece(2),
                      "f1": Piece(1)}, phase="rolled", roll=1)
    evaluation = evaluation_for(GAME, position)
    assert evaluation.cutoff == 0
    worker = Worker(evaluation, position, random.Random(1))
    worker.run(len(worker.root.moves), None)          # each root move scored once
    battle = worker.root.children[parse_move("c7xd8")]
    assert battle.chance and battle.visits == 1
    expected = sum(float(weight) * evaluation.cut_off(GAME.apply(battle.position, outcome))[0]
                   for outcome, weight in GAME.chance_outcomes(battle.position))
    assert battle.totals[0] == pytest.approx(expected)
    outcomes = [evaluation.cut_off(GAME.apply(battle.position, outcome))[0]
                for outcome, _ in GAME.chance_outcomes(battle.position)]
    assert min(outcomes) < expected < max(outcomes)


def test_a_chance_node_is_valued_by_its_outcomes_odds_and_followed_in_proportion():
    position = board({"c7": Piece(1, double=True), "d8": Piece(2), "a12": Piece(2),
                      "f1": Piece(1)}, phase="rolled", roll=1)
    worker = Worker(evaluation_for(GAME, position), position, random.Random(2))
    worker.run(200, None)
    battle = worker.root.children[parse_move("c7xd8")]
    odds = dict(GAME.chance_outcomes(battle.position))
    seen = sum(child.visits for child in battle.children.values())
    weighted = 0.0
    for outcome, child in battle.children.items():
        assert abs(child.visits / seen - float(odds[outcome])) <= 1 / seen + 1e-9
        weighted += float(odds[outcome]) * child.totals[0] / child.visits
    assert worker._value(battle, 0) == pytest.approx(weighted)


def test_progressive_widening_keeps_a_node_to_its_best_moves_by_the_prior():
    position = GAME.new_position(2, ("short",), seed=4)
    position = GAME.apply(position, parse_move("roll:2"))
    worker = Worker(evaluation_for(GAME, position), position, random.Random(3))
    worker.run(150, None)
    assert len(worker.root.children) == len(worker.root.moves)   # the root tries every move
    checked = 0
    for node in _decisions_below(worker.root):
        limit = math.ceil(tree.WIDENING * node.visits ** tree.WIDENING_POWER)
        assert len(node.children) <= limit
        priors = [hints.move_prior(node.position, move) for move in node.moves]
        assert priors == sorted(priors, reverse=True)
        assert set(node.children) <= set(node.moves[:limit])
        checked += 1
    assert checked


def _decisions_below(root):
    """Every decision node below ``root`` with more than one move."""
    stack = list(root.children.values())
    while stack:
        node = stack.pop()
        stack.extend(node.children.values())
        if not node.chance and not node.over and len(node.moves) > 1 and node.visits:
            yield node


def test_coin_grid_sees_the_next_rolls_threat():
    exposed = board({"c8": Piece(1), "c10": Piece(2, double=True), "a1": Piece(1),
                     "f12": Piece(2)}, to_move=2)
    assert hints.threat(exposed, 2) > 0.5            # a double stack two steps away
    far = board({"c3": Piece(1), "c10": Piece(2, double=True), "a1": Piece(1),
                 "f12": Piece(2)}, to_move=2)      # seven steps: out of any roll's reach
    assert hints.threat(far, 2) == 0.0
    assert hints.win_chances(exposed)[2] > hints.win_chances(far)[2]
    # South to roll instead: the single coin may flee, so the threat counts for less
    assert hints.win_chances(replace(exposed, to_move=1))[2] < hints.win_chances(exposed)[2]


def test_coin_grid_prior_ranks_a_good_battle_first_and_playouts_take_it():
    position = board({"c7": Piece(1, double=True), "d8": Piece(2), "a12": Piece(2),
                      "f1": Piece(1)}, phase="rolled", roll=1)
    moves = GAME.legal_moves(position)
    best = max(moves, key=lambda move: hints.move_prior(position, move))
    assert best.text() == "c7xd8"
    assert hints.playout_move(position, moves, random.Random(0)).text() == "c7xd8"
