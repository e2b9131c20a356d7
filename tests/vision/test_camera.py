"""Camera sources by URL: folders, video files, still images, missing devices, black frames."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.camera import (
    CameraError,
    CameraOptions,
    EndOfFrames,
    Frame,
    SimCamera,
    is_black,
    open_camera,
    parse_camera_url,
)


def _pattern(index: int, size: tuple[int, int] = (96, 64)) -> np.ndarray:
    """A frame that tells its index by its brightness and is never black."""
    width, height = size
    image = np.full((height, width, 3), 60 + 20 * index, np.uint8)
    cv2.putText(image, str(index), (10, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (255, 255, 255), 2)
    return image


def _write_folder(folder: Path, count: int) -> None:
    folder.mkdir(exist_ok=True)
    for index in range(count):
        assert cv2.imwrite(str(folder / f"frame_{index:03d}.png"), _pattern(index))
    (folder / "notes.txt").write_text("not an image")


def test_folder_serves_images_in_name_order_then_ends(tmp_path: Path) -> None:
    _write_folder(tmp_path / "shots", 3)
    camera = open_camera(f"file://{tmp_path / 'shots'}?fps=10")
    frames = [camera.read() for _ in range(3)]
    assert [frame.index for frame in frames] == [0, 1, 2]
    assert [frame.timestamp for frame in frames] == pytest.approx([0.0, 0.1, 0.2])
    assert [int(frame.image[0, 0, 0]) for frame in frames] == [60, 80, 100]
    assert frames[0].image.shape == (64, 96, 3)
    with pytest.raises(EndOfFrames, match="no more images"):
        camera.read()
    camera.close()
    with pytest.raises(CameraError, match="closed"):
        camera.read()


def test_folder_frames_are_named_stills_and_the_end_says_what_ran_out(tmp_path: Path) -> None:
    _write_folder(tmp_path / "shots", 2)
    camera = open_camera(f"file://{tmp_path / 'shots'}")
    frames = [camera.read() for _ in range(2)]
    assert [frame.label for frame in frames] == ["frame_000.png", "frame_001.png"]
    assert getattr(camera, "stills", False)
    with pytest.raises(EndOfFrames) as ended:
        camera.read()
    assert (ended.value.source, ended.value.frames) == (f"the 2 images in {tmp_path / 'shots'}", 2)
    assert Frame(frames[0].image, 0.5, 12).label == "frame 12"
    assert not getattr(open_camera("sim://"), "stills", True)


def test_folder_loops_when_asked(tmp_path: Path) -> None:
    _write_folder(tmp_path / "shots", 2)
    with open_camera(f"file://{tmp_path / 'shots'}?loop=1") as camera:
        frames = [camera.read() for _ in range(5)]
    assert [int(frame.image[0, 0, 0]) for frame in frames] == [60, 80, 60, 80, 60]
    timestamps = [frame.timestamp for frame in frames]
    assert timestamps == sorted(timestamps) and len(set(timestamps)) == 5


def test_plain_directory_path_is_a_folder_source(tmp_path: Path) -> None:
    _write_folder(tmp_path / "shots", 2)
    assert parse_camera_url(str(tmp_path / "shots")).kind == "folder"
    assert len(list(open_camera(str(tmp_path / "shots")))) == 2


def test_empty_folder_says_it_holds_no_images(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(CameraError, match="holds no images"):
        open_camera(f"file://{tmp_path / 'empty'}")


def test_video_file_source(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 10.0, (96, 64))
    assert writer.isOpened()
    for index in range(6):
        writer.write(_pattern(index))
    writer.release()
    camera = open_camera(str(path))
    frames = list(camera)
    assert len(frames) == 6
    assert [frame.timestamp for frame in frames] == pytest.approx([i / 10 for i in range(6)])
    brightness = [int(np.median(frame.image)) for frame in frames]
    assert brightness == sorted(brightness) and brightness[-1] - brightness[0] > 80
    with pytest.raises(EndOfFrames, match="no more frames") as ended:
        camera.read()
    assert (ended.value.source, ended.value.frames) == (f"the video {path}", 6)
    looping = open_camera(f"file://{path}?loop=1")
    assert len([looping.read() for _ in range(14)]) == 14


def test_a_file_that_is_not_a_video(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    path.write_bytes(b"this is not a video at all" * 10)
    with pytest.raises(CameraError, match=r"clip\.avi"):
        open_camera(str(path)).read()


def test_a_broken_video_is_reported_in_one_line(tmp_path: Path) -> None:
    """FFmpeg's own complaint about a truncated MP4 ("moov atom not found") is not printed
    beside the companion's one sentence."""
    import subprocess
    import sys

    path = tmp_path / "clip.mp4"
    path.write_bytes(b"\x00\x00\x00\x18ftypmp42" + bytes(200))
    result = subprocess.run(
        [sys.executable, "-m", "companion", "calibrate", "--camera", str(path), "--timeout", "5",
         "--out", str(tmp_path / "profile.json")],
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"companion calibrate: cannot open video {str(path)!r}: it is not a video OpenCV can "
        "decode; convert it to MJPG AVI or MP4"
    ]


