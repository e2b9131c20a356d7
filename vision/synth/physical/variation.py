"""The physical parameters of a frame, and the "tuning" family that draws them at random.

A :class:`Variation` is everything about a frame except what lies on the board: the camera
and lens (:class:`CameraParams`), the lamp, room, window, table and paper (:class:`LightParams`),
how coins lie and look and which pawns stand on the board (:class:`StyleParams`), and the
webcam's processing (:class:`SensorParams`). All are frozen dataclasses whose ``repr`` can be
evaluated back (with these names imported) and :meth:`Variation.to_json` gives a plain dict.

:func:`tuning_variation` is the family the reader may be tuned on: broad ranges of everything.
The held-out family (:mod:`vision.synth.physical.heldout`) is deliberately different and wider.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

#: Table tops the renderer can make.
TABLES: tuple[str, ...] = ("wood", "dark-laminate", "light-laminate", "cloth")
#: Pawn shapes of the tuning family; the held-out family makes others.
TUNING_PAWN_SHAPES: tuple[str, ...] = ("peg", "classic", "token")


@dataclass(frozen=True)
class CameraParams:
    """Camera pose and lens. ``azimuth_deg`` is the direction (mat x toward y) from the aim
    point to the camera's foot, which the frame's bottom edge then faces; ``px_per_mm`` is the
    wanted scale at the mat's coarsest (farthest) corner (the camera backs off further if the
    markers would not fit); ``aim_mm`` the
    aim point's offset from the mat centre; ``k1``, ``k2`` radial distortion."""

    tilt_deg: float = 0.0
    azimuth_deg: float = 90.0
    roll_deg: float = 0.0
    focal_px: float = 1500.0
    k1: float = 0.0
    k2: float = 0.0
    px_per_mm: float = 1.7
    aim_mm: tuple[float, float] = (0.0, 0.0)
    principal_px: tuple[float, float] = (0.0, 0.0)


@dataclass(frozen=True)
class LightParams:
    """Lamp (a disc ``lamp_radius_mm`` wide at an elevation, azimuth and distance from the
    mat centre, ``lamp_beam`` its cos^n spot falloff), room (a dome lighting the paper
    ``1 / lamp_to_room`` as much as the lamp), an optional window (``window`` is its radiance
    over the room's, 0 for none), a person's soft shadow (``blocker``), the paper and table."""

    lamp_elevation_deg: float = 65.0
    lamp_azimuth_deg: float = 200.0
    lamp_distance_mm: float = 1200.0
    lamp_radius_mm: float = 80.0
    lamp_kelvin: float = 4000.0
    lamp_beam: float = 1.0
    lamp_aim_mm: tuple[float, float] = (0.0, 0.0)
    room_kelvin: float = 4500.0
    lamp_to_room: float = 1.5
    room_gradient: float = 0.2
    room_gradient_deg: float = 0.0
    window: float = 0.0
    window_kelvin: float = 7500.0
    window_azimuth_deg: float = 0.0
    window_elevation_deg: float = 15.0
    window_size_deg: tuple[float, float] = (40.0, 30.0)
    laminated: bool = False
    laminate_sigma: float = 0.12
    blocker: bool = False
    blocker_target_mm: tuple[float, float] = (0.0, 0.0)
    blocker_radius_mm: float = 180.0
    blocker_height_mm: float = 350.0
    table: str = "wood"
    table_tint: tuple[float, float, float] = (1.0, 1.0, 1.0)
    table_grain_deg: float = 0.0
    table_seed: int = 0
    paper_albedo: float = 0.85
    paper_tint: tuple[float, float, float] = (1.0, 1.0, 1.0)
    sample_turn: float = 0.0


@dataclass(frozen=True)
class StyleParams:
    """How coins lie and look, and the pawns. ``placement_mm`` is the spread of coins about
    their square's centre (tidy 0.5 .. sloppy 5); ``overhang_share`` of stacks are pushed to
    their square's edge, crossing it by up to ``overhang_mm``; each coin of a stack lies
    U(0.3, ``stack_spread_mm``) mm off the one below; ``lean_share`` of stacked coins lean
    up to ``lean_max_deg``. Ages are 0 (new, shiny) .. 1 (dark, dull)."""

    placement_mm: float = 2.0
    overhang_share: float = 0.05
    overhang_mm: float = 1.5
    stack_spread_mm: float = 1.0
    lean_share: float = 0.1
    lean_max_deg: float = 4.0
    penny_age: float = 0.3
    silver_age: float = 0.2
    age_spread: float = 0.15
    shine: float = 0.7
    relief: float = 1.0
    pawn_shape: str = "peg"
    pawn_diameter_mm: float = 13.0
    pawn_height_mm: float = 13.0
    pawn_f0: float = 0.045
    pawn_sigma: float = 0.2
    pawn_hue_jitter: float = 0.02
    pawn_on_stack: float = 0.75
    loose_coins: int = 0
    extra_colour_share: float = 0.0


