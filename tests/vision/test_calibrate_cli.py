"""`companion calibrate` end to end on the simulated table, and its one-line failures."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from calibration.profile import VisionProfile
from companion.cli import main
from vision import synth


def test_calibrate_on_sim_runs_end_to_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "profile.json"
    code = main(["calibrate", "--camera", "sim://?seed=2&fps=10", "--out", str(out),
                 "--square-mm", "50"])
    printed = capsys.readouterr().out
    assert code == 0, printed
    assert "captured 3 frames of the empty mat" in printed
    assert "put a penny (P) on c3" in printed and "put the red pawn on d4" in printed
    assert f"Saved the profile to {out}" in printed
    profile = VisionProfile.load(out)
    sizes = {look.kind: look.diameter_mm for look in profile.coins}
    assert sizes["D"] < sizes["P"] < sizes["N"] < sizes["Q"]
    assert {look.name for look in profile.pawns} >= {"red", "blue"}
    assert (profile.mat, profile.square_mm) == ("coin-isolation", 50.0)


def test_calibrate_without_a_camera_says_so_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["calibrate", "--camera", "99"]) == 2
    error = capsys.readouterr().err.strip()
    assert error.startswith("companion calibrate: no camera at /dev/video99")
    assert "\n" not in error


@pytest.mark.parametrize(
    ("arguments", "words"),
    [(["--mat", "chess"], "no mat for game 'chess'"), (["--frames", "0"], "--frames 0"),
     (["--kinds", "PX"], "unknown coin kind 'X'"), (["--pawns", "red,red"], "only once"),
     (["--players", "6"], "mat 'coin-isolation' has no number of players")],
)
def test_calibrate_rejects_bad_arguments(
    arguments: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["calibrate", "--camera", "sim://", *arguments]) == 2
    assert words in capsys.readouterr().err


def test_calibrate_gives_up_when_the_board_never_clears(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scene = synth.SynthScene.build({}, {}, image_size=(1280, 720))
    busy = synth.with_hands(scene, synth.random_hand(4))
    folder = tmp_path / "busy"
    folder.mkdir()
    cv2.imwrite(str(folder / "0.png"), synth.render_frame(busy))
    code = main(["calibrate", "--camera", f"file://{folder}?loop=1&fps=10", "--timeout", "0.5",
                 "--out", str(tmp_path / "p.json")])
    captured = capsys.readouterr()
    assert code == 2
    assert "no steady view of the empty mat within 0.5 s (a hand is over the board)" in captured.err
    assert "(a hand is over the board)" in captured.out
    assert not (tmp_path / "p.json").exists()
