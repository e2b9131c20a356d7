"""Stacks as the game makes them: the top coin of a smaller-on-larger stack, and random boards."""

from __future__ import annotations

import pytest

from vision.read import read_frame
from vision.synth import SynthScene, Variation, random_scene, random_variation, render

from .helpers import CONFIG, GEOMETRY, PROFILE

#: Stacks a mixed-change game makes (bottom to top, smallest on top), and one under a pawn.
STACKS = {"f6": "QN", "g3": "PD", "c5": "QQN"}
SEEDS = range(8)


def _readings(square: str) -> list[tuple[str | None, float]]:
    readings = []
    for seed in SEEDS:
        scene = SynthScene.build(STACKS, {}, GEOMETRY, Variation(), layout_seed=seed)
        observation = read_frame(CONFIG, render(scene, seed).image, GEOMETRY, PROFILE)
        readings.append((observation[square].coin, observation[square].confidence))
    return readings


def test_a_nickel_on_a_quarter_is_read_as_the_nickel_or_doubted() -> None:
    readings = _readings("f6") + _readings("c5")
    right = sum(coin == "N" for coin, _ in readings)
    sure_but_wrong = sum(coin != "N" and confidence >= 0.5 for coin, confidence in readings)
    assert right >= len(readings) // 2, readings
    assert sure_but_wrong <= 2, readings


def test_a_dime_on_a_penny_is_read_as_the_dime_under_any_camera() -> None:
    readings = []
    for seed in range(12):
        scene = SynthScene.build(STACKS, {}, GEOMETRY, random_variation(seed), layout_seed=seed)
        reading = read_frame(CONFIG, render(scene, seed).image, GEOMETRY, PROFILE)["g3"]
        readings.append((reading.coin, reading.confidence))
    assert sum(coin == "D" for coin, _ in readings) >= 8, readings
    assert sum(coin != "D" and confidence >= 0.5 for coin, confidence in readings) <= 1


def test_random_boards_stack_as_the_game_does() -> None:
    sizes = {"D": 17.91, "P": 19.05, "N": 21.21, "Q": 24.26}
    mixed = 0
    for seed in range(60):
        scene = random_scene(seed, Variation())
        mixed_change = "mixed-change" in scene.variants
        mixed += mixed_change
        for _, coins in scene.coins:
            if not mixed_change:
                assert len(set(coins)) == 1, (seed, coins)
            assert list(coins) == sorted(coins, key=lambda coin: -sizes[coin]), (seed, coins)
    assert 10 <= mixed <= 30
    assert "mixed-change" in random_scene(0, Variation(), mixed_change=True).variants


def test_same_kind_stacks_under_pawns_are_not_read_one_size_too_large_with_confidence() -> None:
    stacks = {"b5": "DDDD", "e2": "DD", "g7": "NN", "c7": "PPP", "f4": "QQ"}
    pawns = {"b5": "blue", "e2": "red", "g7": "green", "c7": "yellow", "f4": "blue"}
    singles = {"a1": "N", "h8": "P", "d5": "D", "h1": "Q", "a8": "N"}
    right = 0
    for seed in range(6):
        scene = SynthScene.build({**stacks, **singles}, pawns, GEOMETRY, Variation(),
                                 layout_seed=seed)
        observation = read_frame(CONFIG, render(scene, seed).image, GEOMETRY, PROFILE)
        for square, coins in stacks.items():
            reading = observation[square]
            right += reading.coin == coins[-1]
            if reading.coin is not None and reading.coin != coins[-1]:
                assert reading.confidence < 0.5, (seed, square, reading)
    assert right >= 18


@pytest.mark.parametrize("seed", [192, 216, 217, 218, 227])
def test_a_coin_a_pawn_mostly_hides_is_not_read_as_an_empty_square_with_confidence(
    seed: int,
) -> None:
    scene = random_scene(seed, random_variation(seed))
    frame = render(scene, seed)
    observation = read_frame(CONFIG, frame.image, GEOMETRY, PROFILE)
    under = [name for name, truth in frame.truth.items() if truth.pawn and truth.coins]
    assert under
    for name in under:
        reading = observation[name]
        assert reading.coin is not None or reading.confidence < 0.5, (name, reading)


def test_dimes_and_pennies_beside_pawns_keep_their_size_under_any_camera() -> None:
    """A pawn leaning over a coin's rim and its shadow only add outside the coin: they must
    not swell a dime to a nickel or a penny. The first reader, tuned on this renderer, read
    113 of 120 right (98 before its fix); the reader of 2026-11, built for frames from
    elsewhere, reads 95 to 98 (it doubts rather than guesses under a pawn: whatever it
    reads wrongly there, it reads with a confidence under 0.5). 95 since seeds ignore the
    mat's printing: three false coins on empty squares of seed 6 went, and with them the
    frame model's guess at d7's pawn-hidden PP, read at confidence 0.19-0.24 either way. 92
    since colour along the line of light colours counts less (2026-11-27): a pawn's colour
    mirrored by a dime lies across that line, as copper's does, and three more dimes under
    pawns are read as pennies, all below 0.5."""
    stacks = {"b5": "D", "e2": "DD", "c3": "D", "f6": "DD", "g2": "P", "d7": "PP"}
    pawns = {"b5": "blue", "e2": "red", "c3": "red", "f6": "blue", "g2": "blue", "d7": "red"}
    singles = {"a1": "N", "h8": "P", "d5": "D", "h1": "Q", "a8": "N"}
    right = 0
    for seed in range(20):
        scene = SynthScene.build({**stacks, **singles}, pawns, GEOMETRY, random_variation(seed),
                                 layout_seed=seed)
        observation = read_frame(CONFIG, render(scene, seed).image, GEOMETRY, PROFILE)
        for square, coins in stacks.items():
            reading = observation[square]
            right += reading.coin == coins[-1]
            if reading.coin != coins[-1]:
                assert reading.confidence < 0.5, (seed, square, reading)
    assert right >= 92


def test_pennies_beside_blue_pawns_stay_copper_under_any_camera() -> None:
    """A blue pawn's colour bleeds onto the coin beside it; read away from the pawn, a penny
    stays copper (the first reader: 117 of 120 right, 110 before its fix; the reader of
    2026-11: 113)."""
    stacks = {"b5": "P", "e2": "PP", "c3": "P", "f6": "PP", "g2": "P", "d7": "P"}
    singles = {"a1": "N", "h8": "P", "d5": "D", "h1": "Q", "a8": "N"}
    right = 0
    for seed in range(20):
        scene = SynthScene.build({**stacks, **singles}, dict.fromkeys(stacks, "blue"), GEOMETRY,
                                 random_variation(seed), layout_seed=seed)
        observation = read_frame(CONFIG, render(scene, seed).image, GEOMETRY, PROFILE)
        right += sum(observation[square].coin == coins[-1] for square, coins in stacks.items())
    assert right >= 113
