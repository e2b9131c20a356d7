"""The search's parts are values the search carries (``SearchParts``), not switches in a
module: turning one off changes what that search does, travels with its limits to every worker,
and leaves other searches alone."""

import random
from dataclasses import replace

import pytest

from companion.analysis import SearchError, SearchLimits, SearchParts
from companion.analysis.bots import Bot
from companion.analysis.evaluation import evaluation_for
from companion.analysis.tree import Worker
from companion.games import get_game
from companion.games.coin_grid import hints
from companion.games.coin_grid.board import SQUARE_INDEX
from companion.games.coin_grid.position import CoinGridPosition, Piece, with_piece

GAME = get_game("coin-grid")


def exposed() -> CoinGridPosition:
    """North to move with a double stack two steps from a lone South coin: a threat."""
    position = CoinGridPosition(south=0, north=0, to_move=2, phase="start")
    pieces = {"c8": Piece(1), "c10": Piece(2, double=True), "a1": Piece(1), "f12": Piece(2)}
    for name, piece in pieces.items():
        position = with_piece(position, SQUARE_INDEX[name], replace(piece, moved=True))
    return position


def test_threats_off_scores_material_alone_and_only_for_that_search():
    position = exposed()
    with_threats = evaluation_for(GAME, position)
    without = evaluation_for(GAME, position, parts=SearchParts(threats=False))
    assert with_threats.cut_off(position)[1] > without.cut_off(position)[1]
    assert evaluation_for(GAME, position).cut_off(position) == with_threats.cut_off(position)


def test_playout_plies_and_policy_follow_the_parts():
    position = GAME.new_position(2, (), seed=1)
    assert evaluation_for(GAME, position).cutoff == hints.PLAYOUT_PLIES
    assert evaluation_for(GAME, position).policy is not None
    changed = evaluation_for(GAME, position, parts=SearchParts(playout_plies=6,
                                                                playout_policy=False))
    assert (changed.cutoff, changed.policy) == (6, None)
    generic = evaluation_for(GAME, position, use_hints=False, parts=SearchParts(playout_plies=3))
    assert generic.cutoff == 3


def test_widening_off_lets_a_fresh_node_below_the_root_consider_every_move():
    root = GAME.apply(GAME.new_position(2, ("short",), seed=4), GAME.parse_move("roll:2"))
    below = GAME.apply(root, GAME.legal_moves(root)[0])
    evaluation = evaluation_for(GAME, root)
    considered = {}
    for parts in (SearchParts(), SearchParts(progressive_widening=False)):
        worker = Worker(evaluation, root, random.Random(3), parts=parts)
        node = worker._node(below)
        considered[parts.progressive_widening] = len(worker._widened(node, node.moves))
        assert len(worker._widened(worker.root, worker.root.moves)) == len(worker.root.moves)
    assert considered[True] == 2 < considered[False]


def test_the_parts_travel_with_a_bots_limits_and_bad_plies_are_refused():
    parts = SearchParts(chance_averaging=False)
    assert Bot("search", 1.0, parts=parts).limits(seed=1).parts == parts
    assert SearchLimits(playouts=10).parts == SearchParts()
    with pytest.raises(SearchError, match="-1"):
        SearchParts(playout_plies=-1)
    assert isinstance(SearchError("x"), ValueError)
