"""A real table on the synthetic camera and the software panel, driven step by step by a test."""

import random
import threading
import time
from dataclasses import replace

from calibration.profile import VisionProfile
from companion.demo_board import PhysicalBoard
from companion.games import get_game
from companion.launch import HeadlessSink, close_quietly, table_parts
from companion.panel.driver import open_panel
from companion.record.entries import JournalHeader
from companion.record.journal import JournalWriter
from companion.referee import Referee
from companion.table import Table
from vision.camera import CameraError, CameraOptions

GAME = get_game("coin-isolation")


class BlockableCamera:
    """A camera source that stops delivering frames while ``blocked`` is set, as a webcam whose
    cable is pulled does: every read raises :class:`CameraError`."""

    def __init__(self, inner):
        self.inner = inner
        self.blocked = threading.Event()
        self.failures = 0

    def read(self):
        if self.blocked.is_set():
            self.failures += 1
            raise CameraError("the camera stopped delivering pictures; check its cable")
        return self.inner.read()

    def close(self):
        pass  # the table closes it when it retries; the test closes the real one at the end

    def __iter__(self):
        while True:
            yield self.read()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class SimTable:
    """A :class:`Table` that starts at ``position`` with its game record begun."""

    def __init__(self, folder, position, camera_seed=5, blockable=False, plain=True,
                 size=(1280, 720), camera=None, panel_url="sim://", game=GAME, dice=None):
        referee = Referee(game, position, position=position, dice=dice)
        self.panel = open_panel(panel_url)
        url = (f"sim://?seed={camera_seed}&board=empty&mat={game.info.mat}"
               + ("&plain=1" if plain else ""))
        players = position.to_json()["players"]
        self.parts = table_parts(referee, url, self.panel, VisionProfile.default(),
                                 folder / "record", players,
                                 camera_options=CameraOptions(fps=2.5))
        self.sim = self.parts.camera
        self.sim.synth.set_scene(replace(self.sim.scene, image_size=size))
        header = JournalHeader.from_position(position.to_json())
        self.parts.journal = JournalWriter.create(folder / "record", header)
        self.camera = None
        if blockable:
            self.camera = BlockableCamera(self.sim)
            self.parts.camera = self.camera
            self.parts.reopen_camera = None
        if camera is not None:
            self.camera = camera
            self.parts.camera = camera
            self.parts.reopen_camera = None
        colours = {str(seat.number): seat.colour for seat in self.parts.seats}
        self.board = PhysicalBoard(self.sim, colours, camera_seed)
        self.board.lay_out(game.layout(position))
        self.sink = HeadlessSink()
        self.table = Table(self.parts, self.sink)
        self.referee = referee
        self.verdicts = []
        self.changed = threading.Condition()
        self.table.on_verdict(self._verdict)
        self.table.on_change(self._notify)
        self._rng = random.Random(camera_seed)
        self.table.start()

    def _verdict(self, verdict):
        with self.changed:
            self.verdicts.append(verdict)
            self.changed.notify_all()

    def _notify(self, _table):
        with self.changed:
            self.changed.notify_all()

    def wait(self, condition, timeout=30.0):
        """Wait until ``condition()`` holds; fail the test after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while not condition():
                left = deadline - time.monotonic()
                assert left > 0, f"timed out; message: {self.table.snapshot.message}"
                self.changed.wait(min(left, 0.05))

    def press(self, button):
        self.panel.twin.press(button)

    def submit(self, button):
        """Press ``button`` and return the verdict the panel then shows."""
        with self.changed:
            count = len(self.verdicts)
        self.press(button)
        self.wait(lambda: len(self.verdicts) > count)
        return self.verdicts[count].verdict

    def submit_until(self, button, verdict, tries=12):
        """Submit until ``verdict`` comes, straightening the coins after each other verdict (a
        misreading of a correct board); returns how many misreadings there were."""
        for misreads in range(tries):
            if self.submit(button) == verdict:
                return misreads
            self.board.hand(True)
            self.board.straighten(self._rng.randrange(1, 2**31))
            self.board.hand(False)
        raise AssertionError(f"no {verdict} verdict in {tries} tries")

    def close(self):
        self.table.stop()
        close_quietly(self.parts)
        self.sim.close()
        self.parts.journal.close()


def single_square_move(position):
    """A legal move whose path is its target alone, so the pawn stands on an empty square."""
    moves = sorted(GAME.legal_moves(position), key=lambda move: move.text())
    return next(move for move in moves if len(move.regions()) == 1)
