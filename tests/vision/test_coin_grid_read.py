"""Reading the Coin Grid mat: 72 squares among printed stars, X's and a wall, and three cups of
loose coins, on rendered synthetic frames read end to end."""

from __future__ import annotations

import math
import random

import pytest

from calibration.geometry import coin_grid_mat
from calibration.profile import VisionProfile
from companion.games.coin_grid import GAME
from companion.games.coin_grid.position import CoinGridPosition
from companion.games.coin_grid.table import layout
from contract.observation import COIN_KINDS
from tests.games.coin_grid.playout import random_child
from vision.read import FrameReading, read_frame_details
from vision.synth import SynthFrame, SynthScene, Variation, random_variation, render

from .helpers import CONFIG

GEOMETRY = coin_grid_mat()
#: The demo reads with every kind the default profile knows, Coin Grid's and others.
PROFILE = VisionProfile.default()
SQUARES = [region.name for region in GEOMETRY.regions if region.kind == "square"]
CUPS = [region.name for region in GEOMETRY.regions if region.kind == "cup"]


def _variation(seed: int, plain: bool) -> Variation:
    return Variation() if plain else random_variation(seed, geometry=GEOMETRY)


def _read(coins: dict[str, str], seed: int, plain: bool) -> tuple[SynthFrame, FrameReading]:
    scene = SynthScene.build(coins, {}, GEOMETRY, _variation(seed, plain), layout_seed=seed)
    frame = render(scene, seed)
    return frame, read_frame_details(CONFIG, frame.image, GEOMETRY, PROFILE)


def _wrong_squares(frame: SynthFrame, reading: FrameReading) -> list[tuple[str, str, str | None]]:
    return [(name, frame.truth[name].coins, reading.observation[name].coin)
            for name in SQUARES if reading.observation[name].coin != frame.truth[name].top]


def _mid_game(seed: int) -> CoinGridPosition:
    """A position of a random game from the start with a double stack on the board."""
    rng = random.Random(seed)
    position = GAME.new_position(2, (), seed)
    while not any(piece.double for piece in position.pieces().values()):
        position = GAME.apply(position, random_child(position, rng))
    return position


@pytest.mark.parametrize(("seed", "plain"), [(1, True), (2, True), (1, False), (2, False),
                                             (8, False)])
def test_the_starting_layout_reads_exactly(seed: int, plain: bool) -> None:
    start = layout(GAME.new_position(2, (), seed)).stacks()
    frame, reading = _read(dict(start), seed, plain)
    assert _wrong_squares(frame, reading) == []
    assert sum(reading.observation[name].coin is not None for name in SQUARES) == 24


@pytest.mark.parametrize(("seed", "plain"), [(3, True), (8, False)])
def test_an_empty_board_reads_empty_among_its_stars_crosses_and_wall(seed: int,
                                                                     plain: bool) -> None:
    frame, reading = _read({}, seed, plain)
    assert _wrong_squares(frame, reading) == []
    marked = [name for name in SQUARES if name[1:] in ("1", "2", "6", "7", "11", "12")]
    doubted = [(name, round(reading.observation[name].confidence, 2)) for name in marked
               if reading.observation[name].confidence < 0.5]
    assert doubted == []
    assert all(reading.observation[name].count == 0 for name in CUPS)


@pytest.mark.parametrize(("seed", "plain"), [(5, True), (6, False)])
def test_a_mid_game_position_reads_the_top_of_its_double_stacks(seed: int, plain: bool) -> None:
    stacks = dict(layout(_mid_game(seed)).stacks())
    doubles = [name for name, coins in stacks.items() if len(coins) == 2]
    assert doubles
    frame, reading = _read(stacks, seed, plain)
    assert _wrong_squares(frame, reading) == []
    assert [reading.observation[name].coin for name in doubles] == [stacks[name][-1]
                                                                      for name in doubles]


def _apart(scene: SynthScene, region: str, gap_mm: float) -> bool:
    """Whether the loose coins of ``region`` lie at least ``gap_mm`` apart."""
    placed = [coin for coin in scene.placements()[0] if coin.region == region]
    return all(math.dist(one.centre_mm, other.centre_mm)
               >= (COIN_KINDS[one.letter][1] + COIN_KINDS[other.letter][1]) / 2 + gap_mm
               for index, one in enumerate(placed) for other in placed[index + 1:])


@pytest.mark.parametrize(("seed", "plain"), [(2, True), (3, True), (6, False), (8, False),
                                             (9, False)])
def test_cups_count_their_loose_coins_and_are_never_a_single_coin(seed: int,
                                                                  plain: bool) -> None:
    coins = dict(layout(GAME.new_position(2, (), seed)).stacks())
    coins.update({"reserve-south": "NNDN", "reserve-north": "PPPDP", "supply": "DDDDDD"})
    scene = SynthScene.build(coins, {}, GEOMETRY, _variation(seed, plain), layout_seed=seed)
    frame = render(scene, seed)
    reading = read_frame_details(CONFIG, frame.image, GEOMETRY, PROFILE)
    assert _wrong_squares(frame, reading) == []
    counted = 0
    for name in CUPS:
        got = reading.observation[name]
        assert got.coin is None
        # The mat promises counts while the coins lie apart (calibration/MATS.md).
        if _apart(scene, name, 2.0):
            counted += 1
            assert (got.count, got.kinds) == (len(coins[name]),
                                              tuple(sorted(coins[name]))), name
        else:
            assert abs((got.count or 0) - len(coins[name])) <= 1, name
    assert counted >= 1


@pytest.mark.parametrize("colour", ["red", "blue"])
def test_a_coloured_die_in_the_tray_is_a_die_and_no_pawn(colour):
    from dataclasses import replace

    from vision.synth.dice import Die

    tray = next(region.shape for region in GEOMETRY.regions if region.kind == "tray")
    coins = layout(GAME.new_position(2, (), 1)).stacks()
    scene = SynthScene.build(coins, {}, GEOMETRY, Variation(), layout_seed=1)
    scene = replace(scene, dice=(Die(5, tray.centre, angle_deg=20.0, colour=colour),))
    reading = read_frame_details(CONFIG, render(scene, 1).image, GEOMETRY, PROFILE)
    tray_reading = reading.observation.regions["tray"]
    assert tray_reading.pawn is None
    assert [die.value for die in tray_reading.dice] == [5]
