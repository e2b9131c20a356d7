"""Playing-card faces for the synthetic table: drawn here in several styles, or taken from a
real card theme that ships as a Debian package (:mod:`vision.synth.card_themes`).

A face is a BGR image of a poker-size card (:data:`CARD_MM`, 63 x 88 mm) at
:data:`FACE_PIXELS_PER_MM`, upright, with its corner index at the top left and, turned half
round, at the bottom right. The drawn styles (:data:`DRAWN_STYLES`) vary what a reader must not
depend on: the index's font (OpenCV's Hershey faces), its size and weight, the pips' size and
shape, the court pictures; they are what the card reader is tuned on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]

#: A poker-size card, width x height in millimetres.
CARD_MM: tuple[float, float] = (63.0, 88.0)
#: The corners' rounding (mm).
CORNER_MM = 3.2
#: The resolution faces are made at.
FACE_PIXELS_PER_MM = 6.0
#: Ranks as the contract names them.
RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
                          "joker")
SUITS: tuple[str, ...] = ("club", "diamond", "heart", "spade")
_RED = (30, 30, 200)
_BLACK = (25, 25, 25)
#: Pip places on a face, as (column -1..1, row -1..1) of the pip area; rows below 0 are
#: drawn upright, the others turned half round as printed cards do.
PIP_PLACES: dict[int, tuple[tuple[float, float], ...]] = {
    2: ((0, -1), (0, 1)),
    3: ((0, -1), (0, 0), (0, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
    7: ((-1, -1), (1, -1), (0, -0.5), (-1, 0), (1, 0), (-1, 1), (1, 1)),
    8: ((-1, -1), (1, -1), (0, -0.5), (-1, 0), (1, 0), (0, 0.5), (-1, 1), (1, 1)),
    9: ((-1, -1), (1, -1), (-1, -1 / 3), (1, -1 / 3), (0, 0), (-1, 1 / 3), (1, 1 / 3),
        (-1, 1), (1, 1)),
    10: ((-1, -1), (1, -1), (0, -2 / 3), (-1, -1 / 3), (1, -1 / 3), (-1, 1 / 3), (1, 1 / 3),
         (0, 2 / 3), (-1, 1), (1, 1)),
}


@dataclass(frozen=True)
class FaceStyle:
    """How a drawn face looks: the index's Hershey ``font`` (a ``cv2.FONT_HERSHEY_*``) and
    whether italic, its letters' height and stroke (mm), the pips' size (mm), whether pips are
    plain (``simple``: a disc, a square turned, and so on) and the court pictures' seed."""

    font: int = cv2.FONT_HERSHEY_SIMPLEX
    italic: bool = False
    index_mm: float = 6.0
    stroke_mm: float = 0.7
    pip_mm: float = 9.0
    simple: bool = False
    art_seed: int = 0


#: The drawn styles the reader is tuned on.
DRAWN_STYLES: tuple[FaceStyle, ...] = (
    FaceStyle(),
    FaceStyle(cv2.FONT_HERSHEY_DUPLEX, False, 7.0, 0.8, 10.0, False, 1),
    FaceStyle(cv2.FONT_HERSHEY_COMPLEX, False, 5.5, 0.6, 8.0, True, 2),
    FaceStyle(cv2.FONT_HERSHEY_TRIPLEX, False, 6.5, 0.9, 11.0, False, 3),
    FaceStyle(cv2.FONT_HERSHEY_PLAIN, False, 8.0, 0.8, 9.5, True, 4),
    FaceStyle(cv2.FONT_HERSHEY_SIMPLEX, True, 5.0, 0.9, 8.5, False, 5),
    FaceStyle(cv2.FONT_HERSHEY_COMPLEX_SMALL, False, 7.5, 0.7, 10.5, False, 6),
)


def suit_colour(suit: str) -> tuple[int, int, int]:
    """The ink of ``suit`` (BGR): red hearts and diamonds, black clubs and spades."""
    return _RED if suit in ("heart", "diamond") else _BLACK


def blank_face(pixels_per_mm: float = FACE_PIXELS_PER_MM) -> Image:
    """A white card with rounded corners on black (black is outside the card)."""
    width, height = (round(side * pixels_per_mm) for side in CARD_MM)
    face = np.zeros((height, width, 3), np.uint8)
    radius = round(CORNER_MM * pixels_per_mm)
    white = (246, 248, 248)
    cv2.rectangle(face, (radius, 0), (width - 1 - radius, height - 1), white, -1)
    cv2.rectangle(face, (0, radius), (width - 1, height - 1 - radius), white, -1)
    for x in (radius, width - 1 - radius):
        for y in (radius, height - 1 - radius):
            cv2.circle(face, (x, y), radius, white, -1, cv2.LINE_AA)
    return face


