"""Black dice's bodies found from their darkness and hue together (:mod:`vision.dice_dark`)."""

from __future__ import annotations

import numpy as np

from contract.observation import DieReading
from vision.dice import DiceConfig
from vision.dice_dark import darkness_and_hue, unread_taken_from, with_black_bodies

from .helpers import tray_dice_by_truth


def test_a_black_die_whose_body_neither_darkness_nor_hue_finds_alone_is_read() -> None:
    # Tuning frame 569 (issue 19): a black 5 on light green felt, its top about 0.8 of the
    # darkness and 1.0-1.5 of the chroma a die shows at least; the halos of its white pips
    # left two pieces, each large enough to pass for a die, refused as tops no square.
    for truth, reading, why in tray_dice_by_truth(569):
        assert reading.value == truth.value, (truth.colour, why)


def test_darkness_and_hue_add_as_a_pair_and_brightness_counts_none() -> None:
    config = DiceConfig()
    chroma = np.array([[0.8 * config.chroma, 0.0, 0.0]], np.float32)
    level = np.array([[-0.6 * config.darker, -0.5 * config.darker, 0.3]], np.float32)
    score = darkness_and_hue(config, chroma, level)
    assert np.allclose(score, [[1.0, 0.5, 0.0]], atol=1e-6)


def test_a_black_body_takes_the_place_of_what_lies_mostly_under_it_only() -> None:
    shape = (20, 30)
    piece = np.zeros((6, 6), np.uint8)
    piece[1:5, 1:5] = 1
    neighbour = np.zeros((8, 8), np.uint8)
    neighbour[:, :] = 1
    black = np.zeros((10, 10), np.uint8)
    black[1:9, 1:9] = 1
    far = np.ones((4, 4), np.uint8)
    bodies = [(piece, (2, 2)), (neighbour, (8, 2)), (far, (24, 14))]
    merged = with_black_bodies(bodies, [(black, (1, 1))], shape)
    # The piece lies wholly under the black body and goes; the neighbour, overlapped in its
    # first two columns, keeps the rest; the far body stays as it was.
    assert [offset for _, offset in merged] == [(8, 2), (24, 14), (1, 1)]
    kept = merged[0][0]
    assert kept[:, :2].sum() == 0 and kept[:, 2:].sum() == 8 * 6
    assert merged[1][0] is far


def test_only_dice_left_unread_are_taken_from_the_read_again_and_each_once() -> None:
    black = DieReading(None, 0.9, "black", (10.0, 10.0))
    piece = DieReading(None, 0.9, "black", (14.0, 10.0))
    white = DieReading(2, 1.0, "white", (40.0, 40.0))
    red = DieReading(None, 0.9, "red", (70.0, 10.0))
    again = ((DieReading(5, 1.0, "black", (12.0, 10.0)), ""),
             (DieReading(3, 1.0, "white", (40.0, 41.0)), ""))
    merged = unread_taken_from(((black, "top no square"), (piece, "top no square"),
                                (red, "sweep leaning"), (white, "")), again, 6.0)
    # The two pieces of the black 5 give way to it once; the white 2 read the first time
    # keeps its reading; the red die, with nothing read again near it, stays unread.
    assert [(die.value, die.colour) for die, _ in merged] == [
        (5, "black"), (None, "red"), (2, "white")]
