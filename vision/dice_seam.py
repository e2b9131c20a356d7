"""A face's own part of its outline's rectangle: the pixels of the die's own colour, so that
a neighbour's pixels, or felt, that the rectangle takes in beside the seam are left out when
its pips are read again (step 4 of :mod:`vision.dice`).

A top face's rectangle is found at the outlines' coarse detail, and beside a touching die (or
where blur and shadow pull its outline) it may reach over the neighbour or the felt by a
tenth of the edge: its middle then lies off the pips' middle, and the neighbour's edge or
pips stand out like pips. A face has one chromaticity (log colour ratios, which the light's
strength leaves alone) and its pips are holes in it; the felt and a die of another colour
differ. The face's own part is the connected region of its colour within the rectangle,
holes filled. A side face of the same die, shaded otherwise, may be left out too (its
chromaticity moves where the light's colour mixes in differently), so a cocked die's "top"
can lose the strip that showed it cocked: :mod:`vision.dice` keeps only a 4-6 read this way,
whose grid shows the face flat.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.arrays import FloatArray, Image
from vision.dice_layout import read_face_pips_placed
from vision.dice_pips import masked_median

if TYPE_CHECKING:
    from vision.dice import DiceConfig

#: Added to each 8-bit channel before its log, so that a black die's dark noise stays small.
LOG_OFFSET = 4.0


#: Each 8-bit level's log, offset as :data:`LOG_OFFSET` says.
_LOG_TABLE = np.log(np.arange(256, dtype=np.float64) + LOG_OFFSET).astype(np.float32)


def _chromaticity(image: Image) -> list[FloatArray]:
    """Each pixel's log chromaticity, a plane a channel: its channels' logs less their mean
    (as :func:`vision.dice_bodies.find_bodies` measures a die against the felt). Taken plane
    by plane, as numpy's ``logs - logs.mean(axis=-1, keepdims=True)`` does to the bit
    (float32, the three added in order, then divided by 3), without its slow steps along a
    short axis."""
    logs = cv2.split(cv2.LUT(image, _LOG_TABLE))
    mean = (logs[0] + logs[1] + logs[2]) / np.float32(3)
    return [plane - mean for plane in logs]


def _median(values: FloatArray) -> np.float32:
    """The median of ``values`` (the upper of the two middle ones when their count is even),
    as :func:`vision.dice_pips.median_colour` takes a channel's."""
    middle = len(values) // 2
    return np.float32(np.partition(values, middle)[middle])


def own_part(image: Image, rect: tuple[tuple[float, float], tuple[float, float], float],
             most_chroma: float, middle_share: float = 0.6) -> Image | None:
    """The pixels of ``image`` (BGR) within the face's rectangle ``rect`` (centre, size,
    angle in ``image``'s pixels) that are the face's own (uint8 0/1): those whose
    chromaticity lies within ``most_chroma`` of the median over the rectangle's middle
    (``middle_share`` of it), the region joined to that middle, its holes (pips) filled.
    None where the rectangle has no middle in ``image``. Only the rectangle's box (and a
    pixel round it, where the region's outline is traced) is looked at: the window about a
    face takes in up to twice that box, and nothing outside the rectangle is its own."""
    (cx, cy), (width, height), angle = rect
    corners = np.round(cv2.boxPoints(rect)).astype(np.int32)
    shape = image.shape[:2]
    left, top = max(0, int(corners[:, 0].min()) - 1), max(0, int(corners[:, 1].min()) - 1)
    right = min(shape[1], int(corners[:, 0].max()) + 2)
    bottom = min(shape[0], int(corners[:, 1].max()) + 2)
    if left >= right or top >= bottom:
        return None
    shift = np.array([left, top], np.int32)
    box = ((cx, cy), (width * middle_share, height * middle_share), angle)
    part = _own_part_in(image[top:bottom, left:right], corners - shift,
                        np.round(cv2.boxPoints(box)).astype(np.int32) - shift, most_chroma)
    if part is None:
        return None
    whole = np.zeros(shape, np.uint8)
    whole[top:bottom, left:right] = part
    return whole


