"""What holds for any deck, checked on faces of a real theme of Debian's gnome-cards-data that
the reader is neither tuned on nor tested with as held out: a lamp's reflection thins ink and
white alike, so a washed pip keeps its shape once its contrast is made up; a number card's pips
stand in its columns (a 9 missing its middle pip is no 8); the index has only to tell the
counted rank from the ranks a washed middle pip could leave, and a court's letter only from the
other letters a picture card can show."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.judging import UNSURE_CONFIDENCE
from vision.card_pips import PipConfig, PipCount, count_pips, rivals
from vision.card_ranks import (
    CentreRead,
    IndexRead,
    RankConfig,
    both_ways,
    ink_map,
    read_centre,
    read_index,
)
from vision.cards import CardConfig, judge
from vision.synth.card_themes import themes_missing
from vision.synth.cards import PlayedCard, _glossed, _outline_mask

#: The theme test_card_pips.py opens too (rasterising a theme costs seconds).
THEME = "theme:dondorf"
needs_themes = pytest.mark.skipif(themes_missing() is not None,
                                  reason=f"card themes unavailable: {themes_missing()}")


def seen(card: PlayedCard, pixels_per_mm: float = 2.2) -> tuple[np.ndarray, np.ndarray]:
    """``card``'s upright face under its gloss, as a camera ``pixels_per_mm`` away sees it
    (brought back to 6 pixels a millimetre), and the reader's ink map of it."""
    image = card.image().astype(np.float32)
    if card.gloss > 0:
        image = _glossed(image, _outline_mask(image.shape[:2]), card)
    image = np.clip(image, 0, 255).astype(np.uint8)
    small = cv2.resize(image, None, fx=pixels_per_mm / 6, fy=pixels_per_mm / 6,
                       interpolation=cv2.INTER_AREA)
    face = cv2.resize(small, (image.shape[1], image.shape[0]), interpolation=cv2.INTER_LINEAR)
    config = RankConfig()
    return face, ink_map(face, 6.0, config.white_mm, config.inset_mm, config.lift_mm)


@needs_themes
@pytest.mark.parametrize("rank, suit, gloss_at", [
    ("9", "heart", (0.0, 0.15)), ("10", "diamond", (-0.2, 0.25)), ("6", "club", (0.1, -0.2)),
])
def test_pips_washed_by_a_lamps_reflection_are_still_counted_in_their_layout(rank, suit,
                                                                           gloss_at):
    card = PlayedCard(rank, suit, (0.0, 0.0), face=THEME, gloss=0.55, gloss_at=gloss_at)
    face, ink = seen(card)
    pips = count_pips(PipConfig(), ink, face, 6.0)
    assert (pips.count, pips.layout, pips.stray) == (int(rank), True, False), pips


@needs_themes
def test_a_nine_whose_middle_pip_is_washed_away_is_not_read_sure_as_an_eight():
    """Without its middle pip a 9 stands four a side, as some decks print an 8: the count
    alone cannot tell, so the index (which shows a 9) must, and the reading is not a sure 8."""
    card = PlayedCard("9", "spade", (0.0, 0.0), face=THEME)
    face, ink = seen(card)
    assert count_pips(PipConfig(), ink, face, 6.0).count == 9
    cv2.circle(ink, (round(31.5 * 6), 44 * 6), 6 * 6, 0.0, -1)
    washed = count_pips(PipConfig(), ink, face, 6.0)
    assert (washed.count, washed.layout) == (8, True)
    assert "9" in rivals("8")
    config = RankConfig()
    turned = ink_map(cv2.rotate(face, cv2.ROTATE_180), 6.0, config.white_mm, config.inset_mm,
                     config.lift_mm)
    index = both_ways(read_index(config, ink, 6.0), read_index(config, turned, 6.0))
    rank, confidence = judge(CardConfig(), read_centre(config, ink, 6.0), index, washed)
    assert rank != "8" or confidence < UNSURE_CONFIDENCE


def test_a_counted_number_needs_the_index_only_against_its_rivals():
    """A blurred 7 may match an A or a 6 best (no pip layout gives an A, and no wash adds a
    pip to a 6): seven pips standing three a side and one in the middle are a sure 7 where
    the index prefers 7 clearly to 8 (an 8 with a middle pip washed away stands so), and go
    to the panel where the index prefers the 8 or matches 7 poorly."""
    config = CardConfig()
    centre = CentreRead(7, False, 0.1, 50.0)
    laid = PipCount(7, True, False, 50.0, (3, 1))
    assert rivals("7", (3, 1)) == ("8",)
    blurred = IndexRead((("A", 0.6), ("7", 0.52), ("6", 0.58), ("8", 0.35)), False, 0.45)
    assert judge(config, centre, blurred, laid) == ("7", config.agree_confidence)
    rival = IndexRead((("A", 0.6), ("7", 0.52), ("6", 0.3), ("8", 0.58)), False, 0.45)
    assert judge(config, centre, rival, laid)[1] < UNSURE_CONFIDENCE
    faint = IndexRead((("A", 0.6), ("7", 0.3), ("6", 0.1)), False, 0.45)
    assert judge(config, centre, faint, laid)[1] < UNSURE_CONFIDENCE


