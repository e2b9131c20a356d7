"""Tests of the whole simulated table: real vision on rendered frames, the real panel twin through
the driver, real pygame surfaces (dummy video driver), the real journal on disk."""

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pytest

from companion.demo import DemoOptions, run_demo
from companion.launch import GameOptions

#: The demo game every end-to-end test compares with: a straight camera at 1280x720 renders
#: quickly, and a 2.5 fps table clock lets the gate settle in three frames.
REFERENCE_SEED = 3
FAST = {"fps": 2.5, "plain_camera": True, "camera_size": (1280, 720)}


def reference_options():
    return DemoOptions(seed=REFERENCE_SEED, speed=1000.0, sloppy_rate=0.25, plain_camera=True,
                       camera_size=(1280, 720), turn_timeout_s=30.0)


@pytest.fixture(scope="session")
def reference_game(tmp_path_factory):
    """One whole demo game, headless, played to the end: (output folder, report)."""
    out = tmp_path_factory.mktemp("reference-game")
    report = run_demo(GameOptions(seed=REFERENCE_SEED), reference_options(), out, headless=True,
                      frames_per_second=FAST["fps"])
    return out, report
