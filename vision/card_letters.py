"""The court letters card decks print in several languages, and the stem that tells some of
them from the numbers they look like.

A court's corner letter depends on the deck's language: the jack is J (English), V (French
valet), B (German Bube, Dutch boer) or F (Italian fante); the queen Q, D (French, German,
Italian dame, Dame, donna) or V (Dutch vrouw); the king K, R (French roi, Italian re) or H
(Dutch heer). Blurred at a camera's few pixels a millimetre, some of them look like numbers:
a B like an 8, a D like a 9 or a 0, an R like an 8 or a 9. What tells them apart is a stroke
no number has: a straight stem down the letter's left side (B, D, F, H, K, R), where an 8, 9,
0, 6 or 3 is round on the left and an A, V or 4 slants. Round a court's figure, a stem in
both corners and the letter drawn on it name the court, for the panel to confirm
(:func:`outline_court`). V names the jack in a French deck but the queen in a Dutch one, so
no outline names a court from it (the rank templates of :mod:`vision.card_fonts` read it as
the French jack).

``python -m vision.card_letters`` writes :data:`LETTER_GLYPH_FILE` from the typefaces found
on the machine (as :mod:`vision.card_fonts` does for the ranks); the reader only loads it.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from vision.arrays import FloatArray
from vision.card_glyphs import Templates, best_matches, glyph_of

if TYPE_CHECKING:
    from vision.card_pips import PipCount
    from vision.card_ranks import CentreRead, IndexRead, RankConfig

#: The templates this module writes.
LETTER_GLYPH_FILE = Path(__file__).with_name("card_letter_glyphs.npz")
#: Each court letter and the ranks it names in the decks that print it.
LETTER_RANKS: dict[str, tuple[str, ...]] = {
    "J": ("J",), "B": ("J",), "F": ("J",), "V": ("J", "Q"),
    "Q": ("Q",), "D": ("Q",),
    "K": ("K",), "R": ("K",), "H": ("K",),
}
#: Letters drawn with a straight stem down their left side in every common typeface.
STEM_LETTERS: tuple[str, ...] = ("B", "D", "F", "H", "K", "R")


@dataclass(frozen=True)
class StemConfig:
    """How a glyph's outline is read: its ink at ``ink_share`` of its strong ink (its 90th
    percentile), over the rows from ``span`` of its height to the same share from its foot.
    Its left side is a straight stem where the leftmost ink of each of those rows lies
    within ``most_bend`` of the glyph's width of one straight line leaning at most
    ``most_lean`` (an italic stem leans; an A's or a V's side slants more). Its foot is
    closed where the ink of its lowest ``foot`` rows runs in one piece across
    ``closed_foot`` of its width (a B's or a D's bottom stroke; an R, K or H stands on two
    feet, an F on its stem alone, within ``stem_foot`` of the left side). Its right side is
    notched where its rightmost ink between two and three fifths of the span falls
    ``least_notch`` of its width short of the rows above and below (a B's two bowls), and
    is one bow where it falls short by ``most_bow_notch`` at most (a D's)."""

    ink_share: float = 0.5
    span: float = 0.08
    most_bend: float = 0.08
    most_lean: float = 0.25
    foot: float = 0.12
    closed_foot: float = 0.6
    stem_foot: float = 0.2
    least_notch: float = 0.06
    most_bow_notch: float = 0.02


@dataclass(frozen=True)
class Outline:
    """A glyph's outline as letters differ in it: how far its left side strays from one
    straight stem (a share of its width; 1 where no stem can be), whether its foot is one
    stroke across, two feet or the stem alone (:func:`_foot`), and how deep its right side
    is notched halfway down (a share of its width; 0 or less where it is not)."""

    bend: float
    foot: str
    notch: float


def outline(glyph: FloatArray, config: StemConfig = StemConfig()) -> Outline:
    """The outline of ``glyph`` (its ink cut to its box)."""
    none = Outline(1.0, "other", 0.0)
    if glyph.size == 0 or float(glyph.max()) <= 0:
        return none
    strong = float(np.percentile(glyph[glyph > 0], 90))
    mask = glyph >= config.ink_share * strong
    height, width = mask.shape
    margin = round(config.span * height)
    rows = mask[margin:height - margin]
    if rows.shape[0] < 6 or not rows.any(axis=1).all():
        return none
    left = np.argmax(rows, axis=1).astype(np.float64)
    right = (width - 1 - np.argmax(rows[:, ::-1], axis=1)).astype(np.float64)
    down = np.arange(rows.shape[0], dtype=np.float64)
    lean, offset = np.polyfit(down, left, 1)
    bend = 1.0 if abs(lean) > config.most_lean else \
        float(np.abs(left - (lean * down + offset)).max() / width)
    # A B's two bowls leave a notch in its right side halfway down; a D's one bow none.
    count = rows.shape[0]
    middle = right[(2 * count) // 5:(3 * count) // 5 + 1]
    notch = (min(float(right[:(2 * count) // 5].max()), float(right[(3 * count) // 5:].max()))
             - float(middle.min())) / width
    return Outline(bend, _foot(config, mask), notch)


def _foot(config: StemConfig, mask: FloatArray) -> str:
    """How the glyph in ``mask`` stands, by its lowest ``foot`` rows: ``closed`` where a row
    holds one run of ink across ``closed_foot`` of its width (a B's or a D's bottom stroke),
    ``two`` where one holds two runs, the right one reaching that far across (an R, K or
    H), ``stem`` where every row holds one run short of it, starting where a stem at the left
    side would (an F; a V's point stands in the middle), else ``other``."""
    height, width = mask.shape
    kinds = set()
    for row in mask[height - max(2, round(config.foot * height)):]:
        edges = np.flatnonzero(np.diff(np.concatenate(([0], row.astype(np.int8), [0]))))
        starts, ends = edges[::2], edges[1::2]
        if len(starts) == 1 and ends[0] - starts[0] >= config.closed_foot * width:
            kinds.add("closed")
        elif len(starts) == 1 and starts[0] <= config.stem_foot * width:
            kinds.add("stem")
        elif len(starts) == 2 and ends[1] >= config.closed_foot * width:
            kinds.add("two")
    for kind in ("closed", "two", "stem"):
        if kind in kinds and (kind != "stem" or kinds == {"stem"}):
            return kind
    return "other"


def stem_rank(shape: Outline, config: StemConfig = StemConfig()) -> str | None:
    """The rank a glyph with a straight left stem names by its outline, or None (no stem,
    or an outline no court letter has): a closed foot under a notched right side is a B (the
    jack), under one bow a D (the queen); two feet are an R, a K or an H (the
    king), the stem alone an F (Italian fante, the jack)."""
    if shape.bend > config.most_bend or shape.foot == "other":
        return None
    if shape.foot != "closed":
        return "K" if shape.foot == "two" else "J"
    if shape.notch >= config.least_notch:
        return "J"
    if shape.notch <= config.most_bow_notch:
        return "Q"
    return None


@lru_cache(maxsize=1)
def letter_templates() -> Templates:
    """Every court letter of :data:`LETTER_RANKS` drawn in each stored typeface, grouped by
    letter (:data:`LETTER_GLYPH_FILE` ships with the code)."""
    from vision.card_glyphs import _by_label

    if not LETTER_GLYPH_FILE.exists():
        raise FileNotFoundError(f"{LETTER_GLYPH_FILE} is missing: run python -m "
                                "vision.card_letters")
    with np.load(LETTER_GLYPH_FILE) as stored:
        return _by_label([str(label) for label in stored["letters"]],
                         list(stored["shapes"].astype(np.float32) * (0.2 / 127)),
                         [float(aspect) for aspect in stored["aspects"]])


def letter_scores(glyph: FloatArray, aspect_weight: float) -> tuple[tuple[str, float], ...]:
    """Each court letter's best match of ``glyph`` (its ink cut to its box)."""
    scores = best_matches(glyph_of(glyph), letter_templates(), aspect_weight)
    return tuple(scores.items())


def stem_letter(letters: tuple[tuple[str, float], ...], least: float) -> str | None:
    """The rank the stem letter a corner matches best names (of :data:`STEM_LETTERS`, at
    ``least``), or None."""
    scores = [(score, letter) for letter, score in letters if letter in STEM_LETTERS]
    if not scores:
        return None
    score, letter = max(scores)
    return LETTER_RANKS[letter][0] if score >= least else None


def outline_court(config: RankConfig, centre: CentreRead, index: IndexRead,
                  pips: PipCount | None) -> str | None:
    """The court a card's body and both corners' outlines name, or None. The body must be a
    court's: a figure larger than any pip, no pip layout, a suit under both corners' index
    (no joker). Both outlines must name the same court (:func:`stem_rank`), and the stem
    letter one corner's glyph matches best (:func:`stem_letter`, at ``least_match``) name it
    too: a straight stem down the left side is no number's (an 8, 9 or 0 is round there)
    and no A's, so it tells a German B from the 8 and a D from the 9 it resembles where the
    templates' match of every rank cannot; it is one glyph's reading, never a sure one."""
    if pips is None or (pips.layout and not pips.stray) or len(index.corners) != 2 or \
            max(centre.largest_mm2, pips.largest_mm2) < config.court_figure_mm2 or \
            any(corner.outline is None or corner.joker or corner.suit_below <= config.court_suit
                for corner in index.corners):
        return None
    ranks = {stem_rank(corner.outline) for corner in index.corners if corner.outline}
    court = ranks.pop() if len(ranks) == 1 else None
    lettered = any(stem_letter(corner.letters, config.least_match) == court
                   for corner in index.corners)
    return court if court is not None and lettered else None


def build() -> dict[str, FloatArray]:
    """The letters drawn in every typeface found, as :func:`vision.card_fonts.build` draws
    the ranks: letters, shapes (bytes) and aspects."""
    from vision.card_fonts import _bytes, _distinct, add_views, draw_text, font_files

    views: tuple[list[str], list[FloatArray], list[float]] = ([], [], [])
    for font in font_files():
        for letter in LETTER_RANKS:
            drawn = draw_text(font, letter)
            if drawn is not None:
                add_views(drawn, letter, views)
    kept = _distinct(*views)
    return {"letters": np.array(kept[0]), "shapes": _bytes(kept[1]),
            "aspects": np.array(kept[2], np.float32)}


def main() -> None:
    arrays = build()
    if not len(arrays["letters"]):
        print("No typefaces found: nothing written.", file=sys.stderr)
        raise SystemExit(1)
    np.savez_compressed(LETTER_GLYPH_FILE, letters=arrays["letters"], shapes=arrays["shapes"],
                        aspects=arrays["aspects"])
    print(f"{len(arrays['letters'])} court letters written to {LETTER_GLYPH_FILE}",
          file=sys.stderr)


if __name__ == "__main__":
    main()

