"""The picture size of the demo's synthetic camera: the one ``calibration/MATS.md`` advises for
the mat, as a player setting up a real table would choose.

A camera that frames the whole mat sees it at (its shorter side's pixels) / (the mat's longer
side) pixels per millimetre; below :data:`~vision.view_scale.LEAST_PIXELS_PER_MM` coins are read
a size off (:mod:`vision.view_scale` says why). The 5- and 6-seat Jokers and Coins mats are seen
that coarsely at 1920 x 1080, so a 4K camera is advised for them.
"""

from __future__ import annotations

from calibration.geometry import MatGeometry
from vision.view_scale import LEAST_PIXELS_PER_MM

#: The picture size of an ordinary camera, for every mat it sees closely enough.
STANDARD_CAMERA = (1920, 1080)
#: The picture size advised for mats too large for :data:`STANDARD_CAMERA`.
LARGE_MAT_CAMERA = (3840, 2160)


def pixels_per_mm(camera_size: tuple[int, int], geometry: MatGeometry) -> float:
    """Pixels per millimetre of a camera of ``camera_size`` framing the whole of ``geometry``
    (its longer side across the picture's shorter one, as the mat may lie either way)."""
    return min(camera_size) / max(geometry.width_mm, geometry.height_mm)


def advised_camera_size(geometry: MatGeometry) -> tuple[int, int]:
    """The picture size advised for ``geometry``: the standard camera, or a 4K one where the
    standard camera would see the mat too coarsely to tell the coins' sizes apart."""
    if pixels_per_mm(STANDARD_CAMERA, geometry) >= LEAST_PIXELS_PER_MM:
        return STANDARD_CAMERA
    return LARGE_MAT_CAMERA
