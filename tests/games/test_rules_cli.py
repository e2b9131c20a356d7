"""`companion rules`: new, moves, apply, perft, show, and every error as one line with exit 2."""

import json
import subprocess
import sys

import pytest

from companion.cli import main


def run(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "companion", "rules", *args],
        capture_output=True, text=True, input=stdin, timeout=120,
    )


@pytest.fixture
def position_file(tmp_path):
    path = tmp_path / "position.json"
    result = run("new", "--players", "2", "--variants", "diagonal", "--seed", "3")
    assert result.returncode == 0, result.stderr
    path.write_text(result.stdout)
    return path


def test_new_prints_a_random_start(position_file):
    data = json.loads(position_file.read_text())
    assert data["game"] == "coin-isolation"
    assert data["variants"] == ["diagonal"]
    assert len(data["squares"]) == 64
    assert data["pawns"] == {"1": None, "2": None}


def test_moves_lists_text_and_path(position_file, capsys):
    assert main(["rules", "moves", str(position_file)]) == 0
    moves = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert moves and all(move["path"][-1] == move["text"].split("-")[-1] for move in moves)
    assert len({move["text"] for move in moves}) == len(moves)


def test_apply_reads_stdin_and_chains_moves(position_file, capsys):
    assert main(["rules", "moves", str(position_file)]) == 0
    first = json.loads(capsys.readouterr().out.splitlines()[0])["text"]
    result = run("apply", "-", first, stdin=position_file.read_text())
    assert result.returncode == 0, result.stderr
    after = json.loads(result.stdout)
    assert after["to_move"] == 2
    assert after["pawns"]["1"] == first.split("-")[-1]


def test_perft_prints_the_count_last_and_divide_sums(position_file, capsys):
    assert main(["rules", "perft", str(position_file), "1"]) == 0
    count = int(capsys.readouterr().out.split()[-1])
    assert main(["rules", "perft", str(position_file), "1", "--divide"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert int(lines[-1]) == count == len(lines) - 1


def test_show_draws_the_board(position_file, capsys):
    assert main(["rules", "show", str(position_file)]) == 0
    text = capsys.readouterr().out
    assert " 8 " in text and " 1 " in text and "player 1 to move" in text


def test_rules_commands_import_neither_opencv_nor_pygame(position_file):
    code = (
        "import sys; from companion.cli import main; "
        f"main(['rules', 'moves', {str(position_file)!r}]); "
        "heavy = [m for m in ('cv2', 'pygame', 'numpy') if m in sys.modules]; "
        "print('HEAVY', heavy, file=sys.stderr)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60
    )
    assert "HEAVY []" in result.stderr


SMALL = {"players": 2, "squares": {"a1": "P", "h8": "N"}, "pawns": {"1": None, "2": None},
         "taken": {"1": "", "2": ""}}
BAD_POSITIONS = {
    "not JSON": ("{nope", "not JSON"),
    "unknown variant": (json.dumps(SMALL | {"variants": ["sideways"]}), "sideways"),
    "bad square": (json.dumps(SMALL | {"squares": {"j9": "P"}}), "j9"),
    "bad coin": (json.dumps(SMALL | {"squares": {"a1": "X"}}), "'X'"),
    "pawn off the board": (json.dumps(SMALL | {"pawns": {"1": "a9", "2": None}}), "a9"),
    "unknown game": ('{"game": "chess"}', "chess"),
}


@pytest.mark.parametrize("case", BAD_POSITIONS, ids=list(BAD_POSITIONS))
@pytest.mark.parametrize("action", [["moves"], ["perft", "1"], ["show"], ["apply", "a1"]])
def test_bad_position_is_one_line_and_exit_2(tmp_path, case, action):
    text, needle = BAD_POSITIONS[case]
    path = tmp_path / "bad.json"
    path.write_text(text)
    result = run(action[0], str(path), *action[1:])
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert needle in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["apply", "POSITION", "z1-z2"], "z1"),
        (["apply", "POSITION", "h8"], "illegal move 'h8'"),
        (["apply", "POSITION", "pass"], "may not pass"),
        (["moves", "/no/such/file.json"], "/no/such/file.json"),
        (["new", "--variants", "diagonal,bogus"], "bogus"),
        (["new", "--players", "5"], "5"),
        (["perft", "POSITION", "-1"], "depth"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(position_file, args, needle):
    args = [str(position_file) if arg == "POSITION" else arg for arg in args]
    result = run(*args)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert needle in result.stderr
