"""Which frame answers a press: never one the camera was already taking before the press (it may
show the board before the move was finished), and one of the same still spell when the board was
already steady."""

import threading
import time

from tests.table.helpers import GAME, SimTable, single_square_move
from vision.camera import Frame
from vision.synth import SynthScene, Variation, render


class ScriptedCamera:
    """Serves a pre-rendered picture of whichever board is current, 5 frames a second of table
    time; while ``hold`` is set, a read picks its picture, then waits for ``release``."""

    def __init__(self, pictures, current):
        self.pictures = pictures
        self.current = current
        self.index = 0
        self.hold = threading.Event()
        self.holding = threading.Event()
        self.release = threading.Event()

    def read(self):
        image = self.pictures[self.current]
        if self.hold.is_set():
            self.hold.clear()
            self.holding.set()
            self.release.wait(10)
        time.sleep(0.01)
        frame = Frame(image, self.index * 0.2, self.index)
        self.index += 1
        return frame

    def close(self):
        pass


def picture(position):
    scene = SynthScene.from_table(GAME.layout(position), variation=Variation(),
                                  image_size=(1280, 720))
    return render(scene, 1).image


def test_a_frame_taken_before_the_press_never_answers_it(tmp_path):
    position = GAME.new_position(2, (), seed=11)
    move = single_square_move(position)
    after = GAME.apply(position, move)
    camera = ScriptedCamera({"before": picture(position), "after": picture(after)}, "before")
    table = SimTable(tmp_path, position, camera=camera)
    try:
        table.wait(lambda: table.table.gate_reason == "steady")
        camera.hold.set()
        table.wait(lambda: camera.holding.is_set())  # a picture of the old board is on its way
        held = camera.index
        camera.current = "after"
        table.press("END1")
        table.wait(lambda: table.referee.phase.value == "reading")
        camera.release.set()
        table.wait(lambda: table.verdicts)
        assert table.verdicts[0].verdict == "green", table.table.snapshot.message
        assert table.referee.position == after
        assert table.table.answered_with > held
    finally:
        table.close()


def test_a_board_already_steady_is_answered_from_its_still_spell(tmp_path):
    position = GAME.new_position(2, (), seed=11)
    move = single_square_move(position)
    after = GAME.apply(position, move)
    camera = ScriptedCamera({"after": picture(after)}, "after")
    table = SimTable(tmp_path, position, camera=camera)
    try:
        table.wait(lambda: table.table.gate_reason == "steady")
        table.wait(lambda: camera.index > 12)  # well after the spell's first steady frame
        pressed_at = camera.index
        assert table.submit("END1") == "green"
        assert table.referee.position == after
        # The reading that answered is the spell's first steady frame, taken long before.
        assert table.table.answered_with is not None
        assert table.table.answered_with < pressed_at
    finally:
        table.close()


class LaggingCamera(ScriptedCamera):
    """Hands each picture over one read late, stamped with when it was taken, as a camera that
    exposes the next frame while the host reads the last (the synthetic one rendering ahead)."""

    def __init__(self, pictures, current):
        super().__init__(pictures, current)
        self.taken = None

    def read(self):
        now = (self.pictures[self.current], time.monotonic())
        (image, taken_at), self.taken = self.taken or now, now
        if self.hold.is_set():
            self.hold.clear()
            self.holding.set()
            self.release.wait(10)
        time.sleep(0.01)
        frame = Frame(image, self.index * 0.2, self.index, taken_at=taken_at)
        self.index += 1
        return frame


def test_a_frame_handed_over_after_the_press_but_taken_before_never_answers_it(tmp_path):
    position = GAME.new_position(2, (), seed=11)
    move = single_square_move(position)
    after = GAME.apply(position, move)
    camera = LaggingCamera({"before": picture(position), "after": picture(after)}, "before")
    table = SimTable(tmp_path, position, camera=camera)
    try:
        table.wait(lambda: table.table.gate_reason == "steady")
        table.wait(lambda: table.table._steady_reading is not None)
        camera.hold.set()
        table.wait(lambda: camera.holding.is_set())  # the old board is taken, not handed over
        camera.current = "after"
        table.press("END1")
        table.wait(lambda: table.referee.phase.value == "reading")
        camera.release.set()
        table.wait(lambda: table.verdicts)
        # Handed over after the press, the still board's frame taken before it does not count.
        assert table.verdicts[0].verdict == "green", table.table.snapshot.message
        assert table.referee.position == after
    finally:
        table.close()
