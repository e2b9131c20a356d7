"""Coin Grid notation and position JSON: round trips, evaluable reprs, the schema against real
positions, and bad input refused naming the field."""

import json
import random

import pytest
from jsonschema import Draft202012Validator

from companion.games import NotationError, PositionError
from companion.games.coin_grid import GAME, CoinGridMove, CoinGridPosition  # noqa: F401 (eval)
from contract.schemas import first_error, load_schema
from tests.games.coin_grid.helpers import grid_json

TEXTS = ["roll:1", "roll:6", "double:c9", "double:f12", "b2-c4", "a1-f12", "b2xc4", "f11xe12",
         "pass", "attacker-wins", "defender-wins", "dead:a1", "dead:xf2", "dead:c12", "decline"]
BAD_TEXTS = ["roll:0", "roll:7", "roll", "double:g1", "double:a13", "double:a0", "b2-b2",
             "b2--c4", "B2-c4", "b2 - c4", "b02-c4", "b2-c4x", "attacker", "Pass",
             "dead:", "dead:xx1", "dead:a01", "", "decline ", "a1-a13"]


@pytest.mark.parametrize("text", TEXTS)
def test_move_text_round_trips_and_repr_evaluates(text):
    move = GAME.parse_move(text)
    assert move.text() == text == str(move)
    assert eval(repr(move)) == move
    assert GAME.parse_move(move.text()) == move


@pytest.mark.parametrize("text", BAD_TEXTS)
def test_bad_move_text_is_a_notation_error_naming_it(text):
    with pytest.raises(NotationError, match=repr(text).replace("[", r"\[")):
        GAME.parse_move(text)


def test_regions_of_each_action():
    assert GAME.parse_move("b2xc4").regions() == ("b2", "c4")
    assert GAME.parse_move("double:c9").regions() == ("c9",)
    assert GAME.parse_move("dead:xa1").regions() == ("a1",)
    assert GAME.parse_move("roll:3").regions() == ()


def random_positions(count, seed=3):
    """Positions of every phase along random games of several option sets."""
    rng = random.Random(seed)
    found = []
    for index in range(count):
        variants = rng.choice([(), ("short",), ("dead-coins-12",), ("short", "dead-coins-1")])
        position = GAME.new_position(2, variants, seed=index)
        for _ in range(rng.randrange(1, 400)):
            if GAME.is_over(position):
                break
            if GAME.is_chance(position):
                outcomes = GAME.chance_outcomes(position)
                move = rng.choices([m for m, _ in outcomes],
                                   weights=[float(c) for _, c in outcomes])[0]
            else:
                move = rng.choice(GAME.children(position))
            position = GAME.apply(position, move)
            found.append(position)
    return found


POSITIONS = random_positions(12)


def test_positions_of_every_phase_round_trip_through_json_text_and_repr():
    assert {position.phase for position in POSITIONS} == {"start", "rolled", "battle",
                                                          "reward"}
    for position in POSITIONS[::7]:
        data = json.loads(json.dumps(position.to_json()))
        assert GAME.position_from_json(data) == position
        assert GAME.position_from_text(json.dumps(data)) == position
        assert eval(repr(position)) == position
        assert GAME.position_from_json(data).canonical_json() == position.canonical_json()


def test_the_schema_is_valid_and_every_real_position_matches_it():
    schema = GAME.position_schema()
    Draft202012Validator.check_schema(schema)
    assert schema == load_schema("position-coin-grid")
    for position in POSITIONS[::3]:
        error = first_error(position.to_json(), schema)
        assert error is None, (error.message, list(error.absolute_path))


BASE = grid_json({"c3": "S1'", "d9": "N2"}, phase="rolled", roll=4, reserves=(1, 0))


def changed(path, value):
    data = json.loads(json.dumps(BASE))
    *parents, last = path
    target = data
    for key in parents:
        target = target[key]
    if value is KeyError:
        del target[last]
    else:
        target[last] = value
    return data


@pytest.mark.parametrize(("path", "value", "needle"), [
    (("foo",), 1, "foo"),
    (("supply",), KeyError, "supply"),
    (("game",), "coin-isolation", "game"),
    (("players",), 3, "players"),
    (("to_move",), 3, "to_move"),
    (("phase",), "moving", "phase"),
    (("roll",), 7, "roll"),
    (("roll",), None, "roll"),
    (("roll",), True, "roll"),
    (("supply",), 13, "supply"),
    (("supply",), -1, "supply"),
    (("reserves", "1"), 37, "reserves.1"),
    (("reserves", "3"), 0, "reserves"),
    (("variants",), ["long"], "variants"),
    (("pieces", "g1"), {"owner": 1, "kind": "original", "stack": "single", "moved": True}, "g1"),
    (("pieces", "c3", "owner"), 0, "owner"),
    (("pieces", "c3", "kind"), "ghost", "kind"),
    (("pieces", "c3", "moved"), "yes", "moved"),
    (("pieces", "c3", "colour"), "red", "colour"),
    (("pieces", "d9", "kind"), "dead", "stack"),
    (("battle",), {"square": "d9", "attacker": {"owner": 1, "kind": "original",
                                                "stack": "single", "moved": True}}, "battle"),
])
def test_bad_positions_fail_the_schema_and_the_reader_naming_the_field(path, value, needle):
    data = changed(path, value)
    assert first_error(data, GAME.position_schema()) is not None
    with pytest.raises(PositionError, match=needle):
        GAME.position_from_json(data)
    with pytest.raises(PositionError, match=f"^position file 'p.json' .*{needle}"):
        GAME.read_position(data, "position file 'p.json'")


def test_the_reader_checks_what_the_schema_cannot():
    battle = grid_json({"c3": "S1'"}, phase="battle", battle=("c3", "S1'"))
    with pytest.raises(PositionError, match=r"battle\.square"):
        GAME.position_from_json(battle)
    reward = grid_json({"c3": "S1'"}, phase="reward", supply=0)
    assert first_error(reward, GAME.position_schema()) is not None
    with pytest.raises(PositionError, match="supply"):
        GAME.position_from_json(reward)
    crowd = grid_json({f"{f}{r}": "S1" for f in "abcdef" for r in (1, 2, 3)})
    with pytest.raises(PositionError, match="12 coins"):
        GAME.position_from_json(crowd)


def test_state_hash_differs_between_phases():
    start = GAME.new_position(2)
    rolled = GAME.apply_text(start, "roll:3")
    assert start.state_hash() != rolled.state_hash()
    assert len(start.state_hash()) == 16
