"""Whether a square read as empty shows something that is not paper: a coin no rim was fitted to.

A rim fit finds a coin by its outline, which a coin can lack: at the lamp's mirror angle a
flat coin glints white over its whole face and only a thin crescent of its edge shows, and a
shiny coin on white paper has almost no contrast with it. But paper is diffuse and neutral
once the light is divided out (:mod:`vision.light`): it is never brighter than itself, the
camera never clips it (a laminated mat's glare aside) and it has no tint. A coin-sized patch
of a square that is brighter than paper, clipped, or tinted is a metal mirroring the lamp, a
window or the room, whatever its outline shows; an empty reading there is in doubt.

Shadows are left out (they are darker than paper, and neutral: a pawn's, a stack's), and so
are pawns with the margin their colour bleeds over, the mat's ink, and patches larger than
any coin (a laminated mat's broad glare). Where the camera clipped the paper itself white, a
coin glinting white is as white as the paper round it: in a frame whose coins glint (the
lamp clips some coin's face white), a square of clipped paper is unseen, and an empty
reading there a doubt.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.arrays import FloatArray, Image
from vision.halves import half_size
from vision.light import CLIPPED, PAPER
from vision.regions import RegionWindow


@dataclass(frozen=True)
class PresenceConfig:
    """What is not paper: brighter than ``brighter`` times paper in its brightest channel,
    clipped white by the camera where the paper is not (``glint_brighter`` times paper:
    clipped paper is paper), or tinted by more than ``tint`` (in ``ln(red /
    green)`` or ``ln(blue / green)``) while no darker than ``least_value`` of paper (a
    shadow's tint is noise). A patch of such pixels of ``least_mm2`` casts no doubt on an
    empty reading, one of ``sure_mm2`` casts ``most_doubt``, one over ``most_mm2`` (larger
    than any coin with its bloom), wider than ``most_across_mm`` or filling less than
    ``least_fill`` of its bounding box (no disc) none. Paper the camera clipped white over
    more than ``most_mm2`` is unseen: a coin glinting white there shows nothing. Looked at
    ``pixels_per_mm`` (a coin is 18 mm across or more); pawns are left out with
    ``pawn_margin_mm`` round them (their colour bleeds, their gloss glints)."""

    brighter: float = 1.15
    glint_brighter: float = 1.04
    tint: float = 0.15
    least_value: float = 0.6
    least_mm2: float = 40.0
    sure_mm2: float = 110.0
    most_mm2: float = 700.0
    most_doubt: float = 0.9
    pixels_per_mm: float = 1.0
    pawn_margin_mm: float = 3.0
    most_across_mm: float = 32.0
    least_fill: float = 0.45


def unlike_paper(config: PresenceConfig, raw: Image, image: Image, pixels_per_mm: float,
                 pawns: Image, ink: Image) -> tuple[Image, float]:
    """Where the top view is not paper (255: brighter than paper, tinted, or a patch the
    camera clipped white) or unseen (128: paper clipped white, broader than any coin), about
    ``config.pixels_per_mm`` (a whole fraction of the view's scale, which OpenCV shrinks by
    fastest), and that scale: ``raw`` is the rectified view as the camera gave it, ``image``
    the light-normalised one; ``pawns`` and ``ink`` (full size) mark what is left out."""
    step = max(1, round(pixels_per_mm / config.pixels_per_mm))
    height, width = image.shape[:2]
    size = (width // step, height // step)
    crop = (slice(0, size[1] * step), slice(0, size[0] * step))

    def shrunk(view: Image, interpolation: int) -> Image:
        return cv2.resize(view[crop], size, interpolation=interpolation)

    whole = size[0] * step == width and size[1] * step == height
    half = half_size(image) if step == 2 and whole else shrunk(image, cv2.INTER_AREA)
    blue, green, red = cv2.split(half)
    brightest = cv2.max(cv2.max(blue, green), red)
    # Tinted: one channel more than e^tint times another (through a table of each value
    # times e^tint: 8-bit operations only, a few per pixel).
    times = np.clip(np.round(np.arange(256) * np.exp(config.tint)), 0, 255).astype(np.uint8)
    green_times = cv2.LUT(green, times)
    tinted = cv2.bitwise_or(
        cv2.bitwise_or(cv2.compare(red, green_times, cv2.CMP_GT),
                       cv2.compare(green, cv2.LUT(red, times), cv2.CMP_GT)),
        cv2.bitwise_or(cv2.compare(blue, green_times, cv2.CMP_GT),
                       cv2.compare(green, cv2.LUT(blue, times), cv2.CMP_GT)))
    tinted = cv2.bitwise_and(tinted, _over(brightest, config.least_value * PAPER - 1e-3))
    # A glint clips every channel: on paper the camera left unclipped it stands out (255);
    # where the camera clipped the paper (in any channel: what is left is too little to tell
    # a glint's white by), it hardly shows (128: unseen).
    camera = cv2.split(shrunk(raw, cv2.INTER_AREA))
    glint = cv2.bitwise_and(
        _over(cv2.min(cv2.min(camera[0], camera[1]), camera[2]), CLIPPED - 1),
        _over(brightest, config.glint_brighter * PAPER))
    found = cv2.bitwise_or(cv2.bitwise_or(
        _over(brightest, config.brighter * PAPER), tinted), glint)
    clipped = _over(cv2.max(cv2.max(camera[0], camera[1]), camera[2]), CLIPPED - 1)
    count, blobs, stats = _components(clipped)
    broad = np.zeros(count, bool)
    broad[1:] = stats[1:, cv2.CC_STAT_AREA] > config.most_mm2 * (pixels_per_mm / step) ** 2
    if broad.any():
        found[broad[blobs]] = 128
    scale = pixels_per_mm / step
    reach = 2 * round(config.pawn_margin_mm * scale) + 1
    left_out = cv2.max(
        cv2.dilate(shrunk(pawns, cv2.INTER_NEAREST),
                   cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach))),
        shrunk(ink, cv2.INTER_NEAREST))
    found = cv2.bitwise_and(found, cv2.bitwise_not(left_out))
    return found, scale


def _components(mask: Image) -> tuple[int, Image, Image]:
    """``cv2.connectedComponentsWithStats`` of a 0/255 ``mask`` (8-connected): the count,
    the labels and the stats; without the labelling pass where the mask is empty (most
    frames' clipped paper)."""
    if not cv2.countNonZero(mask):
        background = np.zeros((1, 5), np.int32)  # one component: the whole mask
        background[0, cv2.CC_STAT_WIDTH] = mask.shape[1]
        background[0, cv2.CC_STAT_HEIGHT] = mask.shape[0]
        background[0, cv2.CC_STAT_AREA] = mask.size
        return 1, np.zeros(mask.shape, np.int32), background
    count, blobs, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    return count, blobs, stats


def _over(channel: Image, level: float) -> Image:
    """255 where the 8-bit ``channel`` exceeds ``level``, 0 elsewhere."""
    _, mask = cv2.threshold(channel, level, 255, cv2.THRESH_BINARY)
    return mask


def empty_doubts(config: PresenceConfig, found: tuple[Image, float],
                 windows: tuple[RegionWindow, ...], pixels_per_mm: float,
                 glinting: bool = False) -> FloatArray:
    """Per window (boxes in top-view px at ``pixels_per_mm``): the doubt an empty reading
    there gets from the largest coin-sized patch of ``found`` (from :func:`unlike_paper`,
    with its scale) whose middle lies in it, and where this frame's coins glint (``glinting``:
    the lamp clips some coin's face white), from how much of its paper the camera clipped
    white."""
    found_image, found_scale = found
    doubts = np.zeros(len(windows))
    _, _, stats, middles = cv2.connectedComponentsWithStats(
        (found_image == 255).view(np.uint8), connectivity=8)
    area_mm2 = stats[1:, cv2.CC_STAT_AREA] / found_scale**2
    across_mm = np.maximum(stats[1:, cv2.CC_STAT_WIDTH], stats[1:, cv2.CC_STAT_HEIGHT]
                           ) / found_scale
    fill = area_mm2 / np.maximum(stats[1:, cv2.CC_STAT_WIDTH] * stats[1:, cv2.CC_STAT_HEIGHT]
                                 / found_scale**2, 1e-9)
    # A coin's patch is a disc, or part of one: compact, no wider than a coin.
    coin_sized = ((area_mm2 >= config.least_mm2) & (area_mm2 <= config.most_mm2)
                  & (across_mm <= config.most_across_mm) & (fill >= config.least_fill))
    squares = [index for index, window in enumerate(windows) if window.kind == "square"]
    if not squares:
        return doubts
    # Every square's box at the found image's scale, and the coin-sized patches' middles in
    # it, all at once (rounded half to even, as Python's round).
    scale = found_scale / pixels_per_mm
    boxes = np.round(np.array([windows[index].box for index in squares], np.float64) * scale)
    left, top, right, bottom = boxes.astype(int).T
    points, areas = middles[1:][coin_sized], area_mm2[coin_sized]
    inside = ((points[None, :, 0] >= left[:, None]) & (points[None, :, 0] < right[:, None])
              & (points[None, :, 1] >= top[:, None]) & (points[None, :, 1] < bottom[:, None]))
    largest = np.where(inside, areas[None, :], 0.0).max(axis=1, initial=0.0)
    for row, index in enumerate(squares):
        if glinting:
            # A coin glinting as white as the clipped paper round it may lie there unseen.
            unseen = np.count_nonzero(found_image[top[row]:bottom[row], left[row]:right[row]]
                                      == 128)
            largest[row] = max(largest[row], unseen / found_scale**2)
        doubts[index] = _doubt(config, float(largest[row]))
    return doubts


def _doubt(config: PresenceConfig, area_mm2: float) -> float:
    """The doubt a patch of ``area_mm2`` casts on an empty reading."""
    span = max(config.sure_mm2 - config.least_mm2, 1e-6)
    return float(np.clip((area_mm2 - config.least_mm2) / span, 0.0, 1.0) * config.most_doubt)

