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
from contract.observation import CardReading
from tests.vision.test_card_any_deck import seen
from tests.vision.test_card_judge import reading
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
from vision.synth import SynthScene, render
from vision.synth.card_faces import FACE_PIXELS_PER_MM
from vision.synth.card_sets import SPOT, TUNING_FACES, discard_scene
from vision.synth.card_themes import themes_missing
from vision.synth.cards import PlayedCard

needs_themes = pytest.mark.skipif(themes_missing() is not None,
                                  reason=f"card themes unavailable: {themes_missing()}")
CONFIG = CardConfig()


def played_card(scene: SynthScene, seed: int) -> CardReading | None:
    """The card on the discard spot of ``scene``, rendered with noise ``seed``, as the table
    reads it."""
    image = render(scene, seed).image
    location = find_board(MarkerConfig(), image, scene.geometry)
    return read_discard_in_frame(CONFIG, image, location,
                                 scene.geometry.region(SPOT).shape.bounds())


@pytest.mark.parametrize("seed", [357, 400])
def test_a_king_whose_letter_blurs_into_a_star_over_its_suit_is_read_a_king(seed):
    """Drawn kings on the mat whose corner K a far camera blurs until a star matches it best,
    and an A or a 4 nearly as well as the K: the suit under both corners leaves no joker,
    the picture's many figures no ace, no pip layout no number, and the K is the court
    letter both corners read best of J, Q and K; but a 4 matches as well in a corner, so
    the letter is not read clearly in both, and the panel confirms it."""
    scene = discard_scene(seed, TUNING_FACES)
    assert scene.cards[-1].rank == "K" and scene.cards[-1].face.startswith("drawn:")
    card = played_card(scene, seed)
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


def test_a_letter_both_corners_match_best_of_j_q_k_names_a_court_the_panel_confirms():
    """A German jack's B blurs nearer an 8 than any letter, but of J, Q and K it matches the
    J best in both corners, each over its suit: no joker (the suits), no number (no pip
    layout round a court's figure), so a jack the panel confirms; corners naming two
    letters name none."""
    picture = CentreRead(0, True, 0.7, largest_mm2=1800.0)
    no_layout = PipCount(2, False, True, 2600.0)
    bube = [IndexRead((("8", 0.55), ("J", 0.52), ("K", 0.41), ("Q", 0.27)), False, 0.53),
            IndexRead((("8", 0.53), ("J", 0.54), ("K", 0.47), ("Q", 0.29)), False, 0.51)]
    assert judge(CONFIG, picture, both_ways(*bube), no_layout) == \
        ("J", CONFIG.shape_confidence)
    dame = [IndexRead((("Q", 0.67), ("9", 0.6), ("J", 0.59), ("K", 0.42)), False, 0.51),
            IndexRead((("J", 0.68), ("Q", 0.66), ("9", 0.54), ("K", 0.37)), False, 0.56)]
    assert judge(CONFIG, picture, both_ways(*dame), no_layout)[1] < UNSURE_CONFIDENCE


@needs_themes
def test_a_jack_whose_hook_runs_into_the_heart_under_it_is_read_a_jack():
    """A Paris jack of hearts on the mat whose J's hook the camera blurs into the heart under
    it: the J's stem is narrower than the neck between them, so the glyph is cut at that
    neck, where a suit lies under it (no 4 read over nothing), and the jack is read, though
    not surely (the other corner's glyph is not clear)."""
    seed = 806
    scene = discard_scene(seed, TUNING_FACES)
    assert (scene.cards[-1].rank, scene.cards[-1].face) == ("J", "theme:paris")
    card = played_card(scene, seed)
    assert card is not None and card.rank == "J"
    assert UNSURE_CONFIDENCE <= card.confidence < SURE_CARD
