"""The synthetic camera passes a still board's settle in one frame: after ``pass_still`` the next
frame of the same table comes that much later on the camera's clock, so the real steady gate
finds the board steady at once; a table changed meanwhile is filmed at the next frame, and the
gate sees it move."""

from dataclasses import replace

from calibration.geometry import mat_for_game
from vision.camera import CameraOptions, open_camera
from vision.gate import GateConfig, SteadyGate

SETTLE_S = GateConfig().settle_s


def _camera():
    camera = open_camera("sim://?seed=3&board=empty&mat=coin-grid&plain=1",
                         CameraOptions(fps=10.0))
    camera.synth.set_scene(replace(camera.scene, image_size=(1280, 720)))
    camera.show({"a1": "P", "c2": "P", "d11": "N"})
    return camera


def test_a_settling_board_is_steady_at_the_next_frame():
    camera, gate = _camera(), SteadyGate(mat_for_game("coin-grid"))
    try:
        first = camera.read()
        verdict, _ = gate.look(first.timestamp, first.image)
        assert verdict.code == "settling"
        camera.pass_still(SETTLE_S - verdict.still_s)
        second = camera.read()
        assert second.timestamp - first.timestamp >= SETTLE_S - 1e-9
        assert gate.look(second.timestamp, second.image)[0].steady
        third = camera.read()  # the pass is spent: frames come at the camera's rate again
        assert abs(third.timestamp - second.timestamp - 0.1) < 1e-9
    finally:
        camera.close()


def test_a_board_changed_meanwhile_is_filmed_at_once():
    camera, gate = _camera(), SteadyGate(mat_for_game("coin-grid"))
    try:
        first = camera.read()
        verdict, _ = gate.look(first.timestamp, first.image)
        camera.pass_still(SETTLE_S - verdict.still_s)
        camera.show({"a1": "P", "c4": "P", "d11": "N"})  # a coin moved from c2 to c4
        second = camera.read()
        assert abs(second.timestamp - first.timestamp - 0.1) < 1e-9
        assert gate.look(second.timestamp, second.image)[0].code == "moving"
    finally:
        camera.close()
