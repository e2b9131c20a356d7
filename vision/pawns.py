"""Pawns in the normalised top view: which pixels are a pawn's colour, which region each
pawn stands on, and how sure that is."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from vision.light import PAPER, Normalised
from vision.profile import VisionProfile

if TYPE_CHECKING:
    from numpy.typing import NDArray

    Image = NDArray[Any]
    FloatArray = NDArray[Any]
else:
    Image = np.ndarray
    FloatArray = np.ndarray


#: How far (degrees) a colour's hue may lie from a pawn's to be that pawn's.
MAX_HUE_DEGREES = 40.0
#: Degrees of hue a colour is held away from a look per e-fold it is purer than that look:
#: glare and highlights only ever pale a colour, so a colour much purer than a metal is no
#: metal even when its hue is near...
PURER_DEGREES = 40.0
#: ... and per e-fold it is paler: glare explains that, but a look that needs none is likelier.
PALER_DEGREES = 10.0


@lru_cache(maxsize=4)
def pawn_table(profile: VisionProfile) -> Image:
    """For every normalised colour (5 bits a channel, index ``b << 10 | g << 5 | r``): 0, or
    1 + the index of the pawn colour it belongs to. A colour is a pawn's when it is saturated
    and its hue is nearer that pawn's than any metal's, or (for a black pawn) dark.

    Hue, not chroma, decides because of glare: a lamp's spot or a glossy surface adds white
    light on top of a colour, which pulls its chroma toward neutral (a red pawn in glare is
    as pale as copper) but keeps its hue (the differences between channels, up to scale).
    Shading scales a colour and keeps both. So a colour belongs to the look of the nearest hue,
    unless it is purer than that look, which glare and shade never make it
    (:data:`PURER_DEGREES`); copper under glare stays copper, a yellow pawn is no brass.
    """
    levels = np.arange(32, dtype=np.float64) * 8 + 4
    blue, green, red = (axis.ravel() for axis in np.meshgrid(levels, levels, levels, indexing="ij"))
    brightest = np.maximum(np.maximum(blue, green), red)
    darkest = np.minimum(np.minimum(blue, green), red)
    saturation = 1 - darkest / brightest
    labels = np.zeros(blue.size, np.uint8)
    looks = [np.array(pawn.colour, np.float64) for pawn in profile.pawns]
    dark = [index for index, colour in enumerate(looks) if colour.max() < profile.pawn_dark_value]
    bright = [index for index in range(len(looks)) if index not in dark]
    if bright:
        references = [looks[index] for index in bright]
        references += [  # metals that have a hue (silver has none: saturation tells it)
            np.array([np.exp(look.colour[1]), 1.0, np.exp(look.colour[0])])
            for look in profile.coins if math.hypot(*look.colour) > 0.1
        ]
        colours = np.column_stack([blue, green, red])
        distance = _hue_distances(colours, np.array(references))
        nearest = np.argmin(distance, axis=1)
        near = distance[np.arange(nearest.size), nearest] <= MAX_HUE_DEGREES
        candidate = (saturation >= profile.pawn_min_saturation) & (brightest >= 0.15 * PAPER)
        is_pawn = candidate & near & (nearest < len(bright))
        labels[is_pawn] = np.array(bright)[nearest[is_pawn]] + 1
    if dark:
        labels[brightest < profile.pawn_dark_value * PAPER] = dark[0] + 1
    labels.setflags(write=False)
    return labels


def _hue_and_purity(colours: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Hue angle (degrees) and purity (chroma over mean value) of BGR colours (N x 3): the
    colour's part off the grey axis, in orthonormal opponent coordinates."""
    blue, green, red = colours[:, 0], colours[:, 1], colours[:, 2]
    across = (red - green) / math.sqrt(2)
    along = (2 * blue - red - green) / math.sqrt(6)
    mean = np.maximum(colours.mean(axis=1), 1e-6)
    return np.degrees(np.arctan2(along, across)), np.hypot(across, along) / mean


