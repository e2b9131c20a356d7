"""A starting layout the camera misreads so badly that it could start no game (a red light, not
a wrong position) is straightened by the demo's director and read again, as a person would,
instead of leaving the demo waiting for a reading that never comes."""

import pytest

from companion.demo import DemoOptions, run_demo
from companion.games.coin_grid import GAME
from companion.launch import GameOptions
from tests.table.conftest import FAST


def test_a_refused_layout_is_straightened_and_read_again(tmp_path):
    readings = []
    original = type(GAME).position_from_reading

    def first_refused(game, template, observation):
        readings.append(observation)
        if len(readings) == 1:
            raise ValueError("the layout has a dime on f12")
        return original(game, template, observation)

    options = DemoOptions(seed=2, speed=1000.0, sloppy_rate=0.0, plain_camera=True,
                          camera_size=FAST["camera_size"], turn_timeout_s=30.0, max_turns=0)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(type(GAME), "position_from_reading", first_refused)
        report = run_demo(GameOptions(game="coin-grid", seed=2), options, tmp_path,
                          headless=True, frames_per_second=FAST["fps"])
    assert report.gave_up is None
    assert report.turns == 0  # stopped once the game began
    assert report.misreads >= 1  # the refused reading, put right by straightening
    assert len(readings) >= 2
