"""Raster mats: draw a :class:`~calibration.geometry.MatGeometry` into a BGR image at any scale.

The picture comes from :func:`calibration.drawing.mat_items`, the same list the PDF writer uses.
Rectangles are filled on whole pixels (markers stay crisp), circles, lines and text are
anti-aliased. :func:`write_png` saves a print-ready PNG with its resolution in the file.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from calibration.drawing import (
    WHITE,
    Colour,
    FilledCircle,
    FilledRect,
    Item,
    Line,
    Text,
    mat_items,
)
from calibration.geometry import GeometryError, MatGeometry

Image = npt.NDArray[np.uint8]

MM_PER_INCH = 25.4
#: Fixed-point bits for sub-pixel drawing with OpenCV.
_SHIFT = 4
_FONT = cv2.FONT_HERSHEY_SIMPLEX


def _bgr(colour: Colour) -> tuple[int, int, int]:
    return (colour[2], colour[1], colour[0])


def _fixed(value: float) -> int:
    return round(value * (1 << _SHIFT))


def _draw_rect(image: Image, item: FilledRect, scale: float) -> None:
    left, top, right, bottom = item.rect.bounds()
    x0, y0 = max(0, round(left * scale)), max(0, round(top * scale))
    x1, y1 = round(right * scale), round(bottom * scale)
    image[y0:y1, x0:x1] = _bgr(item.colour)


def _draw_circle(image: Image, item: FilledCircle, scale: float) -> None:
    x, y = item.circle.centre
    centre = (_fixed(x * scale), _fixed(y * scale))
    radius = _fixed(item.circle.radius * scale)
    cv2.circle(image, centre, radius, _bgr(item.colour), -1, cv2.LINE_AA, _SHIFT)


def _draw_line(image: Image, item: Line, scale: float) -> None:
    start = (_fixed(item.start[0] * scale), _fixed(item.start[1] * scale))
    end = (_fixed(item.end[0] * scale), _fixed(item.end[1] * scale))
    thickness = max(1, round(item.width_mm * scale))
    cv2.line(image, start, end, _bgr(item.colour), thickness, cv2.LINE_AA, _SHIFT)


def _draw_text(image: Image, item: Text, scale: float) -> None:
    (width, height), _ = cv2.getTextSize(item.text, _FONT, 1.0, 1)
    font_scale = item.height_mm * scale / height
    if font_scale * height < 4:
        return  # too small to be legible: leave it out rather than smudge the mat
    thickness = max(1, round(font_scale * 1.6))
    x = item.anchor[0] * scale
    if item.align == "centre":
        x -= width * font_scale / 2
    origin = (round(x), round(item.anchor[1] * scale))
    cv2.putText(image, item.text, origin, _FONT, font_scale, _bgr(item.colour), thickness,
                cv2.LINE_AA)


def draw_items(image: Image, items: list[Item], pixels_per_mm: float) -> None:
    """Draw ``items`` (millimetres) onto ``image`` in place, in order."""
    for item in items:
        if isinstance(item, FilledRect):
            _draw_rect(image, item, pixels_per_mm)
        elif isinstance(item, FilledCircle):
            _draw_circle(image, item, pixels_per_mm)
        elif isinstance(item, Line):
            _draw_line(image, item, pixels_per_mm)
        else:
            _draw_text(image, item, pixels_per_mm)


def render_mat(geometry: MatGeometry, pixels_per_mm: float) -> Image:
    """The mat as a BGR image, ``width_mm * pixels_per_mm`` pixels wide, white background.

    Pixel (0, 0)'s top-left corner is mat point (0, 0); mat point (x, y) in millimetres falls at
    pixel coordinate (x * pixels_per_mm, y * pixels_per_mm).
    """
    if not 0.2 <= pixels_per_mm <= 40.0:
        raise GeometryError(f"{pixels_per_mm} pixels per mm is out of range; use 0.2 to 40")
    width = round(geometry.width_mm * pixels_per_mm)
    height = round(geometry.height_mm * pixels_per_mm)
    image = np.empty((height, width, 3), np.uint8)
    image[:] = _bgr(WHITE)
    draw_items(image, mat_items(geometry), pixels_per_mm)
    return image


def png_bytes(image: Image, dpi: float) -> bytes:
    """``image`` encoded as PNG with a pHYs chunk saying ``dpi``, so printers keep the scale."""
    ok, encoded = cv2.imencode(".png", image)
    if not ok:
        raise GeometryError("OpenCV could not encode the mat as PNG")
    data = encoded.tobytes()
    pixels_per_metre = round(dpi / MM_PER_INCH * 1000)
    body = b"pHYs" + struct.pack(">IIB", pixels_per_metre, pixels_per_metre, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    header_end = 8 + 8 + 13 + 4  # signature, IHDR length+type, IHDR data, IHDR CRC
    return data[:header_end] + chunk + data[header_end:]


def write_png(geometry: MatGeometry, path: Path, dpi: float = 300.0) -> tuple[int, int]:
    """Render ``geometry`` at ``dpi`` and save it to ``path``; returns (width, height) in pixels."""
    image = render_mat(geometry, dpi / MM_PER_INCH)
    path.write_bytes(png_bytes(image, dpi))
    return image.shape[1], image.shape[0]
