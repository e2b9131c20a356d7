"""Synthetic dice in the Coin Grid tray, for the dice reader's tests and benchmark: the tuning
models (the dice the reader was developed on).

:func:`tuning_tray` gives a scene of the Coin Grid mat under a random camera (tilted up to
35°) and light, with one to three dice thrown in its tray: the four tuning colour schemes of
:data:`vision.synth.dice.TUNING_COLOURS`, 15-17 mm, round pips 0.19 of the edge, 0.27 apart,
corners rounded 0.18; sometimes two of them touching. ``cocked`` adds dice tilted 20-45°.
The held-out models, which the reader is never tuned on, are in
:mod:`vision.synth.dice_heldout`; both share :func:`throw`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from calibration.geometry import Rect, coin_grid_mat
from vision.synth import SynthScene, Variation, random_variation
from vision.synth.dice import TUNING_COLOURS, Die

#: Makes one die from a random generator: (rng, value, centre, angle, cocked degrees) -> Die.
DieMaker = Callable[[np.random.Generator, int, tuple[float, float], float, float], Die]

#: Tilts of cocked dice (a die leaning on another die or a wall): the least and most.
COCKED_DEG = (20.0, 45.0)


def tuning_die(rng: np.random.Generator, value: int, centre: tuple[float, float], angle: float,
               cocked_deg: float) -> Die:
    """A die of the tuning models."""
    return Die(value, centre, angle, str(rng.choice(TUNING_COLOURS)),
               size_mm=float(rng.uniform(15.0, 17.0)), cocked_deg=cocked_deg)


def throw(rng: np.random.Generator, tray: Rect, make: DieMaker, count: int,
          cocked: int = 0, touching: bool = False) -> tuple[Die, ...]:
    """``count`` dice at random places and turns in ``tray``, 10 mm or more apart and from its
    frame (two touching, face to face, when ``touching``); the last ``cocked`` of them cocked."""
    dice: list[Die] = []
    left, top, right, bottom = tray.bounds()
    margin = 16.0
    for index in range(count):
        tilt = float(rng.uniform(*COCKED_DEG)) if index >= count - cocked else 0.0
        value = int(rng.integers(1, 7))
        angle = float(rng.uniform(0.0, 360.0))
        if touching and index == 1 and dice:
            first = dice[0]
            side = math.radians(first.angle_deg + 90.0 * int(rng.integers(0, 4)))
            reach = first.size_mm / 2 + 8.0 + 0.3
            centre = (first.centre_mm[0] + reach * math.cos(side),
                      first.centre_mm[1] + reach * math.sin(side))
            if left + margin <= centre[0] <= right - margin and \
                    top + margin <= centre[1] <= bottom - margin:
                die = make(rng, value, centre, first.angle_deg, tilt)
                # Face to face: the second die's near face touches the first's.
                reach = (first.size_mm + die.size_mm) / 2 + 0.3
                centre = (first.centre_mm[0] + reach * math.cos(side),
                          first.centre_mm[1] + reach * math.sin(side))
                dice.append(replace(die, centre_mm=centre))
                continue
        for _ in range(200):
            centre = (float(rng.uniform(left + margin, right - margin)),
                      float(rng.uniform(top + margin, bottom - margin - 8.0)))
            if all(math.dist(centre, other.centre_mm) > 34.0 for other in dice):
                break
        dice.append(make(rng, value, centre, angle, tilt))
    return tuple(dice)


def tray_scene(seed: int, variation: Variation, make: DieMaker, cocked: bool,
               stream: int) -> SynthScene:
    """The Coin Grid mat under ``variation`` with dice from ``make`` in its tray."""
    geometry = coin_grid_mat()
    tray = geometry.region("tray").shape
    assert isinstance(tray, Rect)
    rng = np.random.default_rng([seed, stream])
    count = int(rng.integers(1, 4))
    touching = count >= 2 and rng.uniform() < 0.25
    dice = throw(rng, tray, make, count, int(rng.integers(1, count + 1)) if cocked else 0,
                 touching)
    return replace(SynthScene.build({}, {}, geometry, variation, layout_seed=seed), dice=dice)


def tuning_tray(seed: int, cocked: bool = False) -> SynthScene:
    """A tray scene of the tuning models (see the module's text)."""
    variation = random_variation(seed, max_tilt_deg=35.0, geometry=coin_grid_mat())
    return tray_scene(seed, variation, tuning_die, cocked, stream=41)
