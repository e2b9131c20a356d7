"""Frame snapshots: JPEG files named by event number, written whole or not at all."""

import numpy as np
import pytest

from companion.record.errors import FrameError
from companion.record.frames import frame_name, load_frame, save_frame


def test_frame_is_named_by_event_number():
    assert frame_name(7) == "frames/0007.jpg"
    assert frame_name(12345) == "frames/12345.jpg"
    with pytest.raises(FrameError, match="below 1"):
        frame_name(0)


def test_save_then_load_gives_the_image_back(tmp_path):
    rng = np.random.default_rng(3)
    image = np.zeros((120, 160, 3), np.uint8)
    image[:, :80] = (40, 90, 200)
    image[:, 80:] = (200, 200, 200)
    image += rng.integers(0, 6, image.shape, dtype=np.uint8)
    name = save_frame(tmp_path, 7, image)
    assert name == "frames/0007.jpg"
    assert (tmp_path / name).read_bytes()[:2] == b"\xff\xd8"  # a JPEG
    assert not list((tmp_path / "frames").glob("*.partial.jpg"))
    loaded = load_frame(tmp_path, name)
    assert loaded.shape == image.shape
    assert np.abs(loaded.astype(int) - image.astype(int)).mean() < 3


def test_missing_frame_is_a_frame_error(tmp_path):
    with pytest.raises(FrameError, match=r"0001\.jpg is missing; the journal keeps the move"):
        load_frame(tmp_path, "frames/0001.jpg")


def test_a_frame_name_out_of_the_game_folder_is_refused(tmp_path):
    game = tmp_path / "game"
    game.mkdir()
    save_frame(tmp_path, 1, np.zeros((8, 8, 3), np.uint8))  # a real frame, one folder up
    with pytest.raises(FrameError, match="outside the game folder"):
        load_frame(game, "../frames/0001.jpg")


def test_a_frame_that_is_no_image_or_too_large_is_a_frame_error(tmp_path):
    import zlib

    frames = tmp_path / "frames"
    frames.mkdir()
    (frames / "0001.jpg").write_bytes(b"not an image at all")
    with pytest.raises(FrameError, match="not an image OpenCV can read"):
        load_frame(tmp_path, "frames/0001.jpg")
    header = b"\x89PNG\r\n\x1a\n" + (13).to_bytes(4, "big") + b"IHDR"
    size = (20000).to_bytes(4, "big") * 2 + bytes([8, 2, 0, 0, 0])
    png = header + size + zlib.crc32(b"IHDR" + size).to_bytes(4, "big")
    (frames / "0002.png").write_bytes(png)
    with pytest.raises(FrameError, match="20000x20000 pixels"):
        load_frame(tmp_path, "frames/0002.png")


def test_an_image_that_cannot_be_encoded_is_a_frame_error(tmp_path):
    with pytest.raises(FrameError):
        save_frame(tmp_path, 1, np.zeros((0, 0, 3), np.uint8))
