"""Reading frames of the physically based renderer where the evidence is partial: a coin a pawn
stands on (its middle hidden, its face mirroring the pawn) and coins whose faces the lamp
clips white. The reader may doubt such a coin, but never name it wrongly with confidence."""

from __future__ import annotations

import numpy as np
import pytest

from vision.read import read_frame
from vision.synth.physical import random_table_scene, render_table
from vision.synth.physical.scene import TableScene, variation_for

from .helpers import CONFIG, GEOMETRY, PROFILE

#: Confidence from which the referee takes a reading as it is.
SURE = 0.5


def _board_with_pawns_on_coins(seed: int) -> tuple[dict[str, str], dict[str, str]]:
    """36 squares of coins of every kind, and a red or blue pawn on eight of them."""
    rng = np.random.default_rng(seed)
    names = [region.name for region in GEOMETRY.regions if region.kind == "square"]
    rng.shuffle(names)
    coins = {name: str(rng.choice(list("PPNNDQ"))) for name in names[:36]}
    pawns = {name: ("red" if index % 2 else "blue") for index, name in enumerate(names[:8])}
    return coins, pawns


@pytest.mark.parametrize("seed", [1, 3])
def test_a_coin_under_a_pawn_is_read_right_or_doubted(seed: int) -> None:
    coins, pawns = _board_with_pawns_on_coins(seed)
    scene = TableScene.build(coins, pawns, GEOMETRY, variation_for("tuning", seed),
                             layout_seed=seed)
    observation = read_frame(CONFIG, render_table(scene, seed=0).image, GEOMETRY, PROFILE)
    readings = {name: observation[name] for name in pawns}
    # Neither the coin nor the pawn (one the lamp washes pale may be missed) is sure wrong.
    sure_wrong = [(name, coins[name], pawns[name], reading.coin, reading.pawn)
                  for name, reading in readings.items()
                  if (reading.coin, reading.pawn) != (coins[name], pawns[name])
                  and reading.confidence >= SURE]
    assert not sure_wrong
    # Most coins under pawns are still named: doubting everything is no answer.
    named = sum(reading.coin == coins[name] for name, reading in readings.items())
    assert named >= len(pawns) // 2, readings


def test_a_nickel_under_a_red_pawn_is_measured_by_its_rim_not_the_pawns_base() -> None:
    # A tuning-family table where a red pawn stands on a nickel at g5: the round base of the
    # pawn, well inside the coin, is no top coin's circle (it made the nickel a penny), and
    # the red pawn is no copper.
    frame = render_table(random_table_scene(49, family="tuning"), seed=0)
    assert (frame.truth["g5"].coins, frame.truth["g5"].pawn) == ("N", "red")
    reading = read_frame(CONFIG, frame.image, GEOMETRY, PROFILE)["g5"]
    assert (reading.coin, reading.pawn) == ("N", "red")
    assert reading.confidence < SURE


def test_coins_the_lamp_glints_off_are_never_named_wrongly_with_confidence() -> None:
    # A tuning-family table whose lamp clips nearly every coin's face white: only the coins'
    # sizes (bloomed by the glint) and their edges' faint tint are left to name them by.
    frame = render_table(random_table_scene(7, family="tuning"), seed=0)
    observation = read_frame(CONFIG, frame.image, GEOMETRY, PROFILE)
    single = {name: truth for name, truth in frame.truth.items()
              if len(truth.coins) == 1 and truth.pawn is None}
    assert len(single) >= 10
    sure_wrong = [(name, truth.coins, observation[name].coin, observation[name].confidence)
                  for name, truth in single.items()
                  if observation[name].coin != truth.top
                  and observation[name].confidence >= SURE]
    assert not sure_wrong
    named = sum(observation[name].coin == truth.top for name, truth in single.items())
    assert named >= len(single) // 3
