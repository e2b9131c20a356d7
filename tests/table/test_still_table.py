"""A still table on the synthetic camera is not rendered again and again: once its still spell
is read, the table waits for a change; the move made next is judged on a frame of it, and a
press on a board already read is answered from a frame taken after the press."""

import threading

from tests.table.helpers import GAME, SimTable, single_square_move


def test_a_still_table_is_not_rendered_again_until_it_changes(tmp_path):
    position = GAME.new_position(2, (), seed=11)
    after = GAME.apply(position, single_square_move(position))
    table = SimTable(tmp_path, position)
    try:
        table.wait(lambda: table.table.gate_reason == "steady")
        table.wait(lambda: table.table._steady_reading is not None)
        rendered = table.sim.synth.frames_read
        threading.Event().wait(1.5)  # the table is left alone a while
        # One timed-out wait a second at most.
        assert table.sim.synth.frames_read - rendered <= 3
        table.board.hand(True)
        table.board.lay_out(GAME.layout(after))
        table.board.hand(False)
        assert table.submit("END1") == "green", table.table.snapshot.message
        assert table.referee.position == after
        moved_at = table.sim.synth.frames_read
        threading.Event().wait(1.0)
        pressed_at = table.sim.synth.frames_read
        assert pressed_at - moved_at <= 3
        assert table.submit("END2") in ("red", "green", "ask")  # a frame after the press
        assert table.table.answered_with is not None
        assert table.sim.synth.frames_read > pressed_at
    finally:
        table.close()


def test_the_headless_screen_makes_the_camera_picture_only_for_a_screenshot(tmp_path):
    position = GAME.new_position(2, (), seed=11)
    table = SimTable(tmp_path, position)
    made = []
    try:
        table.wait(lambda: table.table.gate_reason == "steady")
        original = table.table._preview

        def counted(frame, location):
            made.append(frame.index)
            return original(frame, location)

        table.table._preview = counted
        table.board.hand(True)
        table.wait(lambda: table.table.gate_reason != "steady")
        table.board.hand(False)
        table.wait(lambda: table.table.gate_reason == "steady")
        assert made == []  # frames were looked at, no picture was made
        view = table.sink.current().camera
        assert view is not None and made == [view.frame_number]  # made for this screenshot
        assert view.grid_corners is not None  # the play area found in the latest frame
        saved = table.sink.save(tmp_path / "screen.png")
        assert saved.stat().st_size > 0 and len(made) <= 2  # once a screenshot at most
    finally:
        table.close()
