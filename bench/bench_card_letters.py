"""Court letters of other languages' decks on drawn faces: each drawn style's jack, queen and
king with its corners printing B or F (jack), D (queen), R or H (king) instead of J, Q, K,
club and heart, seen at 2.2 and 1.8 pixels a millimetre (the face brought down and back up),
read and judged as a discard's face is. Prints per letter: right (of them at 0.8 or more),
wrong (at 0.8 or more), unsure.

    PYTHONPATH=. .venv/bin/python bench/bench_card_letters.py
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.judging import UNSURE_CONFIDENCE
from companion.referee_cards import SURE_CARD
from vision.arrays import Image
from vision.card_judge import Verdict
from vision.card_pips import PipConfig, count_pips
from vision.card_ranks import RankConfig, both_ways, ink_map, read_centre, read_index
from vision.cards import CardConfig, judge
from vision.synth import card_faces

#: Each court and the letters other languages' decks print for it.
LETTERS: tuple[tuple[str, str], ...] = (("J", "B"), ("J", "F"), ("Q", "D"), ("K", "R"),
                                        ("K", "H"))
CAMERAS: tuple[float, ...] = (2.2, 1.8)


def lettered_face(court: str, letter: str, suit: str, style_index: int) -> Image:
    """A drawn court's face whose corners print ``letter``."""
    pixels_per_mm = card_faces.FACE_PIXELS_PER_MM
    style = card_faces.DRAWN_STYLES[style_index]
    face = card_faces.blank_face(pixels_per_mm)
    card_faces._court_art(face, court, suit, style, pixels_per_mm)
    card_faces._index(face, letter, suit, style, pixels_per_mm)
    return card_faces._with_turned_index(face, pixels_per_mm)


def read_face(face: Image, camera_pixels_per_mm: float) -> Verdict:
    """The judge's verdict on ``face`` seen at ``camera_pixels_per_mm``."""
    pixels_per_mm = card_faces.FACE_PIXELS_PER_MM
    scale = camera_pixels_per_mm / pixels_per_mm
    small = cv2.resize(face, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    seen = cv2.resize(small, (face.shape[1], face.shape[0]), interpolation=cv2.INTER_LINEAR)
    config = RankConfig()
    inks = [ink_map(side, pixels_per_mm, config.white_mm, config.inset_mm, config.lift_mm)
            for side in (seen, cv2.rotate(seen, cv2.ROTATE_180))]
    index = both_ways(*(read_index(config, ink, pixels_per_mm) for ink in inks))
    pips = count_pips(PipConfig(), inks[0], seen, pixels_per_mm)
    return judge(CardConfig(), read_centre(config, inks[0], pixels_per_mm), index, pips)


def main() -> None:
    for court, letter in LETTERS:
        counts: Counter[str] = Counter()
        for style in range(len(card_faces.DRAWN_STYLES)):
            for suit in ("club", "heart"):
                for camera in CAMERAS:
                    rank, confidence = read_face(lettered_face(court, letter, suit, style),
                                                 camera)
                    kind = "unsure" if rank is None or confidence < UNSURE_CONFIDENCE else \
                        "right" if rank == court else "wrong"
                    counts[kind] += 1
                    counts[f"{kind} sure"] += kind != "unsure" and confidence >= SURE_CARD
        print(f"{letter} ({court}): right {counts['right']} (at {SURE_CARD} or more "
              f"{counts['right sure']}), wrong {counts['wrong']} (at {SURE_CARD} or more "
              f"{counts['wrong sure']}), unsure {counts['unsure']} of "
              f"{counts['right'] + counts['wrong'] + counts['unsure']}")


if __name__ == "__main__":
    main()