def _hue_distances(colours: FloatArray, references: FloatArray) -> FloatArray:
    """Per colour (N) and reference (K): the hue difference in degrees, plus
    :data:`PURER_DEGREES` per e-fold the colour is purer than the reference and
    :data:`PALER_DEGREES` per e-fold it is paler (N x K)."""
    hue, purity = _hue_and_purity(colours)
    reference_hue, reference_purity = _hue_and_purity(references)
    turn = np.abs((hue[:, None] - reference_hue[None] + 180.0) % 360.0 - 180.0)
    excess = np.log(np.maximum(purity[:, None], 1e-6) / reference_purity[None])
    penalty = PURER_DEGREES * np.maximum(excess, 0.0) - PALER_DEGREES * np.minimum(excess, 0.0)
    return np.asarray(turn + penalty)


def pawn_labels(normalised: Normalised, profile: VisionProfile) -> Image:
    """Per pixel: 0, or 1 + the index of the pawn colour the pixel belongs to.

    Classified at half resolution through :func:`pawn_table` (a pawn is 14 mm across, so
    nothing is lost) and scaled back up.
    """
    image = normalised.image
    height, width = image.shape[:2]
    if not profile.pawns:
        return np.zeros((height, width), np.uint8)
    small = cv2.resize(image, (width // 2, height // 2), interpolation=cv2.INTER_AREA)
    # The table index from contiguous channel planes (strided channel access is slow).
    blue, green, red = (np.right_shift(plane, 3) for plane in cv2.split(small))
    index = blue.astype(np.uint16) << 10
    index |= green.astype(np.uint16) << 5
    index |= red
    labels = np.take(pawn_table(profile), index)
    # A pawn's outline pixels mix it with what lies beside (and JPEG smears its colour a pixel
    # or two further); a mix with grey keeps the pawn's hue, but is not pawn: trim one pixel.
    labels = cv2.erode(labels, cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3)))
    return cv2.resize(labels, (width, height), interpolation=cv2.INTER_NEAREST)


def pawns_in(
    labels: Image, regions_at: FloatArray, count: int, profile: VisionProfile,
    pixels_per_mm: float,
) -> list[tuple[str | None, float]]:
    """Per region: the pawn colour standing there (or None) and the share of its disc seen,
    counted for every region at once."""
    colours = len(profile.pawns) + 1
    # Only pawn pixels count, and they are few: look at those, and only in the rows that
    # hold any (finding them in the whole view costs more than the rest together).
    rows = np.flatnonzero(labels.max(axis=1)) if labels.size else np.zeros(0, np.intp)
    band_rows, columns = np.nonzero(labels[rows])
    where_rows = rows[band_rows]
    regions = regions_at[where_rows, columns].astype(np.int64)
    inside = regions >= 0
    keys = regions[inside] * colours + labels[where_rows[inside], columns[inside]]
    counts = np.bincount(keys, minlength=count * colours).reshape(count, colours)[:, 1:]
    disc = math.pi * (profile.pawn_diameter_mm / 2 * pixels_per_mm) ** 2
    if not profile.pawns:
        return [(None, 0.0)] * count
    best = np.argmax(counts, axis=1)
    shares = counts[np.arange(count), best] / disc
    names = [pawn.name for pawn in profile.pawns]
    return [
        (names[colour] if share >= profile.pawn_min_share else None, share)
        for colour, share in zip(best.tolist(), shares.tolist(), strict=True)
    ]


def pawn_certainty(share: float, least: float) -> float:
    """How sure a pawn decision is, from the share of a pawn disc seen (0 = none, 1 = whole)."""
    if share >= least:
        return float(min(1.0, 0.6 + (share - least) / max(least, 1e-6)))
    return float(min(1.0, 0.6 + (least - share) / max(least, 1e-6) * 0.4))
