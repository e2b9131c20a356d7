"""Positions are validated, not guessed (issue 18 item 2): every field is checked, by the
game's JSON Schema (jsonschema) where positions come from outside and by the engine's own
reader everywhere, and a bad one is one sentence naming the field, exit 2, nothing changed."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from companion.cli import main
from companion.games import PositionError, game_names, get_game
from contract.schemas import first_error

GAME = get_game("coin-isolation")
SMALL = {"players": 2, "squares": {"a1": "P", "h8": "NN"}, "pawns": {"1": None, "2": None},
         "taken": {"1": "", "2": ""}}
DROP = object()

#: Bad positions: the change to SMALL -> a regex the message must match (it names the field).
BAD: dict[str, tuple[dict[str, Any], str]] = {
    "an unknown field only": ({"foo": 1}, "unknown field 'foo'"),
    "an unknown field": (SMALL | {"foo": 1}, "unknown field 'foo'"),
    "no players": (SMALL | {"players": DROP}, "no 'players'"),
    "no squares": (SMALL | {"squares": DROP}, "no 'squares'"),
    "no pawns": (SMALL | {"pawns": DROP}, "no 'pawns'"),
    "no taken": (SMALL | {"taken": DROP}, "no 'taken'"),
    "passes 1e30": (SMALL | {"passes": 1e30}, "'passes' = 1e\\+30"),
    "passes 10**30": (SMALL | {"passes": 10**30}, "'passes' = 1000000000000000000000000000000"),
    "passes above the players": (SMALL | {"passes": 3}, "'passes' = 3"),
    "passes negative": (SMALL | {"passes": -1}, "'passes' = -1"),
    "passes a float": (SMALL | {"passes": 1.5}, "'passes' = 1.5"),
    "passes true": (SMALL | {"passes": True}, "'passes' = True"),
    "players a string": (SMALL | {"players": "2"}, "'players' = '2'"),
    "players 5": (SMALL | {"players": 5}, "'players' = 5"),
    "to_move a string": (SMALL | {"to_move": "1"}, "'to_move' = '1'"),
    "to_move 0": (SMALL | {"to_move": 0}, "'to_move' = 0"),
    "quiet huge": (SMALL | {"variants": ["renegade"], "quiet": 10**9}, "'quiet' = 1000000000"),
    "quiet without its variant": (SMALL | {"quiet": 3}, "'quiet' = 3"),
    "renegades without the variant": (SMALL | {"renegades": [1]}, "'renegades' = \\[1\\]"),
    "a variant twice": (SMALL | {"variants": ["greedy", "greedy"]}, "'variants' = "),
    "variants a string": (SMALL | {"variants": "greedy"}, "'variants' = 'greedy'"),
    "a square off the board": (SMALL | {"squares": {"z9": "P"}}, "'z9' in 'squares'"),
    "a stack of a number": (SMALL | {"squares": {"a1": 5}}, "'squares.a1' = 5"),
    "a stack of another coin": (SMALL | {"squares": {"a1": "S"}}, "'squares.a1' = 'S'"),
    "more than 64 coins": (SMALL | {"squares": {"a1": "P" * 64, "b1": "P"}}, "64"),
    "a pawn off the board": (SMALL | {"pawns": {"1": "k4", "2": None}}, "'pawns.1' = 'k4'"),
    "a pawn for nobody": (SMALL | {"pawns": {"1": None, "2": None, "3": None}},
                          "'3' in 'pawns'"),
    "a pawn missing": (SMALL | {"pawns": {"1": None}}, "'pawns'"),
    "taken for nobody": (SMALL | {"taken": {"1": "", "2": "", "9": "P"}}, "'9' in 'taken'"),
    "taken a number": (SMALL | {"taken": {"1": 5, "2": ""}}, "'taken.1' = 5"),
    "a side unknown": (SMALL | {"sides": {"1": "up", "2": "north"}}, "'sides.1' = 'up'"),
    "a side for nobody": (SMALL | {"sides": {"1": "south", "2": "north", "3": "east"}},
                          "'3' in 'sides'"),
    "take_order twice": (SMALL | {"take_order": [1, 1]}, "'take_order' = \\[1, 1\\]"),
    "last_taker a stranger": (SMALL | {"last_taker": 7}, "'last_taker' = 7"),
    "game a number": (SMALL | {"game": 5}, "'game' = 5"),
}


def bad_position(case: str) -> dict[str, Any]:
    data, _ = BAD[case]
    return {key: value for key, value in data.items() if value is not DROP}


@pytest.mark.parametrize("case", BAD, ids=list(BAD))
def test_the_engine_refuses_a_bad_position_naming_the_field(case):
    with pytest.raises(PositionError, match=BAD[case][1]) as raised:
        GAME.position_from_json(bad_position(case))
    assert str(raised.value).startswith("position ")


@pytest.mark.parametrize("case", BAD, ids=list(BAD))
def test_the_schema_and_the_engine_refuse_the_same_positions(case):
    with pytest.raises(PositionError, match=BAD[case][1]):
        GAME.read_position(bad_position(case), "position file 'p.json'")
    # The schema alone catches all but what needs the number of players or counting coins.
    needs_players = {"passes above the players", "a pawn for nobody", "a pawn missing",
                     "a side for nobody", "quiet without its variant",
                     "renegades without the variant", "more than 64 coins"}
    schema_error = first_error(bad_position(case), "position-coin-isolation")
    assert (schema_error is None) == (case in needs_players), schema_error


def test_good_positions_pass_both(tmp_path):
    for data in (SMALL, SMALL | {"squares": {}}, GAME.new_position(4, ["renegade"]).to_json()):
        assert first_error(data, "position-coin-isolation") is None
        assert GAME.read_position(data) == GAME.position_from_json(data)


@pytest.mark.parametrize("action", [["moves"], ["show"], ["apply", "a1"], ["perft", "1"]])
@pytest.mark.parametrize("case", ["an unknown field only", "passes 1e30", "no pawns"])
def test_a_bad_position_file_is_one_line_exit_2_and_unchanged(tmp_path, capsys, action, case):
    path = tmp_path / "position.json"
    path.write_text(json.dumps(bad_position(case)))
    before = path.read_bytes()
    assert main(["rules", action[0], str(path), *action[1:]]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"companion rules: position file '{path}' ")
    assert err.count("\n") == 1
    assert re.search(BAD[case][1], err)
    assert path.read_bytes() == before


def test_foo_is_not_an_empty_board_with_a_pass(tmp_path):
    """The issue's example: ``{"foo": 1}`` used to answer ``[pass]``."""
    result = subprocess.run(
        [sys.executable, "-m", "companion", "rules", "moves", "-"],
        input='{"foo": 1}', capture_output=True, text=True, timeout=60,
    )
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (
        "companion rules: position on standard input has an unknown field 'foo'; known fields: "
        "game, variants, players, sides, to_move, squares, pawns, taken, passes, last_taker, "
        "take_order, renegades, quiet\n"
    )


