"""The steady-frame gate on photographic frames of the synthetic table (tilt, light, hands)."""

from __future__ import annotations

import pytest

from calibration.geometry import coin_isolation_mat
from vision import synth
from vision.camera import SimCamera, open_camera
from vision.gate import SteadyGate
from vision.synth.feed import hand_visit

SEEDS = (1, 4, 7)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_busy_board_settles_and_a_hand_over_it_is_rejected(seed: int) -> None:
    scene = synth.random_scene(seed)
    gate = SteadyGate(coin_isolation_mat())
    verdicts = [gate.look(0.2 * index, synth.render_frame(scene, index))[0] for index in range(3)]
    assert [verdict.steady for verdict in verdicts] == [False, False, True]
    frame = synth.render(synth.with_hands(scene, synth.random_hand(seed)), 9)
    assert frame.hand_over_play_area
    verdict, _ = gate.look(0.6, frame.image)
    assert not verdict.steady and verdict.code == "hand"


def test_a_hand_on_a_marker_names_the_marker() -> None:
    scene = synth.random_scene(2)
    frame = synth.render(synth.with_hands(scene, synth.random_hand(2, cover_marker=3)), 0)
    assert frame.markers_covered == (3,)
    verdict, location = SteadyGate(coin_isolation_mat()).look(0.0, frame.image)
    assert location is not None and location.markers_missing == (3,)
    assert verdict.missing_markers == (3,)
    assert verdict.reason in ("marker 3 not seen", "a hand covers marker 3")


def test_the_sim_camera_feeds_the_gate() -> None:
    camera = open_camera("sim://?seed=5&fps=10")
    assert isinstance(camera, SimCamera)
    gate = SteadyGate(coin_isolation_mat())
    verdicts = []
    for _ in range(6):
        frame = camera.read()
        verdicts.append(gate.look(frame.timestamp, frame.image)[0])
    assert [verdict.steady for verdict in verdicts] == [False] * 4 + [True] * 2
    camera.show({"a1": "Q"})
    frame = camera.read()
    assert gate.look(frame.timestamp, frame.image)[0].code == "moving"


def test_a_hand_coming_in_and_going_out_holds_the_gate_until_the_board_settles() -> None:
    camera = open_camera("sim://?seed=6&fps=10")
    assert isinstance(camera, SimCamera)
    camera.synth.set_scene(hand_visit(camera.scene, synth.random_hand(6), 5, 3, 2))
    gate = SteadyGate(coin_isolation_mat())
    verdicts, over = [], []
    for _ in range(18):
        frame = camera.read()
        verdicts.append(gate.look(frame.timestamp, frame.image)[0])
        truth = camera.synth.last_frame
        assert truth is not None
        over.append(truth.hand_over_play_area)
    steady = [verdict.steady for verdict in verdicts]
    assert steady[:5] == [False] * 4 + [True]
    assert any(over) and not any(s and o for s, o in zip(steady, over, strict=True))
    assert all(verdicts[index].code == "hand" for index in range(18) if over[index])
    # After the hand has gone, the board counts again once it has been still for 0.4 s.
    last_over = max(index for index in range(18) if over[index])
    first_steady = steady.index(True, last_over)
    assert last_over + 5 <= first_steady <= last_over + 6
