"""Help that helps (issue 18, item 7): the variants listed from the games' own declarations,
numbers range-checked when the command line is parsed, and perft announcing a long depth."""

import json
import signal
import subprocess
import sys
import time

import pytest

from bench.bench_moves import OPEN_BOARD
from companion.cli import main
from companion.games import game_names, get_game


def help_text(capsys, *command):
    with pytest.raises(SystemExit) as exit_info:
        main([*command, "--help"])
    assert exit_info.value.code == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("command", [["rules", "new"], ["demo"], ["play"]])
def test_help_lists_every_variant_with_its_line(capsys, command):
    text = help_text(capsys, *command)
    lines = text.splitlines()
    for name in game_names():
        info = get_game(name).info
        assert f"{info.title} ({name})" in text
        for variant, line in info.variants.items():
            row = next(row for row in lines if row.split()[:1] == [variant])
            assert line.split()[0] in row.split()[1:2], (variant, row)
    assert "ends after 10 rounds in a row in which nobody took a coin" in " ".join(text.split())


@pytest.mark.parametrize(("command", "words"), [
    (["demo", "--sloppy", "2"], "companion demo: --sloppy 2 is out of range; use 0 to 1"),
    (["demo", "--speed", "-1"], "companion demo: --speed -1 is out of range"),
    (["demo", "--fps", "fast"], "companion demo: --fps 'fast' is not a number"),
    (["rules", "perft", "x.json", "-2"], "companion rules perft: depth -2 is out of range"),
    (["rules", "perft", "x.json", "two"], "companion rules perft: depth 'two' is not a whole"),
    (["rules", "new", "--players", "many"], "argument --players: invalid int value: 'many'"),
    (["vision", "read", "x.png", "--square-mm", "nan"], "--square-mm nan is out of range"),
    (["play", "--square-mm", "0"], "--square-mm 0 is out of range"),
    (["calibrate", "--frames", "0", "--out", "p.json"], "--frames 0 is out of range"),
    (["calibrate", "--timeout", "-5", "--out", "p.json"], "--timeout -5 is out of range"),
    (["mat", "--dpi", "1e9", "--out", "m.png"], "--dpi 1e9 is out of range; use 50 to 1200"),
    (["replay", "game", "--delay", "-1"], "companion replay: --delay -1 is out of range"),
    (["replay", "game", "--delay", "inf"], "companion replay: --delay inf is out of range"),
    (["replay", "game", "--size", "99999x99999"], "--size '99999x99999' is too large"),
])
def test_numbers_out_of_range_are_one_sentence_at_parse_time(capsys, command, words):
    assert main(command) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert words in captured.err
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err


def position_file(tmp_path, data):
    path = tmp_path / "position.json"
    path.write_text(json.dumps(data))
    return path


def test_perft_says_nothing_before_a_quick_depth(tmp_path, capsys):
    path = position_file(tmp_path, get_game("coin-isolation").new_position(2, (), 1).to_json())
    assert main(["rules", "perft", str(path), "2"]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and int(captured.out) > 0


def _ctrl_c_as_at_a_terminal() -> None:
    """A command started in the background (as CI may start the tests) inherits SIGINT ignored,
    and Python then leaves it ignored; a user at a terminal has it at its default."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_perft_announces_a_long_depth_and_stops_on_ctrl_c(tmp_path):
    path = position_file(tmp_path, OPEN_BOARD)
    process = subprocess.Popen([sys.executable, "-m", "companion", "rules", "perft", str(path),
                                "3"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=_ctrl_c_as_at_a_terminal)
    assert process.stderr is not None
    warning = process.stderr.readline()
    time.sleep(0.5)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert warning.startswith("companion rules perft: depth 3 may take about ")
    assert warning.endswith("; Ctrl-C stops it.\n")
    assert process.returncode == 130
    assert out == "" and err == "companion rules: stopped.\n"
