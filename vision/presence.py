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
any coin (a laminated mat's broad glare). Where the camera clipped the paper itself (an
overexposed frame, a laminated mat's glare), a glinting coin is as white as the paper round
it: whatever of a square the camera clipped is unseen, so an empty reading there is as much
in doubt as where a coin-sized patch stands out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from vision.faces import CLIPPED
from vision.light import PAPER
from vision.regions import RegionWindow

if TYPE_CHECKING:
    from numpy.typing import NDArray

    Image = NDArray[Any]
    FloatArray = NDArray[Any]
else:
    Image = np.ndarray
    FloatArray = np.ndarray


@dataclass(frozen=True)
class PresenceConfig:
    """What is not paper: brighter than ``brighter`` times paper in its brightest channel,
    clipped by the camera in any channel, or tinted by more than ``tint`` (in ``ln(red /
    green)`` or ``ln(blue / green)``) while no darker than ``least_value`` of paper (a
    shadow's tint is noise). A patch of such pixels of ``least_mm2`` casts no doubt on an
    empty reading, one of ``sure_mm2`` casts ``most_doubt``, one over ``most_mm2`` (larger
    than any coin with its bloom) none. Looked at ``pixels_per_mm`` (a coin is 18 mm
    across or more); pawns are left out with ``pawn_margin_mm`` round them (their colour
    bleeds, their gloss glints)."""

    brighter: float = 1.15
    tint: float = 0.15
    least_value: float = 0.6
    least_mm2: float = 40.0
    sure_mm2: float = 110.0
    most_mm2: float = 700.0
    most_doubt: float = 0.9
    pixels_per_mm: float = 1.0
    pawn_margin_mm: float = 3.0


def unlike_paper(config: PresenceConfig, raw: Image, image: Image, pixels_per_mm: float,
                 pawns: Image, ink: Image) -> Image:
    """Where the top view is not paper (255), or unseen (128: the camera clipped it), at
    ``config.pixels_per_mm``: ``raw`` is the rectified view as the camera gave it,
    ``image`` the light-normalised one; ``pawns`` and ``ink`` (full size) mark what is left
    out."""
    scale = config.pixels_per_mm / pixels_per_mm
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    size = (small.shape[1], small.shape[0])
    clipped = cv2.resize(raw, size, interpolation=cv2.INTER_AREA).max(axis=2) >= CLIPPED
    values = np.maximum(small.astype(np.float32), 1.0)
    brightest = values.max(axis=2)
    blue, green, red = values[..., 0], values[..., 1], values[..., 2]
    tinted = ((np.abs(np.log(red / green)) > config.tint)
              | (np.abs(np.log(blue / green)) > config.tint))
    tinted &= brightest >= config.least_value * PAPER
    found = np.where(clipped, 128, np.where((brightest > config.brighter * PAPER) | tinted,
                                            255, 0)).astype(np.uint8)
    reach = 2 * round(config.pawn_margin_mm * config.pixels_per_mm) + 1
    left_out = cv2.max(
        cv2.dilate(cv2.resize(pawns, size, interpolation=cv2.INTER_NEAREST),
                   cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach))),
        cv2.resize(ink, size, interpolation=cv2.INTER_NEAREST))
    found[left_out > 0] = 0
    return found


def empty_doubts(config: PresenceConfig, found: Image, windows: tuple[RegionWindow, ...],
                 pixels_per_mm: float) -> FloatArray:
    """Per window (boxes in top-view px at ``pixels_per_mm``): the doubt an empty reading
    there gets from the largest coin-sized patch of ``found`` (from :func:`unlike_paper`)
    whose middle lies in it, or from how much of it the camera clipped."""
    doubts = np.zeros(len(windows))
    _, _, stats, middles = cv2.connectedComponentsWithStats(
        (found > 0).astype(np.uint8), connectivity=8)
    area_mm2 = stats[1:, cv2.CC_STAT_AREA] / config.pixels_per_mm**2
    coin_sized = (area_mm2 >= config.least_mm2) & (area_mm2 <= config.most_mm2)
    scale = config.pixels_per_mm / pixels_per_mm
    points = middles[1:]
    for index, window in enumerate(windows):
        if window.kind != "square":
            continue
        left, top, right, bottom = (round(value * scale) for value in window.box)
        inside = (coin_sized & (points[:, 0] >= left) & (points[:, 0] < right)
                  & (points[:, 1] >= top) & (points[:, 1] < bottom))
        largest = float(area_mm2[inside].max()) if inside.any() else 0.0
        unseen = np.count_nonzero(found[top:bottom, left:right] == 128)
        doubts[index] = _doubt(config, max(largest, unseen / config.pixels_per_mm**2))
    return doubts


def _doubt(config: PresenceConfig, area_mm2: float) -> float:
    """The doubt a patch of ``area_mm2`` casts on an empty reading."""
    span = max(config.sure_mm2 - config.least_mm2, 1e-6)
    return float(np.clip((area_mm2 - config.least_mm2) / span, 0.0, 1.0) * config.most_doubt)

