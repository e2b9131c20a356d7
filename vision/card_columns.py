"""The ink of a card's index column without a picture's frame lines, which the camera's blur
joins to the index's glyphs."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.arrays import BoolArray, FloatArray, Image


@dataclass(frozen=True)
class FrameLine:
    """What a frame's line looks like (mm): at least ``length_mm`` long, ``thickness_mm``
    (least, most) across as the blur shows it, and blank on one side: at most ``side_ink``
    of ink within ``side_mm`` of it."""

    length_mm: float
    side_mm: float
    thickness_mm: tuple[float, float]
    side_ink: float


def column_ink(ink: FloatArray, pixels_per_mm: float,
               area_mm: tuple[float, float, float, float], ink_level: float,
               line: FrameLine) -> FloatArray:
    """The ink (at ``ink_level`` or more) of the corner's column ``area_mm`` (left, top,
    right, bottom), where the index and the mark under it lie, without straight lines
    ``line.length_mm`` long or longer, down it or across the card: a picture's frame printed
    close to the index, which the blur joins to the index's glyphs (no glyph is that tall or
    that wide; its top side is measured across the whole card, as only its end reaches into
    the corner)."""
    left, top, right, bottom = (round(value * pixels_per_mm) for value in area_mm)
    band = ink[top:bottom] >= ink_level
    mask = band[:, left:right]
    size = max(3, round(line.length_mm * pixels_per_mm))
    down = cv2.morphologyEx(mask.view(np.uint8), cv2.MORPH_OPEN, np.ones((size, 1), np.uint8))
    across = cv2.morphologyEx(band.view(np.uint8), cv2.MORPH_OPEN, np.ones((1, size), np.uint8))
    reach = max(1, round(line.side_mm * pixels_per_mm))
    thinnest, thickest = (round(value * pixels_per_mm) for value in line.thickness_mm)
    lines_down = _frame_lines(mask, down, reach, line.side_ink, (thinnest, thickest))
    lines_across = _frame_lines(mask.T, across[:, left:right].T, reach, line.side_ink,
                                (thinnest, thickest)).T
    return np.asarray(mask & ~lines_down & ~lines_across)


def _frame_lines(mask: FloatArray, runs: Image, reach: int, most_ink: float,
                 thickness: tuple[int, int]) -> BoolArray:
    """The pieces of ``runs`` (long straight runs of ``mask`` down its columns) that are
    lines: in each row, a piece of a run is a line where ``mask`` holds at most ``most_ink``
    of ink ``reach`` pixels beside it on at least one side, or where it is as thick as a
    line seen through the camera's blur (``thickness``, least and most pixels across). A
    frame's line stands against blank on one side, or between two figures as thick as a
    line; a glyph blurred together with a pip or a picture beside it makes as long a run
    where they overlap, with ink on both sides, thicker than a line or (where they barely
    touch) thinner than the blur."""
    height, width = mask.shape
    padded = np.zeros((height, width + 2), np.int8)
    padded[:, 1:-1] = runs != 0
    change = np.diff(padded, axis=1)
    rows, starts = np.nonzero(change == 1)
    _, stops = np.nonzero(change == -1)
    # Ink before each column of a row, so a side's ink is a difference of two sums.
    before = np.zeros((height, width + 1), np.int32)
    before[:, 1:] = np.cumsum(mask, axis=1)
    whole = (starts >= reach) & (stops + reach <= width)
    side_before = before[rows, starts] - before[rows, np.maximum(starts - reach, 0)]
    side_after = before[rows, np.minimum(stops + reach, width)] - before[rows, stops]
    blank = np.minimum(side_before, side_after) / reach <= most_ink
    thick = stops - starts
    line = ~whole | blank | ((thick >= thickness[0]) & (thick <= thickness[1]))
    marks = np.zeros((height, width + 1), np.int32)
    np.add.at(marks, (rows[line], starts[line]), 1)
    np.add.at(marks, (rows[line], stops[line]), -1)
    return np.asarray(np.cumsum(marks, axis=1)[:, :width] > 0)
