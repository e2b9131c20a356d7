"""Glare pales a penny's copper: still a penny; a red pawn's colour on a dime: still a dime."""

from __future__ import annotations

import pytest

from vision.read import read_frame
from vision.synth import random_scene, random_variation, render

from .helpers import CONFIG, PROFILE


@pytest.mark.parametrize("seed", [41, 199, 474])
def test_pennies_in_a_glare_spot_are_read_as_pennies(seed: int) -> None:
    """Random frames with strong glare: every penny standing alone, no pawn on it, reads P."""
    scene = random_scene(seed, random_variation(seed, 35.0))
    frame = render(scene, seed)
    observation = read_frame(CONFIG, frame.image, scene.geometry, PROFILE)
    wrong = [
        (name, observation.regions[name].coin) for name, truth in frame.truth.items()
        if truth.coins == "P" and truth.pawn is None and observation.regions[name].coin != "P"
    ]
    assert not wrong


def test_a_dime_under_a_red_pawn_is_not_read_as_a_penny() -> None:
    """The red pawn's colour bleeds onto what shows of the dime: redder, not copper."""
    seed = 148
    scene = random_scene(seed, random_variation(seed, 35.0))
    frame = render(scene, seed)
    observation = read_frame(CONFIG, frame.image, scene.geometry, PROFILE)
    pawned = [name for name, truth in frame.truth.items()
              if truth.coins == "D" and truth.pawn == "red"]
    assert pawned
    assert all(observation.regions[name].coin != "P" for name in pawned)
