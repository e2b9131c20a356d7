"""The Coin Grid board: 6 files by 12 ranks, its squares as bitboards, and king steps.

Squares are named ``a1``..``f12`` as South sees the board (files a–f left to right, rank 1 at
South's edge). A square's index is ``(rank - 1) * 6 + file`` and a set of squares is an ``int``
with bit ``index`` set for each member (a bitboard), so a flood fill over the board is a handful
of shifts per step. South (player 1) owns ranks 1–6 and North (player 2) ranks 7–12; the wall
runs between ranks 6 and 7. Each half counts its rows from the wall (RULINGS.md): a player's
row 6, the star row, is their edge rank (1 for South, 12 for North) and row 5, the X row, the
rank next to it (2 and 11).
"""

from __future__ import annotations

import re

FILES = "abcdef"
FILE_COUNT = 6
RANK_COUNT = 12
SQUARE_COUNT = FILE_COUNT * RANK_COUNT
#: Ranks per half: the wall lies after rank ``HALF_RANKS``.
HALF_RANKS = RANK_COUNT // 2

SQUARE_NAMES: tuple[str, ...] = tuple(
    f"{FILES[index % FILE_COUNT]}{index // FILE_COUNT + 1}" for index in range(SQUARE_COUNT)
)
SQUARE_INDEX: dict[str, int] = {name: index for index, name in enumerate(SQUARE_NAMES)}
#: A square name in move notation (the rank without a leading zero).
SQUARE_PATTERN = r"[a-f](?:1[0-2]|[1-9])"
_SQUARE_RE = re.compile(SQUARE_PATTERN)

BOARD = (1 << SQUARE_COUNT) - 1
FILE_A = sum(1 << (rank * FILE_COUNT) for rank in range(RANK_COUNT))
FILE_F = FILE_A << (FILE_COUNT - 1)
NOT_FILE_A = BOARD & ~FILE_A
NOT_FILE_F = BOARD & ~FILE_F

SIDES: tuple[str, str] = ("south", "north")
PLAYERS = (1, 2)


def rank_mask(rank: int) -> int:
    """The squares of ``rank`` (1..12)."""
    return ((1 << FILE_COUNT) - 1) << ((rank - 1) * FILE_COUNT)


SOUTH_HALF = sum(rank_mask(rank) for rank in range(1, HALF_RANKS + 1))
NORTH_HALF = BOARD & ~SOUTH_HALF
#: Each player's home half, indexed by player number (index 0 unused).
HOME: tuple[int, int, int] = (0, SOUTH_HALF, NORTH_HALF)
#: Each player's star row (their row 6, at their edge) and X row (their row 5).
STAR_ROW: tuple[int, int, int] = (0, rank_mask(1), rank_mask(RANK_COUNT))
X_ROW: tuple[int, int, int] = (0, rank_mask(2), rank_mask(RANK_COUNT - 1))
#: The squares a player's coins start on: their star and X rows.
START_ROWS: tuple[int, int, int] = (0, STAR_ROW[1] | X_ROW[1], STAR_ROW[2] | X_ROW[2])
#: The smallest roll that lets a piece step from its own half into the enemy half.
WALL_ROLL = 4


def other(player: int) -> int:
    """The opponent of ``player`` (1 or 2)."""
    return 3 - player


def king_steps(squares: int) -> int:
    """Every square one king step (any of the 8 directions) from a square of ``squares``."""
    east = (squares & NOT_FILE_F) << 1
    west = (squares & NOT_FILE_A) >> 1
    row = squares | east | west
    return ((row << FILE_COUNT) | (row >> FILE_COUNT) | east | west) & BOARD


def bits(squares: int) -> list[int]:
    """The indices of the squares in ``squares``, lowest first."""
    found = []
    while squares:
        low = squares & -squares
        found.append(low.bit_length() - 1)
        squares ^= low
    return found


def mask_of(indices: list[int] | tuple[int, ...]) -> int:
    """The bitboard of square indices."""
    mask = 0
    for index in indices:
        mask |= 1 << index
    return mask


def is_square_name(text: str) -> bool:
    """Whether ``text`` names a square (``a1``..``f12``)."""
    return _SQUARE_RE.fullmatch(text) is not None


def names(squares: int) -> list[str]:
    """The names of the squares in ``squares``, in index order."""
    return [SQUARE_NAMES[index] for index in bits(squares)]
