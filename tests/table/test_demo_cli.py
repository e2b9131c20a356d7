"""`companion demo`'s command-line errors: one line on stderr, exit code 2."""

import subprocess
import sys

import pytest


def demo(*arguments, cwd=None):
    return subprocess.run([sys.executable, "-m", "companion", "demo", "--headless", *arguments],
                          capture_output=True, text=True, timeout=60, cwd=cwd)


@pytest.mark.parametrize(("arguments", "words"), [
    (["--camera-size", "huge"], "--camera-size 'huge'"),
    (["--camera-size", "960x540"], "--camera-size 960x540 is out of range"),
    (["--camera-size", "5000x720"], "--camera-size 5000x720 is out of range"),
    (["--fps", "0"], "--fps 0"),
    (["--fps", "nan"], "--fps nan is out of range"),
    (["--sloppy", "1.5"], "--sloppy 1.5 is out of range; use 0 to 1"),
    (["--speed", "0"], "--speed 0 is out of range"),
    (["--speed", "inf"], "--speed inf is out of range"),
    (["--max-turns", "0"], "--max-turns 0 is out of range; use 1 or more"),
    (["--seed", "-1"], "--seed -1 is out of range; use 0 or more"),
    (["--players", "two"], "argument --players: invalid int value: 'two'"),
    (["--bots", "clever"], "unknown bot 'clever'"),
    (["--players", "5"], "--players 5"),
])
def test_bad_options_are_one_line_and_exit_2(arguments, words, tmp_path):
    result = demo("--out", str(tmp_path / "out"), *arguments)
    assert result.returncode == 2
    assert words in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_resume_needs_a_demo_game(tmp_path):
    result = demo("--resume", str(tmp_path))
    assert result.returncode == 2
    assert "holds no demo game to resume" in result.stderr
