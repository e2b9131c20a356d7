"""Where coins may lie: local peaks of how unlike paper the normalised top view is.

A coin is unlike the paper over its face (a penny's colour, a dark or glinting face) or at
least along its edge and relief (a bright silver coin on white paper). The view's difference
from paper and its gradient, summed over coin-sized windows at 1 px/mm, peak near each coin's
middle, whatever its contrast. Each window is measured above the plainest paper around it
where that is less plain than the board's usual (paper is not equally plain all over: a
person's shadow leaves it darker and noisier once the light is divided out), and peaks that
stand out of the board's level of that (its lower part is bare paper, so its percentiles are
the paper's) become seeds; reading measures every seed and keeps the ones that prove to be
coins.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.arrays import FloatArray, Image
from vision.halves import half_size
from vision.light import PAPER


@dataclass(frozen=True)
class SeedConfig:
    """How seeds are found (lengths in mm): unlikeness summed over ``window_mm`` squares and
    measured above the plainest paper in a ``floor_mm`` square around each (found on a grid of
    ``floor_cell_mm``, never below the board's median of that; 0: no floor, the board's own
    level, see :func:`_paper_floor`);
    peaks at least ``spacing_mm`` apart that stand above the paper's level (the board's lower
    quartile) by ``spread_factor`` times the paper's spread (lower quartile less the fifth
    percentile), and by at least ``least_level`` of paper; a pixel's unlikeness counts up to
    ``most_level`` of paper."""

    window_mm: float = 15.0
    spacing_mm: float = 12.0
    spread_factor: float = 3.0
    least_level: float = 0.03
    most_level: float = 0.35
    least_paper: float = 0.25
    floor_mm: float = 56.0
    floor_cell_mm: float = 8.0


def unlikeness(image: Image) -> Image:
    """Per pixel of the normalised view: its largest channel difference from paper plus its
    grey gradient (uint8)."""
    difference = cv2.absdiff(image, np.full(3, PAPER, np.float64))
    blue, green, red = cv2.split(difference)
    largest = cv2.max(cv2.max(blue, green), red)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    along_x, along_y = cv2.spatialGradient(grey)
    gradient = cv2.addWeighted(cv2.convertScaleAbs(along_x), 0.25,
                               cv2.convertScaleAbs(along_y), 0.25, 0)
    return cv2.add(largest, gradient)


def find_seeds(config: SeedConfig, image: Image, pixels_per_mm: float,
               pawns: Image | None = None, ink: Image | None = None
               ) -> tuple[FloatArray, FloatArray]:
    """Seeds (N, 2) in top-view pixels of the normalised ``image``, strongest first, and how
    far each stands out (N,): its height over the paper's level in units of the least
    height a seed needs (1 at the least). Pixels ``pawns`` marks count as paper: a pawn's
    strong colour would draw the seed of a coin under or beside it onto itself.

    ``ink`` (of the view's size) marks where the mat is printed: what is left of its lines,
    symbols and walls after the light is divided out (the camera's blur, the markers placing
    the mat a fraction of a pixel off) is no coin. A seed must stand out by as much without
    them: a coin is as unlike paper beside its printed marks as on them, a mark's residue is
    not."""
    # At 1 px/mm (the windows are coins across), capped, so that a strong coin (a dark penny)
    # does not drown a faint one beside it.
    scale = 1.0 / pixels_per_mm
    if scale == 0.5 and not (image.shape[0] % 2 or image.shape[1] % 2):
        small = half_size(image)  # the same pixels, shrunk once for the frame
    else:
        small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    unlike = np.minimum(unlikeness(small), np.uint8(config.most_level * PAPER)).astype(np.float32)
    if pawns is not None:
        covered = cv2.resize(pawns, (small.shape[1], small.shape[0]),
                             interpolation=cv2.INTER_AREA)
        unlike[covered > 0] = 0
    window = max(3, round(config.window_mm)) | 1
    summed = cv2.blur(unlike, (window, window))
    # Paper is not equally plain all over (under a person's shadow it is darker and noisier
    # once the light is divided out): with the board's own level, a shadow over a busy board
    # raises the paper's spread and with it the bar, and faint silver in the shadow makes no
    # seed. Each window is measured above the plainest paper around it instead.
    floor = _paper_floor(config, summed)
    # Coins may cover much of the board: the paper's level and spread from its lower part.
    lowest, level = np.percentile((summed - floor)[::2, ::2], [5, 25])
    least = level + max(config.spread_factor * (level - lowest), config.least_level * PAPER)
    # Paper plainer than the board's usual (a coarse camera's blur on the mat's far side) is
    # no reason for a lower bar: a window stands above the board's median floor at least.
    floor = np.maximum(floor, np.float32(np.median(floor)))
    above = summed - floor
    spacing = max(3, round(config.spacing_mm)) | 1
    peaks = summed >= dilated_by_ellipse(summed, spacing)
    peaks &= above > least
    if ink is not None:
        paper, paper_share = _paper(ink, (small.shape[1], small.shape[0]), window)
        unprinted = cv2.blur(unlike * paper, (window, window)) / np.maximum(
            paper_share, config.least_paper)
        peaks &= unprinted - floor > least
    # Flat indices split into rows and columns: the same pixels, in the same order, for a
    # fraction of 2-d nonzero's work.
    rows, columns = np.divmod(np.flatnonzero(peaks), peaks.shape[1])
    order = np.argsort(-summed[rows, columns])
    points = np.column_stack([columns[order], rows[order]]).astype(np.float64)
    strength = (above[rows[order], columns[order]] - level) / (least - level)
    return (points + 0.5) * pixels_per_mm - 0.5, strength.astype(np.float64)


def _paper_floor(config: SeedConfig, summed: FloatArray) -> FloatArray:
    """Per window of ``summed`` (windowed unlikeness at 1 px/mm): the least sum in the
    ``config.floor_mm`` square around it, smoothed, the plainest paper near it (a square of
    the mat is wider than a coin and its window, so some paper near every coin is bare);
    found on a grid of ``floor_cell_mm``, as the light changes slowly. With ``floor_mm`` 0,
    none (0 everywhere): seeds stand out of the board's own level."""
    if config.floor_mm <= 0:
        return np.zeros_like(summed)
    cell = config.floor_cell_mm
    height, width = summed.shape
    coarse = cv2.resize(summed, (max(1, round(width / cell)), max(1, round(height / cell))),
                        interpolation=cv2.INTER_AREA)
    reach = max(3, round(config.floor_mm / cell)) | 1
    plainest = cv2.erode(coarse, np.ones((reach, reach), np.uint8))
    plainest = cv2.GaussianBlur(plainest, (0, 0), reach / 3)
    return np.asarray(cv2.resize(plainest, (width, height), interpolation=cv2.INTER_LINEAR),
                      np.float32)


def dilated_by_ellipse(image: Image, size: int) -> Image:
    """``cv2.dilate`` of ``image`` by OpenCV's ellipse of ``size`` (odd): the largest of its
    dilations by the ellipse's few rectangles (a rectangle is dilated by separable passes,
    an ellipse point by point), the same values."""
    dilated = None
    for kernel, anchor in _ellipse_rectangles(size):
        part = cv2.dilate(image, kernel, anchor=anchor)
        dilated = part if dilated is None else cv2.max(dilated, part)
    assert dilated is not None
    return dilated


@lru_cache(maxsize=8)
def _ellipse_rectangles(size: int) -> tuple[tuple[Image, tuple[int, int]], ...]:
    """The rectangles whose union is OpenCV's ellipse of ``size`` (odd), with their anchors:
    one per half-width of its rows, as tall as the rows at least that wide."""
    ellipse = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    middle = size // 2
    widths = [int(np.flatnonzero(row).max()) - middle if row.any() else -1 for row in ellipse]
    rectangles = []
    for width in sorted({width for width in widths if width >= 0}):
        rows = [row for row, wide in enumerate(widths) if wide >= width]
        kernel = np.ones((rows[-1] - rows[0] + 1, 2 * width + 1), np.uint8)
        kernel.setflags(write=False)
        rectangles.append((kernel, (width, middle - rows[0])))
    return tuple(rectangles)


#: The last ink image's paper (:func:`_paper`): the mat's ink is the same every frame.
_PAPER_MEMO: list[tuple[Image, tuple[int, int, int], FloatArray, FloatArray]] = []


def _paper(ink: Image, size: tuple[int, int], window: int) -> tuple[FloatArray, FloatArray]:
    """How much of each pixel at ``size`` (width, height) is unprinted paper (0-1, from the
    full-size ``ink`` mask), and its mean over ``window`` squares: made once for a read-only
    ink image (the mat reference's, the same every frame of a camera session)."""
    key = (size[0], size[1], window)
    for memo_ink, memo_key, paper, share in _PAPER_MEMO:
        if memo_ink is ink and memo_key == key:
            return paper, share
    printed = cv2.resize(ink, size, interpolation=cv2.INTER_AREA)
    paper = 1.0 - printed.astype(np.float32) / 255
    share = cv2.blur(paper, (window, window))
    paper.setflags(write=False)
    share.setflags(write=False)
    if not ink.flags.writeable:
        _PAPER_MEMO[:] = [(ink, key, paper, share)]
    return paper, share
