"""Jokers and Coins end to end on the simulated table (issue 21, items 6 and 7): bots holding
real hands lay cards on their discard spots and move coins on the rendered ring (sometimes
sloppily), the referee judges every play with its card, and the record holds every card and how
it was known, exports as text, replays to the position the referee holds, and resumes mid-game
with the same hands."""

import json

import pytest

from companion.demo import DemoOptions, run_demo
from companion.games import get_game
from companion.launch import GameOptions
from companion.record.entries import CARD_SOURCES
from companion.record.export import export_game, parse_game_text
from companion.record.replay import load_timeline
from contract.schemas import check, load_schema
from tests.table.conftest import FAST

GAME = get_game("jokers-and-coins")
PLIES = 12


def play(out, players, seed, plies, resume=False):
    options = DemoOptions(bots=("greedy", "random"), seed=seed, speed=1000.0, sloppy_rate=0.3,
                          plain_camera=True, camera_size=FAST["camera_size"],
                          turn_timeout_s=30.0, max_turns=plies)
    return run_demo(GameOptions(game="jokers-and-coins", players=players, seed=seed), options,
                    out, headless=True, frames_per_second=FAST["fps"], resume=resume)


@pytest.fixture(scope="module", params=[2, 6])
def jokers_game(request, tmp_path_factory):
    out = tmp_path_factory.mktemp(f"jokers-{request.param}")
    return request.param, out, play(out, request.param, seed=4, plies=PLIES)


def moves_in_journal(out):
    lines = (out / "record" / "journal.jsonl").read_text().splitlines()[1:]
    return [json.loads(line) for line in lines if json.loads(line)["kind"] == "move"]


def test_the_bots_play_their_cards_and_sloppy_moves_are_caught(jokers_game):
    players, _, report = jokers_game
    assert report.gave_up is None and report.turns == PLIES
    assert report.rejects >= 1  # sloppy moves were refused and put right
    assert report.takebacks <= 2  # a misread move the referee took is rare, and taken back
    assert len(report.final_position["coins"]) == players


def test_every_card_is_recorded_with_how_it_was_known(jokers_game):
    _, out, _ = jokers_game
    schema = load_schema("journal-line")
    for line in (out / "record" / "journal.jsonl").read_text().splitlines():
        check(json.loads(line), schema, "journal line", ValueError)
    moves = moves_in_journal(out)
    assert moves and all(line["card_source"] in CARD_SOURCES for line in moves)
    for line in moves:
        assert GAME.card_of(GAME.parse_move(line["move"])) == line["card"]
    assert any(line["move"].startswith("discard:") for line in moves)  # coins in supply


def test_the_record_replays_and_exports_the_game_played(jokers_game):
    _, out, report = jokers_game
    timeline = load_timeline(out / "record")
    assert timeline.final.to_json() == report.final_position
    path, _ = export_game(out / "record")
    text = parse_game_text(path.read_text())
    assert list(text.moves) == [step.event.move for step in timeline.standing_steps()]
    position = GAME.position_from_json(text.start_position_json())
    for move in text.moves:
        position = GAME.apply_text(position, move)
    assert position == timeline.final


def test_a_resumed_demo_plays_on_with_the_same_hands(tmp_path):
    whole = play(tmp_path / "whole", 3, seed=8, plies=10)
    play(tmp_path / "cut", 3, seed=8, plies=5)
    resumed = play(tmp_path / "cut", 3, seed=8, plies=10, resume=True)
    assert resumed.gave_up is None and whole.gave_up is None
    assert resumed.moves == whole.moves


def test_the_command_announces_the_ply_cap_of_a_game_that_can_run_long(monkeypatch, capsys,
                                                                      tmp_path):
    import companion.demo
    from companion.cli import main
    from companion.demo import DemoReport

    caps = []

    def fake_run_demo(game, options, out, headless, **kwargs):
        caps.append(options.max_turns)
        out.mkdir(parents=True, exist_ok=True)
        return DemoReport(turns=options.max_turns or 0, finished=options.max_turns is None)

    monkeypatch.setattr(companion.demo, "run_demo", fake_run_demo)
    code = main(["demo", "--game", "jokers-and-coins", "--players", "6", "--headless",
                 "--out", str(tmp_path / "capped")])
    assert code == 0 and caps == [None]  # the director stops at the game's own cap
    assert GAME.demo_cap(6) == GAME.info.demo_plies[6] == 400
    assert f"this demo stops after {GAME.demo_cap(6)} turns" in capsys.readouterr().out
    main(["demo", "--game", "jokers-and-coins", "--players", "6", "--headless",
          "--max-turns", "7", "--out", str(tmp_path / "given")])
    assert caps[-1] == 7 and "stops after" not in capsys.readouterr().out
