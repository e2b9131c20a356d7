"""`companion review` on records of every registered game with the real search, a game still
in progress, and broken records (one sentence, never a traceback)."""

import json

import pytest

from companion.analysis import SearchLimits, search
from companion.cli import main
from companion.games import game_names, get_game
from companion.record.replay import load_timeline
from companion.review.analyse import review_timeline
from companion.review.store import review_path
from tests.review.records import record_random_game


def small_search(game, position, share):
    return search(game, position, SearchLimits(playouts=max(1, round(8 * share)), seed=1))


@pytest.mark.parametrize("name", game_names())
def test_every_registered_game_is_reviewed_move_by_move(tmp_path, name):
    record_random_game(tmp_path, name, seed=3, plies=6, undo_at=1)
    timeline = load_timeline(tmp_path)
    game = get_game(name)
    review = review_timeline(timeline, small_search)
    standing = timeline.standing_steps()
    assert [move.move for move in review.moves] == [step.event.move for step in standing]
    befores = [timeline.start_of_play(), *(step.position for step in standing)][:-1]
    for move, before in zip(review.moves, befores, strict=True):
        for chances in (move.before, move.after):
            assert set(chances) == {1, 2} and sum(chances.values()) == pytest.approx(1.0)
        if game.is_chance(before):
            assert move.chance and move.best is None
        else:  # hidden hands: the choice is among the public moves, over what was known
            assert move.best in {legal.text() for legal in game.legal_moves(before)}
    assert review.moves[0].before == review.start


def test_a_game_in_progress_is_reviewed_up_to_its_last_move(tmp_path, capsys):
    final = record_random_game(tmp_path, "coin-isolation", seed=5, plies=6)
    assert not get_game("coin-isolation").is_over(final)
    assert main(["review", str(tmp_path), "--playouts", "12", "--workers", "1"]) == 0
    captured = capsys.readouterr()
    assert "Reviewed 6 move(s) of a game in progress" in captured.out
    assert (tmp_path / "review.html").exists() and review_path(tmp_path).exists()
    # 12 playouts a search are too few to trust: the page and stderr say so
    assert "only 12 playouts each on average" in captured.err
    assert "only 12 playouts each on average" in (tmp_path / "review.html").read_text()


def test_a_stale_review_is_left_out_of_the_export(tmp_path):
    record_random_game(tmp_path, "coin-isolation", seed=6, plies=4)
    assert main(["review", str(tmp_path), "--playouts", "6", "--workers", "1"]) == 0
    data = json.loads(review_path(tmp_path).read_text())
    data["comments"][0]["state_hash"] = "0" * 16
    review_path(tmp_path).write_text(json.dumps(data))
    assert main(["export", str(tmp_path)]) == 0
    assert (tmp_path / "game.txt").read_text().count("{review: ") == 3


@pytest.mark.parametrize("setup,words", [
    (lambda folder: None, "journal"),
    (lambda folder: (folder / "journal.jsonl").write_text("this is not json\n"), "journal"),
])
def test_a_broken_record_gets_one_sentence(tmp_path, capsys, setup, words):
    setup(tmp_path)
    assert main(["review", str(tmp_path), "--playouts", "4"]) == 2
    error = capsys.readouterr().err.strip()
    assert error.startswith("companion review: ") and words in error
    assert "Traceback" not in error and len(error.splitlines()) == 1


def test_a_record_without_moves_gets_one_sentence(tmp_path, capsys):
    record_random_game(tmp_path, "coin-isolation", seed=1, plies=0)
    assert main(["review", str(tmp_path), "--playouts", "4"]) == 2
    error = capsys.readouterr().err.strip()
    assert error.endswith("holds no move that replays, so there is nothing to review.")
    assert len(error.splitlines()) == 1


def test_bad_options_are_refused_before_any_work(capsys):
    assert main(["review", "somewhere", "--seconds", "0"]) == 2
    assert "--seconds 0 is out of range" in capsys.readouterr().err


def test_a_damaged_journal_is_reviewed_as_far_as_it_replays(tmp_path, capsys):
    record_random_game(tmp_path, "coin-isolation", seed=8, plies=6)
    journal = tmp_path / "journal.jsonl"
    lines = journal.read_text().splitlines(keepends=True)
    journal.write_text("".join(lines[:-1]) + lines[-1][:20] + "\n")  # the last line torn
    assert main(["review", str(tmp_path), "--playouts", "6", "--workers", "1"]) == 2
    captured = capsys.readouterr()
    assert "Reviewed 5 move(s)" in captured.out
    assert "is damaged" in captured.err and "Traceback" not in captured.err
    assert (tmp_path / "game.txt").read_text().count("{review: ") == 5
