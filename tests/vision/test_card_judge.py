"""What holds for any deck when the corner index or the pips cannot be read, checked on faces of
real themes of Debian's gnome-cards-data as a camera sees them, and on the judge's rules alone:
a joker's corners carry no rank and no suit (a star, a round emblem, or JOKER down the side,
even with its letters run together); a court is its letter read clearly in both corners;
a number card is both corners' clear number where the pips are washed away, or its pips alone
where both corners show their suit but no rival's glyph. Unsure goes to the panel: each rule has
a case it must refuse."""

from __future__ import annotations

import cv2
import pytest

from companion.judging import UNSURE_CONFIDENCE
from companion.referee_cards import SURE_CARD
from tests.vision.test_card_any_deck import seen
from vision.card_judge import judge
from vision.card_pips import PipConfig, PipCount, count_pips
from vision.card_ranks import (
    CentreRead,
    IndexRead,
    RankConfig,
    both_ways,
    ink_map,
    read_centre,
    read_index,
)
from vision.cards import CardConfig, read_discard_in_frame
from vision.markers import MarkerConfig, find_board
from vision.synth import render
from vision.synth.card_sets import SPOT, TUNING_FACES, discard_scene
from vision.synth.card_themes import themes_missing
from vision.synth.cards import PlayedCard

needs_themes = pytest.mark.skipif(themes_missing() is not None,
                                  reason=f"card themes unavailable: {themes_missing()}")
CONFIG = CardConfig()


def reading(card: PlayedCard, pixels_per_mm: float = 2.2) -> tuple[str | None, float]:
    """``card`` as a camera ``pixels_per_mm`` away sees it, read both ways up and judged."""
    face, ink = seen(card, pixels_per_mm)
    rank = RankConfig()
    turned = ink_map(cv2.rotate(face, cv2.ROTATE_180), 6.0, rank.white_mm, rank.inset_mm,
                     rank.lift_mm)
    index = both_ways(read_index(rank, ink, 6.0), read_index(rank, turned, 6.0))
    return judge(CONFIG, read_centre(rank, ink, 6.0), index,
                 count_pips(PipConfig(), ink, face, 6.0))


@needs_themes
@pytest.mark.parametrize("pixels_per_mm", [1.8, 2.6])
def test_a_joker_with_a_round_emblem_in_each_corner_is_a_joker_confirmed_on_the_panel(
        pixels_per_mm):
    """An emblem is a mark no rank's glyph matches: an unfamiliar court letter is one too,
    so it names the joker only by what is missing, and the panel confirms it."""
    card = PlayedCard("joker", "heart", (0.0, 0.0), face="theme:paris")
    assert reading(card, pixels_per_mm) == ("joker", CONFIG.shape_confidence)


def test_a_number_card_whose_pips_a_lamp_washes_away_is_read_by_both_corners():
    card = PlayedCard("7", "heart", (0.0, 0.0), face="drawn:0", gloss=1.0)
    face, ink = seen(card)
    assert count_pips(PipConfig(), ink, face, 6.0).count < 7
    rank, confidence = reading(card)
    assert (rank, confidence >= SURE_CARD) == ("7", True)


def corner(scores: dict[str, float], suit_below: float = -1.0, aspect: float = 1.0,
           parts: int = 1) -> IndexRead:
    return IndexRead(tuple(scores.items()), False, suit_below, aspect=aspect, parts=parts)


PICTURE = CentreRead(0, True, 0.4, largest_mm2=1000.0)
NO_LAYOUT = PipCount(3, False, True, 1000.0)


def test_emblem_corners_round_a_picture_are_a_joker_but_not_with_a_suit_under_one():
    emblem = corner({"4": 0.45, "star": 0.42, "A": 0.4})
    assert judge(CONFIG, PICTURE, both_ways(emblem, emblem), NO_LAYOUT)[0] == "joker"
    suited = corner({"4": 0.45, "star": 0.42, "A": 0.4}, suit_below=0.4)
    assert judge(CONFIG, PICTURE, both_ways(emblem, suited), NO_LAYOUT)[1] < SURE_CARD
    # A letter with its suit beside it is two pieces: a court's index, no emblem.
    beside = corner({"Q": 0.39, "4": 0.25}, parts=2)
    assert judge(CONFIG, PICTURE, both_ways(beside, beside), NO_LAYOUT)[1] < SURE_CARD
    # A tall mark is a glyph, however poorly matched.
    tall = corner({"A": 0.5, "2": 0.44}, aspect=2.0)
    assert judge(CONFIG, PICTURE, both_ways(tall, tall), NO_LAYOUT)[1] < SURE_CARD


