"""The "cold" family: the tuning family's tables under a warm lamp and a cold window.

A real table is often lit by a warm lamp (2,700-3,500 K) over the paper while a window of
daylight or blue sky (6,500-12,000 K) lies on the far side of the board from the camera,
where a flat coin mirrors it. The camera's white balance then suits neither light: left off,
or set by the lamp-lit paper, which makes the window's light blue. Shiny silver mirroring
that window looks bluish against the warm paper beside it, and copper mirroring it loses its
red. The tuning family has windows, but low (8-30 deg) and rarely where coins mirror them.

Every seed keeps its tuning frame's board, camera and coins (the same draws of
:func:`~vision.synth.physical.variation.tuning_variation`), so a cold frame and the tuning
frame of its seed differ in their light, their silver's shine and their white balance only.
Like the tuning family, the reader may be tuned on it; it is not held out.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from vision.synth.physical.variation import CameraParams, Variation, tuning_variation
from vision.synth.physical.variation import uniform as _u

#: Elevation (deg) of the highest window centre; a window's axes are undefined overhead.
HIGHEST_WINDOW_DEG = 75.0


def mirror_window(rng: np.random.Generator, camera: CameraParams) -> dict[str, object]:
    """A large cold window where flat coins mirror it toward the camera: beyond the mat
    from the camera's foot (``azimuth_deg`` + 180, give or take 25 deg), its centre near the
    mirror elevation of the camera's central ray (90 deg - tilt), 25-55 by 20-40 deg wide:
    small enough that it lights the paper far less than the lamp does, bright enough (2-8
    times the room) that a coin mirroring it is as bright as the paper or brighter."""
    mirror_elevation = 90.0 - camera.tilt_deg
    return {
        "window": _u(rng, 2, 8),
        "window_kelvin": _u(rng, 6500, 12000),
        "window_azimuth_deg": (camera.azimuth_deg + 180.0 + _u(rng, -25, 25)) % 360,
        "window_elevation_deg": min(HIGHEST_WINDOW_DEG, mirror_elevation - _u(rng, 0, 20)),
        "window_size_deg": (_u(rng, 25, 55), _u(rng, 20, 40)),
    }


def cold_variation(seed: int) -> Variation:
    """The tuning variation of ``seed`` under a warm lamp and room (2,700-3,500 K and
    2,700-4,000 K), a cold window on the coins' mirror side (:func:`mirror_window`), shiny
    silver (age 0-0.35, shine 0.6-1) and a white balance half the time nearly off (strength
    0-0.3), else set on the lamp-lit paper (0.6-1)."""
    base = tuning_variation(seed)
    rng = np.random.default_rng([seed, 0xC01D])
    balanced = rng.uniform() < 0.5
    light = dataclasses.replace(
        base.light, lamp_kelvin=_u(rng, 2700, 3500), room_kelvin=_u(rng, 2700, 4000),
        **mirror_window(rng, base.camera),  # type: ignore[arg-type]
    )
    style = dataclasses.replace(base.style, silver_age=_u(rng, 0.0, 0.35),
                                shine=_u(rng, 0.6, 1.0))
    sensor = dataclasses.replace(
        base.sensor, wb_strength=_u(rng, 0.6, 1.0) if balanced else _u(rng, 0.0, 0.3),
        wb_mode="paper" if balanced else base.sensor.wb_mode)
    return Variation(base.camera, light, style, sensor, "cold", seed)
