"""Successive frames of the synthetic table, for ``sim://``: a scene that may change between
frames (coins moved, hands reaching in and out), each frame with its own sensor noise.

Example::

    scene = random_scene(1)
    camera = SynthCamera(hand_visit(scene, random_hand(1), start=10, stay=20), seed=0)
    camera.read()                          # successive frames; set_scene() changes the board
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import replace

from vision.synth import Image, SynthFrame, SynthScene, render, with_hands
from vision.synth.effects import Hand

__all__ = ["SynthCamera", "hand_visit"]


class SynthCamera:
    """Successive frames of a scene that may change between frames, for ``sim://``.

    ``scene`` is a fixed :class:`SynthScene` or a function of the frame index returning one;
    :meth:`set_scene` replaces it (thread-safe) so a referee or demo can move coins and bring
    hands in and out. Each frame gets its own noise; unchanged boards reuse their cached drawing.

    :meth:`wait_for_change` lets a caller that has seen a still scene wait for a change
    instead of rendering the same table again (see :class:`companion.table.Table`).
    """

    def __init__(self, scene: SynthScene | Callable[[int], SynthScene], seed: int = 0) -> None:
        self._scene = scene
        self._seed = seed
        self._index = 0
        self._lock = threading.Condition()
        #: Bumped by every :meth:`set_scene` that changes the scene; the one the last frame took.
        self._version = 0
        self._taken_version = -1
        self._woken = False
        self.last_frame: SynthFrame | None = None

    def set_scene(self, scene: SynthScene | Callable[[int], SynthScene]) -> None:
        with self._lock:
            if scene != self._scene:
                self._scene = scene
                self._version += 1
                self._lock.notify_all()

    def wait_for_change(self, timeout: float) -> bool:
        """Wait until the scene differs from the one the last frame took (at once for a scene
        that is a function of the frame index), :meth:`wake` is called, or ``timeout`` passes;
        True unless it timed out. A caller that has seen a still scene need not render it again.
        """
        with self._lock:
            changed = self._lock.wait_for(
                lambda: self._woken or self._version != self._taken_version
                or not isinstance(self._scene, SynthScene), timeout)
            self._woken = False
            return changed

    def wake(self) -> None:
        """End a :meth:`wait_for_change` now (someone wants a frame)."""
        with self._lock:
            self._woken = True
            self._lock.notify_all()

    def scene_at(self, index: int) -> SynthScene:
        with self._lock:
            scene = self._scene
        return scene if isinstance(scene, SynthScene) else scene(index)

    def close(self) -> None:
        """Nothing to release; kept so the synthetic camera closes like a device."""

    def read_taken(self) -> tuple[SynthFrame, float]:
        """The next frame with its ground truth, and the ``time.monotonic()`` at which its
        scene was taken."""
        index, self._index = self._index, self._index + 1
        with self._lock:
            self._taken_version = self._version
            self._woken = False  # a frame taken now serves whoever woke the camera before
            scene, taken = self.scene_at(index), time.monotonic()
        frame = render(scene, seed=self._seed * 1_000_003 + index)
        self.last_frame = frame
        return frame, taken

    def read_frame(self) -> SynthFrame:
        """The next frame with its ground truth."""
        return self.read_taken()[0]

    def read(self) -> Image:
        """The next frame's image."""
        return self.read_frame().image

    @property
    def frames_read(self) -> int:
        """How many frames were taken."""
        return self._index


def hand_visit(scene: SynthScene, hand: Hand, start: int, stay: int, travel: int = 6
               ) -> Callable[[int], SynthScene]:
    """A scene provider for :class:`SynthCamera`: ``hand`` reaches in from frame ``start`` over
    ``travel`` frames, stays still for ``stay`` frames, and goes back out over ``travel``."""
    leave = start + travel + stay

    def scene_at(index: int) -> SynthScene:
        if index < start or index >= leave + travel:
            return scene
        if index < start + travel:
            reach = (index - start + 1) / travel
        elif index < leave:
            reach = 1.0
        else:
            reach = 1.0 - (index - leave + 1) / travel
        return with_hands(scene, replace(hand, reach=reach)) if reach > 0 else scene

    return scene_at
