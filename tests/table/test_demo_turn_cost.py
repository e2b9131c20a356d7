"""A demo turn made cheaper judges the same: the synthetic camera rendering ahead and the table
waiting while the board is still play the seed's game to the same line, with no wrong reading
accepted, as the camera rendering every frame in turn and the table looking at every one."""

import pytest

import companion.table as table_module
import vision.synth.feed as feed
from companion.demo import DemoOptions, run_demo
from companion.launch import GameOptions
from tests.table.conftest import FAST

SEED = 4
PLIES = 10


def _play(out):
    options = DemoOptions(seed=SEED, speed=1000.0, sloppy_rate=0.3, plain_camera=True,
                          camera_size=FAST["camera_size"], turn_timeout_s=30.0,
                          max_turns=PLIES)
    return run_demo(GameOptions(seed=SEED), options, out, headless=True,
                    frames_per_second=FAST["fps"])


def test_the_cheaper_turn_plays_the_same_line(tmp_path):
    cheap = _play(tmp_path / "cheap")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(feed.SynthCamera, "render_ahead", lambda self: None)
        patch.setattr(table_module.Table, "_idle_while_still", lambda self: None)
        every = _play(tmp_path / "every-frame")
    for report in (cheap, every):
        assert report.gave_up is None
        assert report.turns == PLIES
        assert report.takebacks == 0  # no wrong reading was accepted
    assert cheap.rejects >= 1  # sloppy moves were refused and put right in both
    assert cheap.rejects == every.rejects
    assert cheap.moves == every.moves
    assert cheap.final_position == every.final_position
