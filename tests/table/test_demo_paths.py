"""The demo says where its record went only when there is one (issue 18, item 6), and a demo whose
bots crash gives up instead of passing for a short game."""

import re
from pathlib import Path

import pytest

import companion.demo
from companion.cli import main
from companion.demo import DemoOptions, DemoReport, run_demo
from companion.launch import GameOptions
from tests.table.conftest import FAST


def printed_paths(text):
    """Every path after 'Game record:', 'Screenshots:' or 'Summary:' in the demo's output."""
    return [Path(match) for match in re.findall(r"(?:Game record|Screenshots|Summary): (\S+)",
                                                text)]


def test_a_demo_that_never_read_its_start_names_no_record(monkeypatch, tmp_path, capsys):
    def never_read(game, options, out, headless, **_):
        (out / "screens").mkdir(parents=True)  # the screen as it stood, as the real demo saves
        (out / "screens" / "final.png").write_bytes(b"png")
        return DemoReport(gave_up="the starting layout was never read")

    monkeypatch.setattr(companion.demo, "run_demo", never_read)
    out = tmp_path / "out"
    assert main(["demo", "--headless", "--out", str(out)]) == 1
    text = capsys.readouterr().out
    assert "Gave up: the starting layout was never read." in text
    assert "No game record was written" in text
    assert "Game record:" not in text and "companion export" not in text
    assert printed_paths(text) and all(path.exists() for path in printed_paths(text))


def test_a_demo_with_a_record_names_it(monkeypatch, tmp_path, capsys):
    def one_turn(game, options, out, headless, **_):
        (out / "record").mkdir(parents=True)
        (out / "record" / "journal.jsonl").write_text("{}\n")
        (out / "screens").mkdir()
        (out / "screens" / "final.png").write_bytes(b"png")
        return DemoReport(turns=1)

    monkeypatch.setattr(companion.demo, "run_demo", one_turn)
    out = tmp_path / "out"
    assert main(["demo", "--headless", "--out", str(out), "--max-turns", "1"]) == 0
    text = capsys.readouterr().out
    assert f"Game record: {out / 'record'}" in text
    assert {path.name for path in printed_paths(text)} == {"record", "screens", "summary.json"}
    assert all(path.exists() for path in printed_paths(text))


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_bots_that_crash_give_up(monkeypatch, tmp_path):
    def crash(self, stop):
        raise RuntimeError("a bug in a bot")

    monkeypatch.setattr(companion.demo.Director, "run", crash)
    options = DemoOptions(seed=3, speed=1000.0, plain_camera=True, camera_size=(1280, 720))
    report = run_demo(GameOptions(seed=3), options, tmp_path, headless=True,
                      frames_per_second=FAST["fps"])
    assert report.gave_up == "the bots stopped on an error (printed above)"


def test_play_names_no_resume_folder_without_a_record(tmp_path):
    from companion.cli.play import _ending

    assert "no game record was written" in _ending(None, tmp_path)
    assert "--resume" not in _ending(None, tmp_path)
    (tmp_path / "journal.jsonl").write_text("{}\n")
    assert _ending(None, tmp_path).endswith(f"`companion play --resume {tmp_path}`.")
    assert _ending("player 1 wins", tmp_path) == "player 1 wins"