def test_a_game_that_is_not_a_name_is_refused(tmp_path, capsys):
    path = tmp_path / "position.json"
    path.write_text(json.dumps(SMALL | {"game": ["coin-isolation"]}))
    assert main(["rules", "show", str(path)]) == 2
    assert "has 'game' = ['coin-isolation'], not a game's name" in capsys.readouterr().err


# ------------------------------------------------------------------------ every registered game


@pytest.mark.parametrize("name", game_names())
def test_every_game_has_a_valid_schema_its_positions_match(name):
    game = get_game(name)
    schema = game.position_schema()
    Draft202012Validator.check_schema(schema)
    info = game.info
    for players in range(info.min_players, info.max_players + 1):
        data = game.new_position(players, seed=players).to_json()
        assert first_error(data, schema) is None
        assert game.read_position(data) == game.new_position(players, seed=players)


@pytest.mark.parametrize("name", game_names())
@pytest.mark.parametrize("change", [{"foo": 1}, {"players": 10**30}, {"players": "2"}])
def test_every_game_refuses_unknown_fields_and_bad_numbers(name, change):
    game = get_game(name)
    data = game.new_position(game.info.min_players, seed=1).to_json() | change
    field = next(iter(change))
    assert first_error(data, game.position_schema()) is not None
    with pytest.raises(PositionError, match=field):
        game.position_from_json(data)
    with pytest.raises(PositionError, match=f"^position file 'x' .*{field}"):
        game.read_position(data, "position file 'x'")
    with pytest.raises(PositionError):
        game.position_from_json({"foo": 1})
