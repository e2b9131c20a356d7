"""The reference demo game's summary.json and every line of its journal (camera frames, asks,
rejections and all) match their JSON Schemas in contract/schemas."""

import json

import pytest

from companion.demo_record import write_summary
from contract.schemas import first_error

pytestmark = pytest.mark.slow


def assert_valid(data, name):
    error = first_error(data, name)
    assert error is None, f"{name}: {error.message} at {list(error.absolute_path)}"


def test_the_demo_summary_matches_its_schema(reference_game, tmp_path):
    _out, report = reference_game
    path = tmp_path / "summary.json"
    # The fields `companion demo` adds (companion/cli/demo.py).
    write_summary(path, report, {"game": "coin-isolation", "players": 2, "variants": [],
                                 "seed": 3})
    summary = json.loads(path.read_text())
    assert_valid(summary, "demo-summary")
    assert first_error(summary | {"turns": -1}, "demo-summary") is not None
    assert first_error(summary | {"final_position": {"foo": 1}}, "demo-summary") is not None


def test_every_line_of_the_demo_journal_matches_its_schema(reference_game):
    out, _report = reference_game
    lines = (out / "record" / "journal.jsonl").read_text().splitlines()
    assert len(lines) > 10
    for line in lines:
        assert_valid(json.loads(line), "journal-line")
    assert any(json.loads(line).get("frame") for line in lines)
