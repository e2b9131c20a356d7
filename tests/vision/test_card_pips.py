"""Reading a card's rank without knowing its design: pips counted by size, colour and layout
(:mod:`vision.card_pips`), index glyphs matched against many typefaces
(:mod:`vision.card_fonts`), and the two agreeing before a reading is sure. Faces come from
themes of Debian's gnome-cards-data that the reader is not tuned on nor held out with
(:data:`vision.synth.card_themes.HELD_OUT_THEMES` are never opened here), seen as a camera
2 pixels a millimetre away sees them."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.judging import UNSURE_CONFIDENCE
from vision.card_fonts import FONT_GLYPH_FILE, INDEX_TEXTS
from vision.card_pips import PipConfig, PipCount, count_pips
from vision.card_ranks import CentreRead, IndexRead, RankConfig, both_ways, ink_map, read_index
from vision.cards import CardConfig, judge
from vision.synth.card_themes import HELD_OUT_THEMES, themes_missing
from vision.synth.cards import PlayedCard

#: Themes neither tuned on (anglo, paris, simplistic) nor held out: a design the reader's
#: templates never saw (an index in all four corners, pips close to it). One theme only, as
#: rasterising a theme costs seconds; ``bench/bench_cards.py --other`` reads more.
OTHER_THEMES = ("dondorf",)
NUMBERS = ("2", "3", "4", "5", "6", "7", "8", "9", "10")
needs_themes = pytest.mark.skipif(themes_missing() is not None,
                                  reason=f"card themes unavailable: {themes_missing()}")


def seen(face: str, rank: str, suit: str, pixels_per_mm: float = 2.0
         ) -> tuple[np.ndarray, np.ndarray]:
    """The upright face as a camera ``pixels_per_mm`` away sees it, brought back to 6 pixels
    a millimetre, and its ink map."""
    assert not any(name in face for name in HELD_OUT_THEMES)
    image = PlayedCard(rank, suit, (0.0, 0.0), face=face).image()
    small = cv2.resize(image, None, fx=pixels_per_mm / 6, fy=pixels_per_mm / 6,
                       interpolation=cv2.INTER_AREA)
    blurred = cv2.resize(small, (image.shape[1], image.shape[0]), interpolation=cv2.INTER_LINEAR)
    config = RankConfig()
    return blurred, ink_map(blurred, 6.0, config.white_mm, config.inset_mm)


@needs_themes
@pytest.mark.parametrize("theme", OTHER_THEMES)
def test_number_cards_of_unseen_designs_are_counted_in_their_layout(theme):
    """Every number card's pips, in two suits (red and black), are counted and stand in a
    pip layout; a court's picture is never taken for a number card's layout."""
    for rank in NUMBERS:
        for suit in ("club", "heart"):
            face, ink = seen(f"theme:{theme}", rank, suit)
            pips = count_pips(PipConfig(), ink, face, 6.0)
            assert (pips.count, pips.layout, pips.stray) == (int(rank), True, False), \
                f"{theme} {rank} of {suit}: {pips}"
    for rank in ("J", "Q", "K"):
        face, ink = seen(f"theme:{theme}", rank, "spade")
        pips = count_pips(PipConfig(), ink, face, 6.0)
        assert not (pips.layout and not pips.stray), f"{theme} {rank}: {pips}"


@needs_themes
@pytest.mark.parametrize("theme", OTHER_THEMES)
def test_the_index_of_unseen_designs_is_read_from_typefaces(theme):
    """The typefaces' templates read most corner indices of a design they were not cut
    from (the old templates were cut from the tuning theme's own faces)."""
    config = RankConfig()
    right = 0
    ranks = ("A", *NUMBERS, "J", "Q", "K")
    for rank in ranks:
        face, ink = seen(f"theme:{theme}", rank, "diamond")
        turned = ink_map(cv2.rotate(face, cv2.ROTATE_180), 6.0, config.white_mm,
                         config.inset_mm)
        best = both_ways(read_index(config, ink, 6.0), read_index(config, turned, 6.0)).best()
        right += best[0] == rank
    assert right >= 11, f"{theme}: {right} of {len(ranks)} indices read right"


def test_the_templates_come_from_many_typefaces_and_court_letters():
    """The stored templates hold every rank from dozens of typefaces, not one design."""
    with np.load(FONT_GLYPH_FILE) as stored:
        fonts, ranks = list(stored["fonts"]), set(stored["ranks"].tolist())
        marks = set(stored["mark_labels"].tolist())
    assert len(fonts) >= 20
    assert ranks == {*INDEX_TEXTS.values(), "star"}
    assert marks == {"suit", "letter"}


def test_pips_and_index_must_agree_for_a_sure_reading():
    """A counted layout of 7 with a corner read as 7 is sure; the same count with a corner
    read as 1 (or with something large beside the pips) goes to the panel; an index alone
    never makes a number sure."""
    config = CardConfig()
    centre = CentreRead(7, False, 0.1, 60.0)
    seven = IndexRead((("7", 0.8), ("1", 0.4), ("J", 0.3)), False, 0.5)
    one = IndexRead((("7", 0.3), ("A", 0.8), ("J", 0.3)), False, 0.5)
    laid = PipCount(7, True, False, 60.0)
    assert judge(config, centre, seven, laid) == ("7", config.agree_confidence)
    assert judge(config, centre, one, laid)[1] < UNSURE_CONFIDENCE
    assert judge(config, centre, seven, PipCount(7, True, True, 60.0))[1] < UNSURE_CONFIDENCE
    nothing = CentreRead(0, False, 0.0)
    assert judge(config, nothing, seven, PipCount(0, False, False, 0.0))[1] < UNSURE_CONFIDENCE
