"""`companion rules new|moves|apply|perft|show` for Coin Grid, and its errors as one line."""

import json
import subprocess
import sys

from companion.cli import main


def rules(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "companion", "rules", *args],
                          capture_output=True, text=True, input=stdin, timeout=120)


def json_lines(text):
    """The moves `rules moves` printed: a JSON list, or one JSON object a line."""
    stripped = text.strip()
    if stripped.startswith("["):
        return json.loads(stripped)
    return [json.loads(line) for line in stripped.splitlines()]


def test_new_moves_apply_perft_and_show_work_through_the_command_line(tmp_path, capsys):
    created = rules("new", "--game", "coin-grid")
    assert created.returncode == 0, created.stderr
    start = tmp_path / "start.json"
    start.write_text(created.stdout)
    assert json.loads(created.stdout)["phase"] == "start"

    assert main(["rules", "moves", str(start)]) == 0  # a chance node: the six faces
    assert [move["text"] for move in json_lines(capsys.readouterr().out)] == [
        f"roll:{face}" for face in range(1, 7)]

    applied = rules("apply", "-", "roll:2", stdin=created.stdout)
    assert applied.returncode == 0, applied.stderr
    moves = json_lines(rules("moves", "-", stdin=applied.stdout).stdout)
    assert {"text": "b2-b4", "path": ["b2", "b4"]} in moves and len(moves) == 48

    after = json.loads(rules("apply", str(start), "roll:2", "b2-b4").stdout)
    assert after["pieces"]["b4"]["moved"] is True and after["to_move"] == 2

    assert main(["rules", "perft", str(start), "3"]) == 0
    assert capsys.readouterr().out.split()[-1] == "4116"
    assert main(["rules", "perft", str(start), "2", "--divide"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("roll:1: ") and lines[-1] == "686"

    assert main(["rules", "show", str(start)]) == 0
    assert "wall" in capsys.readouterr().out


def test_options_are_variants_of_rules_new():
    created = rules("new", "--game", "coin-grid", "--variants", "short,dead-coins-2",
                    "--seed", "5")
    data = json.loads(created.stdout)
    assert data["variants"] == ["short", "dead-coins-2"] and data["supply"] == 2
    assert len(data["pieces"]) == 12


def test_errors_are_one_sentence_and_exit_code_two(tmp_path):
    start = rules("new", "--game", "coin-grid").stdout
    illegal = rules("apply", "-", "b2-b3", stdin=start)
    assert illegal.returncode == 2
    assert "illegal Coin Grid move 'b2-b3' in phase 'start'; the turn needs" in illegal.stderr
    assert len(illegal.stderr.strip().splitlines()) == 1
    bad = rules("new", "--game", "coin-grid", "--variants", "long")
    assert bad.returncode == 2 and "unknown Coin Grid variant 'long'" in bad.stderr
    broken = json.loads(start) | {"supply": 99}
    wrong = rules("show", "-", stdin=json.dumps(broken))
    assert wrong.returncode == 2 and "supply" in wrong.stderr and "99" in wrong.stderr
    notation = rules("apply", "-", "roll:9", stdin=start)
    assert notation.returncode == 2 and "'roll:9'" in notation.stderr