def test_corners_showing_nothing_or_a_star_in_one_are_no_sure_joker():
    """A court whose index is printed inside its picture may show nothing in its corners,
    or a star-like mark in one corner and nothing in the other: no joker's corners (a
    joker showing nothing there goes to the panel too)."""
    star = corner({"star": 0.8, "6": 0.59, "4": 0.52})
    empty = IndexRead((), False)
    assert judge(CONFIG, PICTURE, both_ways(star, empty), NO_LAYOUT)[1] < SURE_CARD
    assert judge(CONFIG, PICTURE, both_ways(empty, empty), NO_LAYOUT)[1] < SURE_CARD
    emblem = corner({"4": 0.45, "star": 0.42, "A": 0.4})
    assert judge(CONFIG, PICTURE, both_ways(emblem, empty), NO_LAYOUT)[1] < SURE_CARD


def test_an_emblem_matching_an_8_round_a_picture_is_a_joker_confirmed_on_the_panel():
    """A joker's ring matches an 8 a little (anglo_modern, atlasnye): round a figure larger
    than any pip, with no pip layout and no suit under it, no rank's index fits; a suit
    under it, or pips whose ink makes that number, leave it unread."""
    ring = corner({"8": 0.59, "9": 0.46, "star": 0.44}, suit_below=0.1)
    assert judge(CONFIG, PICTURE, both_ways(ring, ring), NO_LAYOUT) == \
        ("joker", CONFIG.shape_confidence)
    suited = corner({"8": 0.59, "9": 0.46, "star": 0.44}, suit_below=0.4)
    assert judge(CONFIG, PICTURE, both_ways(ring, suited), NO_LAYOUT)[0] != "joker"
    blurred_eight = PipCount(3, False, True, 1000.0, inked=8)
    assert judge(CONFIG, PICTURE, both_ways(ring, ring), blurred_eight)[0] != "joker"
    lettered = corner({"Q": 0.59, "8": 0.46, "star": 0.44}, suit_below=0.1)
    assert judge(CONFIG, PICTURE, both_ways(lettered, lettered), NO_LAYOUT)[0] != "joker"


def test_a_clear_star_beside_an_illegible_corner_is_a_joker_confirmed_on_the_panel():
    """A star read clearly in one corner, no suit under it, and nothing legible in the
    other round a picture (lattmann, ancient_french jokers); a star-like mark read less
    clearly (a court's suit printed alone) is not enough."""
    star = corner({"star": 0.95, "A": 0.5, "4": 0.4})
    smudge = corner({"K": 0.42, "Q": 0.38}, aspect=0.9)
    assert judge(CONFIG, PICTURE, both_ways(star, smudge), NO_LAYOUT) == \
        ("joker", CONFIG.shape_confidence)
    faint = corner({"star": 0.8, "6": 0.59, "4": 0.52})
    assert judge(CONFIG, PICTURE, both_ways(faint, smudge), NO_LAYOUT)[0] != "joker"
    legible = corner({"K": 0.6, "Q": 0.4}, aspect=1.3)
    assert judge(CONFIG, PICTURE, both_ways(star, legible), NO_LAYOUT)[0] != "joker"


def test_a_court_letter_read_clearly_in_both_corners_needs_no_suit_seen_under_it():
    king = corner({"K": 0.85, "J": 0.36, "10": 0.31}, suit_below=0.04, aspect=1.3)
    assert judge(CONFIG, PICTURE, both_ways(king, king), NO_LAYOUT) == \
        ("K", CONFIG.agree_confidence * 0.95)
    # A star matched better than the letter in its corner is no letter's index.
    ringed = corner({"star": 0.81, "Q": 0.76, "8": 0.52})
    assert judge(CONFIG, PICTURE, both_ways(ringed, ringed), NO_LAYOUT)[1] < SURE_CARD
    # One corner alone is not enough.
    other = corner({"K": 0.5, "Q": 0.45}, suit_below=0.0, aspect=1.3)
    assert judge(CONFIG, PICTURE, both_ways(king, other), NO_LAYOUT)[1] < SURE_CARD


