"""Stacks of nickels on a physically rendered table: each coin lies a little off the one under
it, so the stack's outline is as wide as a quarter, while its top coin is a whole nickel inside
it. The reader names the top coin by that circle (:func:`vision.read._read_tops`) rather than
by the outline, and never names a single quarter a nickel for it."""

from __future__ import annotations

from vision.read import read_frame
from vision.synth.physical import render_table
from vision.synth.physical.scene import TableScene, variation_for

from .helpers import CONFIG, GEOMETRY, PROFILE

#: Confidence from which the referee takes a reading as it is.
SURE = 0.5
#: Stacks of two and three nickels, with single coins of every kind between them (the frame's
#: rims and sizes are measured on its own single coins).
STACKS = {"b2": "NN", "d2": "NNN", "f2": "NN", "h2": "NNN", "a4": "NN", "c4": "NNN",
          "e4": "NN", "g4": "NNN", "b6": "NN", "d6": "NNN", "f6": "NN", "h6": "NN"}
SINGLES = {"a1": "N", "c1": "Q", "e1": "P", "g1": "D", "b3": "Q", "d3": "N", "f3": "P",
           "h3": "Q", "a5": "D", "c5": "N", "e5": "Q", "g5": "P", "a7": "N", "c7": "Q",
           "e7": "D", "g7": "N", "b8": "P", "d8": "Q", "f8": "N", "h8": "D"}


def test_nickel_stacks_as_wide_as_quarters_are_read_by_their_top_nickel() -> None:
    # A tuning-family camera tilted about 25 degrees, 1.3-2 camera pixels per mm. Before the
    # top circle named the top coin, 2 of these 12 stacks were read as nickels; 6 now.
    scene = TableScene.build({**STACKS, **SINGLES}, {}, GEOMETRY, variation_for("tuning", 11),
                             layout_seed=11)
    observation = read_frame(CONFIG, render_table(scene, seed=0).image, GEOMETRY, PROFILE)
    named = [square for square in STACKS if observation[square].coin == "N"]
    assert len(named) >= len(STACKS) // 3, {square: observation[square] for square in STACKS}
    # The single coins, quarters among them, keep their reading.
    wrong = {square: observation[square] for square, coin in SINGLES.items()
             if observation[square].coin != coin}
    assert not wrong
