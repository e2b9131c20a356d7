"""The "stress" family: a tuning frame with one condition of a real table pushed to its extreme.

Issue 15 lists what a real table varies beyond the tuning family. The held-out family widens
all of it at once, so a frame it loses cannot say which condition lost it. Here every seed
keeps its tuning frame's board, camera, light and coins (the draws of
:func:`~vision.synth.physical.variation.tuning_variation`, tuning pawns included) and pushes
ONE factor, chosen from the seed (:data:`FACTORS`, in turn), to the extreme the issue names;
the variation's family is ``"stress-<factor>"`` so a benchmark can count per factor.

Like the tuning and cold families the reader may be studied and tuned on it; it is not held
out. Its frames start at seed :data:`FIRST_SEED`, apart from the tuning benchmark's seeds.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np

from vision.synth.physical.variation import Variation, tuning_variation
from vision.synth.physical.variation import uniform as _u

#: The first seed of the stress benchmark (the tuning benchmark reads seeds 0 on).
FIRST_SEED = 1000


def _kelvin(base: Variation, rng: np.random.Generator) -> Variation:
    """A very warm (2,200-2,900 K) or very cold (6,500-9,000 K) lamp and room with the white
    balance nearly off (strength 0-0.15)."""
    warm = rng.uniform() < 0.5
    lamp = _u(rng, 2200, 2900) if warm else _u(rng, 6500, 9000)
    room = _u(rng, 2200, 3500) if warm else _u(rng, 6000, 9000)
    light = dataclasses.replace(base.light, lamp_kelvin=lamp, room_kelvin=room)
    sensor = dataclasses.replace(base.sensor, wb_strength=_u(rng, 0.0, 0.15))
    return dataclasses.replace(base, light=light, sensor=sensor)


def _coarse(base: Variation, rng: np.random.Generator) -> Variation:
    """A coarse camera: 1.15-1.25 px/mm at the mat's farthest corner."""
    return dataclasses.replace(base, camera=dataclasses.replace(
        base.camera, px_per_mm=_u(rng, 1.15, 1.25)))


def _tilt(base: Variation, rng: np.random.Generator) -> Variation:
    """A steep camera: tilted 30-35 deg."""
    return dataclasses.replace(base, camera=dataclasses.replace(
        base.camera, tilt_deg=_u(rng, 30, 35)))


def _vignetting(base: Variation, rng: np.random.Generator) -> Variation:
    """Strong vignetting: 1.0-1.3."""
    return dataclasses.replace(base, sensor=dataclasses.replace(
        base.sensor, vignetting=_u(rng, 1.0, 1.3)))


def _motion(base: Variation, rng: np.random.Generator) -> Variation:
    """Motion blur of 2-5 px in any direction."""
    return dataclasses.replace(base, sensor=dataclasses.replace(
        base.sensor, motion_px=_u(rng, 2, 5), motion_deg=_u(rng, 0, 180)))


def _jpeg(base: Variation, rng: np.random.Generator) -> Variation:
    """JPEG quality 60-70."""
    return dataclasses.replace(base, sensor=dataclasses.replace(
        base.sensor, jpeg=int(rng.integers(60, 71))))


def _dim(base: Variation, rng: np.random.Generator) -> Variation:
    """A dim exposure: mean linear level 0.12-0.2."""
    return dataclasses.replace(base, sensor=dataclasses.replace(
        base.sensor, exposure_target=_u(rng, 0.12, 0.2)))


def _glint(base: Variation, rng: np.random.Generator) -> Variation:
    """A small bright lamp (8-20 mm across) over new, polished coins (shine 0.85-1)."""
    light = dataclasses.replace(base.light, lamp_radius_mm=_u(rng, 8, 20))
    style = dataclasses.replace(base.style, shine=_u(rng, 0.85, 1.0),
                                silver_age=_u(rng, 0.0, 0.15), penny_age=_u(rng, 0.0, 0.15))
    return dataclasses.replace(base, light=light, style=style)


def _window(base: Variation, rng: np.random.Generator) -> Variation:
    """A bright window (10-16 times the room), 8-35 deg high, anywhere around the table."""
    light = dataclasses.replace(
        base.light, window=_u(rng, 10, 16), window_kelvin=_u(rng, 5500, 10000),
        window_azimuth_deg=_u(rng, 0, 360), window_elevation_deg=_u(rng, 8, 35),
        window_size_deg=(_u(rng, 30, 70), _u(rng, 20, 50)))
    return dataclasses.replace(base, light=light)


def _penny(base: Variation, rng: np.random.Generator) -> Variation:
    """Pennies at an extreme: bright new (age 0-0.1) or dark tarnished (0.85-1)."""
    age = _u(rng, 0.0, 0.1) if rng.uniform() < 0.5 else _u(rng, 0.85, 1.0)
    return dataclasses.replace(base, style=dataclasses.replace(base.style, penny_age=age))


def _silver(base: Variation, rng: np.random.Generator) -> Variation:
    """Dull, old silver: age 0.75-0.95, shine 0.3-0.45."""
    return dataclasses.replace(base, style=dataclasses.replace(
        base.style, silver_age=_u(rng, 0.75, 0.95), shine=_u(rng, 0.3, 0.45)))


def _sloppy(base: Variation, rng: np.random.Generator) -> Variation:
    """Sloppy coins: spread 4-6 mm, 20-30% of stacks over their square's edge by 3-5 mm."""
    return dataclasses.replace(base, style=dataclasses.replace(
        base.style, placement_mm=_u(rng, 4, 6), overhang_share=_u(rng, 0.2, 0.3),
        overhang_mm=_u(rng, 3, 5)))


def _noise(base: Variation, rng: np.random.Generator) -> Variation:
    """Heavy sensor noise: shot 0.004-0.006 and read 0.01-0.015 (linear units)."""
    return dataclasses.replace(base, sensor=dataclasses.replace(
        base.sensor, shot=_u(rng, 0.004, 0.006), read=_u(rng, 0.01, 0.015)))


#: Each factor the family pushes, by name, with what it does to a tuning variation.
FACTORS: dict[str, Callable[[Variation, np.random.Generator], Variation]] = {
    "kelvin": _kelvin, "coarse": _coarse, "tilt": _tilt, "vignetting": _vignetting,
    "motion": _motion, "jpeg": _jpeg, "dim": _dim, "glint": _glint, "window": _window,
    "penny": _penny, "silver": _silver, "sloppy": _sloppy, "noise": _noise,
}


def stress_factor(seed: int) -> str:
    """The factor the stress frame of ``seed`` pushes (the factors in turn, by seed)."""
    names = list(FACTORS)
    return names[seed % len(names)]


def stress_variation(seed: int) -> Variation:
    """The tuning variation of ``seed`` with :func:`stress_factor` of it pushed to its
    extreme; family ``"stress-<factor>"``."""
    factor = stress_factor(seed)
    rng = np.random.default_rng([seed, 0x57E55])
    pushed = FACTORS[factor](tuning_variation(seed), rng)
    return dataclasses.replace(pushed, family=f"stress-{factor}", seed=seed)
