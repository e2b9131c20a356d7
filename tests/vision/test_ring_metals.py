"""A ring's copper coins are one seat's pennies: a dime measured a penny's size stays silver."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from calibration.profile import VisionProfile
from vision.frame_model import FrameFit, FrameModelConfig, fit_frame
from vision.read import _kind_priors

#: The coins of the ring's tuning frame 43 (5 seats, 1.45 mm a camera pixel) as the reader
#: measured them: seat 3's dimes on its START (t45) and in its supply measure 19.6-20.8 mm, a
#: penny's size, their faces silver.
COINS = Path(__file__).parent / "data" / "ring_seat3_dimes.npz"


def _fit(ring: bool) -> tuple[FrameFit, dict[str, list[tuple[str, str]]]]:
    """The frame fitted as a ring's or not, and each region's (truth, read) kinds."""
    coins = np.load(COINS)
    priors = _kind_priors(VisionProfile.default().only_kinds("PNDQ"))
    fit = fit_frame(FrameModelConfig(), priors, coins["positions"], coins["diameters"],
                    coins["weights"], coins["colours"], coins["clipped"], coins["edges"],
                    coins["inner"], coins["contrast"], coins["pixel_mm"], ring=ring)
    kinds, _ = fit.best()
    read: dict[str, list[tuple[str, str]]] = {}
    for region, truth, kind in zip(coins["regions"], coins["tops"], kinds, strict=True):
        read.setdefault(str(region), []).append((str(truth), kind))
    return fit, read


def test_dimes_of_a_penny_size_stay_silver_on_a_ring() -> None:
    fit, read = _fit(ring=True)
    assert read["t45"] == [("D", "D")]
    assert all(kind == truth for pairs in read.values() for truth, kind in pairs if truth)
    # Copper's tint is the pennies' own, not lowered towards the dimes.
    assert fit.tints["copper"][0] > 0.35


def test_off_a_ring_the_dimes_set_copper_as_before() -> None:
    # Coin Isolation's squares are no ring: the fit there is unchanged (the dimes read pennies).
    _, read = _fit(ring=False)
    assert read["t45"] == [("D", "P")]
