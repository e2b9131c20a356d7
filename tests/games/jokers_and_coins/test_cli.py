"""`companion rules new|moves|apply|perft|show --game jokers-and-coins`, its errors as one
line, and the table commands refusing a game whose mat is not made yet."""

import json

import pytest

from companion.cli import main


def run(capsys, *args):
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_new_moves_apply_perft_and_show(tmp_path, capsys):
    code, out, _ = run(capsys, "rules", "new", "--game", "jokers-and-coins", "--players", "6",
                       "--variants", "teams-of-three")
    assert code == 0 and json.loads(out)["teams"] == [[1, 3, 5], [2, 4, 6]]
    start = tmp_path / "start.json"
    start.write_text(out)
    code, out, _ = run(capsys, "rules", "moves", str(start))
    assert [json.loads(line)["text"] for line in out.splitlines()] == [
        "A:enter", "J:enter", "Q:enter", "K:enter", "discard"]
    code, out, _ = run(capsys, "rules", "apply", str(start), "K:enter", "discard", "A:enter")
    after = json.loads(out)
    assert code == 0 and after["coins"]["1"][-1] == "t9" and after["to_move"] == 4
    assert after["coins"]["3"][-1] == "t45"
    code, _, err = run(capsys, "rules", "apply", str(start), "5:t9>t14")
    assert code == 2 and "5:t9>t14 is not legal" in err
    code, out, _ = run(capsys, "rules", "perft", str(start), "3")
    assert code == 0 and out.strip() == "189"
    code, out, _ = run(capsys, "rules", "show", str(start))
    assert code == 0 and "ring of 6 sides x 18 spaces" in out and "teams: 1+3+5, 2+4+6" in out


@pytest.mark.parametrize(("args", "words"), [
    (["rules", "new", "--game", "jokers-and-coins", "--players", "7"], "2 to 6 players"),
    (["rules", "new", "--game", "jokers-and-coins", "--variants", "side-40"], "side-40"),
    (["demo", "--game", "jokers-and-coins", "--players", "7", "--headless"],
     "--players 7 is not allowed"),
])
def test_errors_are_one_sentence_with_exit_code_2(capsys, args, words):
    code, _, err = run(capsys, *args)
    assert code == 2 and words in err and len(err.strip().splitlines()) == 1
