"""Coin Grid end to end on the simulated table (issue 19, items 5 and 6): the bots throw dice
into the rendered tray and the camera reads them, move by hand (sometimes sloppily), fight
battles, and the record holds every roll with its dice, source and frame, exports as readable
text and replays to the position the referee holds."""

import json

import pytest

from companion.demo import DemoOptions, run_demo
from companion.games import get_game
from companion.launch import GameOptions
from companion.record.export import export_game, parse_game_text
from companion.record.replay import load_timeline
from tests.table.conftest import FAST

SEED = 6
PLIES = 64  # the purposeful bots fight several battles by then


@pytest.fixture(scope="module")
def coin_grid_game(tmp_path_factory):
    out = tmp_path_factory.mktemp("coin-grid-demo")
    options = DemoOptions(seed=SEED, speed=1000.0, sloppy_rate=0.25, plain_camera=True,
                          camera_size=FAST["camera_size"], turn_timeout_s=30.0,
                          max_turns=PLIES)
    report = run_demo(GameOptions(game="coin-grid", seed=SEED), options, out, headless=True,
                      frames_per_second=FAST["fps"])
    return out, report


def test_the_bots_play_on_without_giving_up_and_sloppy_moves_are_caught(coin_grid_game):
    _, report = coin_grid_game
    assert report.gave_up is None
    assert report.turns == PLIES
    assert report.rejects >= 1  # sloppy moves and cocked dice were refused and put right
    assert report.takebacks == 0  # no wrong reading was ever accepted
    assert report.dice_wrong == 0  # no die recorded other than thrown
    moves = [move.split(": ")[1] for move in report.moves]
    assert any(move.endswith("-wins") for move in moves)  # a battle was fought and read


def test_rolls_are_read_from_the_tray_and_recorded_with_their_dice(coin_grid_game):
    out, _ = coin_grid_game
    lines = [json.loads(line) for line in (out / "record" / "journal.jsonl").read_text()
             .splitlines()[1:]]
    rolls = [line for line in lines if line["kind"] == "move" and "dice" in line]
    camera = [line for line in rolls if line["source"] == "camera"]
    assert len(camera) >= 10
    for line in camera:
        assert (out / "record" / line["frame"]).is_file()  # the frame of the tray
        if line["move"].startswith("roll:"):
            assert line["dice"][-1] == [[int(line["move"][5:])]]


def test_the_record_replays_and_exports_the_game_played(coin_grid_game):
    out, report = coin_grid_game
    timeline = load_timeline(out / "record")
    game = get_game("coin-grid")
    assert timeline.final.to_json() == report.final_position
    path, _ = export_game(out / "record")
    text = parse_game_text(path.read_text())
    assert list(text.moves) == [step.event.move for step in timeline.standing_steps()]
    position = game.position_from_json(text.start_position_json())
    for move in text.moves:
        position = game.apply_text(position, move)
    assert position == timeline.final
    assert "{dice " in path.read_text()
