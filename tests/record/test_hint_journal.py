"""A hint in the game record (issue 22, item 3): a ``hint`` line (the suggested move, each seat's
win chance) that the schema accepts, that replay and resume never apply, and that export and
replay's captions show as a hint."""

import json

import pytest

from companion.cli.replay import event_caption
from companion.games import get_game
from companion.hints import recorded_hints
from companion.launch import resumed_referee
from companion.record.entries import JournalHeader
from companion.record.errors import RecordError
from companion.record.export import export_game
from companion.record.journal import JournalWriter, journal_path, read_journal
from companion.record.replay import load_timeline
from contract.schemas import first_error

GAME = get_game("coin-isolation")


def hint_fields(player, move, position):
    return {"player": player, "suggested": move.text(), "win_chance": {"1": 0.25, "2": 0.75},
            "source": "panel", "state_hash": position.state_hash(),
            "text": f"Hint for Player {player}: {move.text()}."}


def recorded_game(folder):
    """Two moves, each with a hint before it that suggested another move than the one played."""
    position = GAME.new_position(2, (), seed=5)
    writer = JournalWriter.create(folder, JournalHeader.from_position(position.to_json()))
    for player in (1, 2):
        moves = sorted(GAME.legal_moves(position), key=lambda move: move.text())
        suggested, played = moves[0], moves[-1]
        writer.record_fields("hint", hint_fields(player, suggested, position))
        position = GAME.apply(position, played)
        writer.record_move(played.text(), player=player, state_hash=position.state_hash(),
                           source="camera")
    writer.close()
    return position


def test_hints_are_kept_shown_and_never_applied(tmp_path):
    final = recorded_game(tmp_path)
    lines = journal_path(tmp_path).read_text().splitlines()
    for line in lines:
        assert first_error(json.loads(line), "journal-line") is None, line
    events = read_journal(journal_path(tmp_path)).events
    assert [event.kind for event in events] == ["hint", "move", "hint", "move"]
    timeline = load_timeline(tmp_path)
    assert timeline.final == final and not timeline.problems
    referee, journal, _ = resumed_referee(tmp_path)
    journal.close()
    assert referee.position == final
    assert recorded_hints(tmp_path) == [1, 2]
    hint = events[0]
    assert event_caption(hint) == (f"event 1: hint for player 1: {hint.suggested}, not played "
                                   "(panel)")
    text = export_game(tmp_path)[0].read_text()
    assert f"hint for player 1: {hint.suggested} (win chance: 1 25%, 2 75%)" in text
    assert text.count("hint for player") == 2


@pytest.mark.parametrize(("change", "words"), [
    ({"win_chance": {"1": 1.5}}, "not a seat number and a chance from 0 to 1"),
    ({"suggested": None}, "has no 'suggested'"),
])
def test_a_bad_hint_is_refused_before_it_is_written(tmp_path, change, words):
    position = GAME.new_position(2, (), seed=5)
    writer = JournalWriter.create(tmp_path, JournalHeader.from_position(position.to_json()))
    fields = {**hint_fields(1, GAME.legal_moves(position)[0], position), **change}
    fields = {name: value for name, value in fields.items() if value is not None}
    with pytest.raises(RecordError, match=words):
        writer.record_fields("hint", fields)
    writer.close()
    assert read_journal(journal_path(tmp_path)).events == ()
