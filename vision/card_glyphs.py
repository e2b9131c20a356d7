"""Glyphs as a card's corner index is matched: a glyph's ink brought to a template's size,
and the templates it is matched against (index ranks and the marks under them, drawn in the
Hershey typefaces and in the typefaces stored by :mod:`vision.card_fonts`), grouped by label so
each label's best match is one reduction."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from contract.observation import CARD_RANKS
from vision.arrays import FloatArray
from vision.card_fonts import FONT_GLYPH_FILE

#: The ranks a corner glyph can show (a joker's corner is told by its stacked letters).
INDEX_RANKS: tuple[str, ...] = CARD_RANKS[:-1]
_TEMPLATE_SIZE = (16, 24)
_FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
          cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_PLAIN, cv2.FONT_HERSHEY_COMPLEX_SMALL)

#: Templates grouped by label: ((labels, shapes as rows, log aspects),).
Templates = tuple[tuple[tuple[str, ...], FloatArray, FloatArray], ...]


@dataclass(frozen=True, eq=False)
class Glyph:
    """A glyph as the matcher sees it: its ink brought to the template size (zero mean, unit
    norm) and its box's height over its width."""

    shape: FloatArray
    aspect: float


def glyph_of(mask: FloatArray) -> Glyph:
    """A glyph's ink cut to its box and brought to the template size."""
    rows, columns = np.nonzero(mask > 0.25)
    if rows.size == 0:
        return Glyph(np.zeros(_TEMPLATE_SIZE[::-1], np.float32), 1.0)
    box = mask[rows.min():rows.max() + 1, columns.min():columns.max() + 1].astype(np.float32)
    cut = np.asarray(cv2.GaussianBlur(
        cv2.resize(box, _TEMPLATE_SIZE, interpolation=cv2.INTER_AREA), (0, 0), 0.8))
    cut -= cut.mean()
    norm = float(np.linalg.norm(cut))
    return Glyph(np.asarray(cut / norm if norm > 0 else cut), box.shape[0] / box.shape[1])


@lru_cache(maxsize=1)
def glyph_templates() -> Templates:
    """Every index rank drawn in each Hershey typeface, upright and italic, thin and bold,
    and in every typeface of :data:`vision.card_fonts.FONT_GLYPH_FILE` where it exists, as
    (ranks, shapes, aspects)."""
    ranks, shapes, aspects = _hershey_glyphs(INDEX_RANKS, (2, 4, 6))
    stored = _stored_glyphs("ranks", "shapes", "aspects")
    return _by_label(ranks + stored[0], shapes + stored[1], aspects + stored[2])


@lru_cache(maxsize=1)
def mark_templates() -> Templates:
    """Marks under an index glyph: ``suit`` symbols and ``letter`` s (a word's next letter)
    drawn in every typeface of :data:`vision.card_fonts.FONT_GLYPH_FILE`, and the letter O
    in each Hershey face."""
    _, shapes, aspects = _hershey_glyphs(("O", "o"), (4,))
    labels = ["letter"] * len(shapes)
    stored = _stored_glyphs("mark_labels", "mark_shapes", "mark_aspects")
    return _by_label(labels + stored[0], shapes + stored[1], aspects + stored[2])


def _hershey_glyphs(texts: tuple[str, ...], thicknesses: tuple[int, ...]
                    ) -> tuple[list[str], list[FloatArray], list[float]]:
    """Each text drawn in every Hershey typeface, upright and italic, at each stroke thickness,
    as (texts, shapes, aspects)."""
    labels: list[str] = []
    shapes: list[FloatArray] = []
    aspects: list[float] = []
    for text in texts:
        for font in _FONTS:
            for italic in (0, cv2.FONT_ITALIC):
                for thickness in thicknesses:
                    canvas = np.zeros((120, 160), np.uint8)
                    cv2.putText(canvas, text, (20, 95), font | italic, 2.4, 255, thickness,
                                cv2.LINE_AA)
                    glyph = glyph_of(canvas.astype(np.float32) / 255)
                    labels.append(text)
                    shapes.append(glyph.shape)
                    aspects.append(glyph.aspect)
    return labels, shapes, aspects


def _stored_glyphs(labels: str, shapes: str, aspects: str
                   ) -> tuple[list[str], list[FloatArray], list[float]]:
    """The templates stored under those names in the typefaces' glyph file (none when it is
    missing: the Hershey templates alone then)."""
    if not FONT_GLYPH_FILE.exists():
        return [], [], []
    with np.load(FONT_GLYPH_FILE) as stored:
        return ([str(label) for label in stored[labels]],
                list(stored[shapes].astype(np.float32) * (0.2 / 127)),
                [float(aspect) for aspect in stored[aspects]])


def best_matches(glyph: Glyph, templates: Templates, aspect_weight: float) -> dict[str, float]:
    """Each label's best match of ``glyph`` among ``templates``: the shapes' correlation, less
    ``aspect_weight`` times how far the boxes' aspects differ (in log)."""
    ((labels, shapes, aspects),) = templates
    # A plain sum of products, not a BLAS product: on a busy machine BLAS's threads wait on
    # each other for longer than this small product takes alone.
    scores = np.einsum("ij,j->i", shapes, glyph.shape.reshape(-1)) - aspect_weight * \
        np.abs(aspects - math.log(glyph.aspect))
    names, starts = _label_runs(labels)
    return dict(zip(names, np.maximum.reduceat(scores, starts).tolist(), strict=True))


@lru_cache(maxsize=4)
def _label_runs(labels: tuple[str, ...]) -> tuple[tuple[str, ...], FloatArray]:
    """The labels of ``labels`` in first-seen order and where each one's run starts, for
    templates sorted by label (:func:`_by_label`)."""
    starts = [index for index, label in enumerate(labels)
              if index == 0 or labels[index - 1] != label]
    names = tuple(labels[index] for index in starts)
    if len(set(names)) != len(names):
        raise ValueError("templates must be grouped by label")
    return names, np.array(starts, np.intp)


def _by_label(labels: list[str], shapes: list[FloatArray], aspects: list[float]
              ) -> Templates:
    """Templates grouped by label (stable), as (labels, shapes, log aspects)."""
    order = sorted(range(len(labels)), key=lambda index: labels[index])
    return ((tuple(labels[index] for index in order),
             np.array([shapes[index] for index in order], np.float32).reshape(len(order), -1),
             np.log(np.array([aspects[index] for index in order], np.float32))),)
