"""The JSON Schemas of ``contract/schemas`` against files the real writers write: positions from
`companion rules`, a profile from `companion calibrate`, journals of simulated games, the output
of `companion vision`; and bad examples of each that must fail (the demo's summary and journal
are checked in tests/table/test_written_schemas.py, on the reference demo game)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from importlib import resources

import cv2
import pytest
from jsonschema import Draft202012Validator

from calibration.profile import VisionProfile
from companion.cli import main
from companion.games import get_game
from contract.schemas import SCHEMA_NAMES, first_error, load_schema
from tests.record.games import record_random_game
from tests.vision.helpers import GEOMETRY
from vision.synth import SynthScene, Variation, render


def assert_valid(data, name):
    error = first_error(data, name)
    assert error is None, f"{name}: {error.message} at {list(error.absolute_path)}"


def json_objects(text: str) -> list:
    """A JSON list printed whole, or one JSON object a line (as `rules moves` may stream)."""
    stripped = text.strip()
    if stripped.startswith("["):
        return json.loads(stripped)
    return [json.loads(line) for line in stripped.splitlines()]


def rules(*args: str, stdin: str | None = None) -> str:
    result = subprocess.run([sys.executable, "-m", "companion", "rules", *args],
                            capture_output=True, text=True, input=stdin, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_every_schema_is_valid_draft_2020_12_and_named_by_its_file():
    files = {path.name for path in resources.files("contract.schemas").iterdir()
             if path.name.endswith(".schema.json")}
    assert files == {f"{name}.schema.json" for name in SCHEMA_NAMES}
    for name in SCHEMA_NAMES:
        schema = load_schema(name)
        Draft202012Validator.check_schema(schema)
        assert schema["$id"] == f"urn:coin-table-companion:schema:{name}"
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"


# ---------------------------------------------------------------------------------- positions


@pytest.mark.parametrize(("players", "variants"), [
    (2, ""), (2, "diagonal,mixed-change"), (3, "renegade,semi-greedy"), (4, "empty-squares"),
])
def test_positions_from_rules_new_and_apply_match_the_schema(players, variants):
    start = rules("new", "--players", str(players), "--variants", variants, "--seed", "5")
    assert_valid(json.loads(start), "position-coin-isolation")
    moves = json_objects(rules("moves", "-", stdin=start))
    for move in moves:
        assert_valid(move, "rules-move")
    after = rules("apply", "-", moves[0]["text"], stdin=start)
    assert_valid(json.loads(after), "position-coin-isolation")


def test_positions_along_random_games_match_the_schema():
    """Positions with every optional field: take order, renegades, quiet turns, passes."""
    game = get_game("coin-isolation")
    rng = random.Random(4)
    for players, variants in ((3, ("renegade", "semi-greedy")), (4, ("empty-squares",)),
                              (2, ("mixed-change", "transplant"))):
        position = game.new_position(players, variants, seed=rng.randrange(100))
        for _ in range(60):
            assert_valid(position.to_json(), "position-coin-isolation")
            if game.is_over(position):
                break
            position = game.apply(position, rng.choice(game.legal_moves(position)))


# ----------------------------------------------------------------------------------- profiles


def test_profiles_the_program_writes_match_the_schema(tmp_path, capsys):
    VisionProfile.default().save(tmp_path / "default.json")
    assert_valid(json.loads((tmp_path / "default.json").read_text()), "profile")
    out = tmp_path / "profile.json"
    code = main(["calibrate", "--camera", "sim://?seed=2&fps=10", "--out", str(out),
                 "--square-mm", "50"])
    assert code == 0, capsys.readouterr()
    data = json.loads(out.read_text())
    assert data["calibrated"] is True
    assert_valid(data, "profile")


# ----------------------------------------------------------------------------------- journals


@pytest.mark.parametrize(("seed", "players", "variants"), [
    (41, 2, ()), (7, 3, ("renegade",)), (9, 4, ("semi-greedy",)),
])
def test_every_journal_line_of_a_simulated_game_matches_the_schema(tmp_path, seed, players,
                                                                   variants):
    record_random_game(tmp_path, seed, variants=variants, players=players, extras=True)
    lines = (tmp_path / "journal.jsonl").read_text().splitlines()
    kinds = set()
    for line in lines:
        data = json.loads(line)
        kinds.add(data["kind"] if data["kind"] != "correction" else data["correction"])
        assert_valid(data, "journal-line")
    assert {"header", "move"} <= kinds
    if seed == 41:
        assert {"setup", "undo", "ruling"} <= kinds  # the extras: every kind of line


# -------------------------------------------------------------------------------------- vision


def test_vision_read_and_coins_print_what_their_schemas_say(tmp_path, capsys):
    scene = SynthScene.build({"a1": "P", "c3": "NP", "h8": "D"}, {"h8": "blue"}, GEOMETRY,
                             Variation())
    path = tmp_path / "frame.png"
    cv2.imwrite(str(path), render(scene).image)
    assert main(["vision", "read", str(path)]) == 0
    observation = json.loads(capsys.readouterr().out)
    assert_valid(observation, "observation")
    assert main(["vision", "coins", str(path)]) == 0
    coins = json.loads(capsys.readouterr().out)
    assert coins["count"] > 0
    assert_valid(coins, "vision-coins")


# ------------------------------------------------------------------------------- bad examples

EVENT = {"kind": "move", "number": 1, "time": "2026-11-22T07:41:02.120Z", "source": "panel",
         "state_hash": "3f9c0a1b2c3d4e5f", "player": 1, "move": "c1-c2"}
READING = {"coin": "P", "pawn": None, "confidence": 0.9}

BAD_EXAMPLES = {
    "journal-line": [
        EVENT | {"kind": "teleport"},
        EVENT | {"source": "telepathy"},
        EVENT | {"number": 0},
        EVENT | {"time": "yesterday"},
        EVENT | {"state_hash": "xyz"},
        {key: value for key, value in EVENT.items() if key != "player"},
        EVENT | {"kind": "correction", "correction": "undo"},
        EVENT | {"kind": "note"},
        EVENT | {"extra": 1},
        {"kind": "header", "format": "coin-table-companion/journal", "format_version": 2},
    ],
    "observation": [
        {},
        {"regions": {"a1": READING | {"confidence": 2}}},
        {"regions": {"a1": READING | {"coin": "X"}}},
        {"regions": {"a1": READING | {"count": 2}}},
        {"regions": {"a1": READING}, "milliseconds": -1},
        {"regions": {"a1": READING}, "markers_found": [1, 1]},
        {"regions": {"tray": READING | {"dice": [{"value": 7, "confidence": 1, "colour": "red",
                                                   "centre_mm": [1, 2]}]}}},
        {"regions": {"tray": READING | {"dice": [{"value": None, "confidence": 1,
                                                   "colour": "red", "centre_mm": [1]}]}}},
    ],
    "profile": [
        {"coins": "nope", "pawns": []},
        {"coins": [], "pawns": []},
        {"coins": [{"kind": "P", "diameter_mm": 19.05, "colour": [0, 0]}], "pawns": [],
         "version": 2},
    ],
    "rules-move": [{"text": "c1-c2"}, {"text": "", "path": []}, {"text": "x", "path": [1]}],
    "vision-coins": [{"count": -1, "coins": []}, {"count": 1, "coins": [{"x": 1, "y": 2}]}],
    "demo-summary": [{"turns": -1}],
    "position-coin-isolation": [{"foo": 1}],
    "position-coin-grid": [{"foo": 1}, {"game": "coin-grid", "phase": "rolled", "roll": 7}],
    "position-jokers-and-coins": [{"foo": 1}, {"game": "jokers-and-coins", "players": 7},
                                  {"game": "jokers-and-coins", "coins": {"1": ["t0"]}}],
    "position-shakala": [{"foo": 1}, {"game": "shakala", "pits": {"A": {"stones": -1}}},
                         {"game": "shakala", "variants": ["gems-12-34"]}],
}


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_bad_examples_fail_their_schema(name):
    assert BAD_EXAMPLES[name], f"no bad examples for {name}"
    for example in BAD_EXAMPLES[name]:
        assert first_error(example, name) is not None, example


HEADER = {
    "kind": "header", "format": "coin-table-companion/journal", "format_version": 1,
    "game": "coin-isolation", "players": 2, "seats": [{"number": 1, "side": "south"}],
    "software": "0.1.0", "started": "2026-11-22T07:40:12.345Z",
    "initial_position": {"players": 2, "squares": {}, "pawns": {"1": None, "2": None},
                         "taken": {"1": "", "2": ""}},
    "options": {"camera": "sim://", "demo": {"seed": 3, "bots": ["greedy"]}},
}


@pytest.mark.parametrize(("change", "field"), [
    ({"initial_position": {"foo": 1}}, "initial_position"),
    ({"options": {"demo": {"seed": "x"}}}, "seed"),
    ({"options": {"demo": {"bots": ["psychic"]}}}, "bots"),
    ({"calibration": {"path": None, "profile": {"coins": "nope", "pawns": []}}}, "coins"),
])
def test_a_journal_header_with_a_bad_part_fails_naming_it(change, field):
    assert_valid(HEADER, "journal-line")
    error = first_error(HEADER | change, "journal-line")
    assert error is not None and field in error.absolute_path
