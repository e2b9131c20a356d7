"""A smaller silver coin on a larger one shows a top circle where the larger coin's own rim
would lie: the reading is only as sure as the odds that the circle is the rim.

A nickel's edge on a quarter lies about where a lone quarter's raised rim does, a dime's on a
nickel where a nickel's rim does; the top coin lies a coin's thickness higher, so under a
tilted camera its circle is swept further along the lean (:func:`vision.size_doubt.
smaller_top_odds`). Real OpenCV on frames of the project's sprite renderer (cheap), with the
tilted cameras of its random variations, and the odds on measured numbers.
"""

from __future__ import annotations

import numpy as np

from .helpers import COIN_SIZES_MM as SIZES
from .helpers import read_stacks_among_singles

#: Nickels on quarters and dimes on nickels, with single coins of every kind round them (the
#: frame's rims are measured on its own sure coins).
STACKS = {"b2": "QN", "e3": "QN", "c7": "ND", "g6": "ND", "h2": "QN", "b6": "QN"}
SINGLES = {"a1": "N", "c1": "P", "e1": "D", "g1": "Q", "b4": "N", "d4": "P", "f4": "D",
           "h4": "N", "a6": "P", "d6": "N", "f8": "D", "h8": "P", "a3": "Q", "d2": "Q"}
SEEDS = range(8)


def test_smaller_silver_tops_are_seldom_read_surely_as_the_coin_under_them() -> None:
    # Before the odds, 14 of these 48 stacks read as the coin under the top one at 0.5 or
    # more; with them 6.
    readings = read_stacks_among_singles(STACKS, SINGLES, SEEDS)
    sure_wrong, singles_sure = readings.sure_wrong, readings.singles_sure
    assert len(sure_wrong) <= 8, sure_wrong
    # The price: single coins read surely (101 of 112 today; 106 before the odds).
    assert singles_sure >= 0.9 * len(SEEDS) * len(SINGLES), singles_sure


def _frame(inner_quarter: float, rise_mm: float) -> np.ndarray:
    """The smaller-top odds of a frame's coins: four sure nickels, pennies and dimes whose
    rims lie 2 mm inside their edges, then a quarter whose top circle lies at
    ``inner_quarter`` with its centre ``rise_mm`` along a lean of 0.5 mm per mm."""
    from vision.size_doubt import SizeDoubtConfig, smaller_top_odds

    kinds = ["N"] * 4 + ["P"] * 4 + ["D"] * 4 + ["Q"]
    inner = [19.2, 19.3, 19.1, 19.2, 17.0, 17.1, 17.05, 17.0, 15.9, 16.0, 15.85, 15.9,
             inner_quarter]
    confidence = np.array([1.0] * 12 + [0.98])
    rise = np.array([0.0] * 12 + [rise_mm])
    return smaller_top_odds(SizeDoubtConfig(), kinds, np.array(inner), confidence, SIZES,
                            1.0, rise, np.full(len(kinds), 0.5), 1.6)


def test_the_odds_follow_where_the_top_circle_lies_across_and_along_the_lean() -> None:
    # The quarter's rim 2 mm inside its edge: the circle is its own.
    assert _frame(22.3, 0.0)[-1] < 0.05
    # A nickel's edge (21.2 mm, measured up to the frame's 1 mm outline offset larger)
    # swept a coin's thickness (1.6 mm) times the lean further: a nickel on top, likelier.
    on_top = _frame(21.5, 0.8)[-1]
    assert on_top > 0.5
    # The same circle where a lone coin's rim would be swept: less likely a nickel on top.
    assert _frame(21.5, 0.0)[-1] < on_top
    # The sure single coins are not doubted.
    assert (_frame(21.5, 0.8)[:12] < 0.05).all()