@dataclass(frozen=True)
class SensorParams:
    """The webcam: auto-exposure to ``exposure_target`` (mean linear level) off by
    ``exposure_error_ev``; white balance of ``wb_strength`` (0 none .. 1 full) by grey world or
    the brightest paper; vignetting, lateral chromatic aberration (red and blue scaled by
    1 +- ``chromatic``), defocus (Gaussian sigma px), motion blur, shot and read noise (linear
    units), contrast S-curve, saturation, unsharp masking and JPEG quality."""

    exposure_target: float = 0.3
    exposure_error_ev: float = 0.0
    wb_strength: float = 0.8
    wb_mode: str = "grey"
    vignetting: float = 0.4
    chromatic: float = 0.0005
    blur_px: float = 0.8
    motion_px: float = 0.0
    motion_deg: float = 0.0
    shot: float = 0.001
    read: float = 0.003
    contrast: float = 0.1
    saturation: float = 1.0
    sharpen: float = 0.5
    jpeg: int = 85


@dataclass(frozen=True)
class Variation:
    """All physical parameters of a frame besides the board; ``family`` and ``seed`` say where
    it was drawn from (informative only)."""

    camera: CameraParams = field(default_factory=CameraParams)
    light: LightParams = field(default_factory=LightParams)
    style: StyleParams = field(default_factory=StyleParams)
    sensor: SensorParams = field(default_factory=SensorParams)
    family: str = "custom"
    seed: int = 0

    def to_json(self) -> dict[str, Any]:
        """Every parameter as a JSON-ready nested dict."""
        return dataclasses.asdict(self)


def uniform(rng: np.random.Generator, low: float, high: float) -> float:
    """One draw of ``rng`` between ``low`` and ``high``, as a plain float."""
    return float(rng.uniform(low, high))


def tuning_camera(rng: np.random.Generator) -> CameraParams:
    """Camera of the tuning family: tilt 0-30 deg, mostly from one side of the table (azimuth
    a multiple of 90 deg give or take 10; 15% any azimuth), roll within 6 deg, 1.25-1.9 px/mm
    wanted at the mat's farthest corner, k1 -0.12..0.04."""
    square_on = rng.uniform() < 0.85
    azimuth = (90.0 * int(rng.integers(0, 4)) + float(rng.normal(0, 10)) if square_on
               else uniform(rng, 0, 360))
    return CameraParams(
        tilt_deg=uniform(rng, 0, 30), azimuth_deg=azimuth % 360,
        roll_deg=float(np.clip(rng.normal(0, 3), -6, 6)), focal_px=uniform(rng, 1300, 1800),
        k1=uniform(rng, -0.12, 0.04), k2=uniform(rng, -0.015, 0.02),
        px_per_mm=uniform(rng, 1.25, 1.9),
        aim_mm=(uniform(rng, -50, 50), uniform(rng, -50, 50)),
        principal_px=(uniform(rng, -15, 15), uniform(rng, -15, 15)),
    )


def tuning_light(rng: np.random.Generator) -> LightParams:
    """Light of the tuning family: lamp 2,700-6,500 K at 45-85 deg, a window in 40% of scenes,
    25% laminated mats, a person's shadow in 20%."""
    lamp_kelvin = uniform(rng, 2700, 6500)
    return LightParams(
        lamp_elevation_deg=uniform(rng, 45, 85), lamp_azimuth_deg=uniform(rng, 0, 360),
        lamp_distance_mm=uniform(rng, 600, 2000), lamp_radius_mm=uniform(rng, 20, 200),
        lamp_kelvin=lamp_kelvin, lamp_beam=uniform(rng, 0, 3),
        lamp_aim_mm=(uniform(rng, -150, 150), uniform(rng, -150, 150)),
        room_kelvin=lamp_kelvin if rng.uniform() < 0.3 else uniform(rng, 3000, 7000),
        lamp_to_room=uniform(rng, 0.5, 3.5), room_gradient=uniform(rng, 0, 0.4),
        room_gradient_deg=uniform(rng, 0, 360),
        window=uniform(rng, 2, 10) if rng.uniform() < 0.4 else 0.0,
        window_kelvin=uniform(rng, 5500, 9000), window_azimuth_deg=uniform(rng, 0, 360),
        window_elevation_deg=uniform(rng, 8, 30),
        window_size_deg=(uniform(rng, 25, 60), uniform(rng, 20, 45)),
        laminated=bool(rng.uniform() < 0.25), laminate_sigma=uniform(rng, 0.06, 0.25),
        blocker=bool(rng.uniform() < 0.2),
        blocker_target_mm=(uniform(rng, -200, 200), uniform(rng, -200, 200)),
        blocker_radius_mm=uniform(rng, 120, 260), blocker_height_mm=uniform(rng, 250, 500),
        table=str(rng.choice(TABLES)),
        table_tint=(uniform(rng, 0.75, 1.25), uniform(rng, 0.8, 1.2), uniform(rng, 0.75, 1.25)),
        table_grain_deg=uniform(rng, 0, 180), table_seed=int(rng.integers(0, 2**31)),
        paper_albedo=uniform(rng, 0.75, 0.9),
        paper_tint=(uniform(rng, 0.97, 1.03), 1.0, uniform(rng, 0.94, 1.03)),
        sample_turn=uniform(rng, 0, 1),
    )


