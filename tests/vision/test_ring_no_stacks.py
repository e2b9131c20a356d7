"""A ring's space holds one coin: the frame fit explains a coin there as a single coin, never as
a stack's top, so a nickel whose top circle measures a dime's is no dime on a lower coin: its
outline names it, the circle being one of its face's."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from calibration.profile import VisionProfile
from vision.frame_model import FrameFit, FrameModelConfig, fit_frame
from vision.read import _kind_priors

#: The coins of the ring's tuning frame 41 (3 seats, 1.1-1.2 mm a camera pixel) as the reader
#: measured them, all in the ring's spaces (``alone``): the nickel in HOME space h2-4 measures
#: 21.2 mm (the frame's other nickels 22.9) with a top circle of 18.5 mm, a dime's size here.
COINS = Path(__file__).parent / "data" / "ring_dime_topped_nickel.npz"


def _fit(alone: bool) -> tuple[FrameFit, dict[str, tuple[str, str, float]]]:
    """The ring's frame fitted with its coins known to lie alone or not, and each region's
    (truth, read, confidence)."""
    coins = np.load(COINS)
    priors = _kind_priors(VisionProfile.default().only_kinds("PNDQ"))
    fit = fit_frame(FrameModelConfig(), priors, coins["positions"], coins["diameters"],
                    coins["weights"], coins["colours"], coins["clipped"], coins["edges"],
                    coins["inner"], coins["contrast"], coins["pixel_mm"], ring=True,
                    alone=coins["alone"] if alone else None)
    kinds, confidences = fit.best()
    read = {str(region): (str(truth), kind, float(confidence)) for region, truth, kind, confidence
            in zip(coins["regions"], coins["tops"], kinds, confidences, strict=True)}
    return fit, read


def test_a_coin_alone_in_its_space_is_no_stack() -> None:
    fit, read = _fit(alone=True)
    assert np.allclose(fit.single, 1.0)
    # No dime on a lower coin: the nickel its outline measures.
    assert read["h2-4"][1] == "N"
    assert all(kind == truth for truth, kind, _ in read.values())


def test_where_stacks_may_lie_the_fit_is_as_before() -> None:
    # Without the ring's spaces known (Coin Isolation's squares), a stack is still allowed:
    # the nickel is read as a dime whose outline a lower coin widens, as before.
    fit, read = _fit(alone=False)
    assert read["h2-4"][1] == "D"
    assert fit.single.min() < 1.0
