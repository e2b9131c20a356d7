"""``--hints`` on the command line: a bad setting is one sentence and exit 2 before anything is
made; a demo with hints on plays as before."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENVIRONMENT = {"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PATH": "/usr/bin:/bin",
               "PYTHONPATH": str(ROOT)}


def companion(*arguments, timeout=60):
    return subprocess.run([sys.executable, "-m", "companion", *arguments], capture_output=True,
                          text=True, timeout=timeout, env=ENVIRONMENT)


@pytest.mark.parametrize("command", ["demo", "play"])
@pytest.mark.parametrize("setting", [["sometimes"], ["limited", "0"], ["limited"]])
def test_a_bad_hint_setting_is_one_line_and_exit_2(tmp_path, command, setting):
    where = ["--out", str(tmp_path / "out")] if command == "demo" else [
        "--record", str(tmp_path / "out"), "--panel", "sim://"]
    result = companion(command, "--headless", *where, "--hints", *setting)
    assert result.returncode == 2, result.stderr
    assert "is not a hint setting; use off, on, or limited N" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_a_demo_with_limited_hints_plays_as_before(tmp_path):
    out = tmp_path / "demo"
    result = companion("demo", "--headless", "--hints", "limited", "2", "--max-turns", "2",
                       "--plain-camera", "--camera-size", "1280x720", "--fps", "2.5", "--speed",
                       "1000", "--seed", "3", "--out", str(out), timeout=240)
    assert result.returncode == 0, result.stderr
    assert "2 turns" in result.stdout
