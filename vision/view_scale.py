"""How finely the camera sees the mat, and the advice when it is too coarse to read coins.

A dime, a nickel and a quarter differ by about 3 mm. Below :data:`LEAST_PIXELS_PER_MM` they
differ by under 3 camera pixels, and a soft lens's blur spans more millimetres than their rims:
faint silver outlines stray by millimetres and are read a size off. A 1080p camera framing the
1.4 m mat of 5 or 6 seats sees it at about 0.6 px/mm, so `calibration/MATS.md` advises 4K there.
"""

from __future__ import annotations

import cv2
import numpy as np

from calibration.geometry import MatGeometry
from vision.markers import BoardLocation

#: The fewest camera pixels per millimetre of mat at which the coins' sizes are told apart.
LEAST_PIXELS_PER_MM = 0.9


def seen_pixels_per_mm(location: BoardLocation, geometry: MatGeometry) -> float:
    """Camera pixels per millimetre along the mat's most foreshortened edge (its far side under
    a tilt): the coarsest scale any of its regions is seen at."""
    width, height = geometry.width_mm, geometry.height_mm
    corners = np.array([[[0.0, 0.0], [width, 0.0], [width, height], [0.0, height]]])
    projected = cv2.perspectiveTransform(corners, np.asarray(location.homography, float))[0]
    sides = np.roll(projected, -1, axis=0) - projected
    lengths_mm = np.array([width, height, width, height])
    return float(np.min(np.hypot(sides[:, 0], sides[:, 1]) / lengths_mm))


def coarse_view_advice(location: BoardLocation, geometry: MatGeometry) -> str | None:
    """One sentence for the players when the camera sees the mat too coarsely to tell the
    coins' sizes apart (None when it sees it finely enough)."""
    scale = seen_pixels_per_mm(location, geometry)
    if scale >= LEAST_PIXELS_PER_MM:
        return None
    return (f"The camera sees the mat at {scale:.2f} pixels per mm, too coarse to tell a dime "
            "from a nickel by size: use a 4K camera or bring it closer (calibration/MATS.md).")