def test_a_court_letter_need_stand_clear_only_of_the_other_letters():
    """A J whose blur matches a 3 nearly as well (as several themes' Js do) is sure on a
    picture with a suit under it; a J and a Q matched alike are not."""
    config = CardConfig()
    picture = CentreRead(0, True, 0.4, largest_mm2=2200.0)
    jack = IndexRead((("J", 0.91), ("3", 0.84), ("Q", 0.68), ("A", 0.61)), False, 0.5)
    assert judge(config, picture, jack) == ("J", config.agree_confidence * 0.95)
    unclear = IndexRead((("J", 0.91), ("3", 0.84), ("Q", 0.88), ("A", 0.61)), False, 0.5)
    assert judge(config, picture, unclear)[1] < UNSURE_CONFIDENCE
    no_suit = IndexRead((("J", 0.91), ("Q", 0.6)), False, -0.2)
    assert judge(config, picture, no_suit)[1] < UNSURE_CONFIDENCE


def test_a_letter_and_a_suit_seen_in_different_corners_make_no_court():
    """A joker whose corner spells JOKER (a J with a letter under it) and whose other corner
    shows some mark over what looks like a suit is no sure jack: the letter and its suit
    must stand in one corner, and a J over a letter is a word."""
    config = CardConfig()
    picture = CentreRead(0, True, 0.4, largest_mm2=1200.0)
    word = IndexRead((("J", 0.6), ("4", 0.2), ("Q", 0.3), ("A", 0.35)), False, -0.46)
    other = IndexRead((("J", 0.2), ("4", 0.37), ("Q", 0.1), ("A", 0.3)), False, 0.42)
    assert judge(config, picture, both_ways(word, other))[1] < UNSURE_CONFIDENCE
    suited = IndexRead((("J", 0.6), ("4", 0.2), ("Q", 0.3), ("A", 0.35)), False, 0.42)
    assert judge(config, picture, both_ways(suited, other))[1] >= UNSURE_CONFIDENCE


@needs_themes
def test_large_pips_blurred_together_still_count_as_that_many_pips():
    """A deck printing large pips close together (plastic's 9) shows them run together in a
    far camera's blur, one blob as large as two or three pips: the middle's ink still makes
    nine pips of one colour, so both corners' clear 9 is taken; a court's picture under the
    same blur makes no whole number of pips."""
    config, rank_config = CardConfig(), RankConfig()

    def blurred(rank: str) -> tuple[np.ndarray, np.ndarray, IndexRead]:
        face, _ = seen(PlayedCard(rank, "spade", (0.0, 0.0), face="theme:plastic"), 2.0)
        face = cv2.GaussianBlur(face, (0, 0), 4.0)
        ink, turned = (ink_map(image, 6.0, rank_config.white_mm, rank_config.inset_mm,
                               rank_config.lift_mm)
                       for image in (face, cv2.rotate(face, cv2.ROTATE_180)))
        return face, ink, both_ways(read_index(rank_config, ink, 6.0),
                                    read_index(rank_config, turned, 6.0))

    face, ink, index = blurred("9")
    pips = count_pips(PipConfig(), ink, face, 6.0)
    assert (pips.count < 9, pips.layout, pips.inked) == (True, False, 9), pips
    assert judge(config, read_centre(rank_config, ink, 6.0), index, pips) == \
        ("9", config.agree_confidence * 0.9)
    face, ink, _ = blurred("K")
    assert count_pips(PipConfig(), ink, face, 6.0).inked == 0


def test_a_court_whose_corners_name_two_letters_is_confirmed_on_the_panel():
    """The body shows only that a card is a court; its letter is the glyph's alone, and a
    card prints the same index in both corners. A corner reading K over its suit and the
    other reading J (a blurred German B is as near either) is read K, but not surely."""
    config = CardConfig()
    picture = CentreRead(0, True, 0.4, largest_mm2=2200.0)
    king = IndexRead((("K", 0.7), ("A", 0.56), ("J", 0.5), ("Q", 0.4), ("8", 0.45)), False, 0.25)
    jack = IndexRead((("K", 0.43), ("A", 0.42), ("J", 0.46), ("Q", 0.38), ("8", 0.59)), False,
                     0.47)
    assert judge(config, picture, both_ways(king, jack)) == ("K", config.shape_confidence)
    assert judge(config, picture, both_ways(king, king)) == ("K", config.agree_confidence * 0.95)
