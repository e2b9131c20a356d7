"""Stacks of quarters spread by their offsets beyond the rays' usual reach are still measured."""

from __future__ import annotations

import pytest

from vision.read import read_frame
from vision.synth import random_scene, random_variation, render

from .helpers import CONFIG, PROFILE


@pytest.mark.parametrize("seed", [261, 375])
def test_stacks_of_quarters_are_not_read_as_nickels(seed: int) -> None:
    """Random frames holding a stack of two or three quarters: its rays must reach the paper
    beyond it, or its rim is taken inside and the stack reads as a nickel."""
    scene = random_scene(seed, random_variation(seed, 35.0))
    frame = render(scene, seed)
    observation = read_frame(CONFIG, frame.image, scene.geometry, PROFILE)
    stacks = [name for name, truth in frame.truth.items()
              if len(truth.coins) > 1 and set(truth.coins) == {"Q"} and truth.pawn is None]
    assert stacks
    assert all(observation.regions[name].coin == "Q" for name in stacks), [
        (name, observation.regions[name].coin) for name in stacks
    ]
