"""Shakala end to end on the simulated table (issue 20, items 5 and 6): the bots sow by hand
into the rendered pits (sometimes dropping a coin into the wrong pit), the real camera reads
every pit's coins, the real referee accepts or rejects, and the record replays, exports as
text that plays back in the engine, and resumes; the demo stops at the game's ply cap, and its
purposeful bots play an endgame of stones to the win."""

import json
import shutil
from dataclasses import replace

import pytest

from companion.demo import DemoOptions, run_demo
from companion.games import get_game
from companion.launch import GameOptions
from companion.record.export import export_game, parse_game_text
from companion.record.journal import JournalHeader, JournalWriter
from companion.record.replay import load_timeline
from tests.games.shakala.helpers import board
from tests.table.conftest import FAST

SEED = 4
PLIES = 8
GAME = get_game("shakala")


def options(max_turns):
    return DemoOptions(seed=SEED, speed=1000.0, sloppy_rate=0.35, plain_camera=True,
                       camera_size=FAST["camera_size"], turn_timeout_s=30.0,
                       max_turns=max_turns)


@pytest.fixture(scope="module")
def shakala_game(tmp_path_factory):
    out = tmp_path_factory.mktemp("shakala-demo")
    report = run_demo(GameOptions(game="shakala", seed=SEED), options(PLIES), out,
                      headless=True, frames_per_second=FAST["fps"])
    return out, report


def test_the_bots_sow_and_slipped_coins_are_rejected_then_put_right(shakala_game):
    out, report = shakala_game
    assert report.gave_up is None
    assert report.turns == PLIES
    assert report.rejects >= 1
    assert report.takebacks == 0  # no wrong reading was accepted
    lines = [json.loads(line) for line in
             (out / "record" / "journal.jsonl").read_text().splitlines()[1:]]
    rejects = [line for line in lines if line["kind"] == "ruling"
               and line["ruling"] == "reject"]
    assert rejects and all(line["regions"] for line in rejects)
    moves = [line for line in lines if line["kind"] == "move"]
    assert all(line["source"] == "camera" for line in moves)
    assert all((out / "record" / line["frame"]).is_file() for line in moves)


def test_the_record_replays_and_exports_moves_the_engine_plays_back(shakala_game):
    out, report = shakala_game
    timeline = load_timeline(out / "record")
    assert timeline.final.to_json() == report.final_position
    path, _ = export_game(out / "record")
    text = parse_game_text(path.read_text())
    assert list(text.moves) == [step.event.move for step in timeline.standing_steps()]
    assert len(text.moves) == PLIES
    position = GAME.position_from_json(text.start_position_json())
    for move in text.moves:
        assert GAME.parse_move(move).text() == move
        position = GAME.apply_text(position, move)
    assert position == timeline.final


def test_a_resumed_demo_plays_on_to_the_games_cap(shakala_game, monkeypatch, tmp_path):
    """Resumed without a turn limit, the demo stops at Shakala's cap and says so. (A copy of
    the record is resumed: the first run's journal stays locked by this process.)"""
    first, report = shakala_game
    out = tmp_path / "resumed"
    shutil.copytree(first, out)
    monkeypatch.setattr(GAME, "demo_ply_cap", PLIES + 2)
    resumed = run_demo(GameOptions(game="shakala", seed=SEED), options(None), out,
                       headless=True, frames_per_second=FAST["fps"], resume=True)
    assert resumed.gave_up is None
    assert resumed.turns == PLIES + 2 and resumed.capped_at == PLIES + 2
    assert resumed.moves[:PLIES] == report.moves
    assert load_timeline(out / "record").final.to_json() == resumed.final_position


def test_a_demo_resumed_in_an_endgame_of_stones_plays_to_the_win(tmp_path):
    """Every gem but one 4 is in South's cup and ten stones are left: South's purposeful bot
    starves North, the game ends at the table and the screen names the winner. (Greedy bots
    sowed on for over a hundred plies from here on some seeds.)"""
    position = board({"A": "ss", "B": "ss", "D": "s", "E": "s", "F": "s", "H": "ss", "d": "s"},
                     ((1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4), (4,)))
    header = JournalHeader.from_position(position.to_json())
    with JournalWriter.create(tmp_path / "record", header):
        pass
    neat = replace(options(None), sloppy_rate=0.0)
    report = run_demo(GameOptions(game="shakala", seed=SEED), neat, tmp_path, headless=True,
                      frames_per_second=FAST["fps"], resume=True)
    assert report.gave_up is None and report.capped_at is None
    assert report.finished and 0 < report.turns < 12
    assert report.result == "player 1 wins (36 points to 4 points)"
    final = load_timeline(tmp_path / "record").final
    assert GAME.is_over(final) and GAME.result(final).winners == (1,)
