"""The held-out family: frames deliberately unlike the tuning family, for honest benchmarks.

Nobody tunes the reader on these. Compared with
:func:`vision.synth.physical.variation.tuning_variation`
the held-out family:

- makes pawn shapes the tuning family never makes (cones, flat discs, tall slim chess pawns,
  ludo pawns with big heads), 9.5-17 mm wide and 5-26 mm tall, sometimes in a colour no player
  uses (purple, white, black, orange: a third of boards give one player such a pawn), with a
  wider spread of shade and plastic or painted-wood gloss;
- puts the lamp's colour temperature at the extremes (2,200-3,000 K or 5,800-8,000 K) and half
  the time leaves the white balance nearly off (strength 0-0.3), else full (0.8-1);
- makes glints brighter and sharper (lamps down to 8 mm across, newer and more polished coins
  possible) and also darker and brighter pennies (age 0-1) and duller silver (up to 0.9);
- has a window in 80% of scenes (brighter, up to 16 times the room), 50% laminated mats, a
  person's shadow in 35%;
- tilts the camera up to 35 deg (most between 20 and 35), turns it to any azimuth in 40% of
  frames (tuning: 15%), with stronger lens distortion (k1 -0.15..0.05) and coarser cameras
  (a third wanting about 1.2 px/mm at the mat's farthest corner);
- lays coins sloppier (spread up to 6 mm, up to 30% of stacks over their square's edge by up
  to 5 mm, stacks offset up to 2.6 mm per coin, a quarter of stacked coins leaning up to 6 deg),
  with more loose coins on the table;
- has stronger vignetting (0.6-1.3), defocus (0.4-1.5 px), motion blur in 25% of frames, up to
  twice the noise, and JPEG quality 60-90.
"""

from __future__ import annotations

import numpy as np

from vision.synth.physical.variation import (
    TABLES,
    CameraParams,
    LightParams,
    SensorParams,
    StyleParams,
    Variation,
)
from vision.synth.physical.variation import uniform as _u

#: Pawn shapes only the held-out family makes.
HELDOUT_PAWN_SHAPES: tuple[str, ...] = ("cone", "disc", "tall", "ludo")


def heldout_camera(rng: np.random.Generator) -> CameraParams:
    """Steeper, coarser and more distorted cameras."""
    coarse = rng.uniform() < 1 / 3
    square_on = rng.uniform() < 0.6
    azimuth = (90.0 * int(rng.integers(0, 4)) + float(rng.normal(0, 20)) if square_on
               else _u(rng, 0, 360))
    return CameraParams(
        tilt_deg=_u(rng, 20, 35) if rng.uniform() < 0.7 else _u(rng, 0, 20),
        azimuth_deg=azimuth % 360, roll_deg=_u(rng, -10, 10), focal_px=_u(rng, 1200, 2000),
        k1=_u(rng, -0.15, 0.05), k2=_u(rng, -0.02, 0.03),
        px_per_mm=_u(rng, 1.15, 1.25) if coarse else _u(rng, 1.25, 1.8),
        aim_mm=(_u(rng, -80, 80), _u(rng, -80, 80)),
        principal_px=(_u(rng, -30, 30), _u(rng, -30, 30)),
    )


def heldout_light(rng: np.random.Generator) -> LightParams:
    """Extreme colour temperatures, small bright lamps, windows and laminated mats."""
    warm = rng.uniform() < 0.5
    lamp_kelvin = _u(rng, 2200, 3000) if warm else _u(rng, 5800, 8000)
    return LightParams(
        lamp_elevation_deg=_u(rng, 35, 90), lamp_azimuth_deg=_u(rng, 0, 360),
        lamp_distance_mm=_u(rng, 500, 2500), lamp_radius_mm=_u(rng, 8, 250),
        lamp_kelvin=lamp_kelvin, lamp_beam=_u(rng, 0, 6),
        lamp_aim_mm=(_u(rng, -250, 250), _u(rng, -250, 250)),
        room_kelvin=_u(rng, 2200, 9000), lamp_to_room=_u(rng, 0.3, 6.0),
        room_gradient=_u(rng, 0, 0.5), room_gradient_deg=_u(rng, 0, 360),
        window=_u(rng, 2, 16) if rng.uniform() < 0.8 else 0.0,
        window_kelvin=_u(rng, 5000, 12000), window_azimuth_deg=_u(rng, 0, 360),
        window_elevation_deg=_u(rng, 5, 35),
        window_size_deg=(_u(rng, 20, 70), _u(rng, 15, 50)),
        laminated=bool(rng.uniform() < 0.5), laminate_sigma=_u(rng, 0.04, 0.3),
        blocker=bool(rng.uniform() < 0.35),
        blocker_target_mm=(_u(rng, -250, 250), _u(rng, -250, 250)),
        blocker_radius_mm=_u(rng, 100, 300), blocker_height_mm=_u(rng, 200, 600),
        table=str(rng.choice(TABLES)),
        table_tint=(_u(rng, 0.6, 1.4), _u(rng, 0.7, 1.3), _u(rng, 0.6, 1.4)),
        table_grain_deg=_u(rng, 0, 180), table_seed=int(rng.integers(0, 2**31)),
        paper_albedo=_u(rng, 0.7, 0.92),
        paper_tint=(_u(rng, 0.94, 1.05), 1.0, _u(rng, 0.9, 1.05)),
        sample_turn=_u(rng, 0, 1),
    )


