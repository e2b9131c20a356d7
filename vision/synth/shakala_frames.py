"""Synthetic frames of Shakala's mat in play, for the pit-reading benchmark and tests.

A frame shows a position reached by random play (:mod:`companion.games.shakala`, from a few
moves to a long game), laid out as the game lays it out (:func:`~companion.games.shakala.table
.layout`: stones as pennies, gems as dimes, nickels, quarters and golden dollars), with a share
of frames crowded further: a few pits topped up to as many as ``MOST_COINS`` coins of every
kind. Coins lie as hands drop them (touching and overlapping by up to a third of a width,
:func:`vision.synth.layout.scattered_coins`, the synthetic table's way with the mat's piled
regions). The camera and light are
:func:`vision.synth.random_variation`'s for this mat (tilts up to 35 degrees), one frame in four
seen by the plain camera straight above.

The held-out family (:data:`HELDOUT_FIRST` on) has other seeds and a variation the tuning
family lacks: a dimmer exposure (0.6 to 0.78, where tuning frames have 0.8 to 1.1) with a
stronger light gradient.
"""

from __future__ import annotations

import random
from dataclasses import replace

from calibration.shakala_mat import shakala_mat
from companion.games.shakala import GAME
from companion.games.shakala.position import ShakalaPosition
from companion.games.shakala.table import COIN_KINDS, layout
from vision.synth import SynthScene, Variation, random_variation

#: The first held-out seed.
HELDOUT_FIRST = 100_000
#: The most coins a crowded pit is topped up to.
MOST_COINS = 12
#: The most random moves a frame's game is played for.
MOST_MOVES = 80


def random_position(seed: int) -> ShakalaPosition:
    """A position of a random game, some moves from the start."""
    rng = random.Random(seed)
    position = GAME.new_position(2)
    for _ in range(rng.randint(0, MOST_MOVES)):
        if GAME.is_over(position):
            break
        moves = list(GAME.iter_moves(position))
        if not moves:
            break
        position = GAME.apply(position, rng.choice(moves))
    return position


def table_coins(position: ShakalaPosition, seed: int) -> dict[str, str]:
    """What lies in each pit and cup; in half the frames, up to four pits topped up with
    random coins to between 8 and :data:`MOST_COINS`."""
    rng = random.Random(seed + 1)
    coins = dict(layout(position).stacks())
    if rng.random() < 0.5:
        for name in rng.sample("ABCDEFGHabcdefgh", rng.randint(1, 4)):
            have = coins.get(name, "")
            want = rng.randint(max(8, len(have)), MOST_COINS)
            coins[name] = have + "".join(rng.choice(COIN_KINDS)
                                         for _ in range(want - len(have)))
    return coins


def variation(seed: int, heldout: bool) -> Variation:
    """The camera, light and coins' look of frame ``seed``."""
    mat = shakala_mat()
    chosen = Variation() if seed % 4 == 0 else random_variation(seed, geometry=mat)
    if heldout:
        rng = random.Random(seed + 2)
        light = replace(chosen.light, exposure=rng.uniform(0.6, 0.78),
                        gradient=rng.uniform(0.2, 0.45))
        chosen = replace(chosen, light=light)
    return chosen


def shakala_scene(seed: int) -> SynthScene:
    """The scene of frame ``seed`` (held out from :data:`HELDOUT_FIRST` on)."""
    position = random_position(seed)
    return SynthScene.build(table_coins(position, seed), {}, shakala_mat(),
                            variation=variation(seed, seed >= HELDOUT_FIRST),
                            layout_seed=seed)
