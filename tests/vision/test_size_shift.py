"""The frame's size error is found per metal: copper's swelling is not put onto silver coins."""

from __future__ import annotations

import numpy as np

from vision.coin_fit import metal_shifts
from vision.read_config import ReadConfig

from .helpers import PROFILE


def _colour(kind: str) -> tuple[float, float]:
    return next(look.colour for look in PROFILE.coins if look.kind == kind)


def test_swollen_pennies_do_not_shrink_the_quarters() -> None:
    """Six pennies 1 mm large (dark copper swells under blur) and four quarters 0.3 mm small:
    one shift for all would push the quarters towards a nickel's size."""
    kinds = "PPPPPPQQQQ"
    sizes = {"P": 19.05 + 1.0, "Q": 24.26 - 0.3}
    diameters = np.array([sizes[kind] for kind in kinds])
    colours = np.array([_colour(kind) for kind in kinds])
    shifts = metal_shifts(ReadConfig(), PROFILE, diameters, colours, np.ones(len(kinds)))
    assert np.allclose(shifts[:6], 1.0, atol=0.1), shifts
    assert np.allclose(shifts[6:], -0.3, atol=0.1), shifts


def test_a_metal_with_too_few_coins_takes_the_frame_shift() -> None:
    kinds = "PPPPPQ"
    diameters = np.array([19.55] * 5 + [24.76])
    colours = np.array([_colour(kind) for kind in kinds])
    shifts = metal_shifts(ReadConfig(), PROFILE, diameters, colours, np.ones(len(kinds)))
    assert np.allclose(shifts, 0.5, atol=0.1), shifts
