"""The quick schema check (contract/schemas/quick.py) says what jsonschema says, or that it is
unsure: on every golden position of every game, and on thousands of damaged copies (fields
dropped, added, or given values of every JSON type), True only where jsonschema finds no error
and False only where it finds one. Right positions must be decided (True), or the commands
would pay for jsonschema again."""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from companion.games import game_names, get_game
from contract.schemas import SCHEMA_NAMES, load_schema
from contract.schemas.quick import matches
from tests.games.perft_files import read_perft_files

ROOT = Path(__file__).resolve().parents[1]
#: Values of every JSON type, with the ones where Python and JSON Schema disagree (true is not
#: 1; 1.0 is an integer) and strings that look like squares, coins or seats.
VALUES: list[Any] = [None, True, False, 0, 1, 2, 4, 5, -1, 1.0, 2.5, 1e30, "", "x", "a1", "z9",
                     "P", "PNDQ", "1", "9", "south", [], [1], [1, 1], ["diagonal"], {},
                     {"1": "a1"}, {"a1": "P"}]


def registry() -> Registry:
    resources = [(load_schema(name)["$id"], Resource.from_contents(load_schema(name)))
                 for name in SCHEMA_NAMES]
    found: Registry = Registry().with_resources(resources)
    return found


def damaged(data: Any, rng: random.Random) -> Any:
    """A copy of ``data`` with one change at a random depth: a key dropped or added, or a
    value replaced by one of :data:`VALUES`."""
    data = copy.deepcopy(data)
    node = data
    while True:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            break
        key = rng.choice(keys)
        if isinstance(node[key], dict | list) and node[key] and rng.random() < 0.5:
            node = node[key]
            continue
        roll = rng.random()
        if roll < 0.15 and isinstance(node, dict):
            del node[key]
        elif roll < 0.3 and isinstance(node, dict):
            node[rng.choice(["foo", "a9", "5", "h8", "3", "players"])] = rng.choice(VALUES)
        else:
            node[key] = copy.deepcopy(rng.choice(VALUES))
        break
    return data


def golden_positions(name: str) -> list[dict[str, Any]]:
    folder = ROOT / "tests" / "data" / name
    if not folder.is_dir():
        game = get_game(name)
        return [game.new_position(2, (), seed).to_json() for seed in range(3)]
    return [case["position"] for case in read_perft_files(folder)]


@pytest.mark.parametrize("name", game_names())
def test_the_quick_check_agrees_with_jsonschema(name):
    schema = get_game(name).position_schema()
    validator = Draft202012Validator(schema, registry=registry())
    rng = random.Random(name)
    positions = golden_positions(name)[:40]
    for position in positions:
        assert matches(position, schema, load_schema) is True, position
        assert validator.is_valid(position)
    decided = 0
    for _ in range(400):
        data = damaged(rng.choice(positions), rng)
        answer = matches(data, schema, load_schema)
        if answer is not None:
            decided += 1
            assert answer == validator.is_valid(data), data
    assert decided > 300  # unsure is the exception, not the rule


def test_unknown_keywords_and_references_are_left_to_jsonschema():
    load = load_schema
    assert matches(1, {"not": {"type": "string"}}, load) is None
    assert matches("a", {"format": "email"}, load) is None
    assert matches(1, {"$ref": "https://example.com/schema"}, load) is None
    assert matches(1, {"$ref": "#anchor"}, load) is None
    assert matches(1, {"$ref": ["#/$defs"]}, load) is None
    assert matches(1, {"$ref": "urn:coin-table-companion:schema:nothing"}, load) is None
    assert matches([1.0, 1], {"uniqueItems": True}, load) is None
    assert matches(1, {"$ref": "urn:coin-table-companion:schema:position-coin-isolation#/$defs/"
                               "player"}, load) is True
    assert matches(1.0, {"type": "integer"}, load) is True  # as in JSON Schema
    assert matches(True, {"type": "integer"}, load) is False
    assert matches([1, True], {"uniqueItems": True}, load) is True  # true is not 1
