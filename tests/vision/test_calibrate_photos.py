"""`companion calibrate` through `file://` sources: folders of still photos and a short video.

Photos are taken in name order, empty mat first, then the layout; each photo counts as steady.
A source that runs out says what calibration was waiting for, in one sentence, exit code 2.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.profile import VisionProfile
from companion.cli import main
from tests.vision.calibration_frames import (
    SIZE,
    frame,
    layout_scene,
    scene,
    wash_out,
    write_photos,
)

FULL = layout_scene()
CLEAR_E4 = "(clear the mat: something lies on e4)"


@pytest.fixture(scope="module")
def photos() -> dict[str, np.ndarray]:
    """The photos the tests put in their folders, rendered once."""
    return {
        "empty": frame(scene({}), 0),
        "empty again": frame(scene({}), 6),
        "layout": frame(FULL, 1),
        "glared": wash_out(frame(FULL, 2), FULL, "f6"),
        "no nickel, glared": wash_out(frame(layout_scene(without="f3"), 3), FULL, "f6"),
        "dime on e4": frame(scene({"e4": "D"}), 4),
        "dime on e4 again": frame(scene({"e4": "D"}), 5),
    }


def _calibrate(camera: str, out: Path, *options: str) -> int:
    return main(["calibrate", "--camera", camera, "--out", str(out), "--headless", *options])


def _video(path: Path, images: list[np.ndarray]) -> Path:
    """``images`` written as an MJPG video at 10 frames a second."""
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 10.0, SIZE)
    for image in images:
        writer.write(image)
    writer.release()
    return path


def _one_sentence(error: str) -> str:
    """The error line without its prefix, checked to be one line and no traceback."""
    assert "Traceback" not in error and error.count("\n") == 1, error
    assert error.startswith("companion calibrate: ")
    return error.removeprefix("companion calibrate: ").strip()


def test_one_photo_of_the_empty_mat_and_one_of_the_layout_calibrate(
    tmp_path: Path, photos: dict[str, np.ndarray], capsys: pytest.CaptureFixture[str],
) -> None:
    folder = write_photos(tmp_path / "shots", {"1-empty.png": photos["empty"],
                                               "2-layout.png": photos["layout"]})
    out = tmp_path / "profile.json"
    code = _calibrate(f"file://{folder}", out)
    printed = capsys.readouterr().out
    assert code == 0, printed
    assert "captured 1 frame of the empty mat: 1-empty.png." in printed
    assert "from 1 layout frame: 2-layout.png" in printed
    sizes = {look.kind: look.diameter_mm for look in VisionProfile.load(out).coins}
    assert sizes["D"] < sizes["P"] < sizes["N"] < sizes["Q"]


def test_a_missed_coin_and_a_glared_quarter_still_calibrate_with_a_warning(
    tmp_path: Path, photos: dict[str, np.ndarray], capsys: pytest.CaptureFixture[str],
) -> None:
    folder = write_photos(tmp_path / "shots", {
        "1-empty.png": photos["empty"], "2-layout.png": photos["glared"],
        "3-layout.png": photos["no nickel, glared"], "4-layout.png": photos["glared"],
    })
    out = tmp_path / "profile.json"
    code = _calibrate(f"file://{folder}", out)
    printed = capsys.readouterr().out
    assert code == 0, printed
    assert "from 3 layout frames: 2-layout.png, 3-layout.png, 4-layout.png" in printed
    nickel = next(line for line in printed.splitlines() if "nickel   on f3" in line)
    assert nickel.endswith("(not measured in 3-layout.png)")
    assert ("Warning: glare washed out the face of the quarter on f6, so its colour was taken "
            "from the nickel on f3 and the dime on c6 and its size from the other coins' "
            "(glare swells a coin's outline).") in printed
    assert out.exists()


def test_photos_of_a_cluttered_mat_are_waited_out_until_one_shows_it_cleared(
    tmp_path: Path, photos: dict[str, np.ndarray], capsys: pytest.CaptureFixture[str],
) -> None:
    """Said once; and a photo of the empty mat beyond --frames is passed over."""
    folder = write_photos(tmp_path / "shots", {
        "1.png": photos["dime on e4"], "2.png": photos["dime on e4 again"],
        "3.png": photos["empty"], "4.png": photos["empty again"], "5.png": photos["layout"],
    })
    code = _calibrate(f"file://{folder}", tmp_path / "profile.json", "--frames", "1")
    printed = capsys.readouterr().out
    assert code == 0, printed
    assert printed.count(CLEAR_E4) == 1
    assert "captured 1 frame of the empty mat: 3.png." in printed
    assert "from 1 layout frame: 5.png" in printed


def test_a_video_of_a_cluttered_mat_waits_for_it_to_be_cleared(
    tmp_path: Path, photos: dict[str, np.ndarray], capsys: pytest.CaptureFixture[str],
) -> None:
    """A recording, as a live camera sees it: a dime lies on e4 for 0.6 s (the board is
    steady, but not empty), then the mat is clear (frame 6 moves, frames 11 on are steady),
    then the layout is laid out (frames 14 on, steady from 18)."""
    path = _video(tmp_path / "clip.avi", [photos["dime on e4"]] * 6 + [photos["empty"]] * 8
                  + [photos["layout"]] * 8)
    code = _calibrate(f"file://{path}", tmp_path / "profile.json")
    printed = capsys.readouterr().out
    assert code == 0, printed
    assert printed.count(CLEAR_E4) == 1
    assert "captured 3 frames of the empty mat: frame 11, frame 12, frame 13." in printed
    assert "from 3 layout frames: frame 18, frame 19, frame 20" in printed


def test_a_board_that_stays_cluttered_ends_at_the_time_limit_with_nothing_saved(
    tmp_path: Path, photos: dict[str, np.ndarray], capsys: pytest.CaptureFixture[str],
) -> None:
    """A still board with a coin off the layout's squares is not taken for the empty mat."""
    folder = write_photos(tmp_path / "busy", {"busy.png": photos["dime on e4"]})
    out = tmp_path / "profile.json"
    code = _calibrate(f"file://{folder}?loop=1&fps=10", out, "--timeout", "1")
    captured = capsys.readouterr()
    assert code == 2
    assert _one_sentence(captured.err) == (
        "the mat was not cleared within 1 s: something still lies on e4; clear it and run "
        "`companion calibrate` again"
    )
    assert captured.out.count(CLEAR_E4) == 1
    assert not out.exists() and list(tmp_path.iterdir()) == [folder]


