"""Corner-index glyph templates drawn from many typefaces, not cut from one card design.

A card's corner index is a letter or a number printed in some typeface; which one depends on
the deck. So that the index reader learns the letters and digits rather than one deck's
drawing of them, its templates are the index ranks drawn in every typeface found on the
machine that builds them (DejaVu, Liberation, FreeFont, URW's base 35: serif and sans, narrow
and wide, light and bold, upright and slanted), each squeezed as card indices often are and
seen as a camera sees a 6 mm glyph from 1.5 to 2.5 pixels a millimetre. Court letters are
those of English (J, Q, K), French (V, D, R), German (B, D, K) and Russian (В, Д, К) decks;
an ace is A or, in old French decks, 1. A joker's corner star is drawn too (label ``star``).
The marks under an index are told apart the same way: the four suits (from the typefaces'
suit symbols) against a word's next letter (a joker's corner).

``python -m vision.card_fonts`` writes :data:`FONT_GLYPH_FILE`; the reader only loads it
(:func:`vision.card_glyphs.glyph_templates`), so reading needs no typeface installed.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import cv2
import numpy as np

from vision.arrays import FloatArray

#: The templates this module writes (and :mod:`vision.card_ranks` reads).
FONT_GLYPH_FILE = Path(__file__).with_name("card_font_glyphs.npz")
#: Each index text drawn, and the rank it stands for.
INDEX_TEXTS: dict[str, str] = {
    "A": "A", "1": "A", "2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "7", "8": "8",
    "9": "9", "10": "10", "J": "J", "Q": "Q", "K": "K",
    # French valet, dame, roi; German Bube, Dame, König; Russian валет, дама, король.
    "V": "J", "B": "J", "D": "Q", "R": "K", "В": "J", "Д": "Q", "К": "K",
}
#: A joker's corner shows no rank but, in most decks, a star (plain, outlined or in a ring):
#: drawn as index templates labelled ``star`` (no rank: the reader takes it for a joker's).
STAR_TEXTS: tuple[str, ...] = ("★", "☆", "✪", "✩", "✭", "✮", "✯", "✦", "✧", "✰")
#: Marks under an index: a suit's symbol, or a letter of JOKER after its J.
SUIT_TEXTS: tuple[str, ...] = ("♠", "♥", "♦", "♣", "♤", "♡", "♢", "♧")
LETTER_TEXTS: tuple[str, ...] = ("O", "K", "E", "R", "o", "k", "e", "r")
#: Where typefaces are looked for, and names of typefaces that draw no letters.
FONT_FOLDERS: tuple[Path, ...] = (Path("/usr/share/fonts"), Path("/usr/local/share/fonts"))
NOT_LETTERS: tuple[str, ...] = ("symbol", "dingbat", "d050000l", "math", "z003")
#: How tall (camera pixels) a 6 mm index glyph is seen, and how much it is squeezed across.
CAMERA_HEIGHTS: tuple[int, ...] = (9, 15)
SQUEEZES: tuple[float, ...] = (1.0, 0.72)
#: The glyph's height in the reader's face images (6 mm at 6 pixels a millimetre).
FACE_HEIGHT = 36
#: Ink at or above this counts, as in the reader's glyph masks.
INK_LEVEL = 0.22
#: Templates of one label matching this well are kept once.
DISTINCT_MATCH = 0.95


def font_files(folders: tuple[Path, ...] = FONT_FOLDERS) -> list[Path]:
    """Every TrueType or OpenType face under ``folders`` that draws letters, sorted."""
    found = []
    for folder in folders:
        for root, _, names in os.walk(folder):
            for name in names:
                lower = name.lower()
                if lower.endswith((".ttf", ".otf")) and not any(
                        word in lower for word in NOT_LETTERS):
                    found.append(Path(root) / name)
    return sorted(found)


def draw_text(font_path: Path, text: str, size: int = 96) -> FloatArray | None:
    """``text`` drawn white on black in the typeface at ``font_path`` (0..1 floats), or
    None when the typeface has no glyph for one of its characters."""
    import pygame.freetype

    pygame.freetype.init()
    font = pygame.freetype.Font(str(font_path), size)
    metrics = font.get_metrics(text)
    if not metrics or any(metric is None for metric in metrics):
        return None
    surface, _ = font.render(text, (255, 255, 255), (0, 0, 0))
    import pygame.surfarray

    pixels = pygame.surfarray.array3d(surface)[..., 0].T.astype(np.float32) / 255
    if pixels.size == 0 or float(pixels.max()) < 0.5:
        return None
    return np.asarray(pixels)


def as_seen(glyph: FloatArray, camera_height: int, squeeze: float) -> FloatArray:
    """``glyph`` (cut to its box) squeezed across by ``squeeze``, seen ``camera_height``
    pixels tall and brought back to the reader's :data:`FACE_HEIGHT`, ink below
    :data:`INK_LEVEL` dropped as the reader's mask drops it."""
    rows, columns = np.nonzero(glyph > 0.25)
    box = glyph[rows.min():rows.max() + 1, columns.min():columns.max() + 1]
    height, width = box.shape
    small_width = max(2, round(width * squeeze * camera_height / height))
    small = cv2.resize(box, (small_width, camera_height), interpolation=cv2.INTER_AREA)
    face_width = max(2, round(small_width * FACE_HEIGHT / camera_height))
    seen = cv2.resize(small, (face_width, FACE_HEIGHT), interpolation=cv2.INTER_LINEAR)
    return np.asarray(np.where(seen >= INK_LEVEL, seen, 0.0), np.float32)


