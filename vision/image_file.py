"""Reading an image file with its size checked first, from the header, before it is decoded.

A 20000x20000 PNG is a 1 MB file that decodes into 1.2 GB of pixels (and the reader's copies of
them): it took 17 s and 2.4 GB before the mat was found missing. So :func:`read_image` reads the
width and height from the file's header (PNG, JPEG, BMP, GIF, TIFF, WebP, PNM) and refuses an
image above :data:`MAX_PIXELS` at once, in one sentence; a file larger than
:data:`MAX_FILE_BYTES` is refused before it is read at all. Other formats OpenCV reads are
decoded and then checked. A 48-megapixel photo (8000x6000) reads in about a second.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

from vision.errors import ImageReadError

#: The largest image read: 50 megapixels (8000x6000 fits).
MAX_PIXELS = 50_000_000
#: The largest image file read.
MAX_FILE_BYTES = 256 * 1024 * 1024
#: How far into a JPEG the frame header is looked for (EXIF and ICC blocks come first).
JPEG_SCAN_BYTES = 4 * 1024 * 1024


def read_image(path: Path) -> Any:
    """The image at ``path`` as a BGR array; raises :class:`ImageReadError` (one sentence) when
    the file is missing, too large, or not an image OpenCV can decode."""
    import cv2
    import numpy as np

    try:
        with open(path, "rb") as handle:
            size = image_size(handle)
            handle.seek(0, 2)
            length = handle.tell()
            check_size(path, size, length)
            handle.seek(0)
            data = np.frombuffer(handle.read(), np.uint8)
    except OSError as error:
        raise ImageReadError(f"cannot read {path}: {error.strerror or error}") from None
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise ImageReadError(f"{path} is not an image OpenCV can read (PNG, JPEG, BMP, TIFF, ...)")
    check_size(path, (image.shape[1], image.shape[0]), length)
    return image


def check_size(path: Path, size: tuple[int, int] | None, length: int) -> None:
    """Raise :class:`ImageReadError` for a file over :data:`MAX_FILE_BYTES` or an image (when
    its size is known) over :data:`MAX_PIXELS`."""
    if length > MAX_FILE_BYTES:
        raise ImageReadError(f"{path} is a {length / 2**20:,.0f} MB file; images of at most "
                             f"{MAX_FILE_BYTES // 2**20} MB are read: scale it down first")
    if size is not None and size[0] * size[1] > MAX_PIXELS:
        width, height = size
        raise ImageReadError(
            f"{path} is {width}x{height} pixels ({width * height / 1e6:,.0f} megapixels); images "
            f"of at most {MAX_PIXELS // 1_000_000} megapixels are read: scale it down first")


def image_size(handle: BinaryIO) -> tuple[int, int] | None:
    """(width, height) from the header of the image in ``handle``, or None for a format this
    does not know or a header it cannot make sense of (OpenCV then decides)."""
    start = handle.read(32)
    for signature, reader in _READERS:
        if start.startswith(signature):
            handle.seek(0)
            try:
                return reader(handle)
            except (struct.error, ValueError, IndexError):
                return None
    return None


def _png(handle: BinaryIO) -> tuple[int, int] | None:
    header = handle.read(24)
    if header[12:16] != b"IHDR":
        return None
    width, height = struct.unpack(">II", header[16:24])
    return int(width), int(height)


#: JPEG markers that start a frame header (SOF0-SOF15 but DHT, JPG and DAC).
_SOF_MARKERS = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}


def _jpeg(handle: BinaryIO) -> tuple[int, int] | None:
    handle.read(2)
    while handle.tell() < JPEG_SCAN_BYTES:
        marker = handle.read(2)
        while marker[:1] == b"\xff" and marker[1:] == b"\xff":  # fill bytes
            marker = marker[1:] + handle.read(1)
        if len(marker) < 2 or marker[0] != 0xFF:
            return None
        if 0xD0 <= marker[1] <= 0xD9 or marker[1] == 0x01:  # markers without a length
            continue
        (length,) = struct.unpack(">H", handle.read(2))
        if marker[1] in _SOF_MARKERS:
            height, width = struct.unpack(">xHH", handle.read(5))
            return int(width), int(height)
        handle.seek(length - 2, 1)
    return None


def _bmp(handle: BinaryIO) -> tuple[int, int] | None:
    header = handle.read(26)
    (dib,) = struct.unpack("<I", header[14:18])
    if dib == 12:  # OS/2 BITMAPCOREHEADER
        width, height = struct.unpack("<HH", header[18:22])
    else:
        width, height = struct.unpack("<ii", header[18:26])
    return abs(int(width)), abs(int(height))


def _gif(handle: BinaryIO) -> tuple[int, int] | None:
    width, height = struct.unpack("<HH", handle.read(10)[6:10])
    return int(width), int(height)


def _webp(handle: BinaryIO) -> tuple[int, int] | None:
    header = handle.read(30)
    if header[8:12] != b"WEBP":
        return None
    chunk = header[12:16]
    if chunk == b"VP8X":
        width = int.from_bytes(header[24:27], "little") + 1
        height = int.from_bytes(header[27:30], "little") + 1
        return width, height
    if chunk == b"VP8L":
        bits = int.from_bytes(header[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8 ":
        width, height = struct.unpack("<HH", header[26:30])
        return width & 0x3FFF, height & 0x3FFF
    return None


def _tiff(handle: BinaryIO) -> tuple[int, int] | None:
    order = "<" if handle.read(2) == b"II" else ">"
    handle.read(2)
    (offset,) = struct.unpack(order + "I", handle.read(4))
    handle.seek(offset)
    (count,) = struct.unpack(order + "H", handle.read(2))
    found: dict[int, int] = {}
    for _ in range(min(count, 512)):
        tag, kind, _, value = struct.unpack(order + "HHI4s", handle.read(12))
        if tag in (256, 257):
            code = "H" if kind == 3 else "I"
            found[tag] = struct.unpack(order + code, value[: struct.calcsize(code)])[0]
    if 256 in found and 257 in found:
        return found[256], found[257]
    return None


def _pnm(handle: BinaryIO) -> tuple[int, int] | None:
    words: list[int] = []
    text = handle.read(1024).split(b"\n")
    for line in text:
        line = line.split(b"#")[0]
        words.extend(int(word) for word in line.split()[1 if not words and line[:1] == b"P"
                                                        else 0:])
        if len(words) >= 2:
            return words[0], words[1]
    return None


_READERS: tuple[tuple[bytes, Callable[[BinaryIO], tuple[int, int] | None]], ...] = (
    (b"\x89PNG\r\n\x1a\n", _png),
    (b"\xff\xd8", _jpeg),
    (b"BM", _bmp),
    (b"GIF87a", _gif),
    (b"GIF89a", _gif),
    (b"RIFF", _webp),
    (b"II*\x00", _tiff),
    (b"MM\x00*", _tiff),
    *((f"P{kind}".encode(), _pnm) for kind in "123456"),
)
