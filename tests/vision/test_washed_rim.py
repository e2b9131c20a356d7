"""A silver coin that glare washes out until its rim shows on few rays is still a coin."""

from __future__ import annotations

import pytest

from vision.read import read_frame
from vision.synth import random_scene, random_variation, render

from .helpers import CONFIG, PROFILE


@pytest.mark.parametrize("seed", [314, 474])
def test_lone_coins_in_a_glare_spot_are_not_read_as_empty(seed: int) -> None:
    """Random frames with strong glare: a dime there shows only pieces of its edge ring."""
    scene = random_scene(seed, random_variation(seed, 35.0))
    frame = render(scene, seed)
    observation = read_frame(CONFIG, frame.image, scene.geometry, PROFILE)
    lone = {name: truth.coins for name, truth in frame.truth.items()
            if len(truth.coins) == 1 and truth.pawn is None}
    read = {name: observation.regions[name].coin for name in lone}
    empty = {name: coins for name, coins in lone.items() if read[name] is None}
    assert not empty
