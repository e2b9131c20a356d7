"""A cocked die told by where its side faces show (:mod:`vision.dice_side`, issue 19)."""

from __future__ import annotations

import math

import numpy as np

from vision.dice_side import SIDE_WHY, side_shift
from vision.synth.dice_sets import tuning_tray

from .helpers import explained_tray

EDGE = 32.0


def _swept_square(sweep: tuple[int, int]) -> np.ndarray:
    """A 32 px square top with its body swept by ``sweep`` (px, x and y) from it, on a patch
    whose top's middle is at (40, 40)."""
    body = np.zeros((80, 80), np.uint8)
    for step in np.linspace(0.0, 1.0, 40):
        x0 = round(24 + step * sweep[0])
        y0 = round(24 + step * sweep[1])
        body[y0:y0 + 32, x0:x0 + 32] = 1
    return body


def test_a_flat_die_swept_towards_the_camera_by_its_lean_shows_no_shift() -> None:
    # Lean 0.3 along +x (away from the camera): the side faces show 0.3 of the edge towards -x.
    body = _swept_square((-10, 0))
    along, across = side_shift(body, (0, 0), np.array([39.5, 39.5]), np.array([0.3, 0.0]), EDGE)
    assert abs(along) < 0.05 and across < 0.05


def test_a_side_face_across_the_lean_or_none_towards_the_camera_is_a_shift() -> None:
    # A top facing the camera: no strip towards it, a side face 0.3 of the edge to one side.
    body = _swept_square((0, 10))
    along, across = side_shift(body, (0, 0), np.array([39.5, 39.5]), np.array([0.3, 0.0]), EDGE)
    assert math.hypot(along, across) > 0.4
    assert along < -0.25 and across > 0.25


def test_a_die_cocked_with_its_top_facing_the_camera_is_not_read() -> None:
    # Tuning cocked frame 410: a blue 4 cocked 23° with its top turned towards the camera,
    # square to 4%, read as 4 at confidence 1.0; its body shows no strip towards the camera
    # and a side face across the lean.
    scene = tuning_tray(410 + 100_000, cocked=True)
    explained = explained_tray(scene, 410)
    (blue,) = [die for die in scene.truth()["tray"].dice if die.colour == "blue"]
    assert blue.value is None
    reading, why = min(explained, key=lambda item: math.dist(item[0].centre_mm,
                                                              blue.centre_mm))
    assert reading.value is None and why == SIDE_WHY, (reading, why)
