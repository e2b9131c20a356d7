"""What the other themes' unsure cards taught, for any deck. A joker prints no index: corners
that show only a speck (of the paper, of the card's edge) hold far less ink than any rank's
glyph and suit, and a star in a ring that ties with a Q, with nothing under it, is no Q's index
(a rank's has its suit under it); both read a joker that the panel confirms, but not a corner
holding an index's ink, or with a suit under its mark. A number both corners read over their
suits, which the middle's count of pips names too, is read though a rival glyph is close."""

from __future__ import annotations

import cv2
import numpy as np

from vision.card_judge import judge
from vision.card_pips import PipCount
from vision.card_ranks import CentreRead, IndexRead, RankConfig, both_ways, ink_map, read_index
from vision.cards import CardConfig
from vision.synth.card_faces import blank_face, drawn_face

CONFIG = CardConfig()
RANK = RankConfig()
PICTURE = CentreRead(1, True, 0.3, largest_mm2=900.0)
NO_LAYOUT = PipCount(1, False, False, 900.0)


def _corner_ink(face: np.ndarray) -> IndexRead:
    """The top-left corner's index of ``face`` (at 6 pixels a millimetre)."""
    return read_index(RANK, ink_map(face, 6.0, RANK.white_mm, RANK.inset_mm, RANK.lift_mm), 6.0)


def test_a_speck_in_a_blank_corner_is_taken_for_a_glyph_but_holds_no_index_ink():
    face = np.ascontiguousarray(blank_face(6.0))
    cv2.ellipse(face, (14, 20), (5, 8), 0, 0, 360, (40, 40, 40), -1)
    speck = _corner_ink(face)
    assert speck.scores and 0.0 <= speck.column_mm2 < RANK.blank_mm2
    index = _corner_ink(np.ascontiguousarray(drawn_face("K", "spade", 0)))
    assert index.column_mm2 >= RANK.blank_mm2


def _mark(scores: dict[str, float], column_mm2: float = -1.0, suit_below: float = -1.0
          ) -> IndexRead:
    return IndexRead(tuple(scores.items()), False, suit_below, aspect=1.5, parts=1,
                     column_mm2=column_mm2)


def test_specks_in_both_corners_round_a_picture_are_a_joker_confirmed_on_the_panel():
    speck = _mark({"7": 0.51, "K": 0.45}, column_mm2=5.0)
    blank = IndexRead((), False, column_mm2=3.0)
    assert judge(CONFIG, PICTURE, both_ways(speck, blank), NO_LAYOUT) == \
        ("joker", CONFIG.shape_confidence)
    # A corner holding as much ink as an index and its suit is a mark, not a speck.
    inked = _mark({"7": 0.51, "K": 0.45}, column_mm2=60.0)
    assert judge(CONFIG, PICTURE, both_ways(inked, blank), NO_LAYOUT)[0] != "joker"


def test_a_star_tied_with_a_q_with_nothing_under_it_in_both_corners_is_a_joker():
    small = CentreRead(9, False, 0.4, largest_mm2=190.0)
    ring = PipCount(5, False, True, 190.0)
    star = _mark({"star": 0.78, "Q": 0.79, "8": 0.57})
    assert judge(CONFIG, small, both_ways(star, star), ring) == ("joker", CONFIG.shape_confidence)
    suited = _mark({"star": 0.78, "Q": 0.79, "8": 0.57}, suit_below=0.4)
    assert judge(CONFIG, small, both_ways(suited, suited), ring)[0] != "joker"


def test_both_corners_naming_the_middles_count_closely_are_confirmed_on_the_panel():
    """Stray ink breaks the pips' layout, but the middle's plain count of pips and both
    corners (each over its suit) name the same number, though a rival glyph (an 8 as a 6)
    matches nearly as well: two witnesses agree, and the panel confirms. Without the count
    the close rival leaves it unsure."""
    eight = _mark({"8": 0.87, "6": 0.8, "3": 0.67}, suit_below=0.6)
    stray = PipCount(7, False, True, 126.0)
    counted = CentreRead(8, False, 0.33, largest_mm2=126.0)
    assert judge(CONFIG, counted, both_ways(eight, eight), stray) == \
        ("8", CONFIG.shape_confidence)
    miscounted = CentreRead(7, False, 0.33, largest_mm2=126.0)
    assert judge(CONFIG, miscounted, both_ways(eight, eight), stray)[1] < CONFIG.shape_confidence
