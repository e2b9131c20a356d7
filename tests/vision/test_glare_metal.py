"""Glare pales a penny's copper towards neutral along copper's own line: still a penny."""

from __future__ import annotations

import numpy as np
import pytest

from vision.coin_size import colour_score
from vision.read import read_frame
from vision.synth import random_scene, random_variation, render

from .helpers import CONFIG, PROFILE

METALS = np.array([look.colour for look in PROFILE.coins])
KINDS = [look.kind for look in PROFILE.coins]


def _nearest_metal(colour: tuple[float, float]) -> str:
    scores = colour_score(PROFILE, np.array([colour]), METALS)[0]
    return KINDS[int(np.argmin(scores))]


@pytest.mark.parametrize("fade", [1.0, 0.8, 0.6, 0.5])
def test_copper_paled_by_glare_stays_copper(fade: float) -> None:
    copper = np.array(PROFILE.coin("P").colour)
    assert _nearest_metal(tuple(fade * copper)) == "P"


def test_neutral_is_as_far_from_copper_as_without_glare() -> None:
    """Allowing for glare must not bring silver nearer copper: a dime on a penny is told by
    its neutral middle."""
    copper = np.array(PROFILE.coin("P").colour)
    scores = colour_score(PROFILE, np.array([(0.0, 0.0)]), METALS)
    plain = (copper**2).sum() / PROFILE.colour_sigma**2
    assert scores[0, KINDS.index("P")] == pytest.approx(plain, rel=0.01)
    assert scores[0, KINDS.index("N")] == 0.0


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


def test_glare_scales_a_colours_stray_from_its_metal_with_it() -> None:
    """A colour paled to half copper's strength may stray from copper's line by half as much:
    a silver coin tinted red by a pawn beside it is no paled penny."""
    copper = np.array(PROFILE.coin("P").colour)
    across = np.array([-copper[1], copper[0]]) / np.hypot(*copper)
    strays = np.array([copper + 0.1 * across, 0.5 * copper + 0.1 * across])
    scores = colour_score(PROFILE, strays, METALS)[:, KINDS.index("P")]
    assert scores[1] == pytest.approx(4 * scores[0], rel=0.01)


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
