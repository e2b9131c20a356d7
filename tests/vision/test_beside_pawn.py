"""A coin beside a pawn merges with the pawn and its shadow into one blob; it is still read."""

from __future__ import annotations

from dataclasses import replace

from vision.read import read_frame
from vision.synth import SynthScene, random_variation, render

from .helpers import CONFIG, GEOMETRY, PROFILE

SQUARES = ("b2", "d2", "f2", "h2", "a5", "c5", "e5", "g5", "b7", "d7", "f7", "h7")
#: A dime (the smallest coin, the easiest to lose in the blob) with a pawn on every square.
COINS = {square: "D" for square in SQUARES}
PAWNS = {square: ("red", "blue")[index % 2] for index, square in enumerate(SQUARES)}


def test_a_dime_beside_a_pawn_is_read_and_never_as_a_surely_empty_square() -> None:
    readings = []
    for seed in range(12):  # coins and pawns anywhere in their squares, under random cameras
        variation = replace(random_variation(seed), placement=1.0)
        scene = SynthScene.build(COINS, PAWNS, GEOMETRY, variation, layout_seed=seed)
        observation = read_frame(CONFIG, render(scene, seed).image, GEOMETRY, PROFILE)
        readings += [(observation[square].coin, observation[square].confidence)
                     for square in SQUARES]
    # Before the second seed beside pawns: 139 of 144 right, 5 read as surely empty.
    assert sum(coin == "D" for coin, _ in readings) >= 140, readings
    assert not [(coin, sure) for coin, sure in readings if coin is None and sure >= 0.5]
