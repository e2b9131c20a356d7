"""Where a tray's pixels differ from its felt enough to be a die's, computed only round the dice.

:func:`vision.dice_faces.find_bodies` tells a die's pixel by its difference from the felt (log
colour ratios and log brightness, in units of the least a die shows): a die's where that
reaches 1 and half the most within the blur's reach, a weaker piece's where it reaches
``grow_share`` in a hue unlike the felt's. Dice cover a few per cent of a tray, and every use
of those pixels lies within a few millimetres of pixels scoring over 1 (pieces joined within
``grow_mm``, a body's hull within its closing): so the score is first taken on every second
pixel each way (a quarter of the pixels, the same values there), and then in full only in
boxes round the pixels over 1, widened by that reach. The masks are the same as the whole
tray's wherever a die's pixels over 1 include one of that coarser grid, which a die's body,
tens of pixels across, always does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.arrays import FloatArray, Image

if TYPE_CHECKING:
    from vision.dice import DiceConfig

_LOG_TABLE = np.log(np.arange(256, dtype=np.float32) + 4.0).reshape(1, 256)
_MEAN_ROW = np.full((1, 3), 1.0 / 3.0, np.float32)
_SUM_ROW = np.ones((1, 3), np.float32)
#: The coarser grid's step (pixels each way) on which candidate dice are looked for.
GRID_STEP = 2


@dataclass(frozen=True)
class BodyEvidence:
    """A die's pixels (``core``: scoring over 1 and half the most nearby) and weaker ones
    (``weak``: scoring ``grow_share`` in a hue unlike the felt's), uint8 0/1 over the whole
    crop, both empty away from the candidate dice's boxes."""

    core: Image
    weak: Image


def felt_scores(config: DiceConfig, image: Image, felt_logs: tuple[float, float, float]
                ) -> tuple[FloatArray, FloatArray]:
    """Each pixel's chromaticity difference from the felt and its score (the most of that,
    its brightening and its darkening, each in units of the least a die shows)."""
    logs = cv2.subtract(cv2.LUT(image, _LOG_TABLE),  # type: ignore[call-overload]
                        (*felt_logs, 0.0))
    level = cv2.transform(logs, _MEAN_ROW)
    squares = cv2.transform(cv2.multiply(logs, logs), _SUM_ROW)
    difference = cv2.subtract(squares, cv2.multiply(level, level, scale=3.0))
    chroma = cv2.sqrt(np.maximum(difference, 0.0, out=difference))
    score = cv2.max(cv2.max(chroma * np.float32(1.0 / config.chroma),
                            level * np.float32(1.0 / config.brighter)),
                    level * np.float32(-1.0 / config.darker))
    return chroma, score


def body_evidence(config: DiceConfig, image: Image, felt: FloatArray, ppm: float
                  ) -> BodyEvidence:
    """The die and weaker pixels of ``image`` (the tray, BGR uint8, at ``ppm`` px/mm) against
    the ``felt`` colour (BGR), scored in full only in boxes round the candidate dice, all
    boxes at once."""
    # Each channel's log less the felt's: one table for all three channels (OpenCV looks a
    # one-channel table up in two thirds of the instructions of a table a channel), then the
    # felt's logs taken off in float32, the same values as a table a channel holds.
    logs = np.log(felt + 4.0).astype(np.float32)
    felt_logs = (float(logs[0]), float(logs[1]), float(logs[2]))
    height, width = image.shape[:2]
    core: Image = np.zeros((height, width), np.uint8)
    weak: Image = np.zeros((height, width), np.uint8)
    boxes = candidate_boxes(config, image, felt, ppm)
    if not boxes:
        return BodyEvidence(core, weak)
    reach = max(3, 2 * round(config.edge_blur_mm * ppm) + 1)
    margin = reach // 2
    # Each box with the score a little beyond it (so that the most nearby is the whole crop's),
    # stacked in one image (each OpenCV call costs tens of thousands of instructions whatever
    # its size), apart by rows of the felt's own colour, which scores 0, the least any pixel
    # scores: beside a box cut by the crop's edge they stand in for the crop's border.
    parts = [(max(0, x0 - margin), max(0, y0 - margin), min(width, x1 + margin),
              min(height, y1 + margin)) for x0, y0, x1, y1 in boxes]
    rows = sum(bottom - top + margin for _, top, _, bottom in parts) + margin
    columns = max(right - left for left, _, right, _ in parts) + margin
    stack = np.empty((rows, columns, 3), np.uint8)
    stack[:] = np.asarray(felt, np.uint8)
    places = []
    at = margin
    for left, top, right, bottom in parts:
        stack[at:at + bottom - top, :right - left] = image[top:bottom, left:right]
        places.append(at)
        at += bottom - top + margin
    chroma, score = felt_scores(config, stack, felt_logs)
    nearby = cv2.dilate(score, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach)))
    edge = score > config.edge_share * nearby
    stack_core = ((score > 1.0) & edge).astype(np.uint8)
    hued = chroma > np.float32(config.grow_chroma * config.chroma)
    stack_weak = ((score > config.grow_share) & edge & hued).astype(np.uint8)
    for (x0, y0, x1, y1), (left, top, _, _), at in zip(boxes, parts, places, strict=True):
        inner = (slice(at + y0 - top, at + y1 - top), slice(x0 - left, x1 - left))
        core[y0:y1, x0:x1] |= stack_core[inner]
        weak[y0:y1, x0:x1] |= stack_weak[inner]
    return BodyEvidence(core, weak)


def candidate_boxes(config: DiceConfig, image: Image, felt: FloatArray, ppm: float
                    ) -> list[tuple[int, int, int, int]]:
    """Boxes (x0, y0, x1, y1, crop pixels) round every group of the pixels of every second
    row and column scoring over 1 (the same score there), widened by the farthest any use of
    a die's pixels reaches from them: the pieces joined within ``grow_mm``, a body's closing
    over its pips and a step of that grid."""
    step = GRID_STEP
    logs = np.log(felt + 4.0).astype(np.float32)
    _, coarse = felt_scores(config, np.ascontiguousarray(image[::step, ::step]),
                            (float(logs[0]), float(logs[1]), float(logs[2])))
    over = (coarse > 1.0).astype(np.uint8)
    # The tray's printed frame (``border_mm``) holds no die's pixel.
    border = max(2, round(config.border_mm * ppm))
    height, width = image.shape[:2]
    rows = np.arange(over.shape[0]) * step
    columns = np.arange(over.shape[1]) * step
    over[(rows < border) | (rows >= height - border)] = 0
    over[:, (columns < border) | (columns >= width - border)] = 0
    if not over.any():
        return []
    closing = (config.pip_hole_mm + config.edge_blur_mm) / 2
    widen = math.ceil((max(config.grow_mm, closing) * ppm + 2 * step + 2) / step)
    grown = cv2.dilate(over, cv2.getStructuringElement(cv2.MORPH_RECT,
                                                       (2 * widen + 1, 2 * widen + 1)))
    count, _, stats, _ = cv2.connectedComponentsWithStats(grown, connectivity=8)
    boxes = []
    for x, y, w, h, _ in stats[1:count]:
        boxes.append((int(x) * step, int(y) * step, min(width, int(x + w) * step),
                      min(height, int(y + h) * step)))
    return boxes


__all__ = ["GRID_STEP", "BodyEvidence", "body_evidence", "candidate_boxes", "felt_scores"]
