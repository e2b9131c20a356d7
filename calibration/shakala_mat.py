"""Shakala's mat: sixteen round pits of loose coins in four rows, and the two players' cups.

Pits as South sees the board (South at the bottom), named as the engine names them
(:mod:`companion.games.shakala.board`)::

    cup-north | d c b a |
              | h g f e |
              | E F G H | cup-south
              | A B C D |

**Why the pits are 130 mm across.** A pit must hold at least 12 coins lying flat with little
overlap, and the largest coin is the golden dollar (26.49 mm, 551.1 mm² of paper). Twelve of
them cover 6,613 mm². Coins a hand drops and nudges apart cover about half the floor they lie
on (random discs placed one by one until no more fit jam at 54.7 %; a hand does a little
worse), so the pit needs about 6,613 / 0.5 = 13,227 mm², a circle of radius 64.9 mm: hence
:data:`PIT_RADIUS_MM` = 65 mm. (The tightest packing of 12 equal discs in a circle needs a
radius 4.03 times the coin's, 53.4 mm for dollars, so 65 mm leaves a hand 11.6 mm of slack.)

**The rest.** Neighbouring pits are :data:`PIT_GAP_MM` apart at their rims, room for the track
arrows printed between them; the board is ``4 p`` square with ``p = 2 R + gap`` = 150 mm. A
column :data:`COLUMN_MM` wide on each side, :data:`COLUMN_GAP_MM` from the board, holds a cup
beside its owner's half: ``cup-south`` on the East beside South's rows (South's right hand, where
South sows towards), ``cup-north`` on the West beside North's rows; the other half of each column
holds printed legends. A cup holds at most the 16 gems of both sides; at 100 x 280 mm even 16
dollars cover under a third of it, so its coins lie apart. ``calibration/MATS.md`` gives every
number. Pits and cups are ``piled``: hands drop coins there in heaps, and the camera reads
them as piles.
"""

from __future__ import annotations

import math
from functools import lru_cache

from calibration.geometry import (
    Circle,
    Mark,
    MarkKind,
    MatGeometry,
    Point,
    Rect,
    Region,
    _mat_around,
)

#: Radius of a pit: 12 golden dollars at a hand's packing density of one half (see above).
PIT_RADIUS_MM = 65.0
#: Paper between the rims of neighbouring pits, where the track arrows are printed.
PIT_GAP_MM = 20.0
#: Centre-to-centre distance of neighbouring pits.
PIT_PITCH_MM = 2 * PIT_RADIUS_MM + PIT_GAP_MM
#: Width of the side column holding a cup, and the paper between the column and the board.
COLUMN_MM = 100.0
COLUMN_GAP_MM = 10.0
#: A cup's height: its half of the board's height less 10 mm of paper at each end.
CUP_HEIGHT_MM = 2 * PIT_PITCH_MM - 20.0
#: Side of each corner marker (as Coin Isolation's and Coin Grid's default mats).
MARKER_SIDE_MM = 40.0
#: The pits' rows top to bottom as South sees the board, each row left to right.
PIT_ROWS = ("dcba", "hgfe", "EFGH", "ABCD")
#: The two tracks as RULINGS.md gives them, each a cycle (the last pit leads to the first).
INNER_TRACK = "EFGHefgh"
OUTER_TRACK = "EABCDHeabcdh"
#: Where a mover picks a track (pit, its next pit on the inner track, on the outer track) and
#: where the tracks join (pit, its previous pit on the inner track, on the outer track).
FORKS = (("E", "F", "A"), ("e", "f", "a"))
JOINS = (("H", "G", "D"), ("h", "g", "d"))
#: The printed gem values, RULINGS.md's defaults: each side's back row A B C D (a b c d) holds
#: gems worth 1, 2, 3, 4 and its front row E F G H (e f g h) gems worth 4, 3, 2, 1.
DEFAULT_GEM_VALUES = dict(zip("ABCDEFGH", (1, 2, 3, 4, 4, 3, 2, 1), strict=True))
#: The coin standing for each gem value by default, and for a stone.
GEM_COIN_NAMES = ("dime", "nickel", "quarter", "golden dollar")
#: Paper left between an arrow's ends and the pits' rims, and between the two arrows of a
#: stretch both tracks share.
ARROW_CLEARANCE_MM = 1.5
SHARED_ARROW_OFFSET_MM = 4.0
#: Heights of the printed words: fork and join names, their notes, gem values, legends.
FORK_TEXT_MM = 6.0
NOTE_TEXT_MM = 3.5
GEM_TEXT_MM = 4.0
LEGEND_TEXT_MM = 5.0