def heldout_style(rng: np.random.Generator) -> StyleParams:
    """Other pawns, sloppier coins, wider ages."""
    shape = str(rng.choice(HELDOUT_PAWN_SHAPES))
    diameter, height = {
        "cone": (_u(rng, 10, 15), _u(rng, 14, 24)),
        "disc": (_u(rng, 14.5, 17), _u(rng, 5, 8)),
        "tall": (_u(rng, 9.5, 13), _u(rng, 20, 26)),
        "ludo": (_u(rng, 12, 16), _u(rng, 12, 20)),
    }[shape]
    wood = rng.uniform() < 0.4
    return StyleParams(
        placement_mm=_u(rng, 0.5, 6.0), overhang_share=_u(rng, 0.05, 0.3),
        overhang_mm=_u(rng, 1.0, 5.0), stack_spread_mm=_u(rng, 0.6, 2.6),
        lean_share=_u(rng, 0.1, 0.25), lean_max_deg=_u(rng, 3.0, 6.0),
        penny_age=float(rng.choice([_u(rng, 0.0, 0.15), _u(rng, 0.7, 1.0), _u(rng, 0, 1)])),
        silver_age=_u(rng, 0.0, 0.9), age_spread=_u(rng, 0.05, 0.3), shine=_u(rng, 0.3, 1.0),
        relief=_u(rng, 0.5, 1.6), pawn_shape=shape, pawn_diameter_mm=diameter,
        pawn_height_mm=height, pawn_f0=_u(rng, 0.03, 0.06),
        pawn_sigma=_u(rng, 0.35, 0.6) if wood else _u(rng, 0.05, 0.3),
        pawn_hue_jitter=_u(rng, 0.01, 0.05), pawn_on_stack=_u(rng, 0.3, 1.0),
        loose_coins=int(rng.integers(0, 13)), extra_colour_share=1 / 3,
    )


def heldout_sensor(rng: np.random.Generator) -> SensorParams:
    """Stronger vignetting and blur, white balance often off, more noise, lower JPEG."""
    balanced = rng.uniform() < 0.5
    moving = rng.uniform() < 0.25
    return SensorParams(
        exposure_target=_u(rng, 0.14, 0.45), exposure_error_ev=float(rng.normal(0, 0.3)),
        wb_strength=_u(rng, 0.8, 1.0) if balanced else _u(rng, 0.0, 0.3),
        wb_mode=str(rng.choice(["grey", "paper"])), vignetting=_u(rng, 0.6, 1.3),
        chromatic=_u(rng, 0, 0.002), blur_px=_u(rng, 0.4, 1.5),
        motion_px=_u(rng, 1, 5) if moving else 0.0, motion_deg=_u(rng, 0, 180),
        shot=_u(rng, 0.0005, 0.005), read=_u(rng, 0.0015, 0.012), contrast=_u(rng, 0, 0.45),
        saturation=_u(rng, 0.7, 1.3), sharpen=_u(rng, 0, 1.5), jpeg=int(rng.integers(60, 91)),
    )


def heldout_variation(seed: int) -> Variation:
    """A variation of the held-out family (see the module docstring for how it differs)."""
    rng = np.random.default_rng([seed, 0x4E1D])
    return Variation(heldout_camera(rng), heldout_light(rng), heldout_style(rng),
                     heldout_sensor(rng), "heldout", seed)