def draw_pip(image: Image, suit: str, centre: tuple[float, float], size: float,
             upside_down: bool = False, simple: bool = False) -> None:
    """Draw one pip of ``suit`` about ``size`` pixels across at ``centre`` (pixels)."""
    colour = suit_colour(suit)
    x, y = centre
    half = size / 2
    flip = -1.0 if upside_down else 1.0
    if simple:
        if suit == "diamond":
            points = [(x, y - half), (x + half * 0.75, y), (x, y + half), (x - half * 0.75, y)]
            _fill(image, points, colour)
        elif suit == "club":
            cv2.circle(image, (round(x), round(y)), round(half * 0.9), colour, -1, cv2.LINE_AA)
        elif suit == "heart":
            _fill(image, _heart(x, y, half, flip), colour)
        else:
            _fill(image, [(x - half * 0.8, y - half * 0.8), (x + half * 0.8, y - half * 0.8),
                          (x + half * 0.8, y + half * 0.8), (x - half * 0.8, y + half * 0.8)],
                  colour)
        return
    if suit == "diamond":
        _fill(image, [(x, y - half), (x + half * 0.72, y), (x, y + half), (x - half * 0.72, y)],
              colour)
    elif suit == "heart":
        _fill(image, _heart(x, y, half, flip), colour)
    elif suit == "spade":
        _fill(image, _heart(x, y - 0.12 * half * flip, half * 0.9, -flip), colour)
        _fill(image, [(x, y + 0.2 * half * flip), (x + 0.3 * half, y + half * flip),
                      (x - 0.3 * half, y + half * flip)], colour)
    else:
        lobe = half * 0.42
        for dx, dy in ((0.0, -0.45), (-0.5, 0.15), (0.5, 0.15)):
            cv2.circle(image, (round(x + dx * half), round(y + dy * half * flip)), round(lobe),
                       colour, -1, cv2.LINE_AA)
        _fill(image, [(x, y), (x + 0.3 * half, y + half * flip),
                      (x - 0.3 * half, y + half * flip)], colour)


def _heart(x: float, y: float, half: float, flip: float) -> list[tuple[float, float]]:
    """A heart's outline about (x, y), its point down (``flip`` 1) or up (-1)."""
    points = []
    for step in range(48):
        t = 2 * math.pi * step / 48
        hx = 16 * math.sin(t) ** 3
        hy = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        points.append((x + hx / 17 * half, y - (hy + 2.5) / 17 * half * flip))
    return points


def _fill(image: Image, points: list[tuple[float, float]], colour: tuple[int, int, int]) -> None:
    polygon = np.round(np.array(points) * 16).astype(np.int32)
    cv2.fillPoly(image, [polygon], colour, cv2.LINE_AA, 4)


def _put_text(image: Image, text: str, left_top: tuple[float, float], style: FaceStyle,
              colour: tuple[int, int, int], pixels_per_mm: float) -> tuple[int, int]:
    """``text`` with its top-left corner at ``left_top`` (pixels), ``style.index_mm`` tall;
    returns its size (pixels)."""
    font = style.font | (cv2.FONT_ITALIC if style.italic else 0)
    thickness = max(1, round(style.stroke_mm * pixels_per_mm))
    (width, height), _ = cv2.getTextSize(text, font, 1.0, thickness)
    scale = style.index_mm * pixels_per_mm / max(1, height)
    (width, height), _ = cv2.getTextSize(text, font, scale, thickness)
    origin = (round(left_top[0]), round(left_top[1] + height))
    cv2.putText(image, text, origin, font, scale, colour, thickness, cv2.LINE_AA)
    return width, height