def pit_centre(name: str, left: float, top: float) -> tuple[float, float]:
    """Centre (mm) of the pit ``name`` on a board whose top-left corner is (left, top)."""
    for row, letters in enumerate(PIT_ROWS):
        if name in letters:
            column = letters.index(name)
            return (left + (column + 0.5) * PIT_PITCH_MM, top + (row + 0.5) * PIT_PITCH_MM)
    raise ValueError(f"{name!r} is no Shakala pit")


def board_left(play_left: float) -> float:
    """The board's left edge, a column and its gap to the right of the play area's."""
    return play_left + COLUMN_MM + COLUMN_GAP_MM


def _regions(left: float, top: float) -> tuple[Region, ...]:
    """The pits ``A``..``H``, ``a``..``h`` (the engine's order), then ``cup-south`` and
    ``cup-north``, for a play area whose top-left corner is (left, top)."""
    board = board_left(left)
    pits = tuple(Region(name, "pit", Circle(pit_centre(name, board, top), PIT_RADIUS_MM),
                        piled=True) for name in "ABCDEFGHabcdefgh")
    east_x = board + 4 * PIT_PITCH_MM + COLUMN_GAP_MM + COLUMN_MM / 2
    west_x = left + COLUMN_MM / 2
    size = (COLUMN_MM, CUP_HEIGHT_MM)
    cups = (Region("cup-south", "cup", Rect((east_x, top + 3 * PIT_PITCH_MM), size), piled=True),
            Region("cup-north", "cup", Rect((west_x, top + PIT_PITCH_MM), size), piled=True))
    return pits + cups


def _label(centre: Point, height: float, text: str) -> Mark:
    """Words centred on ``centre``, ``height`` tall (the box is as wide as a rough guess)."""
    return Mark("label", Rect(centre, (0.6 * height * len(text), height)), text=text)


def _arrow(kind: MarkKind, start: Point, end: Point) -> Mark:
    """A track arrow from ``start`` to ``end``, bounded by the rectangle they span."""
    centre = ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2)
    size = (abs(end[0] - start[0]), abs(end[1] - start[1]))
    return Mark(kind, Rect(centre, size), path=(start, end))


def _track_arrows(centres: dict[str, Point], middle: Point) -> list[Mark]:
    """An arrow in the gap between each pit and the next along each track. A stretch both
    tracks share (``H`` to ``e``, ``h`` to ``E``) gets both arrows side by side, the inner
    track's on the board's middle side."""
    inner = set(zip(INNER_TRACK, INNER_TRACK[1:] + INNER_TRACK[0], strict=True))
    outer = set(zip(OUTER_TRACK, OUTER_TRACK[1:] + OUTER_TRACK[0], strict=True))
    arrows = []
    tracks: tuple[tuple[MarkKind, set[tuple[str, str]]], ...] = (("inner-track", inner),
                                                                  ("outer-track", outer))
    for kind, steps in tracks:
        for origin, target in sorted(steps):
            (x0, y0), (x1, y1) = centres[origin], centres[target]
            length = math.dist((x0, y0), (x1, y1))
            ux, uy = (x1 - x0) / length, (y1 - y0) / length
            shift = 0.0
            if (origin, target) in inner & outer:
                towards = (middle[0] - (x0 + x1) / 2) * -uy + (middle[1] - (y0 + y1) / 2) * ux
                side = math.copysign(1.0, towards)
                shift = SHARED_ARROW_OFFSET_MM * (side if kind == "inner-track" else -side)
            reach = PIT_RADIUS_MM + ARROW_CLEARANCE_MM
            start = (x0 + reach * ux - shift * uy, y0 + reach * uy + shift * ux)
            end = (x1 - reach * ux - shift * uy, y1 - reach * uy + shift * ux)
            arrows.append(_arrow(kind, start, end))
    return arrows