def test_pips_in_their_columns_stand_alone_only_where_both_corners_show_a_suit_and_no_rival():
    """Two pips down the middle and an index matching no digit well: a 2, though the panel
    confirms it (the pips are one reading, and the index does not back them), unless a
    corner could be a 3's (a 3 whose middle pip a reflection washed away stands as a 2), or
    the corners show no suit (washed past reading, so a 3 would not show either)."""
    two = PipCount(2, True, False, 140.0, (0, 2))
    centre = CentreRead(2, False, 0.05, 140.0)
    blurred = corner({"5": 0.52, "4": 0.5, "3": 0.3}, suit_below=0.4, aspect=1.8)
    assert judge(CONFIG, centre, both_ways(blurred, blurred), two) == \
        ("2", CONFIG.shape_confidence)
    backed = corner({"2": 0.5, "5": 0.52, "4": 0.5, "3": 0.3}, suit_below=0.4, aspect=1.8)
    assert judge(CONFIG, centre, both_ways(backed, blurred), two)[1] >= SURE_CARD
    rival = corner({"5": 0.52, "4": 0.5, "3": 0.42}, suit_below=0.4, aspect=1.8)
    assert judge(CONFIG, centre, both_ways(blurred, rival), two)[1] < SURE_CARD
    washed = corner({"5": 0.52, "4": 0.5, "3": 0.3}, suit_below=-1.0, aspect=1.8)
    assert judge(CONFIG, centre, both_ways(blurred, washed), two)[1] < SURE_CARD
    # Another number read clearly contradicts the count (ten pips merged into two blots).
    ten = corner({"10": 0.9, "Q": 0.43}, suit_below=0.45, aspect=1.0, parts=2)
    assert judge(CONFIG, centre, both_ways(ten, ten), two)[1] < SURE_CARD



def test_pips_are_sure_only_where_the_index_names_their_count_as_well_as_any_rank():
    """Five pips in a 5's columns and both corners over their suits: sure where the index
    reads the 5 nearly as well as any rank, but where both corners read a 6 better (a
    blurred 5, or pips an unfamiliar design makes), the count is one reading against the
    glyph, not two, and the panel confirms it."""
    five = PipCount(5, True, False, 140.0, (2, 1), middle_clear=True)
    centre = CentreRead(5, False, 0.05, 140.0)
    backing = corner({"5": 0.6, "6": 0.63, "8": 0.4}, suit_below=0.4, aspect=1.5)
    assert judge(CONFIG, centre, both_ways(backing, backing), five) == \
        ("5", CONFIG.agree_confidence)
    read_as_six = corner({"5": 0.52, "6": 0.65, "8": 0.4}, suit_below=0.4, aspect=1.5)
    assert judge(CONFIG, centre, both_ways(read_as_six, read_as_six), five) == \
        ("5", CONFIG.shape_confidence)

def test_a_number_read_in_both_corners_is_not_taken_over_more_pips_than_it_names():
    six = corner({"6": 0.92, "8": 0.6}, suit_below=0.5, aspect=1.5)
    centre = CentreRead(0, False, 0.05, 60.0)
    broken = PipCount(5, False, True, 60.0)
    assert judge(CONFIG, centre, both_ways(six, six), broken) == \
        ("6", CONFIG.agree_confidence * 0.9)
    crowded = PipCount(8, False, True, 60.0)
    assert judge(CONFIG, centre, both_ways(six, six), crowded)[1] < SURE_CARD


@needs_themes
@pytest.mark.parametrize("seed", [673, 651])
def test_a_joker_in_a_pile_on_the_mat_is_read_a_sure_joker(seed):
    """Frames the reader used to send to the panel: JOKER down the side of a card found a
    hair off, a sliver of its edge above the word (seed 673), and a star in each corner of
    a joker with no picture, nearly as like a Q in a ring (seed 651)."""
    scene = discard_scene(seed, TUNING_FACES)
    assert scene.cards[-1].rank == "joker"
    image = render(scene, seed).image
    spot = scene.geometry.region(SPOT)
    location = find_board(MarkerConfig(), image, scene.geometry)
    card = read_discard_in_frame(CONFIG, image, location, spot.shape.bounds())
    assert card is not None and (card.rank, card.confidence >= SURE_CARD) == ("joker", True)


def test_a_picture_with_no_mark_in_either_corner_is_a_joker_confirmed_on_the_panel():
    """Every rank prints its index in its corners; a picture with none in either (a dondorf
    joker) is a joker, though not surely; a court whose corners show only its suit is not."""
    picture = CentreRead(0, True, 0.4, largest_mm2=1800.0)
    figure = PipCount(1, False, False, 1800.0)
    blank = IndexRead((), False)
    assert judge(CONFIG, picture, both_ways(blank, blank), figure) == \
        ("joker", CONFIG.shape_confidence)
    suit_only = IndexRead((("4", 0.5), ("A", 0.45), ("Q", 0.3)), False, -1.0)
    assert judge(CONFIG, picture, both_ways(suit_only, suit_only), figure)[0] != "joker"


