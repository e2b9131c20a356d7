"""A single coin's long shadow along its lean (issue 15): a nickel of stress frame 1074 (a
low bright window behind the camera, 17.6 degrees up) seen in the normalised top view at
2 px/mm, as the reader measured it. The window's soft shadow darkens the paper on the coin's
far side past the rays' end, so the outline was fitted as a tall stack's swept disc, which
a third of the rays agreed with, and the coin read as an empty square. Measured as a plain
coin as well, its rim shows all round, at a nickel's size."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from vision.ray_samples import with_fourth_channel
from vision.rims import CoinOutlines, RimConfig, measure_outlines

FIXTURE = Path(__file__).parent / "data" / "window_shadow_nickel.npz"
NICKEL_MM = 21.21


def _measured(config: RimConfig) -> CoinOutlines:
    """The outline measured from the reader's own seed near the nickel's middle."""
    with np.load(FIXTURE) as data:
        return measure_outlines(config, with_fourth_channel(data["view"]), data["flags"],
                                data["seed"][None], data["lean"][None], 2.0,
                                data["blur"][None], data["lean_per_mm"][None])


def test_a_coin_with_a_long_shadow_along_its_lean_is_measured_as_a_plain_coin() -> None:
    outline = _measured(RimConfig())
    assert outline.agreement[0] >= 0.7  # sure: CoinConfig.sure_agreement
    assert abs(outline.radii_px[0] - NICKEL_MM) < 0.8  # radius px at 2 px/mm: the diameter


def test_as_a_swept_disc_alone_too_few_rays_agree_for_a_coin() -> None:
    outline = _measured(replace(RimConfig(), plain_retry=0.0))
    assert outline.agreement[0] < 0.4  # CoinConfig.least_agreement: no coin
