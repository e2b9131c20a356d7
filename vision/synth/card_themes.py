"""Card faces from a real card theme: the SVG themes of Debian's ``gnome-cards-data`` package
(AisleRiot's cards), rasterised with ``rsvg-convert`` (package ``librsvg2-bin``).

An AisleRiot theme is one SVG drawing of 13 columns by 5 rows: clubs, diamonds, hearts and
spades from ace to king, then the black joker, the red joker and the back. Each cell is cut out
and brought to a poker card's size (:data:`~vision.synth.card_faces.CARD_MM`): the themes'
cards are a little longer than a poker card, so they are squeezed lengthwise a little.

:data:`TUNING_THEMES` may be used to tune the card reader; :data:`HELD_OUT_THEMES` never are:
they are the held-out test (see ``bench/bench_cards.py --heldout``).
"""

from __future__ import annotations

import gzip
import shutil
import subprocess
import tempfile
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.synth.card_faces import CARD_MM, FACE_PIXELS_PER_MM, SUITS, blank_face

Image = npt.NDArray[np.uint8]

#: Where the package puts its themes.
THEME_FOLDER = Path("/usr/share/aisleriot/cards")
#: The Debian packages that give the themes and the rasteriser.
THEME_PACKAGES: tuple[str, ...] = ("gnome-cards-data", "librsvg2-bin")
TUNING_THEMES: tuple[str, ...] = ("anglo", "paris", "simplistic")
HELD_OUT_THEMES: tuple[str, ...] = ("bellot", "ornamental")
_RANK_COLUMNS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q",
                                  "K")


class ThemeUnavailable(RuntimeError):
    """The theme's file or the rasteriser is not installed."""


def themes_missing() -> str | None:
    """Why themed faces cannot be made here (one sentence), or None when they can."""
    if shutil.which("rsvg-convert") is None:
        return "rsvg-convert is not installed (Debian package librsvg2-bin)"
    if not (THEME_FOLDER / "anglo.svgz").exists():
        return f"no card themes in {THEME_FOLDER} (Debian package gnome-cards-data)"
    return None


#: Sheets kept rasterised: every theme a bench family draws from (rasterising one takes
#: seconds; a sheet is about 40 MB).
@lru_cache(maxsize=12)
def theme_sheet(theme: str, pixels_per_mm: float = FACE_PIXELS_PER_MM) -> Image:
    """The whole theme drawing rasterised so that a card is a poker card's width at
    ``pixels_per_mm`` (BGR on white)."""
    missing = themes_missing()
    source = THEME_FOLDER / f"{theme}.svgz"
    if missing is not None or not source.exists():
        raise ThemeUnavailable(missing or f"no card theme {theme!r} in {THEME_FOLDER}")
    width = round(13 * CARD_MM[0] * pixels_per_mm)
    with tempfile.TemporaryDirectory() as folder:
        svg = Path(folder) / "theme.svg"
        svg.write_bytes(gzip.decompress(source.read_bytes()))
        png = Path(folder) / "theme.png"
        subprocess.run(["rsvg-convert", "-w", str(width), "-b", "black", str(svg), "-o",
                        str(png)], check=True, capture_output=True, timeout=120)
        read = cv2.imread(str(png), cv2.IMREAD_COLOR)
    if read is None:
        raise ThemeUnavailable(f"rsvg-convert made no image of theme {theme!r}")
    sheet: Image = np.asarray(read, np.uint8)
    sheet.setflags(write=False)
    return sheet


@lru_cache(maxsize=512)
def theme_face(theme: str, rank: str, suit: str,
               pixels_per_mm: float = FACE_PIXELS_PER_MM) -> Image:
    """The face of ``rank`` of ``suit`` in ``theme`` at a poker card's size; a joker's suit
    picks the black (clubs, spades) or the red one. Outside the card is black."""
    sheet = theme_sheet(theme, pixels_per_mm)
    height, width = sheet.shape[:2]
    cell_w, cell_h = width / 13, height / 5
    if rank == "joker":
        row, column = 4, 0 if suit in ("club", "spade") else 1
    else:
        row, column = SUITS.index(suit), _RANK_COLUMNS.index(rank)
    cell = sheet[round(row * cell_h):round((row + 1) * cell_h),
                 round(column * cell_w):round((column + 1) * cell_w)]
    blank = blank_face(pixels_per_mm)
    size = (blank.shape[1], blank.shape[0])
    resized = cv2.resize(np.ascontiguousarray(cell), size, interpolation=cv2.INTER_AREA)
    # The theme's own corners, cut to a poker card's rounding.
    face: Image = np.asarray(np.where(blank > 0, resized, 0), np.uint8)
    face.setflags(write=False)
    return face
