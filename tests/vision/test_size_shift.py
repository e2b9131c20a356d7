"""How sure a coin's size is: the frame's size error per metal, and circles fitted on few rays."""

from __future__ import annotations

from dataclasses import replace
from typing import cast

import numpy as np
import pytest

from vision import read
from vision.coin_size import metal_shifts
from vision.light import Normalised
from vision.read_config import ReadConfig
from vision.top_coin import TopRims, _top_choice

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


def test_a_coin_whose_rim_fits_few_rays_is_doubted(monkeypatch: pytest.MonkeyPatch) -> None:
    """A nickel-sized circle through a fifth of its rays' rim points: its size is a guess."""
    colour = _colour("N")
    measured = (np.array([[50.0, 50.0]]), np.array([21.21]), np.array([colour]),
                np.array([colour]), np.array([0.2]), np.array([1.0]))
    monkeypatch.setattr(read, "measure_coins", lambda *args: measured)
    monkeypatch.setattr(read, "top_coins", lambda *args: (args[6], np.ones(1)))
    *_, kinds, confidences = read._read_coins(
        ReadConfig(silver_top_model=False), cast(Normalised, None), np.zeros((1, 1)),
        np.zeros((1, 2)), 2.0, PROFILE,
    )
    assert kinds == ["N"]
    assert confidences[0] < 0.5


def _rims(top_mm: float, fitted: bool, offset_mm: float = 0.0, clear: bool = True) -> TopRims:
    return TopRims(
        np.zeros((1, 2)), np.array([top_mm]), np.array([offset_mm]), np.array([fitted]),
        np.array([True]), np.array([True]), np.array([clear]),
    )


def test_a_nickel_whose_top_rim_is_unseen_is_doubted() -> None:
    """A dime on a nickel hides in a blur that hides the rim: the nickel reading is doubted."""
    rims = _rims(21.0, False)
    rims = replace(rims, weak=np.array([False]))
    choice = _top_choice(ReadConfig(), PROFILE, "N", 21.2, rims, 0)
    assert choice.look is None
    assert choice.factor < 0.5


def test_a_silver_outline_too_small_for_a_nickel_is_a_dime_on_top_of_something() -> None:
    """No single nickel measures 20.2 mm: with a smaller rim inside, the top is a dime, even
    where the rim is too faint to measure well (no edge ring needed); a nickel-sized rim keeps
    it a nickel."""
    choice = _top_choice(ReadConfig(), PROFILE, "N", 20.2, _rims(19.0, False), 0)
    assert choice.look is not None and choice.look.kind == "D" and choice.ring_ratio == 0
    assert 0 < choice.turned < 0.5
    assert _top_choice(ReadConfig(), PROFILE, "N", 20.2, _rims(20.6, True), 0).look is None


def test_a_small_quarter_outline_is_not_turned_without_a_clear_rim() -> None:
    """A quarter measured small is more often a blurred quarter than a stack: the outline alone
    does not prove a nickel on top; a clear nickel rim inside does (pending its ring)."""
    assert _top_choice(ReadConfig(), PROFILE, "Q", 22.9, _rims(22.0, False), 0).look is None
    choice = _top_choice(ReadConfig(), PROFILE, "Q", 22.9, _rims(21.3, True), 0)
    assert choice.look is not None and choice.look.kind == "N" and choice.ring_ratio > 0


def test_a_dime_rim_off_a_nickel_outlines_centre_turns_it_given_a_dark_ring() -> None:
    """A whole nickel outline with a dime-sized rim off its centre is a dime on a nickel, if
    its edge ring is clearly dark; centred, or partly under a pawn, it is only doubted."""
    config = ReadConfig()
    choice = _top_choice(config, PROFILE, "N", 21.2, _rims(18.2, True, offset_mm=0.8), 0)
    assert choice.look is not None and choice.look.kind == "D"
    assert choice.ring_ratio == config.clear_ring_ratio > config.top_ring_ratio
    centred = _top_choice(config, PROFILE, "N", 21.2, _rims(18.2, True, offset_mm=0.1), 0)
    under_pawn = _top_choice(config, PROFILE, "N", 21.2, _rims(18.2, True, 0.8, False), 0)
    for doubted in (centred, under_pawn):
        assert doubted.look is None and doubted.factor < 0.5
