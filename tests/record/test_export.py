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
    result_text,
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
        f"1{dots} [{seat}] {move}"
        for dots, seat, move in zip((".", "..."), (1, 2), game_text.moves, strict=False)
    )
    assert [(item.round, item.opens_round, item.seat) for item in game_text.items] == [
        (1, True, 1), (1, False, 2), (1, False, 3), (2, True, 1), (2, False, 2), (2, False, 3),
        (3, True, 1),
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
    recorded = record_random_game(tmp_path, 36)
    journal = tmp_path / "journal.jsonl"
    lines = journal.read_bytes().split(b"\n")
    journal.write_bytes(b"\n".join([*lines[:9], b"{not json", *lines[10:]]))
    target, timeline = export_game(tmp_path, tmp_path / "out.txt")
    parsed = parse_game_text(target.read_text())
    assert list(parsed.moves) == recorded.standing  # line 10's move worked out from line 11
    assert [problem.line for problem in timeline.problems] == [10, 10]
    assert parsed.result == result_text(timeline) != "*"


def test_a_game_with_no_move_yet_exports_an_unfinished_empty_movetext(tmp_path):
    start = get_game(GAME).new_position(2, seed=37)
    JournalWriter.create(tmp_path, header_for(start)).close()
    target, _ = export_game(tmp_path)
    parsed = parse_game_text(target.read_text())
    assert parsed.moves == () and parsed.result == "*"
    assert parsed.start_position_json() == start.to_json()


@pytest.mark.parametrize(("seed", "players"), [(38, 3), (39, 4)])
def test_every_move_of_a_three_or_four_player_game_names_its_seat(tmp_path, seed, players):
    record_random_game(tmp_path, seed, players=players, extras=True)
    target, timeline = export_game(tmp_path)
    text = target.read_text()
    movetext = text.split("\n\n", 1)[1]
    assert "... [" in movetext  # a move after a comment says whose it is
    parsed = parse_game_text(text)
    assert format_game_text(parsed) == text
    moves = [item for item in parsed.items if isinstance(item, MoveItem)]
    assert [item.seat for item in moves] == [s.event.player for s in timeline.standing_steps()]
    assert [item.text for item in moves] == [s.event.move for s in timeline.standing_steps()]


#: The movetext `companion export` wrote for this two-player game before seat labels existed.
TWO_PLAYER_MOVETEXT = (
    "{setup: a1 read as P, set to N} {rejected: the nickel on e3 moved} 1. h1 c8-c7\n"
    "2. h2-g2 d7-d6-c6-b6-b5-b4-a4-a3 3. f2-f1 b3 4. g1 a3-a2 5. f1 b2-c2 6. e1-e2\n"
    "c3-d3 7. e3 d2 8. e4-d4 c2 {taken back: d3}\n"
    "{asked: d3 or d5; chose d3 (a stack looks the same)} {taken back: d3} 9. d3 c1\n"
    "{rejected: the nickel on e3 moved} 10. d4 d1 11. c4 pass\n"
    "{player 2 has no legal move} {rejected: the nickel on e3 moved} 12. c5 pass\n"
    "{player 2 has no legal move} 13. d5 pass {player 2 has no legal move} 14. e5\n"
    "pass {player 2 has no legal move} {rejected: the nickel on e3 moved}\n"
    "{asked: f5-g5-h5-h6-g6 or f5; chose f5-g5-h5-h6-g6 (a stack looks the same)}\n"
    "15. f5-g5-h5-h6-g6 pass {player 2 has no legal move} 16. f6 pass\n"
    "{player 2 has no legal move} {note: camera blocked}\n"
    "{asked: f7-e7 or f7; chose f7-e7 (a stack looks the same)} 17. f7-e7 pass\n"
    "{player 2 has no legal move} {taken back: e8} 18. e6 pass\n"
    "{player 2 has no legal move} 19. e7-e8 pass {player 2 has no legal move}\n"
    "{asked: d8 or f8; chose d8 (a stack looks the same)} 20. d8 {taken back: pass}\n"
    "{note: camera blocked} 20... pass {player 2 has no legal move} 21. e8 pass\n"
    "{player 2 has no legal move} 22. f8 pass {player 2 has no legal move} 23. g8\n"
    "pass {player 2 has no legal move} 24. g7 pass {player 2 has no legal move}\n"
    "25. h7 pass {player 2 has no legal move} {rejected: the nickel on e3 moved}\n"
    "26. h8 pass {player 2 has no legal move} 27. pass {player 1 has no legal move} 1\n"
)


def test_a_two_player_export_is_exactly_as_before(tmp_path):
    record_random_game(tmp_path, 2, extras=True)
    target, _ = export_game(tmp_path)
    assert target.read_text().split("\n\n", 1)[1] == TWO_PLAYER_MOVETEXT


def test_a_roll_of_real_dice_is_followed_by_its_faces_and_source():
    from companion.record.entries import JournalEvent
    from companion.record.export import dice_comment

    battle = JournalEvent(number=3, kind="move", time="2026-11-26T10:00:00Z", source="camera",
                          state_hash="0" * 16, player=1, move="attacker-wins",
                          dice=(((4,), (4,)), ((5,), (3, 2))))
    assert dice_comment(battle) == "dice 4 : 4, 5 : 3+2 (camera)"
