"""A coin whose colour is silver's is fitted as silver, whatever its size says: the frame model
on the coins measured in a rendered Jokers and Coins frame (tuning seed 43 of
``bench/bench_ring_read.py``, five seats, 1.2-1.5 mm of mat a camera pixel), kept in
``data/ring_seat3_dimes.npz`` with the top coin of the space or cup each lies in. Seat 3's
four dimes (its START space and its cup) measure 19.6-20.8 mm, as the four pennies do (20.0);
their faces are silver, the pennies' far redder. Counted copper by their sizes, they would
lower copper's tint and widen its spread until colour no longer told them from pennies."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from calibration.profile import VisionProfile
from vision.frame_fit import FrameFit
from vision.frame_model import FrameModelConfig, fit_frame
from vision.read import _kind_priors

COINS = Path(__file__).parent / "data" / "ring_seat3_dimes.npz"


def _fit() -> tuple[FrameFit, list[str]]:
    """The frame model's fit of the frame's coins, and each coin's top kind."""
    coins = np.load(COINS)
    priors = _kind_priors(VisionProfile.default().only_kinds("PNDQ"))
    fit = fit_frame(FrameModelConfig(), priors, coins["positions"], coins["diameters"],
                    coins["weights"], coins["colours"], coins["clipped"], coins["edges"],
                    coins["inner"], coins["contrast"], coins["pixel_mm"])
    return fit, [str(top) for top in coins["tops"]]


def test_silver_dimes_measured_a_pennys_size_are_no_pennies() -> None:
    fit, tops = _fit()
    kinds, _ = fit.best()
    assert [kind for kind, top in zip(kinds, tops, strict=True) if top in "PD"] == [
        top for top in tops if top in "PD"]


def test_copper_keeps_the_pennies_own_tint() -> None:
    """The pennies lie at (0.40-0.48, -0.35 to -0.42) from silver: copper's tint stays there,
    not half way down to the dimes."""
    fit, _ = _fit()
    red, blue = fit.tints["copper"]
    assert red > 0.35 and blue < -0.28
