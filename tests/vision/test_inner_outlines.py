"""A smaller coin lying on a larger one shows its own whole outline inside the larger one's,
off its middle, with a ring of the lower coin round it: such a square is never read surely as
the lower coin alone (:mod:`vision.inner_outlines`). Real OpenCV on drawn discs, and the
physically based renderer's table with nickels on quarters, dimes on nickels and on quarters
among single coins."""

from __future__ import annotations

import cv2
import numpy as np

from vision.inner_outlines import (
    InnerOutlineConfig,
    inner_outline_doubts,
    seen_whole,
    smaller_gaps,
)
from vision.read import read_frame
from vision.synth.physical import render_table
from vision.synth.physical.scene import TableScene, variation_for

from .helpers import CONFIG, GEOMETRY, PROFILE

SIZES = {"P": 19.05, "N": 21.21, "D": 17.91, "Q": 24.26}
METALS = {"P": "copper", "N": "silver", "D": "silver", "Q": "silver"}
PPM = 2.0
SURE = 0.5


def _drawn_coins(count: int, stack_at: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A paper image of ``count`` quarters in a row, each a grey face with a darker rounded
    edge and a raised rim concentric with it; the one at ``stack_at`` has a nickel lying
    on it 1.2 mm off its middle, its face paler than the quarter's."""
    image = np.full((120, 60 * count, 3), 200, np.uint8)
    centres = np.array([[30.0 + 60 * index, 60.0] for index in range(count)])
    radius = SIZES["Q"] / 2 * PPM
    for index, centre in enumerate(centres):
        point = (round(centre[0]), round(centre[1]))
        cv2.circle(image, point, round(radius), (95, 95, 95), -1, cv2.LINE_AA)
        cv2.circle(image, point, round(radius - 2), (130, 130, 130), -1, cv2.LINE_AA)
        cv2.circle(image, point, round(radius - 3), (120, 120, 120), -1, cv2.LINE_AA)
        if index == stack_at:
            top = (round(centre[0] + 1.2 * PPM), round(centre[1]))
            cv2.circle(image, top, round(SIZES["N"] / 2 * PPM), (80, 80, 80), -1, cv2.LINE_AA)
            cv2.circle(image, top, round(SIZES["N"] / 2 * PPM - 1.5), (160, 160, 160), -1,
                       cv2.LINE_AA)
    blurred: np.ndarray = cv2.GaussianBlur(image, (0, 0), 0.8)
    return blurred, centres, np.full(count, radius + 0.5)


def test_only_silver_kinds_a_smaller_silver_coin_can_hide_on_are_looked_at() -> None:
    gaps = smaller_gaps(InnerOutlineConfig(), SIZES, METALS)
    assert gaps["D"] == [] and gaps["P"] == []
    assert len(gaps["N"]) == 1 and len(gaps["Q"]) == 2


def test_a_nickel_off_the_middle_of_a_quarter_makes_it_a_doubt_and_the_rims_do_not() -> None:
    image, centres, radii = _drawn_coins(8, stack_at=5)
    doubts = inner_outline_doubts(InnerOutlineConfig(), image, centres, radii, ["Q"] * 8,
                                  np.full(8, 0.99), SIZES, METALS, PPM, np.ones(8, bool))
    assert doubts.tolist() == [index == 5 for index in range(8)]


STACKS = {"b2": "QN", "d2": "ND", "f2": "QD", "g4": "QD", "b6": "QN", "d6": "ND"}
SINGLES = {"a1": "N", "c1": "Q", "e1": "P", "g1": "D", "b3": "Q", "d3": "N", "f3": "P",
           "h3": "Q", "a5": "D", "c5": "N", "e5": "Q", "g5": "P", "a7": "N", "c7": "Q",
           "e7": "D", "g7": "N", "b8": "P", "d8": "Q", "f8": "N", "h8": "D"}


def test_smaller_top_coins_are_seldom_read_surely_as_the_coin_under_them() -> None:
    # A tuning-family table with six stacks among twenty single coins, so that most coins of
    # each kind lie alone, as in play. Before the inner outlines, all six stacks were read
    # surely as their bottom coin; three now. (Where most of a kind's coins are stacks, its
    # own coins no longer show what a lone one looks like, and the doubt gives way.)
    scene = TableScene.build({**STACKS, **SINGLES}, {}, GEOMETRY, variation_for("tuning", 5),
                             layout_seed=5)
    observation = read_frame(CONFIG, render_table(scene, seed=0).image, GEOMETRY, PROFILE)
    sure_wrong = {square: observation[square] for square, coins in STACKS.items()
                  if observation[square].coin != coins[-1]
                  and observation[square].confidence >= SURE}
    assert len(sure_wrong) <= 4, sure_wrong
    # The single coins, quarters among them, are still read right and surely (19 of 20).
    sure_right = [square for square, coin in SINGLES.items()
                  if observation[square].coin == coin and observation[square].confidence >= SURE]
    assert len(sure_right) >= len(SINGLES) - 2, sure_right


def test_a_face_with_one_colour_ratio_unmeasured_is_still_looked_at() -> None:
    # Under a lamp whose light carries no blue, one colour ratio is unmeasured: the edges the
    # stage looks for are brightness changes all the same. A face with no colour at all, one
    # a pawn stands on and one a glint clipped are not looked at.
    colours = np.array([[0.1, 0.0], [0.1, np.nan], [np.nan, np.nan], [0.1, 0.0], [0.1, 0.0]])
    under_pawn = np.array([False, False, False, True, False])
    clipped = np.array([0.0, 0.0, 0.0, 0.0, 0.5])
    seen = seen_whole(under_pawn, colours, clipped, glint_share=0.3)
    assert seen.tolist() == [True, True, False, False, False]
