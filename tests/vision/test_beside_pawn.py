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


def test_a_dime_beside_a_pawn_is_read_or_doubted_never_surely_misread() -> None:
    readings = []
    for seed in range(12):  # coins and pawns anywhere in their squares, under random cameras
        variation = replace(random_variation(seed), placement=1.0)
        scene = SynthScene.build(COINS, PAWNS, GEOMETRY, variation, layout_seed=seed)
        observation = read_frame(CONFIG, render(scene, seed).image, GEOMETRY, PROFILE)
        readings += [(observation[square].coin, observation[square].confidence)
                     for square in SQUARES]
    # A pawn hides most of its dime's rim and bleeds its colour onto the face: the reader
    # doubts the square (below 0.5) rather than guess. The reader of 2026-11 reads 87 of
    # 144 right and one surely wrong; the first reader, tuned on this very renderer, read
    # 139 right but was three times as often wrong on frames from elsewhere.
    assert sum(coin == "D" for coin, _ in readings) >= 80, readings
    surely_wrong = [(coin, sure) for coin, sure in readings if coin != "D" and sure >= 0.5]
    assert len(surely_wrong) <= 2, surely_wrong
    assert not [(coin, sure) for coin, sure in readings if coin is None and sure >= 0.5]
