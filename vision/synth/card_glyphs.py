"""Make the card reader's learned glyphs: ``python -m vision.synth.card_glyphs``.

The corner index of every rank on each tuning face (:data:`~vision.synth.card_sets.TUNING_FACES`:
the drawn styles and the tuning theme, never a held-out one) is blurred as a camera would blur
it, cut out by the reader's own glyph finder and stored in :data:`vision.card_ranks.GLYPH_FILE`,
beside the reader's Hershey templates. Without the theme package, only the drawn faces are used.
"""

from __future__ import annotations

import sys

import cv2
import numpy as np

from vision.card_ranks import (
    GLYPH_FILE,
    INDEX_RANKS,
    RankConfig,
    _index_marks,
    glyph_of,
    ink_map,
)
from vision.synth.card_faces import FACE_PIXELS_PER_MM
from vision.synth.card_sets import TUNING_FACES
from vision.synth.card_themes import themes_missing
from vision.synth.cards import PlayedCard

#: Camera blurs (pixels of the face) the glyphs are cut at.
BLURS: tuple[float, ...] = (1.0, 2.0)


Glyphs = tuple[list[str], list[np.ndarray], list[float]]


def build() -> tuple[Glyphs, Glyphs]:
    """Labels, shapes and aspects of every tuning face's index glyph (labelled by rank) and
    of the mark under it (``suit``, or ``letter`` for a joker's word), at each blur."""
    config = RankConfig()
    faces = [face for face in TUNING_FACES
             if face.startswith("drawn:") or themes_missing() is None]
    ranks, shapes, aspects = [], [], []
    mark_labels, mark_shapes, mark_aspects = [], [], []
    for face in faces:
        for rank in (*INDEX_RANKS, "joker"):
            for suit in ("spade", "heart"):
                image = PlayedCard(rank, suit, (0.0, 0.0), face=face).image()
                for blur in BLURS:
                    soft = cv2.GaussianBlur(image, (0, 0), blur)
                    ink = ink_map(soft, FACE_PIXELS_PER_MM, config.white_mm, config.inset_mm)
                    found = _index_marks(config, ink, FACE_PIXELS_PER_MM)
                    if found is None:
                        continue
                    if rank != "joker":
                        glyph = glyph_of(found[0])
                        ranks.append(rank)
                        shapes.append(glyph.shape)
                        aspects.append(glyph.aspect)
                    if found[1] is not None:
                        mark = glyph_of(found[1])
                        mark_labels.append("letter" if rank == "joker" else "suit")
                        mark_shapes.append(mark.shape)
                        mark_aspects.append(mark.aspect)
    return (ranks, shapes, aspects), (mark_labels, mark_shapes, mark_aspects)


def _bytes(shapes: list[np.ndarray]) -> np.ndarray:
    """Shapes have unit norm (no value above 0.2): a byte a value keeps them to a percent."""
    return np.round(np.array(shapes, np.float32) * 127 / 0.2).clip(-127, 127).astype(np.int8)


def main() -> None:
    (ranks, shapes, aspects), (labels, marks, mark_aspects) = build()
    np.savez_compressed(GLYPH_FILE, ranks=np.array(ranks), shapes=_bytes(shapes),
                        aspects=np.array(aspects, np.float32), mark_labels=np.array(labels),
                        mark_shapes=_bytes(marks),
                        mark_aspects=np.array(mark_aspects, np.float32))
    print(f"{len(ranks)} glyphs and {len(labels)} marks written to {GLYPH_FILE}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
