"""The frame model where most coins are faint and their shadows swell them all by a size step,
on the coins measured in a rendered stress frame: seed 1053 of the stress family
(``stress-kelvin``, a 2,400 K lamp with the white balance off), whose 50 coins' outlines,
colours and edge contrasts (0.1-0.2 of paper) are kept in ``data/warm_lamp_coins.npz`` with
the top coin of the square each lies in. Every coin measures 3-4 mm over its size, so each
fits the next kind up (a nickel a quarter, a dime a nickel) about as well as its own."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from calibration.profile import VisionProfile
from vision.frame_model import FrameModelConfig, fit_frame
from vision.read import _kind_priors

COINS = Path(__file__).parent / "data" / "warm_lamp_coins.npz"


def _right_and_sure_wrong(config: FrameModelConfig) -> tuple[int, int]:
    coins = np.load(COINS)
    priors = _kind_priors(VisionProfile.default().only_kinds("PNDQ"))
    fit = fit_frame(config, priors, coins["positions"], coins["diameters"], coins["weights"],
                    coins["colours"], coins["clipped"], coins["edges"], coins["inner"],
                    coins["contrast"])
    kinds, probabilities = fit.best()
    tops = [str(top) for top in coins["tops"]]
    right = sum(kind == top for kind, top in zip(kinds, tops, strict=True))
    sure_wrong = sum(kind != top and probability >= 0.5
                     for kind, top, probability in zip(kinds, tops, probabilities, strict=True))
    return right, sure_wrong


def test_faint_coins_swollen_by_their_shadows_are_named_by_their_own_size() -> None:
    right, sure_wrong = _right_and_sure_wrong(FrameModelConfig())
    assert right >= 45 and sure_wrong <= 4  # of 50 (one lies off the squares)


def test_without_the_shadow_start_the_frame_reads_every_coin_a_kind_too_large() -> None:
    right, sure_wrong = _right_and_sure_wrong(replace(FrameModelConfig(), faint_shadow_mm=0.0))
    assert right < 25 and sure_wrong > 25
