"""`companion rules best` through the command line, and the search bots' names as `demo`
takes them."""

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from companion.analysis.bots import Bot, bot_move, parse_bot
from companion.analysis.limits import SearchError
from companion.cli import main
from companion.games import get_game

DATA = Path(__file__).resolve().parents[1] / "data" / "analysis"


def companion(*args):
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True,
                          text=True, timeout=300)


def test_best_prints_the_winning_move_and_each_candidates_chances(tmp_path, capsys):
    data = json.loads((DATA / "coin-isolation-win-in-one.json").read_text())
    path = tmp_path / "position.json"
    path.write_text(json.dumps(data["position"]))
    assert main(["rules", "best", str(path), "--playouts", "40", "--seed", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("best: b1 (player 1 to move; win chance 100% after it)")
    rows = {line.split()[0]: line.split()[1:] for line in lines[2:-1]}
    assert rows["b1"][1:] == ["100%", "0%"] and rows["a2"][1:] == ["0%", "100%"]
    assert int(rows["b1"][0]) + int(rows["a2"][0]) == 40
    assert lines[-1].startswith("40 playouts in ")


def test_best_is_the_same_for_the_same_seed_and_playouts(tmp_path, capsys):
    path = tmp_path / "start.json"
    path.write_text(json.dumps(get_game("coin-isolation").new_position(2, (), 5).to_json()))
    runs = []
    for _ in range(2):
        assert main(["rules", "best", str(path), "--playouts", "150", "--seed", "8"]) == 0
        runs.append(capsys.readouterr().out.splitlines()[:-1])
    assert runs[0] == runs[1]


@pytest.mark.parametrize(("arguments", "words"), [
    (["missing.json"], "does not exist"),
    (["{position}", "--game", "shakala"], "holds a coin-isolation position, not one of --game"),
    (["{finished}"], "the game is over"),
    (["{position}", "--playouts", "0"], "--playouts 0 is out of range"),
    (["{position}", "--hand", "5,7"], "has no hidden hands"),
])
def test_bad_input_is_one_sentence_and_exit_2(tmp_path, arguments, words):
    game = get_game("coin-isolation")
    position = game.new_position(2, (), 1)
    (tmp_path / "position.json").write_text(json.dumps(position.to_json()))
    rng = random.Random(1)
    while not game.is_over(position):
        position = game.apply(position, rng.choice(game.legal_moves(position)))
    (tmp_path / "finished.json").write_text(json.dumps(position.to_json()))
    paths = {"position": tmp_path / "position.json", "finished": tmp_path / "finished.json"}
    result = companion("rules", "best", *[text.format(**paths) for text in arguments])
    assert result.returncode == 2, result.stderr
    assert words in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_bot_names_read_and_refused():
    assert parse_bot("search") == Bot("search", 1.0)
    assert parse_bot("search:0.25").text() == "search:0.25"
    assert parse_bot("greedy").text() == "greedy"
    for bad in ("clever", "search:fast", "search:0", "greedy:2"):
        with pytest.raises(SearchError, match="bot"):
            parse_bot(bad)


def test_demo_refuses_a_bad_search_bot_in_one_line(tmp_path):
    result = companion("demo", "--out", str(tmp_path / "out"), "--bot", "search:-1,greedy")
    assert result.returncode == 2
    assert "search time must be a number of seconds" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_search_bot_in_its_own_process_plays_the_win():
    from companion.analysis.search import worker_pool

    data = json.loads((DATA / "coin-isolation-win-in-one.json").read_text())
    game = get_game("coin-isolation")
    position = game.read_position(data["position"])
    with worker_pool(1) as pool:
        move = bot_move(game, position, Bot("search", playouts=30), random.Random(1), pool=pool)
    assert move.text() == "b1"
