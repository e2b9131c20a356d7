"""Resuming a record cut between a move and the automatic passes after it."""

import random

from companion.launch import resumed_referee
from companion.record.entries import JournalHeader
from companion.record.journal import JournalWriter
from companion.record.replay import load_timeline
from companion.referee import Phase
from tests.table.helpers import GAME


def game_up_to_a_pass(seed):
    """A start position and the moves of a random game up to the first automatic pass."""
    for attempt in range(200):
        rng = random.Random(seed + attempt)
        start = GAME.new_position(2, (), seed=seed + attempt)
        position, moves = start, []
        while not GAME.is_over(position):
            legal = GAME.legal_moves(position)
            if legal[0].text() == "pass":
                return start, moves
            move = rng.choice(legal)
            moves.append((GAME.to_move(position), move))
            position = GAME.apply(position, move)
    raise AssertionError("no game with a pass")


def test_passes_cut_off_by_a_crash_are_recorded_on_resume(tmp_path):
    start, moves = game_up_to_a_pass(1)
    with JournalWriter.create(tmp_path, JournalHeader.from_position(start.to_json())) as journal:
        position = start
        for player, move in moves:
            position = GAME.apply(position, move)
            journal.record_move(move.text(), player=player, state_hash=position.state_hash(),
                                source="camera")
    referee, journal, players = resumed_referee(tmp_path)
    journal.close()
    assert players == 2
    timeline = load_timeline(tmp_path)
    assert timeline.stopped_at is None
    passes = [step for step in timeline.steps if step.event.kind == "pass"]
    assert passes, "the pass due after the last move was recorded"
    assert timeline.final == referee.position
    if referee.phase is Phase.OVER:
        assert GAME.is_over(referee.position)
        assert timeline.steps[-1].event.kind == "note"
    else:
        assert GAME.legal_moves(referee.position)[0].text() != "pass"
    assert referee.view().last_moves[-1].endswith("pass")