def test_photos_without_an_empty_mat_say_what_the_first_shows(
    tmp_path: Path, photos: dict[str, np.ndarray], capsys: pytest.CaptureFixture[str],
) -> None:
    folder = write_photos(tmp_path / "shots", {"a.png": photos["layout"],
                                               "b.png": photos["dime on e4"]})
    assert _calibrate(f"file://{folder}", tmp_path / "profile.json") == 2
    assert _one_sentence(capsys.readouterr().err) == (
        f"the 2 images in {folder} show no empty mat (the first: something lies on c3, f3, "
        "d4, e5 and 2 more): put a photo of the cleared mat first, as photos are taken in "
        "name order"
    )


def test_a_photo_of_the_empty_mat_alone_asks_for_one_of_the_layout(
    tmp_path: Path, photos: dict[str, np.ndarray], capsys: pytest.CaptureFixture[str],
) -> None:
    folder = write_photos(tmp_path / "shots", {"empty.png": photos["empty"]})
    assert _calibrate(f"file://{folder}", tmp_path / "profile.json") == 2
    assert _one_sentence(capsys.readouterr().err) == (
        f"the image {folder / 'empty.png'} shows the empty mat but no layout: add a photo of "
        "the layout after the photos of the empty mat, as photos are taken in name order"
    )


def test_a_video_too_short_for_the_layout_says_how_many_steady_frames_it_needs(
    tmp_path: Path, photos: dict[str, np.ndarray], capsys: pytest.CaptureFixture[str],
) -> None:
    """At 10 frames a second the board settles in 0.4 s: of 8 frames of the empty mat, frames
    4 to 7 are steady (the first 3 are taken); of the 6 frames of the layout, only the last."""
    path = _video(tmp_path / "clip.avi", [photos["empty"]] * 8 + [photos["layout"]] * 6)
    assert _calibrate(f"file://{path}", tmp_path / "profile.json") == 2
    captured = capsys.readouterr()
    assert "captured 3 frames of the empty mat: frame 4, frame 5, frame 6." in captured.out
    assert _one_sentence(captured.err) == (
        f"calibration needs 3 steady frames of the layout but the video {path} ended after 1: "
        "record the layout for longer, or use --frames 1"
    )


def test_the_help_gives_the_order_of_photos(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["calibrate", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert ("the images are taken in name order, photos of the empty mat first, then photos "
            "of the layout") in text
