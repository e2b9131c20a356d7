"""A demo turn made cheaper judges the same: the table waiting while the board is still and the
synthetic camera passing a settling board's wait in one frame play the seed's game to the same
line, with no wrong reading accepted, as the table looking at every frame in turn; and the
cheaper turn looks at fewer frames."""

import pytest

import companion.table as table_module
from companion.demo import DemoOptions, run_demo
from companion.launch import GameOptions
from tests.table.conftest import FAST

SEED = 4
PLIES = 10


def _play(out):
    """The demo's report and the frames its camera rendered."""
    options = DemoOptions(seed=SEED, speed=1000.0, sloppy_rate=0.3, plain_camera=True,
                          camera_size=FAST["camera_size"], turn_timeout_s=30.0,
                          max_turns=PLIES)
    tables = []
    report = run_demo(GameOptions(seed=SEED), options, out, headless=True,
                      frames_per_second=FAST["fps"], on_table=tables.append)
    return report, tables[0].parts.camera.synth.frames_read


def test_the_cheaper_turn_plays_the_same_line(tmp_path):
    cheap, cheap_frames = _play(tmp_path / "cheap")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(table_module.Table, "_idle_while_still", lambda self: None)
        every, every_frames = _play(tmp_path / "every-frame")
    assert cheap_frames < every_frames
    for report in (cheap, every):
        assert report.gave_up is None
        assert report.turns == PLIES
        assert report.takebacks == 0  # no wrong reading was accepted
    assert cheap.rejects >= 1  # sloppy moves were refused and put right in both
    assert cheap.rejects == every.rejects
    assert cheap.moves == every.moves
    assert cheap.final_position == every.final_position
