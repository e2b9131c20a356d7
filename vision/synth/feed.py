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
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace

from vision.synth import Image, SynthFrame, SynthScene, render, with_hands
from vision.synth.effects import Hand

__all__ = ["SynthCamera", "hand_visit"]


class SynthCamera:
    """Successive frames of a scene that may change between frames, for ``sim://``.

    ``scene`` is a fixed :class:`SynthScene` or a function of the frame index returning one;
    :meth:`set_scene` replaces it (thread-safe) so a referee or demo can move coins and bring
    hands in and out. Each frame gets its own noise; unchanged boards reuse their cached drawing.

    After :meth:`render_ahead`, each frame is rendered in a thread of its own while the one
    before is looked at, as a real camera exposes the next frame while the host reads the
    last: the scene of frame ``i + 1`` is taken when frame ``i`` is handed out, and taken
    again when it is asked for if the scene changed or :meth:`wake` was called since (so a
    change or a want is seen at once; the frame after that one is not rendered ahead, as the
    table is likely still being changed); :meth:`read_taken` says when it was taken. A frame's
    pixels depend on its scene and index alone, so rendering ahead changes how the work is
    spread over threads, never what a frame of a scene shows.

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
        self._retake = False
        self._ahead: ThreadPoolExecutor | None = None
        self._pending: Future[tuple[SynthFrame, float]] | None = None
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
            self._retake = self._retake or self._woken
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

    def render_ahead(self) -> None:
        """From now on render each next frame in a thread while the last one is looked at."""
        if self._ahead is None:
            self._ahead = ThreadPoolExecutor(max_workers=1, thread_name_prefix="synth camera")

    def close(self) -> None:
        """Stop rendering ahead (a frame on its way is dropped)."""
        ahead, self._ahead, self._pending = self._ahead, None, None
        if ahead is not None:
            ahead.shutdown(wait=True, cancel_futures=True)

    def read_taken(self) -> tuple[SynthFrame, float]:
        """The next frame with its ground truth, and the ``time.monotonic()`` at which its
        scene was taken (before this call when rendering ahead)."""
        if self._ahead is None:
            frame, taken = self._take()()
        else:
            stale = False
            if self._pending is None:
                self._pending = self._ahead.submit(self._take())
            elif self._retake or self._taken_version != self._version:
                self._pending.cancel()  # it shows the table as it was before a change or a want
                self._pending = self._ahead.submit(self._take(self._index - 1))
                stale = True
            self._retake = False
            pending = self._pending
            # While the table is being changed, a frame rendered ahead is mostly thrown away:
            # after a stale one, the next frame is rendered when it is asked for.
            self._pending = None if stale else self._ahead.submit(self._take())
            frame, taken = pending.result()
        self.last_frame = frame
        return frame, taken

    def _take(self, again: int | None = None) -> Callable[[], tuple[SynthFrame, float]]:
        """Take the next frame's scene now (or frame ``again``'s anew, a frame rendered ahead
        and not handed out); the returned function renders it."""
        index = self._index if again is None else again
        self._index += again is None
        with self._lock:  # a reentrant lock: scene_at takes it again
            self._taken_version = self._version
            self._woken = False  # a frame taken now serves whoever woke the camera before
            scene, taken = self.scene_at(index), time.monotonic()
        seed = self._seed * 1_000_003 + index
        return lambda: (render(scene, seed=seed), taken)

    def read_frame(self) -> SynthFrame:
        """The next frame with its ground truth."""
        return self.read_taken()[0]

    def read(self) -> Image:
        """The next frame's image."""
        return self.read_frame().image

    @property
    def frames_read(self) -> int:
        """How many frames' scenes were taken (frames rendered or being rendered)."""
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
