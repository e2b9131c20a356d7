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
number.
"""

from __future__ import annotations

from functools import lru_cache

from calibration.geometry import Circle, MatGeometry, Rect, Region, _mat_around

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
    pits = tuple(Region(name, "pit", Circle(pit_centre(name, board, top), PIT_RADIUS_MM))
                 for name in "ABCDEFGHabcdefgh")
    east_x = board + 4 * PIT_PITCH_MM + COLUMN_GAP_MM + COLUMN_MM / 2
    west_x = left + COLUMN_MM / 2
    size = (COLUMN_MM, CUP_HEIGHT_MM)
    cups = (Region("cup-south", "cup", Rect((east_x, top + 3 * PIT_PITCH_MM), size)),
            Region("cup-north", "cup", Rect((west_x, top + PIT_PITCH_MM), size)))
    return pits + cups


@lru_cache(maxsize=1)
def shakala_mat() -> MatGeometry:
    """The Shakala mat (one size): 940 x 720 mm, play area 820 x 600 mm at (60, 60)."""
    width = 2 * (COLUMN_MM + COLUMN_GAP_MM) + 4 * PIT_PITCH_MM
    height = 4 * PIT_PITCH_MM
    return _mat_around("shakala", width, height, MARKER_SIDE_MM, _regions)
