"""A camera that stops delivering frames and a panel unplugged mid-game: the screen says so, and
the game carries on once they are back."""

from companion.referee import Phase
from tests.table.helpers import GAME, SimTable, single_square_move


def test_a_camera_that_stops_is_shown_and_the_move_is_read_once_it_is_back(tmp_path):
    position = GAME.new_position(2, (), seed=12)
    table = SimTable(tmp_path, position, blockable=True)
    try:
        move = single_square_move(position)
        after = GAME.apply(position, move)
        table.board.lay_out(GAME.layout(after))
        table.camera.blocked.set()
        table.press("END1")
        table.wait(lambda: "stopped delivering pictures" in table.table.snapshot.message.text)
        assert table.table.snapshot.message.severity == "error"
        table.wait(lambda: table.camera.failures >= 2)  # the table keeps trying
        assert table.referee.phase is Phase.READING
        assert table.verdicts == []
        table.camera.blocked.clear()
        table.wait(lambda: table.verdicts)
        if table.verdicts[0].verdict != "green":  # a misreading: straighten and press again
            table.submit_until("END1", "green")
        assert table.referee.position == after
        table.wait(lambda: "stopped" not in table.table.snapshot.message.text)
        assert table.table.snapshot.message.severity == "info"
    finally:
        table.close()


def test_an_unplugged_panel_is_shown_and_its_buttons_work_once_plugged_back(tmp_path):
    position = GAME.new_position(2, (), seed=13)
    table = SimTable(tmp_path, position)
    try:
        table.wait(lambda: table.panel.connected)
        table.panel.twin.unplug()
        table.wait(lambda: "panel was unplugged" in table.table.snapshot.message.text)
        unplugged = table.table.snapshot.message
        assert unplugged.severity == "error"
        move = single_square_move(position)
        after = GAME.apply(position, move)
        table.board.lay_out(GAME.layout(after))
        table.panel.twin.replug()
        table.wait(lambda: table.table.snapshot.message != unplugged)
        table.wait(lambda: not table.referee.view().device_trouble)
        table.submit_until("END1", "green")
        assert table.referee.position == after
        assert table.table.snapshot.to_move == 2
    finally:
        table.close()


def test_the_table_reads_the_mat_at_its_printed_square_size(tmp_path):
    """`companion play --square-mm`, or a profile calibrated on a smaller print, sets the mat
    the table reads; a profile made on another game's mat does not."""
    from dataclasses import replace

    from calibration.profile import VisionProfile
    from companion.launch import close_quietly, table_parts
    from companion.panel.driver import open_panel
    from companion.referee import Referee

    position = GAME.new_position(2, ())
    plain = VisionProfile.default()
    small = replace(plain, mat="coin-isolation", square_mm=40.0)
    cases = [(plain, None, 50.0), (plain, 45.0, 45.0), (small, None, 40.0),
             (small, 45.0, 45.0), (replace(small, mat="test-pits"), None, 50.0)]
    for profile, given, expected in cases:
        panel = open_panel("sim://")
        parts = table_parts(Referee(GAME, position), "sim://", panel, profile, tmp_path / "r", 2,
                            square_mm=given)
        try:
            assert parts.geometry.region("a1").shape.size == (expected, expected)
        finally:
            close_quietly(parts)


def test_a_resumed_game_is_read_at_the_square_size_it_was_recorded_with(tmp_path):
    from companion.launch import recorded_square_mm
    from companion.record.entries import JournalHeader
    from companion.record.journal import JournalWriter

    start = GAME.new_position(2, ()).to_json()
    for folder, options in [(tmp_path / "small", {"square_mm": 40.0}), (tmp_path / "plain", {})]:
        JournalWriter.create(folder, JournalHeader.from_position(start, options=options)).close()
    assert recorded_square_mm(tmp_path / "small") == 40.0
    assert recorded_square_mm(tmp_path / "plain") is None