def test_a_rank_whose_glyph_shows_in_one_corner_only_is_read_but_not_surely():
    """A card prints its index in both corners; one corner's glyph is one reading, so an
    unfamiliar glyph (a theme never seen) or a blot there is not taken without asking."""
    king = corner({"K": 0.85, "J": 0.36, "10": 0.31}, suit_below=0.5, aspect=1.3)
    blot = corner({"8": 0.5, "K": 0.3}, suit_below=0.5, aspect=1.3)
    assert judge(CONFIG, PICTURE, both_ways(king, king), NO_LAYOUT)[1] >= SURE_CARD
    assert judge(CONFIG, PICTURE, both_ways(king, blot), NO_LAYOUT) == \
        ("K", CONFIG.shape_confidence)
    # A letter a number matches as well in a corner is no letter read there.
    eight = corner({"K": 0.85, "8": 0.86, "J": 0.36}, suit_below=0.5, aspect=1.3)
    assert judge(CONFIG, PICTURE, both_ways(king, eight), NO_LAYOUT)[1] < SURE_CARD
    ace = corner({"A": 0.9, "4": 0.5}, suit_below=0.5, aspect=1.2)
    one_figure = CentreRead(1, False, 0.05, 150.0)
    centred = PipCount(1, True, False, 150.0)
    assert judge(CONFIG, one_figure, both_ways(ace, ace), centred)[1] >= SURE_CARD
    assert judge(CONFIG, one_figure, both_ways(ace, blot), centred) == \
        ("A", CONFIG.shape_confidence)


def test_an_ace_drawn_as_a_picture_is_read_an_ace_not_a_court():
    """An ace of spades is often decorated: its middle may hold several figures as a
    picture does, but a suited A read clearly in both corners is no court's letter (a Q
    matching it next, seen once on an anglo_modern ace, read a sure queen): the ace is read
    and the panel confirms it."""
    ace = corner({"A": 0.88, "Q": 0.65, "4": 0.6, "J": 0.53}, suit_below=0.5, aspect=1.2)
    decorated = CentreRead(0, True, 0.3, largest_mm2=300.0)
    pieces = PipCount(5, False, True, 340.0)
    assert judge(CONFIG, decorated, both_ways(ace, ace), pieces) == \
        ("A", CONFIG.shape_confidence)


def test_a_number_both_corners_read_over_their_suits_is_confirmed_where_not_clear():
    """A lamp's reflection across the pips leaves them broken (no layout): both corners
    reading the same number best, each over its suit, name it, but an unfamiliar or blurred
    glyph is printed the same in both, so the panel confirms it; a corner reading another
    number, or a figure as large as a court's, leaves it unread."""
    ten = corner({"10": 0.58, "K": 0.42, "Q": 0.3}, suit_below=0.45, aspect=1.3)
    broken = PipCount(9, False, False, 90.0)
    plain = CentreRead(0, True, 0.26, largest_mm2=90.0)
    assert judge(CONFIG, plain, both_ways(ten, ten), broken) == \
        ("10", CONFIG.shape_confidence)
    nine = corner({"9": 0.6, "10": 0.5}, suit_below=0.45, aspect=1.3)
    assert judge(CONFIG, plain, both_ways(ten, nine), broken)[1] < UNSURE_CONFIDENCE
    pictured = CentreRead(0, True, 0.6, largest_mm2=1500.0)
    assert judge(CONFIG, pictured, both_ways(ten, ten), NO_LAYOUT)[1] < UNSURE_CONFIDENCE


def test_an_ace_whose_one_pip_is_as_large_as_a_courts_figure_is_an_ace_on_the_panel():
    """A large-pipped deck's ace is one figure the size of a court's: its A read clearly in
    both corners over its suit is no court's letter."""
    ace = corner({"A": 0.9, "Q": 0.7, "star": 0.47}, suit_below=0.5, aspect=1.25)
    large = CentreRead(1, False, 0.25, largest_mm2=728.0)
    one = PipCount(1, False, False, 728.0)
    assert judge(CONFIG, large, both_ways(ace, ace), one) == ("A", CONFIG.shape_confidence)


def test_unsuited_stars_round_a_figure_are_a_joker_whatever_layout_its_parts_make():
    """A number's index has its suit under it; two stars with nothing under them round a
    figure larger than any pip are a joker's, though its picture's eyes stand as a 2's
    pips (confirmed on the panel)."""
    star = corner({"star": 0.82, "Q": 0.77, "8": 0.55})
    eyes = PipCount(2, True, False, 459.0)
    face = CentreRead(0, True, 0.31, largest_mm2=446.0)
    assert judge(CONFIG, face, both_ways(star, star), eyes) == \
        ("joker", CONFIG.shape_confidence)