def _own_part_in(image: Image, corners: np.ndarray, middle_corners: np.ndarray,
                 most_chroma: float) -> Image | None:
    """:func:`own_part` within the rectangle's box ``image``, the rectangle's and its middle's
    corners (integer pixels) in it."""
    shape = image.shape[:2]
    inside = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(inside, corners, 1)
    middle = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(middle, middle_corners, 1)
    if not middle.any():
        return None
    planes = _chromaticity(image)
    chosen = middle > 0
    steps = [plane - _median(plane[chosen]) for plane in planes]
    # Summed in order, as ``np.einsum("ijk,ijk->ij", step, step)`` does (to the bit).
    distance = np.sqrt(steps[0] * steps[0] + steps[1] * steps[1] + steps[2] * steps[2])
    close = ((distance <= most_chroma) & (inside > 0)).astype(np.uint8)
    filled = region_holding(close, middle)
    return None if filled is None else filled & inside


def region_holding(mask: Image, middle: Image) -> Image | None:
    """The 4-connected region of ``mask`` (uint8 0/1) that holds most of ``middle`` (the
    face's colour about its middle), its holes (pips) filled; None where none holds any."""
    count, labels = cv2.connectedComponents(mask, connectivity=4)
    if count <= 1:
        return None
    held = np.bincount(labels[middle > 0].ravel(), minlength=count)
    held[0] = 0
    if not held.any():
        return None
    region = (labels == int(np.argmax(held))).astype(np.uint8)
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros(mask.shape[:2], np.uint8)
    cv2.drawContours(filled, contours, -1, 1, thickness=cv2.FILLED)
    return filled


def own_middle(part: Image, rect: tuple[tuple[float, float], tuple[float, float], float],
               share: float = 0.02) -> tuple[float, float]:
    """The middle of the face's own ``part`` along its rectangle's axes: halfway between its
    extremes (the ``share`` and ``1 - share`` quantiles, past a stray pixel) along each; the
    rectangle's middle where ``part`` is empty."""
    (cx, cy), _, angle = rect
    turn = np.radians(angle)
    u = np.array([np.cos(turn), np.sin(turn)])
    v = np.array([-np.sin(turn), np.cos(turn)])
    found = cv2.findNonZero(part)  # (x, y) of each set pixel, in row order
    if found is None:
        return float(cx), float(cy)
    points = found.reshape(-1, 2).astype(np.float64) - np.array([cx, cy])
    centre = np.array([cx, cy])
    for axis in (u, v):
        along = points @ axis
        low = int(share * (len(along) - 1))
        ends = np.partition(along, (low, len(along) - 1 - low))
        centre += (float(ends[low]) + float(ends[len(along) - 1 - low])) / 2 * axis
    return float(centre[0]), float(centre[1])


def painted_outside(image: Image, part: Image, colour: FloatArray) -> Image:
    """``image`` with every pixel outside the face's own ``part`` painted ``colour`` (the
    face's plain colour), so that nothing beside the face stands out like a pip."""
    plain = np.clip(np.round(colour), 0, 255).astype(np.uint8)
    painted = np.empty_like(image)
    painted[...] = plain
    return np.asarray(cv2.copyTo(image, part, painted))


def read_own_part(config: DiceConfig, window: Image, body: FloatArray,
                  rect: tuple[tuple[float, float], tuple[float, float], float]
                  ) -> tuple[int | None, float, str, tuple[float, float] | None] | None:
    """The face ``rect`` in ``window`` read again with only its own part of its rectangle
    (a neighbour's pixels or felt beside the seam painted the face's colour, and the face's
    middle taken as its own part's), where that reads a value; None where it does not, or
    leaves the face as it was."""
    part = own_part(window, rect, config.own_chroma)
    if part is None:
        return None
    middle = own_middle(part, rect)
    if math.dist(middle, rect[0]) < config.own_least_shift * (rect[1][0] + rect[1][1]) / 2:
        return None
    painted = painted_outside(window, part, masked_median(window, part))
    value, confidence, why, placed = read_face_pips_placed(
        config, painted, body, (middle, rect[1], rect[2]), config.own_least_value)
    # Moved off its outline's middle, a face keeps one sign of standing flat: its pips' grid
    # as long both ways (to ``most_stretch``), which takes four pips. One pip shows nothing
    # but its place, and two or three on a diagonal nothing of the grid's squareness: a
    # cocked die's 1-3, its side face left out, would pass for flat.
    return None if value is None else (value, confidence, why, placed)
