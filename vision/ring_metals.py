"""What a ring's frame knows of its metals: its copper coins are one seat's pennies.

On the Jokers and Coins ring (issue 21) every copper coin is seat 1's: the frame's pennies are
one seat's four, on the ring or in its supply, and silver coins lie among them in every seat's
START, cup and HOME row. A silver coin measured a penny's size (a dime seen coarsely, its edge
blurred outwards: seat 3's dimes on their START and in their cup) would be counted copper by
its size, widen copper's spread along the tint and lower the tint until it fits, and colour
would then no longer tell it from a penny. So on a ring, a coin whose colour lies on silver's
side of half copper's tint in both ratios, and falls short of the tint by
``FrameModelConfig.ring_pale_silver_spreads`` of the frame's colour spreads, sets no copper
tint: it counts as silver when copper's tint and spreads are refitted, whatever its size says.
Coin Isolation's squares are no ring: under a cold window their pennies run continuously from
pale to red, and there the rule read pale pennies as dimes (``docs/FIGURES.md``,
ring-copper-field); it is applied to ring frames only.
"""

from __future__ import annotations

import numpy as np

from vision.arrays import BoolArray, FloatArray
from vision.frame_priors import FrameModelConfig


def ring_tint_weights(
    config: FrameModelConfig, metals: list[str], metal_weights: FloatArray,
    known: BoolArray, residual: FloatArray, tints: FloatArray, unsqueeze: FloatArray,
    colour_spread: float,
) -> FloatArray:
    """(N, M) the metals each coin counts for when copper's tint and spreads are refitted on a
    ring: ``metal_weights``, but a coin whose colour (``residual`` from the silver field,
    squeezed as the fit holds it, ``known`` where both ratios are seen) is clearly silver's
    counts as silver (see the module docstring)."""
    if "copper" not in metals:
        return metal_weights
    copper = metals.index("copper")
    squeezed = np.where(known[:, None], residual, 0.0)
    original = squeezed @ unsqueeze.T  # in (ln(red/green), ln(blue/green))
    tint = unsqueeze @ tints[copper]
    strength = float(np.hypot(*tints[copper]))
    short = strength - squeezed @ tints[copper] / max(strength, 1e-9)
    silver = (known & (original[:, 0] < 0.5 * tint[0]) & (original[:, 1] > 0.5 * tint[1])
              & (short > config.ring_pale_silver_spreads * colour_spread))
    weights = np.array(metal_weights, np.float64, copy=True)
    weights[silver, 0] += weights[silver, copper]
    weights[silver, copper] = 0.0
    return weights


__all__ = ["ring_tint_weights"]
