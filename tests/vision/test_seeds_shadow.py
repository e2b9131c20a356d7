"""Seeds under a person's shadow (issue 15): on a normalised view (1 px/mm) whose left is a
busy board of pennies beside a strip of lit paper and whose right is paper left darker and
noisier by a shadow, a faint silver rim (a dime's 1 mm ring, 0.15 of paper darker) in the
shadow must make a seed. Measured against the board's own level, the shadowed paper is the
board's lower quartile and the lit strip its fifth percentile: the paper's spread is the
shadow's depth, and the bar rises over the faint rim."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from vision.seeds import SeedConfig, find_seeds

SHADOW_FROM = 100  # mm from the left: pennies from 20 mm to here, shadow beyond
RIM_CENTRE = (180, 60)


def _shadowed_view() -> np.ndarray:
    """A 240 x 120 mm normalised view (paper 200): pennies in a busy block, a shadow 10 darker
    with noise of 4 over the right 140 mm, and a dime's rim in the shadow."""
    height, width = 120, 240
    view = np.full((height, width, 3), 200.0)
    for row in range(11, height, 22):
        for column in range(31, SHADOW_FROM - 5, 22):
            cv2.circle(view, (column, row), 10, (60, 90, 150), -1)
    noise = np.random.default_rng(0).normal(0.0, 4.0, (height, width - SHADOW_FROM))
    view[:, SHADOW_FROM:] -= (10.0 + noise)[..., None]
    rim = np.zeros((height, width), np.uint8)
    cv2.circle(rim, RIM_CENTRE, 9, 255, 1)
    view[rim > 0] -= 30.0
    return np.clip(view, 0, 255).astype(np.uint8)


def _seeds_in_shadow(config: SeedConfig) -> tuple[int, int]:
    """Seeds on the rim (within its radius of its centre), and elsewhere in the shadow more
    than 30 mm from its edge (where the plainest paper around is shadowed too)."""
    points, _ = find_seeds(config, _shadowed_view(), 1.0)
    on_rim = np.hypot(*(points - RIM_CENTRE).T) < 9
    deep_in_shadow = points[:, 0] >= SHADOW_FROM + 30
    return int(on_rim.sum()), int((deep_in_shadow & ~on_rim).sum())


def test_a_faint_rim_under_a_shadow_beside_a_busy_board_makes_one_seed() -> None:
    on_rim, elsewhere = _seeds_in_shadow(SeedConfig())
    assert on_rim == 1
    assert elsewhere == 0  # the shadow's own noise makes none


def test_against_the_boards_own_level_the_shadow_raises_the_bar_over_the_rim() -> None:
    on_rim, _ = _seeds_in_shadow(replace(SeedConfig(), floor_mm=0.0))
    assert on_rim == 0
