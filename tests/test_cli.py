"""The command line's shared behaviour: help, usage errors, no tracebacks."""

import subprocess
import sys


def run_companion(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion", *args], capture_output=True, text=True, timeout=60
    )


def test_help_lists_commands():
    result = run_companion("--help")
    assert result.returncode == 0
    assert "demo" in result.stdout


def test_no_command_prints_help_and_exits_2():
    result = run_companion()
    assert result.returncode == 2
    assert "usage" in result.stdout


def test_a_player_count_the_game_does_not_take_is_one_sentence_naming_its_range():
    result = run_companion("demo", "--players", "5", "--headless")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "Coin Isolation is for 2 to 4 players" in result.stderr
