"""Held-out dice: evaluation models the dice reader was never tuned on.

They differ from the tuning models of :mod:`vision.synth.dice_sets` in every way a die can:
colour schemes never seen in tuning (:data:`vision.synth.dice.HELD_OUT_COLOURS`: ivory with
dark brown pips, crimson, yellow, navy, purple), edges of 14-19 mm, pips 0.14-0.24 of the edge
across and 0.24-0.30 apart, round or rounded-square pips, corners from nearly sharp to very
round; and their frames have their own cameras (another seed stream, tilted up to 35°), more
blur (up to 1.8 px), lower JPEG quality (40-95) and more noise. The seeds are fixed by the
benchmark; nothing here was used to choose the reader's settings.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from calibration.geometry import coin_grid_mat
from vision.synth import SynthScene, random_variation
from vision.synth.dice import HELD_OUT_COLOURS, Die
from vision.synth.dice_sets import tray_scene

#: Seeds of held-out frames start here, far from any seed used while tuning.
HELD_OUT_SEED_BASE = 7_000_000


def held_out_die(rng: np.random.Generator, value: int, centre: tuple[float, float],
                 angle: float, cocked_deg: float) -> Die:
    """A die of the held-out models."""
    return Die(
        value, centre, angle, str(rng.choice(HELD_OUT_COLOURS)),
        size_mm=float(rng.uniform(14.0, 19.0)),
        pip_share=float(rng.uniform(0.14, 0.24)),
        spread=float(rng.uniform(0.24, 0.30)),
        rounding=float(rng.uniform(0.03, 0.4)),
        pip_shape="square" if rng.uniform() < 0.4 else "round",
        cocked_deg=cocked_deg,
    )


def held_out_tray(seed: int, cocked: bool = False) -> SynthScene:
    """A held-out tray scene; ``seed`` counts from 0 (offset by :data:`HELD_OUT_SEED_BASE`)."""
    seed = HELD_OUT_SEED_BASE + seed
    rng = np.random.default_rng([seed, 17])
    variation = random_variation(seed, max_tilt_deg=35.0, geometry=coin_grid_mat())
    variation = replace(
        variation,
        blur=float(rng.uniform(0.0, 1.8)),
        jpeg_quality=int(rng.integers(40, 96)),
        noise=float(rng.uniform(1.0, 6.0)),
    )
    return tray_scene(seed, variation, held_out_die, cocked, stream=43)
