"""The synthetic camera's successive frames, and its waiting while its table is still: each
frame shows the table as it was when asked for, and a change or a want is seen at once."""

from __future__ import annotations

import threading
import time
from dataclasses import replace

import numpy as np

from calibration.geometry import coin_isolation_mat
from vision.synth import SynthScene, Variation, random_hand, with_hands
from vision.synth.feed import SynthCamera

GEOMETRY = coin_isolation_mat()
SIZE = (640, 360)


def _scene(coins: dict[str, str]) -> SynthScene:
    return SynthScene.build(coins, {}, GEOMETRY, Variation(noise=3.0, jpeg_quality=80),
                            image_size=SIZE)


def test_each_frame_shows_the_table_set_before_it_was_asked_for() -> None:
    first, second = _scene({"a1": "P"}), _scene({"a1": "P", "c3": "QN"})
    handed = with_hands(second, random_hand(2, GEOMETRY))
    # What the table holds before each read (None: unchanged).
    script = [None, None, handed, None, second, None, None, first, None]
    served = []
    for _ in range(2):
        camera = SynthCamera(first, seed=3)
        frames = []
        for change in script:
            if change is not None:
                changed_at = time.monotonic()
                camera.set_scene(change)
            frame, taken = camera.read_taken()
            frames.append(frame)
            if change is not None:
                assert taken >= changed_at  # a change before the ask is in the frame
        camera.close()
        served.append(frames)
    for once, again in zip(*served, strict=True):
        assert np.array_equal(once.image, again.image)  # a frame depends on scene and index
    assert [frame.scene for frame in served[1]] == [
        first, first, handed, handed, second, second, second, first, first]
    assert not np.array_equal(served[0][0].image, served[0][1].image)  # each its own noise


def test_a_still_table_waits_for_a_change_or_a_wake() -> None:
    still, moved = _scene({"b2": "D"}), _scene({"b2": "D", "d4": "P"})
    camera = SynthCamera(still, seed=1)
    camera.read_frame()
    assert not camera.wait_for_change(0.05)
    camera.set_scene(replace(still))  # the same table laid again is no change
    assert not camera.wait_for_change(0.05)
    camera.set_scene(moved)
    assert camera.wait_for_change(5.0)
    assert camera.read_frame().scene == moved
    woken_at: list[float] = []

    def wake() -> None:
        woken_at.append(time.monotonic())
        camera.wake()

    timer = threading.Timer(0.05, wake)
    timer.start()
    assert camera.wait_for_change(5.0)
    frame, taken = camera.read_taken()
    timer.join()
    # The frame after the wake is taken after it: it answers the one who woke it.
    assert taken >= woken_at[0] and frame.scene == moved
    camera.close()


def test_a_scene_that_is_a_function_of_the_frame_never_waits() -> None:
    camera = SynthCamera(lambda index: _scene({"a1": "P" * (1 + index % 2)}))
    camera.read_frame()
    started = time.monotonic()
    assert camera.wait_for_change(5.0)
    assert time.monotonic() - started < 1.0
