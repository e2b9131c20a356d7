"""`companion rules perft` starts fast (issue 22: Coin Isolation perft at 500,000 leaves a
second as a whole process): it imports neither the camera, screen and panel libraries nor
jsonschema for a right file, nor any game but its own, nor what the standard library's
dataclasses would drag in (inspect, ast, dis); `companion --help` imports no game at all. Each
is read from the imports a real process makes (``-X importtime``), so a new import on the way
fails here instead of slowing every command silently."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench.bench_perft_process import golden
from companion.cli.rules import QUICK_S, SLOW_PERFT_S, perft_seconds
from companion.games import get_game

#: Never imported by `rules perft` on a right Coin Isolation file; why, beside each.
NOT_FOR_PERFT = {
    "numpy", "cv2", "pygame", "serial", "PIL",  # camera, screen, panel
    "jsonschema", "referencing",  # the quick schema check decides a right file
    "inspect", "ast", "dis", "tokenize",  # deferred by companion/startup.py
    "shutil",  # argparse's formatters ask the terminal only for help shown
    "random",  # only the estimate's walks, which a small tree skips
    "companion.games.coin_grid", "companion.games.jokers_and_coins",
    "companion.games.shakala",  # get_game imports the game asked for alone
    "companion.analysis", "contract.observation", "contract.table_state",
}


def imported(*args: str) -> tuple[set[str], str]:
    """The modules a `companion ARGS` process imports, and what it prints."""
    result = subprocess.run([sys.executable, "-X", "importtime", "-m", "companion", *args],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    names = {line.rsplit("|", 1)[1].strip() for line in result.stderr.splitlines()
             if line.startswith("import time:") and "|" in line}
    return names, result.stdout


@pytest.fixture(scope="module")
def position_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("start-up") / "seed2.json"
    path.write_text(json.dumps(get_game("coin-isolation").new_position(2, (), 2).to_json()))
    return path


def test_rules_perft_imports_only_what_it_needs(position_file):
    names, output = imported("rules", "perft", str(position_file), "4")
    assert output.split() == ["31813"]
    assert "companion.games.coin_isolation.perft" in names  # the list above is read right
    heavy = {name for name in names if name.split(".")[0] in NOT_FOR_PERFT or name in NOT_FOR_PERFT
             or any(name.startswith(f"{package}.") for package in NOT_FOR_PERFT)}
    assert not heavy


def test_help_imports_no_game_nor_device_library():
    names, output = imported("--help")
    assert "rules" in output and "demo" in output
    assert not {name for name in names if name.startswith("companion.games.")
                or name.split(".")[0] in {"numpy", "cv2", "pygame", "serial", "jsonschema"}}


def test_a_small_tree_is_estimated_without_playing_a_move():
    """The estimate of a small tree times perft a ply or two short of the depth; it makes no
    move (the walks would apply some) and calls the depth quick."""
    game = get_game("coin-isolation")
    applied = []

    class Counting(type(game)):
        def apply(self, position, move):
            applied.append(move)
            return super().apply(position, move)

    position = game.new_position(2, (), 2)
    assert perft_seconds(Counting(), position, 4) < QUICK_S
    assert applied == []


def test_a_long_depth_is_still_announced_where_rolls_and_moves_alternate():
    """Coin Grid's start grows 114, 6, 114, 6 and 132 times a ply (a roll, then a move): timed
    ply by ply, the last ply's growth alone would call depth 6 (370 million leaves, about a
    minute) quick."""
    game = get_game("coin-grid")
    position = game.position_from_json(golden("coin-grid", "start/start"))
    assert perft_seconds(game, position, 6) > SLOW_PERFT_S


def test_deferred_inspect_is_the_real_one_when_used():
    """A process that defers inspect still signs a dataclass without a docstring, and hands
    the real module to whoever imports it afterwards."""
    code = (
        "import sys\n"
        "from companion.startup import defer_inspect\n"
        "defer_inspect()\n"
        "import dataclasses\n"
        "assert type(sys.modules['inspect']).__name__ == 'DeferredModule'\n"
        "Point = dataclasses.make_dataclass('Point', ['x', 'y'])\n"
        "import inspect\n"
        "assert type(inspect).__name__ == 'module' and inspect.signature(len)\n"
        "print(Point.__doc__)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=60, cwd=Path(__file__).resolve().parents[1])
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Point(x: ") and ", y: " in result.stdout
