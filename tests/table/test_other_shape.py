"""Proof that the table is general: Ring Race (a ring track with a die, a test game of another
shape) runs through the whole table -- the synthetic camera showing its own mat, the panel twin,
the referee's roll phase, the side screen drawing the ring, the journal, resume and export --
with no line of table, referee, screen or record code knowing its name."""

from companion.launch import resumed_referee
from companion.record.export import format_game_text, game_text_from_timeline
from companion.record.replay import load_timeline
from companion.referee import Phase
from tests.games.ring_race import GAME as RING_RACE
from tests.table.helpers import SimTable


def wait_for(condition, table, seconds=10.0):
    """Whether ``condition()`` came true within ``seconds``."""
    try:
        table.wait(condition, seconds)
    except AssertionError:
        return False
    return True


def test_a_ring_race_turn_is_rolled_read_recorded_resumed_and_exported(tmp_path):
    position = RING_RACE.new_position(2, seed=4)
    table = SimTable(tmp_path, position, game=RING_RACE)
    try:
        referee = table.referee
        assert referee.phase is Phase.ROLL
        snapshot = table.table.snapshot
        assert snapshot.mat is not None and snapshot.candidates == ("roll:1", "roll:2", "roll:3")
        table.press("SELECT")
        table.wait(lambda: table.table.snapshot.selected == 1)
        table.press("CONFIRM")  # the players' die shows 2
        table.wait(lambda: referee.phase is Phase.TURN)
        rolled = referee.position
        assert rolled.rolled == 2
        (move,) = RING_RACE.legal_moves(rolled)
        after = RING_RACE.apply(rolled, move)
        assert move.regions()[-1] in table.table.snapshot.targets
        table.board.lay_out(RING_RACE.layout(after))  # the player moves the token by hand
        table.submit_until("END1", "green")
        assert referee.position == after and referee.phase is Phase.ROLL
        for _ in range(2):
            table.press("SELECT")
        table.wait(lambda: table.table.snapshot.selected == 2)
        table.press("CONFIRM")  # player 2 rolls 3: a gust blows the penny off t6
        table.wait(lambda: referee.phase is Phase.RESTORE)
        assert table.table.snapshot.problems == {"t6"}
        gusted = referee.position
        table.press("CONFIRM")  # the board still shows the penny: the camera says so
        table.wait(lambda: table.table.snapshot.message.severity == "error")
        table.board.lay_out(RING_RACE.layout(gusted))
        for _ in range(12):
            table.press("CONFIRM")
            if wait_for(lambda: referee.phase is Phase.TURN, table):
                break
            table.board.straighten(_ + 1)  # a misreading of the right board: look again
        assert referee.phase is Phase.TURN and referee.position == gusted
    finally:
        table.close()
    timeline = load_timeline(tmp_path / "record")
    assert not timeline.problems and timeline.final == gusted
    sources = [(step.event.move, step.event.source) for step in timeline.steps]
    assert sources[:2] == [("roll:2", "panel"), (move.text(), "camera")]
    text = format_game_text(game_text_from_timeline(timeline))
    assert "roll:2" in text and move.text() in text
    resumed, journal, players = resumed_referee(tmp_path / "record")
    journal.close()
    assert players == 2 and resumed.position == gusted and resumed.phase is Phase.TURN