def _tight_ten(font: Path) -> FloatArray | None:
    """A 10 set tight, as card indices set it: the 1 and the 0 a tenth of their height
    apart, feet level (a typeface's own 10 leaves a digit's width between them)."""
    boxes = []
    for digit in ("1", "0"):
        part = draw_text(font, digit)
        if part is None:
            return None
        columns = np.nonzero(np.asarray(part > 0.25).any(axis=0))[0]
        boxes.append(part[:, columns.min():columns.max() + 1])
    height = max(box.shape[0] for box in boxes)
    gap = np.zeros((height, max(1, height // 10)), np.float32)
    padded = [np.pad(box, ((height - box.shape[0], 0), (0, 0))) for box in boxes]
    return np.asarray(np.hstack([padded[0], gap, padded[1]]))


def add_views(drawn: FloatArray, label: str,
              into: tuple[list[str], list[FloatArray], list[float]]) -> None:
    """Append ``drawn`` as the camera sees it at every squeeze and camera height to ``into``
    (labels, shapes, aspects), each view labelled ``label``."""
    from vision.card_glyphs import glyph_of

    for squeeze in SQUEEZES:
        for height in CAMERA_HEIGHTS:
            glyph = glyph_of(as_seen(drawn, height, squeeze))
            into[0].append(label)
            into[1].append(glyph.shape)
            into[2].append(glyph.aspect)


def build(fonts: list[Path]) -> dict[str, FloatArray]:
    """The templates of every text in every typeface of ``fonts``, each squeeze and camera
    height: labels (ranks; ``suit`` or ``letter`` for marks), shapes and aspects."""
    index: tuple[list[str], list[FloatArray], list[float]] = ([], [], [])
    marks: tuple[list[str], list[FloatArray], list[float]] = ([], [], [])
    texts = [(text, rank, index) for text, rank in INDEX_TEXTS.items()]
    texts += [(text, "star", index) for text in STAR_TEXTS]
    texts += [(text, "suit", marks) for text in SUIT_TEXTS]
    texts += [(text, "letter", marks) for text in LETTER_TEXTS]
    for font in fonts:
        for text, label, into in texts:
            drawn = draw_text(font, text)
            if drawn is not None:
                add_views(drawn, label, into)
        tight = _tight_ten(font)
        if tight is not None:
            add_views(tight, "10", index)
    index, marks = _distinct(*index), _distinct(*marks)
    return {"ranks": np.array(index[0]), "shapes": _bytes(index[1]),
            "aspects": np.array(index[2], np.float32), "mark_labels": np.array(marks[0]),
            "mark_shapes": _bytes(marks[1]), "mark_aspects": np.array(marks[2], np.float32)}


def _distinct(labels: list[str], shapes: list[FloatArray], aspects: list[float],
              alike: float = DISTINCT_MATCH
              ) -> tuple[list[str], list[FloatArray], list[float]]:
    """The templates without those matching an earlier one of the same label at ``alike``
    or better with a box of nearly the same shape (many typefaces copy Helvetica, Times or
    Courier): fewer templates to compare, the same matches to within a few hundredths."""
    kept: tuple[list[str], list[FloatArray], list[float]] = ([], [], [])
    for label, shape, aspect in zip(labels, shapes, aspects, strict=True):
        same = [index for index, other in enumerate(kept[0]) if other == label
                and abs(np.log(kept[2][index] / aspect)) < 0.1]
        flat = shape.reshape(-1)
        if any(float(kept[1][index].reshape(-1) @ flat) >= alike for index in same):
            continue
        kept[0].append(label)
        kept[1].append(shape)
        kept[2].append(aspect)
    return kept


def _bytes(shapes: list[FloatArray]) -> FloatArray:
    """Shapes have unit norm (no value above 0.2): a byte a value keeps them to a percent."""
    return np.round(np.array(shapes, np.float32) * 127 / 0.2).clip(-127, 127).astype(np.int8)


def main() -> None:
    fonts = font_files()
    if not fonts:
        print("No TrueType or OpenType typefaces under "
              f"{', '.join(str(folder) for folder in FONT_FOLDERS)}: nothing written.",
              file=sys.stderr)
        raise SystemExit(1)
    arrays = build(fonts)
    np.savez_compressed(FONT_GLYPH_FILE, fonts=np.array([font.name for font in fonts]),
                        ranks=arrays["ranks"], shapes=arrays["shapes"],
                        aspects=arrays["aspects"], mark_labels=arrays["mark_labels"],
                        mark_shapes=arrays["mark_shapes"], mark_aspects=arrays["mark_aspects"])
    print(f"{len(arrays['ranks'])} index glyphs and {len(arrays['mark_labels'])} marks from "
          f"{len(fonts)} typefaces written to {FONT_GLYPH_FILE}", file=sys.stderr)


if __name__ == "__main__":
    main()
