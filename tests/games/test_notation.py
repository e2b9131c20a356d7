"""Move notation and position JSON round trips for Coin Isolation."""

import json

import pytest

from companion.games import NotationError, PositionError, get_game
from companion.games.coin_isolation import CoinIsolationMove, CoinIsolationPosition
from companion.games.coin_isolation.position import VARIANTS

GAME = get_game("coin-isolation")

MOVE_TEXTS = [
    "pass",
    "c1",
    "c1-c2-d2-d3",
    "stay",
    "N:stay",
    "P:c1-c2",
    "P:c1-c2^N",
    "P:c1-c2^QP",
    "c1-c2x0",
    "c1-c2-d2>e4,f5",
    "renegade:c1-c2",
    "P:a1^Nx2>b2,h8",
]


@pytest.mark.parametrize("text", MOVE_TEXTS)
def test_move_text_round_trips(text):
    move = GAME.parse_move(text)
    assert move.text() == text
    assert eval(repr(move)) == move


@pytest.mark.parametrize(
    "text", ["", "c9", "c1-c1", "i1", "c1--c2", "Z:c1", "P:c1^X", "c1>a1,a1", "P:c1^PQ", "Pass"]
)
def test_bad_move_text_is_a_notation_error(text):
    with pytest.raises(NotationError):
        GAME.parse_move(text)


def test_moves_are_equal_by_outcome_not_by_path_order():
    assert GAME.parse_move("c1-c2-d2-d1") == GAME.parse_move("c1-d2-c2-d1")
    assert GAME.parse_move("c1-c2") != GAME.parse_move("c2-c1")
    assert GAME.parse_move("c1-d2-c2-d1").path == ("c1", "d2", "c2", "d1")


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variants", [(), VARIANTS, ("mixed-change", "renegade", "semi-greedy")])
def test_position_json_round_trips_through_play(players, variants):
    position = GAME.new_position(players, variants, seed=players)
    for _ in range(6):
        data = json.loads(json.dumps(position.to_json()))
        again = GAME.position_from_json(data)
        assert again == position
        assert again.state_hash() == position.state_hash()
        assert eval(repr(position)) == position
        if GAME.is_over(position):
            break
        position = GAME.apply(position, GAME.legal_moves(position)[0])


def test_design_example_position_reads():
    data = {
        "game": "coin-isolation", "variants": ["diagonal"], "players": 2,
        "sides": {"1": "south", "2": "north"}, "to_move": 1,
        "squares": {"a1": "P", "b1": "NN", "c4": "Q"},
        "pawns": {"1": None, "2": "d5"},
        "taken": {"1": "PQ", "2": ""}, "passes": 0, "last_taker": 1,
    }
    position = GAME.position_from_json(data)
    assert isinstance(position, CoinIsolationPosition)
    assert position.to_json() == data
    assert GAME.scores(position) == {1: 26, 2: 0}


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ({"variants": ["sideways"]}, "sideways"),
        ({"squares": {"z9": "P"}}, "z9"),
        ({"squares": {"a1": "X"}}, "'X'"),
        ({"pawns": {"1": "k4", "2": None}}, "k4"),
        ({"players": 5}, "5"),
        ({"squares": {"a1": "PN"}}, "a1"),
        ({"to_move": 3}, "3"),
    ],
)
def test_bad_position_names_the_problem(change, needle):
    data = GAME.new_position(2, seed=0).to_json() | change
    with pytest.raises(PositionError, match=needle.replace("'", ".")):
        GAME.position_from_json(data)


def test_state_hash_is_short_hex_and_changes_with_the_position():
    position = GAME.new_position(2, seed=3)
    after = GAME.apply(position, GAME.legal_moves(position)[0])
    assert len(position.state_hash()) == 16
    int(position.state_hash(), 16)
    assert position.state_hash() != after.state_hash()


def test_move_class_is_exported():
    assert CoinIsolationMove.parse("a1-a2").path == ("a1", "a2")
