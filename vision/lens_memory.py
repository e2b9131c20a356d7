"""Remembering the lens fitted for a camera that stays put over the table.

Fitting the lens's radial distortion is the costliest part of finding the mat. The lens belongs
to the camera, so while the mat's markers stay where they were when it was fitted, its ``k1``
can be reused and the search skipped (the homography is still fitted to every frame), and the
markers can be looked for near where they were. :class:`LensMemory` keeps, per camera set-up,
the last fit and the corners it was made with; :func:`vision.markers.find_board` consults it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from calibration.geometry import MatGeometry
from vision.arrays import FloatArray

if TYPE_CHECKING:
    from vision.markers import MarkerConfig


class LensMemory:
    """The lens fitted last for each camera set-up (config, mat, frame size), with the marker
    corners it was fitted with, so that a camera that has not moved skips the lens search."""

    def __init__(self) -> None:
        self._fits: dict[tuple[MarkerConfig, MatGeometry, tuple[int, int]], _LensFit] = {}

    def recall(
        self, config: MarkerConfig, geometry: MatGeometry, image_size: tuple[int, int],
        quads: dict[int, FloatArray],
    ) -> tuple[float, float] | None:
        """The remembered ``k1`` of the fit with every grid crossing and of the refit without
        the crossings it missed, when every marker corner is where it was; else None."""
        fit = self._fits.get((config, geometry, image_size))
        if fit is None or fit.uses >= config.lens_reuse_frames:
            return None
        if fit.corners.keys() != quads.keys():
            return None
        moved = max(float(np.abs(quads[key] - fit.corners[key]).max()) for key in quads)
        if moved > config.lens_reuse_px:
            return None
        fit.uses += 1
        return fit.lenses

    def corners(
        self, config: MarkerConfig, geometry: MatGeometry, image_size: tuple[int, int]
    ) -> dict[int, FloatArray] | None:
        """The marker corners of the remembered lens fit, while it may still be reused: where
        to look for the markers first."""
        fit = self._fits.get((config, geometry, image_size))
        if fit is None or fit.uses >= config.lens_reuse_frames:
            return None
        return fit.corners

    def store(
        self, config: MarkerConfig, geometry: MatGeometry, image_size: tuple[int, int],
        quads: dict[int, FloatArray], lenses: tuple[float, float],
    ) -> None:
        """Remember freshly fitted lenses (see :meth:`recall`) and the corners they were
        fitted with."""
        if len(self._fits) >= 8:
            self._fits.clear()  # a few set-ups at most; never grow without bound
        corners = {key: quad.copy() for key, quad in quads.items()}
        self._fits[(config, geometry, image_size)] = _LensFit(corners, lenses)

    def forget(self) -> None:
        """Forget every remembered lens (the next frame of each set-up fits its lens again)."""
        self._fits.clear()


@dataclass
class _LensFit:
    corners: dict[int, FloatArray]
    lenses: tuple[float, float]
    uses: int = 0