def _fork_and_join_labels(centres: dict[str, Point]) -> list[Mark]:
    """Each fork and join named in the paper between it and the two pits it leads to (a fork)
    or comes from (a join), where its two arrows meet."""
    labels = []
    for places, word, note in ((FORKS, "fork", "pick inner or outer"),
                               (JOINS, "join", "the tracks meet")):
        for pit, inner, outer in places:
            corner = ((centres[inner][0] + centres[outer][0]) / 2,
                      (centres[inner][1] + centres[outer][1]) / 2)
            labels.append(_label((corner[0], corner[1] - 1.0), FORK_TEXT_MM, f"{pit} {word}"))
            labels.append(_label((corner[0], corner[1] + FORK_TEXT_MM), NOTE_TEXT_MM, note))
    return labels


def _gem_labels(centres: dict[str, Point]) -> list[Mark]:
    """Each pit's starting gem value printed inside its top rim (RULINGS.md's defaults)."""
    labels = []
    for name, (x, y) in centres.items():
        value = DEFAULT_GEM_VALUES[name.upper()]
        labels.append(_label((x, y - PIT_RADIUS_MM + 4.0 + GEM_TEXT_MM / 2), GEM_TEXT_MM,
                             f"gem {value}"))
    return labels


def _legends(left: float, top: float) -> list[Mark]:
    """What the coins stand for in the free half of the West column, and the two tracks' arrows
    with the way to sow in the free half of the East column."""
    west_x = left + COLUMN_MM / 2
    east_x = board_left(left) + 4 * PIT_PITCH_MM + COLUMN_GAP_MM + COLUMN_MM / 2
    step = 2 * LEGEND_TEXT_MM
    coins = ["gems (points)", *(f"{coin} {value}" for value, coin in
                                enumerate(GEM_COIN_NAMES, start=1)), "", "stones", "penny"]
    first = top + 2 * PIT_PITCH_MM + 40.0
    marks = [_label((west_x, first + index * step), LEGEND_TEXT_MM, line)
             for index, line in enumerate(coins) if line]
    first = top + 40.0
    tracks: tuple[tuple[MarkKind, str], ...] = (("inner-track", "inner"),
                                                ("outer-track", "outer"))
    for index, (kind, word) in enumerate(tracks):
        y = first + index * step
        marks.append(_arrow(kind, (east_x - 42.0, y), (east_x - 12.0, y)))
        marks.append(_label((east_x + 20.0, y), LEGEND_TEXT_MM, word))
    notes = ("sow counter-", "clockwise, one", "bead a pit,", "skip the origin")
    marks.extend(_label((east_x, first + (3 + index) * step), NOTE_TEXT_MM, line)
                 for index, line in enumerate(notes))
    return marks


def _marks(left: float, top: float) -> tuple[Mark, ...]:
    """Every printed mark of a play area whose top-left corner is (left, top)."""
    board = board_left(left)
    centres = {name: pit_centre(name, board, top) for name in "ABCDEFGHabcdefgh"}
    middle = (board + 2 * PIT_PITCH_MM, top + 2 * PIT_PITCH_MM)
    return tuple(_track_arrows(centres, middle) + _fork_and_join_labels(centres)
                 + _gem_labels(centres) + _legends(left, top))


@lru_cache(maxsize=1)
def shakala_mat() -> MatGeometry:
    """The Shakala mat (one size): 940 x 720 mm, play area 820 x 600 mm at (60, 60)."""
    width = 2 * (COLUMN_MM + COLUMN_GAP_MM) + 4 * PIT_PITCH_MM
    height = 4 * PIT_PITCH_MM
    return _mat_around("shakala", width, height, MARKER_SIDE_MM, _regions, _marks)
