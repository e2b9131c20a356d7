"""Court letters of other languages' decks: a German B looks like an 8 at a camera's few
pixels a millimetre, and only its straight left stem, which no number has, tells them apart."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.card_fonts import as_seen
from vision.card_letters import outline, stem_rank
from vision.card_pips import PipConfig, count_pips
from vision.card_ranks import IndexRead, RankConfig, both_ways, ink_map, read_centre, read_index
from vision.cards import CardConfig, judge
from vision.synth import card_faces
from vision.synth.card_faces import DRAWN_STYLES, FACE_PIXELS_PER_MM, blank_face, drawn_face


def _hershey(text: str) -> np.ndarray:
    """``text`` in Hershey's plain sans, bold, as a 6 mm glyph seen 9 pixels tall."""
    canvas = np.zeros((140, 120), np.uint8)
    cv2.putText(canvas, text, (20, 110), cv2.FONT_HERSHEY_SIMPLEX, 3.0, 255, 9, cv2.LINE_AA)
    return as_seen(canvas.astype(np.float32) / 255, 9, 1.0)


@pytest.mark.parametrize("text, rank", [
    ("B", "J"), ("F", "J"), ("D", "Q"), ("K", "K"), ("R", "K"), ("H", "K"),
    ("8", None), ("9", None), ("0", None), ("6", None), ("A", None), ("V", None),
])
def test_a_stem_down_the_left_side_names_a_court_and_no_number_has_one(text, rank):
    assert stem_rank(outline(_hershey(text))) == rank


def _seen_court(letter: str, style_index: int) -> tuple[IndexRead, tuple[str | None, float]]:
    """A jack's drawn face whose corners print ``letter``, seen 2.2 pixels a millimetre:
    both corners' reading and the judge's verdict."""
    pixels_per_mm = FACE_PIXELS_PER_MM
    style = DRAWN_STYLES[style_index]
    face = blank_face(pixels_per_mm)
    card_faces._court_art(face, "J", "club", style, pixels_per_mm)
    card_faces._index(face, letter, "club", style, pixels_per_mm)
    return _read(card_faces._with_turned_index(face, pixels_per_mm))


def _read(face: np.ndarray) -> tuple[IndexRead, tuple[str | None, float]]:
    small = cv2.resize(face, None, fx=2.2 / 6, fy=2.2 / 6, interpolation=cv2.INTER_AREA)
    face = cv2.resize(small, (face.shape[1], face.shape[0]), interpolation=cv2.INTER_LINEAR)
    config = RankConfig()
    inks = [ink_map(side, 6.0, config.white_mm, config.inset_mm, config.lift_mm)
            for side in (face, cv2.rotate(face, cv2.ROTATE_180))]
    index = both_ways(*(read_index(config, ink, 6.0) for ink in inks))
    pips = count_pips(PipConfig(), inks[0], face, 6.0)
    return index, judge(CardConfig(), read_centre(config, inks[0], 6.0), index, pips)


def test_a_german_jacks_b_read_as_an_8_by_every_rank_is_a_jack_by_its_stem():
    index, verdict = _seen_court("B", 6)
    assert all(corner.best()[0] == "8" for corner in index.corners)
    assert [stem_rank(corner.outline) for corner in index.corners] == ["J", "J"]
    # One glyph's outline is no second witness: the panel confirms the jack.
    assert verdict == ("J", CardConfig().shape_confidence)


def test_an_eight_stays_an_eight():
    index, verdict = _read(drawn_face("8", "club", 6))
    assert [stem_rank(corner.outline) for corner in index.corners] == [None, None]
    assert verdict[0] == "8" and verdict[1] >= 0.8