def test_single_image_is_a_still_camera(tmp_path: Path) -> None:
    path = tmp_path / "still.png"
    cv2.imwrite(str(path), _pattern(2))
    camera = open_camera(str(path))
    images = [camera.read().image for _ in range(3)]
    assert all(np.array_equal(images[0], image) for image in images)


def test_missing_device_index_gives_one_clear_sentence() -> None:
    with pytest.raises(CameraError) as caught:
        open_camera("99")
    message = str(caught.value)
    assert "video99" in message and "\n" not in message
    assert "plug" in message or "open" in message


def test_missing_device_path() -> None:
    with pytest.raises(CameraError, match=r"/dev/video77"):
        open_camera("/dev/video77")


def test_missing_path_gives_one_clear_sentence(tmp_path: Path) -> None:
    with pytest.raises(CameraError) as caught:
        open_camera(str(tmp_path / "nowhere" / "clip.avi"))
    assert "check the path" in str(caught.value)
    with pytest.raises(CameraError, match="nowhere"):
        open_camera(f"file://{tmp_path / 'nowhere'}")


def test_unknown_scheme_and_bad_options() -> None:
    with pytest.raises(CameraError, match="scheme"):
        open_camera("rtsp://camera.local/stream")
    with pytest.raises(CameraError, match="fps"):
        open_camera("sim://?fps=fast")
    with pytest.raises(CameraError, match="empty"):
        open_camera("  ")


def test_black_frames_are_detected(tmp_path: Path) -> None:
    folder = tmp_path / "dark"
    folder.mkdir()
    rng = np.random.default_rng(1)
    for index in range(4):
        noise = rng.integers(0, 8, size=(64, 96, 3), dtype=np.uint8)
        cv2.imwrite(str(folder / f"{index}.png"), noise)
    dark = cv2.imread(str(folder / "0.png"))
    assert dark is not None and is_black(dark)
    assert not is_black(_pattern(0))
    options = CameraOptions(black_frame_limit=3)
    camera = open_camera(f"file://{folder}", options)
    camera.read()
    camera.read()
    with pytest.raises(CameraError, match="only black frames") as caught:
        camera.read()
    assert "lens cap" in str(caught.value)


def test_a_bright_frame_resets_the_black_count(tmp_path: Path) -> None:
    folder = tmp_path / "mixed"
    folder.mkdir()
    for index, image in enumerate([np.zeros((64, 96, 3), np.uint8), _pattern(0)] * 3):
        cv2.imwrite(str(folder / f"{index}.png"), image)
    frames = list(open_camera(str(folder), CameraOptions(black_frame_limit=2)))
    assert len(frames) == 6


def test_frame_repr_is_short() -> None:
    frame = Frame(_pattern(0), 1.5, 3)
    assert repr(frame) == "Frame(<96x64 image>, timestamp=1.5, index=3)"


def test_sim_delivers_frames_of_the_synthetic_table() -> None:
    camera = open_camera("sim://?seed=3&players=2&fps=10")
    assert isinstance(camera, SimCamera)
    first, second = camera.read(), camera.read()
    assert first.image.shape == (1080, 1920, 3) and first.image.dtype == np.uint8
    assert (first.index, second.index) == (0, 1)
    assert (first.timestamp, second.timestamp) == pytest.approx((0.0, 0.1))
    assert not is_black(first.image)
    # The same board, new sensor noise: nearly the same picture, but not the same pixels.
    difference = np.abs(first.image.astype(int) - second.image.astype(int))
    assert 0 < difference.mean() < 6
    assert len(camera.scene.pawns) == 2
    camera.close()
    with pytest.raises(CameraError, match="closed"):
        camera.read()


def test_sim_shows_the_layout_it_is_asked_for() -> None:
    camera = open_camera("sim://?board=empty&plain=1")
    assert isinstance(camera, SimCamera)
    assert camera.scene.coins == ()
    empty = camera.read().image
    camera.show({"c3": "P", "f6": "QN"}, {"d4": "red"})
    assert camera.scene.coins_by_region() == {"c3": "P", "f6": "QN"}
    assert camera.scene.pawns_by_region() == {"d4": "red"}
    laid_out = camera.read().image
    assert np.abs(laid_out.astype(int) - empty.astype(int)).mean() > 0.5


@pytest.mark.parametrize(
    ("url", "words"),
    [("sim://?players=9", "players"), ("sim://?colour=red", "unknown option"),
     ("sim://?seed=x", "not a number"), ("sim://?board=full", "random or empty")],
)
def test_sim_rejects_bad_options(url: str, words: str) -> None:
    with pytest.raises(CameraError, match=words):
        open_camera(url)