def _index(face: Image, rank: str, suit: str, style: FaceStyle, pixels_per_mm: float) -> None:
    """The corner index at the top left: the rank (or JOKER down the side), the suit below."""
    colour = suit_colour(suit)
    left, top = 2.0 * pixels_per_mm, 2.5 * pixels_per_mm
    if rank == "joker":
        for letter in "JOKER":
            _, height = _put_text(face, letter, (left, top), style, colour, pixels_per_mm)
            top += height + 0.8 * pixels_per_mm
        return
    width, height = _put_text(face, rank, (left, top), style, colour, pixels_per_mm)
    pip = 0.55 * style.pip_mm * pixels_per_mm
    middle = left + max(width, pip) / 2
    draw_pip(face, suit, (middle, top + height + 1.2 * pixels_per_mm + pip / 2), pip,
             simple=style.simple)


def _court_art(face: Image, rank: str, suit: str, style: FaceStyle, pixels_per_mm: float) -> None:
    """A framed picture: coloured shapes at random, and the rank's letter large in the middle
    (for the joker, a jester's star)."""
    rng = np.random.default_rng([style.art_seed, RANKS.index(rank), SUITS.index(suit)])
    height, width = face.shape[:2]
    left, top = round(12 * pixels_per_mm), round(12 * pixels_per_mm)
    right, bottom = width - left, height - top
    cv2.rectangle(face, (left, top), (right, bottom), suit_colour(suit), 2, cv2.LINE_AA)
    palette = [(40, 40, 190), (170, 90, 20), (30, 170, 220), (40, 120, 40), (25, 25, 25)]
    for _ in range(28):
        centre = (int(rng.integers(left + 8, right - 8)), int(rng.integers(top + 8, bottom - 8)))
        axes = (int(rng.integers(6, 40)), int(rng.integers(6, 40)))
        colour = palette[int(rng.integers(0, len(palette)))]
        cv2.ellipse(face, centre, axes, float(rng.uniform(0, 180)), 0, 360, colour, -1,
                    cv2.LINE_AA)
    cv2.circle(face, ((left + right) // 2, (top + bottom) // 2), round(14 * pixels_per_mm),
               (235, 235, 235), -1, cv2.LINE_AA)
    letter = "*" if rank == "joker" else rank
    big = FaceStyle(style.font, style.italic, 14.0, 2.0)
    _put_text(face, letter, ((left + right) / 2 - 6 * pixels_per_mm,
                             (top + bottom) / 2 - 7 * pixels_per_mm), big, suit_colour(suit),
              pixels_per_mm)


def _pips(face: Image, rank: str, suit: str, style: FaceStyle, pixels_per_mm: float) -> None:
    """The pips of a number card or the ace's one large pip."""
    height, width = face.shape[:2]
    centre_x, centre_y = width / 2, height / 2
    if rank == "A":
        draw_pip(face, suit, (centre_x, centre_y), 2.0 * style.pip_mm * pixels_per_mm,
                 simple=style.simple)
        return
    column, row = 15.0 * pixels_per_mm, 29.0 * pixels_per_mm
    for across, down in PIP_PLACES[int(rank)]:
        draw_pip(face, suit, (centre_x + across * column, centre_y + down * row),
                 style.pip_mm * pixels_per_mm, upside_down=down > 0, simple=style.simple)


@lru_cache(maxsize=256)
def drawn_face(rank: str, suit: str, style_index: int,
               pixels_per_mm: float = FACE_PIXELS_PER_MM) -> Image:
    """The face of ``rank`` of ``suit`` in drawn style ``style_index`` (read-only image)."""
    if rank not in RANKS or suit not in SUITS:
        raise ValueError(f"no card {rank!r} of {suit!r}; ranks {RANKS}, suits {SUITS}")
    style = DRAWN_STYLES[style_index % len(DRAWN_STYLES)]
    face = blank_face(pixels_per_mm)
    if rank in ("J", "Q", "K", "joker"):
        _court_art(face, rank, suit, style, pixels_per_mm)
    else:
        _pips(face, rank, suit, style, pixels_per_mm)
    _index(face, rank, suit, style, pixels_per_mm)
    face = _with_turned_index(face, pixels_per_mm)
    face.setflags(write=False)
    return face


def _with_turned_index(face: Image, pixels_per_mm: float) -> Image:
    """The face with its top-left corner index copied, turned half round, to the bottom right."""
    corner_w, corner_h = round(10.5 * pixels_per_mm), round(40 * pixels_per_mm)
    turned = cv2.rotate(face, cv2.ROTATE_180)
    result = face.copy()
    result[-corner_h:, -corner_w:] = np.minimum(result[-corner_h:, -corner_w:],
                                                turned[-corner_h:, -corner_w:])
    return result