def tuning_style(rng: np.random.Generator) -> StyleParams:
    """Coins and pawns of the tuning family: placement 0.5-4 mm, up to 10% of stacks over
    their square's edge by up to 2 mm, pennies of age 0.05-0.75, pegs, classic pawns and
    tokens 11-14.5 mm wide and 9-18 mm tall."""
    shape = str(rng.choice(TUNING_PAWN_SHAPES))
    height = uniform(rng, 9, 18) if shape != "token" else uniform(rng, 9, 13)
    return StyleParams(
        placement_mm=uniform(rng, 0.5, 4.0), overhang_share=uniform(rng, 0, 0.1),
        overhang_mm=uniform(rng, 0.3, 2.0), stack_spread_mm=uniform(rng, 0.8, 2.0),
        lean_share=uniform(rng, 0, 0.15), lean_max_deg=uniform(rng, 1.5, 4.0),
        penny_age=uniform(rng, 0.05, 0.75), silver_age=uniform(rng, 0.0, 0.6),
        age_spread=uniform(rng, 0.05, 0.2), shine=uniform(rng, 0.4, 1.0),
        relief=uniform(rng, 0.7, 1.3), pawn_shape=shape,
        pawn_diameter_mm=uniform(rng, 11, 14.5), pawn_height_mm=height,
        pawn_f0=uniform(rng, 0.035, 0.05), pawn_sigma=uniform(rng, 0.08, 0.35),
        pawn_hue_jitter=uniform(rng, 0, 0.02), pawn_on_stack=uniform(rng, 0.5, 0.9),
        loose_coins=int(rng.integers(0, 7)) if rng.uniform() < 0.6 else 0,
    )


def tuning_sensor(rng: np.random.Generator) -> SensorParams:
    """Sensor of the tuning family: exposure 0.22-0.45, white balance 0.5-1, vignetting
    0.1-0.8, defocus 0.2-1.1 px, motion blur in 10%, JPEG 70-95."""
    moving = rng.uniform() < 0.1
    return SensorParams(
        exposure_target=uniform(rng, 0.22, 0.45), exposure_error_ev=float(rng.normal(0, 0.15)),
        wb_strength=uniform(rng, 0.5, 1.0), wb_mode=str(rng.choice(["grey", "paper"])),
        vignetting=uniform(rng, 0.1, 0.8), chromatic=uniform(rng, 0, 0.0012),
        blur_px=uniform(rng, 0.2, 1.1), motion_px=uniform(rng, 1, 3) if moving else 0.0,
        motion_deg=uniform(rng, 0, 180), shot=uniform(rng, 0.0005, 0.0025),
        read=uniform(rng, 0.0015, 0.006), contrast=uniform(rng, 0, 0.3),
        saturation=uniform(rng, 0.85, 1.15), sharpen=uniform(rng, 0, 1),
        jpeg=int(rng.integers(70, 96)),
    )


def tuning_variation(seed: int) -> Variation:
    """A variation of the tuning family (broad ranges of everything; see the part functions)."""
    rng = np.random.default_rng([seed, 0x7E57])
    return Variation(tuning_camera(rng), tuning_light(rng), tuning_style(rng),
                     tuning_sensor(rng), "tuning", seed)


def lamp_position(light: LightParams, centre: tuple[float, float]) -> tuple[float, float, float]:
    """Where the lamp's disc centre hangs, in mat mm, for a mat centred at ``centre``."""
    elevation, azimuth = math.radians(light.lamp_elevation_deg), math.radians(
        light.lamp_azimuth_deg)
    reach = light.lamp_distance_mm * math.cos(elevation)
    return (centre[0] + reach * math.cos(azimuth), centre[1] + reach * math.sin(azimuth),
            light.lamp_distance_mm * math.sin(elevation))
