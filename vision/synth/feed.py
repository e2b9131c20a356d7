"""Successive frames of the synthetic table, for ``sim://``: a scene that may change between
frames (coins moved, hands reaching in and out), each frame with its own sensor noise.

Example::

    scene = random_scene(1)
    camera = SynthCamera(hand_visit(scene, random_hand(1), start=10, stay=20), seed=0)
    camera.read()                          # successive frames; set_scene() changes the board
"""

from __future__ import annotations

import threading
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
    """

    def __init__(self, scene: SynthScene | Callable[[int], SynthScene], seed: int = 0) -> None:
        self._scene = scene
        self._seed = seed
        self._index = 0
        self._lock = threading.Lock()
        self.last_frame: SynthFrame | None = None

    def set_scene(self, scene: SynthScene | Callable[[int], SynthScene]) -> None:
        with self._lock:
            self._scene = scene

    def scene_at(self, index: int) -> SynthScene:
        with self._lock:
            scene = self._scene
        return scene if isinstance(scene, SynthScene) else scene(index)

    def read_frame(self) -> SynthFrame:
        """The next frame with its ground truth."""
        index = self._index
        self._index += 1
        frame = render(self.scene_at(index), seed=self._seed * 1_000_003 + index)
        self.last_frame = frame
        return frame

    def read(self) -> Image:
        """The next frame's image."""
        return self.read_frame().image

    @property
    def frames_read(self) -> int:
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
