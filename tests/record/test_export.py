"""Export of recorded games: game.txt reads back to the same line of play and final position."""

import pytest

from companion.games import get_game
from companion.record.export import (
    GAME_TEXT_NAME,
    CommentItem,
    MoveItem,
    export_game,
    format_game_text,
    game_text_from_timeline,
    numbered_moves,
    parse_game_text,
)
from companion.record.journal import JournalWriter
from companion.record.replay import load_timeline

from .games import GAME, header_for, play_on, record_random_game


@pytest.mark.parametrize(("seed", "players"), [(31, 2), (32, 3), (33, 4)])
def test_export_round_trips_to_the_same_moves_and_final_position(tmp_path, seed, players):
    game = get_game(GAME)
    recorded = record_random_game(tmp_path, seed, players=players, extras=True)
    target, timeline = export_game(tmp_path)
    assert target == tmp_path / GAME_TEXT_NAME
    text = target.read_text()
    parsed = parse_game_text(text)
    assert format_game_text(parsed) == text
    assert parsed.moves == tuple(recorded.standing)
    position = game.position_from_json(parsed.start_position_json())
    assert position.to_json() == timeline.start_of_play().to_json()
    for move in parsed.moves:
        position = game.apply_text(position, move)
    assert position.to_json() == recorded.final.to_json()
    winners = sorted(game.result(recorded.final).winners)
    assert parsed.result == parsed.tag("Result") == "=".join(map(str, winners))
    scores = game.scores(recorded.final)
    for seat in range(1, players + 1):
        assert parsed.tag(f"Score{seat}") == str(scores[seat])
    assert parsed.tag("Game") == GAME
    assert parsed.tag("Players") == str(players)
    assert parsed.tag("Seat1") == "south"
    assert parsed.tag("Date") == timeline.header.started[:10].replace("-", ".")


def test_rounds_are_numbered_by_seat_order(tmp_path):
    game = get_game(GAME)
    start = game.new_position(3, seed=34)
    with JournalWriter.create(tmp_path, header_for(start)) as writer:
        play_on(writer, start, max_turns=7)
    timeline = load_timeline(tmp_path)
    game_text = game_text_from_timeline(timeline)
    labels = [label.split(" ")[0] for label in numbered_moves(timeline)]
    assert labels == ["1.", "1...", "1...", "2.", "2...", "2...", "3."]
    assert numbered_moves(timeline, 2) == tuple(
        f"1{dots} {move}" for dots, move in zip((".", "..."), game_text.moves, strict=False)
    )
    assert [(item.round, item.opens_round) for item in game_text.items] == [
        (1, True), (1, False), (1, False), (2, True), (2, False), (2, False), (3, True)
    ]  # fmt: skip
    assert game_text.result == "*"
    assert game_text.tag("Termination") is None


def test_undone_move_becomes_a_comment_and_rulings_are_comments(tmp_path):
    game = get_game(GAME)
    start = game.new_position(2, seed=35)
    with JournalWriter.create(tmp_path, header_for(start)) as writer:
        _, stack = play_on(writer, start, max_turns=2)
        number, before, undone = stack.pop()
        writer.record_undo(retracts=number, state_hash=before.state_hash(), source="keyboard",
                           text="wrong stack")  # fmt: skip
        writer.record_ruling("reject", text="d4 holds a dime, not a nickel",
                             state_hash=before.state_hash(), source="camera")  # fmt: skip
        play_on(writer, before, max_turns=1)
    items = game_text_from_timeline(load_timeline(tmp_path)).items
    assert items[0] == MoveItem(stack[0][2], 1, True)
    assert items[1] == CommentItem(f"taken back: {undone} (wrong stack)")
    assert items[2] == CommentItem("rejected: d4 holds a dime, not a nickel")
    assert isinstance(items[3], MoveItem)
    assert (items[3].round, items[3].opens_round) == (1, False)
    text = format_game_text(game_text_from_timeline(load_timeline(tmp_path)))
    assert f"{{taken back: {undone} (wrong stack)}}" in text
    assert "1... " in text


def test_damaged_journal_exports_what_is_intact(tmp_path):
    record_random_game(tmp_path, 36)
    journal = tmp_path / "journal.jsonl"
    lines = journal.read_bytes().split(b"\n")
    journal.write_bytes(b"\n".join([*lines[:9], b"{not json", *lines[10:]]))
    target, timeline = export_game(tmp_path, tmp_path / "out.txt")
    parsed = parse_game_text(target.read_text())
    assert len(parsed.moves) == 8  # the moves of lines 2..9
    assert timeline.problems[0].line == 10
    assert parsed.result == "*"


def test_a_game_with_no_move_yet_exports_an_unfinished_empty_movetext(tmp_path):
    start = get_game(GAME).new_position(2, seed=37)
    JournalWriter.create(tmp_path, header_for(start)).close()
    target, _ = export_game(tmp_path)
    parsed = parse_game_text(target.read_text())
    assert parsed.moves == () and parsed.result == "*"
    assert parsed.start_position_json() == start.to_json()
