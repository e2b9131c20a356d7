"""What holds for any deck when a number card's index or pips are hard to read, on faces of real
themes of Debian's gnome-cards-data as a camera sees them, on whole rendered frames, and on the
judge's rules alone: a number card's rank is the count of its pips standing in its columns,
which stands alone where the middle column shows no trace of a washed pip and the corners read
no other rank; both corners reading one number surely over their suits is enough where one of
the middle's two counts finds that many pips; an ace read clearly as A in both corners is sure
where its pip is broken. Where two readings disagree the panel asks."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.judging import UNSURE_CONFIDENCE
from companion.referee_cards import SURE_CARD
from tests.vision.test_card_any_deck import seen
from tests.vision.test_card_judge import corner
from vision.card_judge import judge
from vision.card_pips import PipConfig, PipCount, count_pips
from vision.card_ranks import CentreRead, RankConfig, both_ways, ink_map
from vision.cards import CardConfig, read_discard_in_frame
from vision.markers import MarkerConfig, find_board
from vision.synth import render
from vision.synth.card_sets import SPOT, discard_scene
from vision.synth.card_themes import themes_missing
from vision.synth.cards import PlayedCard

needs_themes = pytest.mark.skipif(themes_missing() is not None,
                                  reason=f"card themes unavailable: {themes_missing()}")
CONFIG = CardConfig()


@needs_themes
def test_the_middle_column_is_clear_only_where_no_trace_of_a_washed_pip_shows():
    card = PlayedCard("2", "heart", (0.0, 0.0), face="theme:paris")
    face, ink = seen(card)
    pips = count_pips(PipConfig(), ink, face, 6.0)
    assert (pips.count, pips.columns, pips.middle_clear) == (2, (0, 2), True)
    # A 3's middle pip washed nearly away by a lamp's reflection: a faint blot of a pip's
    # size between the two pips (a tenth of full contrast, too faint to count as a pip).
    traced = face.copy()
    height, width = traced.shape[:2]
    blot = np.zeros(traced.shape[:2], np.uint8)
    cv2.ellipse(blot, (width // 2, height // 2), (round(6.0 * 6), round(6.5 * 6)), 0, 0, 360,
                255, -1)
    traced[blot > 0] = (traced[blot > 0] * 0.85).astype(np.uint8)
    rank = RankConfig()
    traced_ink = ink_map(traced, 6.0, rank.white_mm, rank.inset_mm, rank.lift_mm)
    assert not count_pips(PipConfig(), traced_ink, traced, 6.0).middle_clear


TWO = PipCount(2, True, False, 140.0, (0, 2), middle_clear=True)
CENTRE_TWO = CentreRead(2, False, 0.05, 140.0)


def test_pips_in_their_columns_with_a_clear_middle_stand_alone_unless_the_corners_disagree():
    """Two pips down the middle and nothing between them: no 3 lost its middle pip, so the
    count stands however blurred the index (no suit seen under it either), though the panel
    confirms it (one reading, which the index does not back), and is sure where a corner
    reads the 2; but both corners reading another rank, or one corner another number
    clearly, make it unsure."""
    blurred = corner({"5": 0.52, "4": 0.5, "3": 0.3}, aspect=1.8)
    other = corner({"4": 0.5, "5": 0.48}, aspect=1.8)
    assert judge(CONFIG, CENTRE_TWO, both_ways(blurred, other), TWO) == \
        ("2", CONFIG.shape_confidence)
    backed = corner({"2": 0.55, "4": 0.5, "5": 0.48}, aspect=1.8)
    assert judge(CONFIG, CENTRE_TWO, both_ways(blurred, backed), TWO)[1] >= SURE_CARD
    unclear = PipCount(2, True, False, 140.0, (0, 2), middle_clear=False)
    assert judge(CONFIG, CENTRE_TWO, both_ways(blurred, other), unclear)[1] < SURE_CARD
    assert judge(CONFIG, CENTRE_TWO, both_ways(blurred, blurred), TWO)[1] < SURE_CARD
    ten = corner({"10": 0.9, "Q": 0.43}, suit_below=0.45, parts=2)
    assert judge(CONFIG, CENTRE_TWO, both_ways(ten, other), TWO)[1] < SURE_CARD


def test_both_corners_reading_a_number_surely_need_a_count_of_as_many_pips_to_be_sure():
    five = corner({"5": 0.8, "3": 0.6, "6": 0.51}, suit_below=0.5, aspect=1.5)
    broken = PipCount(3, False, True, 77.0)
    counted_five = CentreRead(5, False, 0.1, 77.0)
    assert judge(CONFIG, counted_five, both_ways(five, five), broken) == \
        ("5", CONFIG.agree_confidence * 0.9)
    # The middle counts three pips either way: the corners and the pips disagree.
    counted_three = CentreRead(3, False, 0.1, 77.0)
    assert judge(CONFIG, counted_three, both_ways(five, five), broken)[1] < SURE_CARD
    # A corner whose number barely beats another (a blurred 5 and 6) is not sure.
    close = corner({"6": 0.65, "5": 0.62, "8": 0.6}, suit_below=0.5, aspect=1.4)
    counted_six = CentreRead(6, False, 0.1, 77.0)
    assert judge(CONFIG, counted_six, both_ways(close, close), broken)[1] < SURE_CARD


def test_an_ace_read_clearly_in_both_corners_is_sure_where_its_pip_is_broken():
    ace = corner({"A": 0.9, "4": 0.68}, suit_below=0.42, aspect=1.47)
    pieces = PipCount(3, False, True, 132.0)
    middle = CentreRead(0, True, 0.1, 132.0)
    assert judge(CONFIG, middle, both_ways(ace, ace), pieces) == \
        ("A", CONFIG.agree_confidence * 0.9)
    # A picture's figure in the middle is no ace's broken pip.
    picture = CentreRead(0, True, 0.3, 1500.0)
    assert judge(CONFIG, picture, both_ways(ace, ace), PipCount(1, False, False, 1500.0))[1] \
        < SURE_CARD


@needs_themes
@pytest.mark.parametrize(("seed", "sure"), [(54, True), (520, True)])
def test_rendered_discard_frames_whose_index_or_pips_are_hard_are_read(seed, sure):
    """Tuning frames: a paris 2 whose index blurs into a 5 in one corner and into its suit
    in the other (cut at the neck between them, that 2 over its suit backs the two pips in
    their columns: sure), and a paris ace whose pip a lamp's reflection breaks (sure)."""
    scene = discard_scene(seed)
    frame = render(scene, seed)
    location = find_board(MarkerConfig(), frame.image, scene.geometry)
    card = read_discard_in_frame(CONFIG, frame.image, location,
                                 scene.geometry.region(SPOT).shape.bounds())
    assert card is not None
    assert (card.rank, card.confidence >= SURE_CARD) == (scene.cards[-1].rank, sure)
    assert card.confidence >= UNSURE_CONFIDENCE
