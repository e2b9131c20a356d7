"""What a card's structure allows, whatever the deck draws, where the corner glyphs alone leave it
unsure: a suit under the index in both corners rules out a joker, a picture with more than one
figure an ace, and no pip layout a number card, so only a court is left; a JOKER word down the
side with no suit under either corner and no pips is a joker; and two corners that each read a
different rank clearly leave the card unsure, however well the pips agree with one of them."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.judging import UNSURE_CONFIDENCE
from companion.referee_cards import SURE_CARD
from tests.vision.test_card_any_deck import seen
from tests.vision.test_card_judge import reading
from vision.card_judge import judge
from vision.card_pips import PipConfig, count_pips
from vision.card_ranks import RankConfig, both_ways, ink_map, read_centre, read_index
from vision.cards import CardConfig, read_discard_in_frame
from vision.markers import MarkerConfig, find_board
from vision.synth import render
from vision.synth.card_faces import FACE_PIXELS_PER_MM
from vision.synth.card_sets import SPOT, TUNING_FACES, discard_scene
from vision.synth.card_themes import themes_missing
from vision.synth.cards import PlayedCard

needs_themes = pytest.mark.skipif(themes_missing() is not None,
                                  reason=f"card themes unavailable: {themes_missing()}")
CONFIG = CardConfig()


@pytest.mark.parametrize("seed", [357, 400])
def test_a_king_whose_letter_blurs_into_a_star_over_its_suit_is_read_a_king(seed):
    """Drawn kings on the mat whose corner K a far camera blurs until a star matches it best,
    and an A or a 4 nearly as well as the K: the suit under both corners leaves no joker,
    the picture's many figures no ace, no pip layout no number, and the K is the court
    letter both corners read best of J, Q and K; but a 4 matches as well in a corner, so
    the letter is not read clearly in both, and the panel confirms it."""
    scene = discard_scene(seed, TUNING_FACES)
    assert scene.cards[-1].rank == "K" and scene.cards[-1].face.startswith("drawn:")
    image = render(scene, seed).image
    location = find_board(MarkerConfig(), image, scene.geometry)
    card = read_discard_in_frame(CONFIG, image, location,
                                 scene.geometry.region(SPOT).shape.bounds())
    assert card is not None and card.rank == "K"
    assert UNSURE_CONFIDENCE <= card.confidence < SURE_CARD


@needs_themes
@pytest.mark.parametrize("pixels_per_mm", [1.9, 2.8])
def test_a_joker_spelled_down_its_side_in_an_unseen_deck_is_read_a_joker(pixels_per_mm):
    """Atlasnye's joker writes JOKER down its side, its round letters like an 8 over a
    letter, round one figure: no number card is one figure, and no corner shows a suit."""
    card = PlayedCard("joker", "diamond", (0.0, 0.0), face="theme:atlasnye")
    rank, confidence = reading(card, pixels_per_mm)
    assert rank == "joker" and confidence >= UNSURE_CONFIDENCE


def _read_face(face: np.ndarray) -> tuple[str | None, float]:
    """An upright face (at the faces' scale) as a camera 2.2 pixels a millimetre away sees
    it, read both ways up and judged."""
    scale = FACE_PIXELS_PER_MM
    small = cv2.resize(face, None, fx=2.2 / scale, fy=2.2 / scale, interpolation=cv2.INTER_AREA)
    face = cv2.resize(small, (face.shape[1], face.shape[0]), interpolation=cv2.INTER_LINEAR)
    rank = RankConfig()
    inks = [ink_map(image, scale, rank.white_mm, rank.inset_mm, rank.lift_mm)
            for image in (face, cv2.rotate(face, cv2.ROTATE_180))]
    index = both_ways(*(read_index(rank, ink, scale) for ink in inks))
    return judge(CONFIG, read_centre(rank, inks[0], scale), index,
                 count_pips(PipConfig(), inks[0], face, scale))


def test_corners_reading_two_ranks_clearly_leave_the_card_unsure():
    """A 7 whose top corner shows a K's index (a misprint, or another card's corner lying
    over it): its seven pips stand in a 7's columns and the other corner reads 7, but a
    card is printed point-symmetric, so one corner is misread and the reader must say so."""
    seven = PlayedCard("7", "heart", (0.0, 0.0), face="drawn:0").image()
    king = PlayedCard("K", "spade", (0.0, 0.0), face="drawn:0").image()
    assert _read_face(seven)[0] == "7" and _read_face(seven)[1] >= SURE_CARD
    corner = (slice(0, round(22 * FACE_PIXELS_PER_MM)), slice(0, round(11 * FACE_PIXELS_PER_MM)))
    mixed = seven.copy()
    mixed[corner] = king[corner]
    pips = count_pips(PipConfig(), *_inks(mixed))
    assert (pips.count, pips.layout) == (7, True)
    assert _read_face(mixed)[1] < UNSURE_CONFIDENCE


def _inks(face: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """The ink map of ``face`` as it is, the face, and its scale (``count_pips``'s order)."""
    rank = RankConfig()
    scale = FACE_PIXELS_PER_MM
    return ink_map(face, scale, rank.white_mm, rank.inset_mm, rank.lift_mm), face, scale


def test_a_court_told_by_its_structure_is_refused_where_no_letter_stands_out():
    """The same structure with the corners matching J, Q and K alike names no court: the
    panel asks."""
    face, ink = seen(PlayedCard("K", "club", (0.0, 0.0), face="drawn:2"), 1.6)
    rank_config = RankConfig()
    turned = ink_map(cv2.rotate(face, cv2.ROTATE_180), 6.0, rank_config.white_mm,
                     rank_config.inset_mm, rank_config.lift_mm)
    corners = [read_index(rank_config, image, 6.0) for image in (ink, turned)]
    level = max(score for corner in corners for rank, score in corner.scores
                if rank in ("J", "Q", "K"))
    flat = [type(corner)(tuple((rank, level if rank in ("J", "Q", "K") else score)
                               for rank, score in corner.scores), corner.joker,
                         corner.suit_below, aspect=corner.aspect, parts=corner.parts)
            for corner in corners]
    verdict = judge(CONFIG, read_centre(rank_config, ink, 6.0), both_ways(*flat),
                    count_pips(PipConfig(), ink, face, 6.0))
    assert verdict[0] not in ("J", "Q", "K") or verdict[1] < UNSURE_CONFIDENCE
