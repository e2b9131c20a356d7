"""Images are measured from their header and a huge one is refused before it is decoded (issue 18,
item 8)."""

from __future__ import annotations

import struct
import subprocess
import sys
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.camera import CameraError, open_camera
from vision.errors import ImageReadError
from vision.image_file import MAX_PIXELS, image_size, read_image


def huge_png(path: Path, width: int = 20000, height: int = 20000) -> Path:
    """A real, valid black-and-white PNG of ``width`` x ``height``: a small file that decodes
    into width * height * 3 bytes."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    row = b"\x00" * (1 + (width + 7) // 8)
    packer = zlib.compressobj(9)
    data = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data)
                     + chunk(b"IEND", b""))
    return path


@pytest.mark.parametrize("suffix", [".png", ".jpg", ".bmp", ".tiff", ".webp", ".ppm", ".pgm"])
def test_the_header_gives_the_size(tmp_path, suffix):
    image = np.random.default_rng(1).integers(0, 255, (23, 37, 3), np.uint8)
    if suffix == ".pgm":
        image = image[:, :, 0]
    path = tmp_path / f"image{suffix}"
    assert cv2.imwrite(str(path), image)
    with open(path, "rb") as handle:
        assert image_size(handle) == (37, 23)
    assert read_image(path).shape == (23, 37, 3)


def test_an_unknown_header_leaves_the_size_to_opencv(tmp_path):
    path = tmp_path / "notes.png"
    path.write_text("P1 is not a picture")
    with open(path, "rb") as handle:
        assert image_size(handle) is None
    with pytest.raises(ImageReadError, match="not an image"):
        read_image(path)


def test_a_huge_png_is_refused_from_its_header(tmp_path):
    path = huge_png(tmp_path / "huge.png")
    assert path.stat().st_size < 2_000_000
    with pytest.raises(ImageReadError) as error:
        read_image(path)
    assert str(error.value) == (
        f"{path} is 20000x20000 pixels (400 megapixels); images of at most "
        f"{MAX_PIXELS // 1_000_000} megapixels are read: scale it down first")


def test_vision_read_refuses_a_huge_image_at_once(tmp_path):
    path = huge_png(tmp_path / "huge.png")
    # VmHWM is this process's own peak; ru_maxrss would keep pytest's from before the exec.
    code = ("import sys; from companion.cli import main; "
            f"status = main(['vision', 'read', {str(path)!r}]); "
            "peak = [line for line in open('/proc/self/status') if line.startswith('VmHWM')]; "
            "print('PEAK', peak[0].split()[1]); sys.exit(status)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "20000x20000 pixels" in result.stderr
    assert "Traceback" not in result.stderr
    peak_kb = int(result.stdout.split()[-1])
    assert peak_kb < 400_000  # decoding it took 1.2 GB and more


def test_a_folder_camera_says_which_image_is_too_large(tmp_path):
    huge_png(tmp_path / "1-huge.png")
    camera = open_camera(f"file://{tmp_path}")
    try:
        with pytest.raises(CameraError, match=r"1-huge\.png.*20000x20000 pixels"):
            camera.read()
    finally:
        camera.close()
