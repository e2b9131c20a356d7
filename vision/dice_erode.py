"""Eroding a die's body by the sweep the camera's lean gives it, and telling which bodies touch.

A flat die's body is its top face swept towards its base by its height times the camera's
lean (:mod:`vision.dice`); its top is the points whose whole segment back along that sweep
lies in the body. A die cut from a touching one by colour lacks the side face the other hides
or stands on, so the other bodies count as body there (:func:`erode_beside`).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.arrays import FloatArray, Image

_DISC5 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))


def erode_beside(patch: Image, offset: tuple[int, int],
                 bodies: list[tuple[Image, tuple[int, int]]], sweep: FloatArray) -> Image:
    """:func:`erode_along` of one body, where the other bodies count as body too: a die
    cut from a touching one by colour lacks the side face the other hides or stands on, and
    its top must not be eroded for it."""
    reach = math.ceil(float(np.abs(sweep).max())) + 1
    height, width = patch.shape
    x0, y0 = offset[0] - reach, offset[1] - reach
    window = np.zeros((height + 2 * reach, width + 2 * reach), np.uint8)
    for other, (ox, oy) in bodies:
        left, top = ox - x0, oy - y0
        right, bottom = left + other.shape[1], top + other.shape[0]
        if right <= 0 or bottom <= 0 or left >= window.shape[1] or top >= window.shape[0]:
            continue
        a, b = max(0, left), max(0, top)
        c, d = min(window.shape[1], right), min(window.shape[0], bottom)
        window[b:d, a:c] |= other[b - top:d - top, a - left:c - left]
    # The seam between two bodies cut apart belongs to neither; close it.
    window = cv2.morphologyEx(window, cv2.MORPH_CLOSE, _DISC5)
    eroded = erode_along(window, sweep)[reach:reach + height, reach:reach + width]
    return eroded & patch


def erode_along(mask: Image, sweep: FloatArray) -> Image:
    """The points ``p`` of ``mask`` with the whole segment from ``p - sweep`` to ``p`` in it."""
    line = _line_kernel(sweep)
    if line is None:
        return mask
    kernel, start = line
    return cv2.erode(mask, kernel, anchor=start, borderType=cv2.BORDER_CONSTANT, borderValue=0)


def dilate_along(mask: Image, sweep: FloatArray) -> Image:
    """``mask`` swept along ``sweep``: the points ``p + s * sweep`` for ``p`` in it, s in [0, 1]."""
    line = _line_kernel(sweep)
    if line is None:
        return mask
    kernel, start = line
    return cv2.dilate(mask, kernel, anchor=start, borderType=cv2.BORDER_CONSTANT, borderValue=0)


def _line_kernel(sweep: FloatArray) -> tuple[Image, tuple[int, int]] | None:
    """The segment from 0 to ``-sweep`` (px, rounded) as a kernel and its anchor (the 0 end);
    None where it rounds to a point."""
    dx, dy = round(float(sweep[0])), round(float(sweep[1]))
    if dx == 0 and dy == 0:
        return None
    kernel = np.zeros((abs(dy) + 1, abs(dx) + 1), np.uint8)
    start = (abs(dx) if dx > 0 else 0, abs(dy) if dy > 0 else 0)
    cv2.line(kernel, start, (start[0] - dx, start[1] - dy), 1, 1)
    return kernel, start


def touches_other(patch: Image, offset: tuple[int, int],
                  bodies: list[tuple[Image, tuple[int, int]]], index: int) -> bool:
    """Whether another of ``bodies`` comes within 2 px of ``patch`` (at ``offset``)."""
    grown = cv2.dilate(cv2.copyMakeBorder(patch, 2, 2, 2, 2, cv2.BORDER_CONSTANT, value=0),
                       _DISC5)
    offset = (offset[0] - 2, offset[1] - 2)
    height, width = grown.shape
    for place, (other, (ox, oy)) in enumerate(bodies):
        if place == index:
            continue
        left, top = max(offset[0], ox), max(offset[1], oy)
        right = min(offset[0] + width, ox + other.shape[1])
        bottom = min(offset[1] + height, oy + other.shape[0])
        if right <= left or bottom <= top:
            continue
        mine = grown[top - offset[1]:bottom - offset[1], left - offset[0]:right - offset[0]]
        theirs = other[top - oy:bottom - oy, left - ox:right - ox]
        if (mine & theirs).any():
            return True
    return False


__all__ = ["erode_along", "erode_beside", "touches_other"]
