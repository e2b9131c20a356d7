"""Where two touching dice's joint top is cut in two (issue 19): the straight line joining
its outline's two deepest concave corners, their seam however the dice stand."""

from __future__ import annotations

from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.arrays import Image

if TYPE_CHECKING:
    from vision.dice import DiceConfig


def defect_cut(config: DiceConfig, top: Image, typical: float) -> list[Image]:
    """The tops of two touching dice cut apart along the line joining the two deepest
    concave corners of their joint outline (none where it has no two corners at least
    ``defect_depth`` of the die's edge ``typical`` deep).

    The outline of two squares that touch turns inwards at the two ends of their seam
    however the dice stand against each other (one shifted along the other's face, or
    turned), and nowhere else: the seam is the straight line between those corners."""
    contours, _ = cv2.findContours(top, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return []
    outline = max(contours, key=cv2.contourArea)
    if len(outline) < 8:
        return []
    hull = cv2.convexHull(outline, returnPoints=False)
    try:
        defects = cv2.convexityDefects(outline, hull)
    except cv2.error:
        # A self-touching outline (a one-pixel neck) has no defects OpenCV will measure.
        return []
    if defects is None:
        return []
    defects = defects.reshape(-1, 4)
    depths = defects[:, 3] / 256.0
    deepest = np.argsort(depths)[::-1][:2]
    if len(deepest) < 2 or depths[deepest[1]] < config.defect_depth * typical:
        return []
    first, second = (outline[defects[index, 2], 0].astype(np.float64) for index in deepest)
    seam = second - first
    if float(np.hypot(*seam)) < 0.5 * typical:
        return []
    rows, columns = np.nonzero(top)
    side = (columns - first[0]) * seam[1] - (rows - first[1]) * seam[0] > 0
    pieces = []
    for chosen in (side, ~side):
        piece = np.zeros_like(top)
        piece[rows[chosen], columns[chosen]] = 1
        pieces.append(piece)
    return pieces


__all__ = ["defect_cut"]
