"""`companion export` and `companion replay`: recorded games, damaged journals, empty folders."""

import os
import subprocess
import sys

import pygame
import pytest

from companion.cli import main
from companion.cli.replay import _step_index, snapshot_at, step_caption
from companion.games import get_game
from companion.record.export import format_game_text, game_text_from_timeline, parse_game_text
from companion.record.replay import load_timeline

from .games import GAME, record_random_game


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("game")
    record_random_game(folder, 41, extras=True)
    return folder


def test_export_writes_game_txt_and_says_where(recorded, capsys):
    assert main(["export", str(recorded)]) == 0
    out, err = capsys.readouterr()
    assert out.strip().startswith(f"Wrote {recorded / 'game.txt'}: ")
    assert err == ""
    assert (recorded / "game.txt").read_text().startswith('[Game "coin-isolation"]')


def test_export_to_another_file(recorded, tmp_path, capsys):
    assert main(["export", str(recorded), "--out", str(tmp_path / "x.txt")]) == 0
    assert (tmp_path / "x.txt").is_file()
    assert str(tmp_path / "x.txt") in capsys.readouterr().out


def test_export_of_a_damaged_journal_reports_each_bad_line(tmp_path, capsys):
    record_random_game(tmp_path, 42, max_turns=12)
    journal = tmp_path / "journal.jsonl"
    lines = journal.read_bytes().split(b"\n")[:-1]
    lines[4] = b"garbage"
    journal.write_bytes(b"\n".join([*lines[:-1], lines[-1][:20]]))  # and a cut last line
    assert main(["export", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    reported = err.splitlines()
    # the garbage, the move it held worked out from the next line, the cut line
    assert all(line.startswith(f"companion export: {journal} line ") for line in reported)
    assert all(line.endswith(".") for line in reported)
    assert [line.split(" line ")[1].split(":")[0] for line in reported] == ["5", "5", "13"]
    assert "worked out from the state hash on line 6" in reported[1]
    assert "lines 5, 13 skipped" in out
    assert "11 move(s)" in out


@pytest.mark.parametrize("command", ["export", "replay"])
def test_folder_without_journal_is_one_line_and_exit_2(tmp_path, command):
    extra = ["--headless"] if command == "replay" else []
    result = subprocess.run(
        [sys.executable, "-m", "companion", command, str(tmp_path), *extra],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert f"companion {command}: {tmp_path} holds no journal.jsonl" in result.stderr
    assert "Traceback" not in result.stderr


def test_missing_folder_and_garbled_header_exit_2(tmp_path, capsys):
    assert main(["export", str(tmp_path / "nowhere")]) == 2
    assert "does not exist" in capsys.readouterr().err
    (tmp_path / "journal.jsonl").write_text("{}\n")
    assert main(["export", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "header" in err


def test_replay_headless_prints_a_line_per_step(recorded, capsys):
    assert main(["replay", str(recorded), "--headless"]) == 0
    out = capsys.readouterr().out.splitlines()
    steps = len(load_timeline(recorded).steps)
    assert len(out) == steps + 1
    assert out[0].startswith(f"step 0/{steps}: the start")
    assert any("setup fixed b" in line or "setup fixed" in line for line in out)


def test_replay_headless_saves_one_png_per_step(tmp_path, capsys):
    record_random_game(tmp_path / "game", 43, max_turns=4)
    shots = tmp_path / "shots"
    assert main(["replay", str(tmp_path / "game"), "--out", str(shots), "--size", "800x450"]) == 0
    files = sorted(shots.glob("step-*.png"))
    assert [file.name for file in files] == [f"step-{n:04d}.png" for n in range(5)]
    assert pygame.image.load(str(files[-1])).get_size() == (800, 450)
    assert "Saved 5 screenshot(s)" in capsys.readouterr().out


def test_replay_rejects_a_bad_size(recorded, capsys):
    assert main(["replay", str(recorded), "--headless", "--size", "big"]) == 2
    assert "WIDTHxHEIGHT" in capsys.readouterr().err


def test_snapshot_shows_the_position_of_each_step(recorded):
    game = get_game(GAME)
    timeline = load_timeline(recorded)
    last = len(timeline.steps)
    snapshot = snapshot_at(timeline, last)
    final = timeline.final.to_json()
    assert dict(snapshot.stacks) == {k: v for k, v in final["squares"].items() if v}
    scores = game.scores(timeline.final)
    for view in snapshot.players:
        assert view.pawn == final["pawns"][str(view.number)]
        assert view.score_cents == scores[view.number]
        assert view.taken == final["taken"][str(view.number)]
    assert snapshot.result == game.result(timeline.final).text()
    assert snapshot.to_move is None and snapshot.targets == frozenset()
    moves = parse_game_text(format_game_text(game_text_from_timeline(timeline))).moves
    assert [label.split(" ")[1] for label in snapshot.last_moves] == list(moves[-8:])
    assert snapshot.last_moves[-1].split(" ")[0] in (
        f"{(len(moves) + 1) // 2}.",
        f"{len(moves) // 2}...",
    )
    first_move = next(i for i, s in enumerate(timeline.steps, 1) if s.event.kind == "move")
    snapshot = snapshot_at(timeline, first_move)
    move = timeline.steps[first_move - 1].event.move
    assert snapshot.path is not None and snapshot.path.squares[-1] == move.split("-")[-1]
    assert snapshot.targets == game.legal_targets(timeline.positions[first_move])
    assert snapshot.message.text == step_caption(timeline, first_move)


@pytest.mark.parametrize(
    ("button", "index", "expected"),
    [("NEXT", 3, 4), ("NEXT", 9, 9), ("PREVIOUS", 3, 2), ("PREVIOUS", 0, 0), ("FIRST", 5, 0),
     ("LAST", 2, 9), ("UNDO", 4, 4)],
)  # fmt: skip
def test_keys_step_through_the_game_within_its_ends(button, index, expected):
    assert _step_index(button, index, 9) == expected


def test_replay_window_shows_steps_as_keys_ask(recorded, capsys, monkeypatch):
    import companion.launch

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setattr(companion.launch, "has_display", lambda: True)  # a window, keys posted
    pygame.display.init()
    pygame.display.set_mode((320, 240))
    for key in (pygame.K_RIGHT, pygame.K_RIGHT, pygame.K_END):
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key))
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    assert main(["replay", str(recorded), "--size", "640x360"]) == 0
    timeline = load_timeline(recorded)
    shown = capsys.readouterr().out.splitlines()
    assert shown == [step_caption(timeline, len(timeline.steps))]  # End, then the window closed


def test_replay_shows_the_accepted_frame_of_each_turn(tmp_path):
    import numpy as np

    from companion.record.frames import save_frame
    from companion.record.journal import JournalWriter

    from .games import header_for

    game = get_game(GAME)
    start = game.new_position(2, seed=44)
    move = game.legal_moves(start)[0]
    after = game.apply(start, move)
    image = np.full((90, 160, 3), 128, np.uint8)
    with JournalWriter.create(tmp_path, header_for(start)) as writer:
        frame = save_frame(tmp_path, writer.next_number, image)
        writer.record_move(
            move.text(), player=1, state_hash=after.state_hash(), source="panel", frame=frame
        )
        writer.record_note("no frame here", state_hash=after.state_hash(), source="referee")
    timeline = load_timeline(tmp_path)
    assert snapshot_at(timeline, 0, tmp_path).camera is None
    for step in (1, 2):  # the note shows the last frame before it
        camera = snapshot_at(timeline, step, tmp_path).camera
        assert camera is not None and camera.image.shape == (90, 160, 3)
        assert camera.frame_number == 1
    (tmp_path / frame).unlink()
    assert snapshot_at(timeline, 1, tmp_path).camera is None


@pytest.mark.parametrize("display", [{}, {"DISPLAY": ":0", "SDL_VIDEODRIVER": "dummy"}])
def test_replay_without_a_display_prints_the_steps_instead_of_waiting(recorded, display):
    env = {key: value for key, value in os.environ.items()
           if key not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}  # fmt: skip
    env.update(display)
    result = subprocess.run(
        [sys.executable, "-m", "companion", "replay", str(recorded)],
        capture_output=True, text=True, timeout=60, env=env, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stderr == (
        "companion replay: there is no display here, so the steps are printed instead "
        "(as with --headless).\n"
    )
    steps = len(load_timeline(recorded).steps)
    assert len(result.stdout.splitlines()) == steps + 1
