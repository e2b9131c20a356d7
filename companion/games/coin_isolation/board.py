"""The Coin Isolation board as bitboards: square names, sides, adjacency, flood fill, coins.

Square ``i`` is ``rank * 8 + file`` (a1 = 0, b1 = 1, ..., h8 = 63), files a-h left to right and
ranks 1-8 from South's edge, as South sees the board. A set of squares is a Python int with bit
``i`` set for square ``i``, so unions, intersections and flood fills are a few integer operations.
"""

from __future__ import annotations

from collections.abc import Iterator

FILES = "abcdefgh"
SQUARE_NAMES: tuple[str, ...] = tuple(f"{FILES[i % 8]}{i // 8 + 1}" for i in range(64))
SQUARE_INDEX: dict[str, int] = {name: index for index, name in enumerate(SQUARE_NAMES)}

FULL = (1 << 64) - 1
FILE_A = 0x0101010101010101
FILE_H = FILE_A << 7
NOT_A = FULL ^ FILE_A
NOT_H = FULL ^ FILE_H

#: A side's first row: its edge rank or file, corners included.
SIDE_ROWS: dict[str, int] = {
    "south": 0xFF,
    "north": 0xFF << 56,
    "west": FILE_A,
    "east": FILE_H,
}
#: Default seats in turn order, by number of players.
DEFAULT_SIDES: dict[int, tuple[str, ...]] = {
    2: ("south", "north"),
    3: ("south", "west", "east"),
    4: ("south", "east", "north", "west"),
}

#: Coin letters with their value in cents.
COIN_VALUES: dict[str, int] = {"P": 1, "N": 5, "D": 10, "Q": 25}
#: Mixed stacks keep the smallest coins on top; bottom-to-top order by diameter.
STACK_ORDER = "QNPD"
STACK_RANK: dict[str, int] = {coin: rank for rank, coin in enumerate(STACK_ORDER)}


def square_name(index: int) -> str:
    """The name (``a1``..``h8``) of square ``index``."""
    return SQUARE_NAMES[index]


def bits(mask: int) -> Iterator[int]:
    """The square indices set in ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def names_of(mask: int) -> tuple[str, ...]:
    """Square names in ``mask``, in index order."""
    return tuple(SQUARE_NAMES[index] for index in bits(mask))


def spread_orthogonal(mask: int) -> int:
    """``mask`` plus every square sharing a side with one of its squares."""
    return (
        mask
        | ((mask << 1) & NOT_A)
        | ((mask >> 1) & NOT_H)
        | ((mask << 8) & FULL)
        | (mask >> 8)
    )


def spread_diagonal(mask: int) -> int:
    """``mask`` plus every square sharing a side or a corner with one of its squares."""
    row = mask | ((mask << 1) & NOT_A) | ((mask >> 1) & NOT_H)
    return row | ((row << 8) & FULL) | (row >> 8)


def _neighbours(index: int, diagonal: bool) -> int:
    spread = spread_diagonal if diagonal else spread_orthogonal
    return spread(1 << index) & ~(1 << index)


#: Adjacency masks by square: ``ADJACENT[diagonal][index]``.
ADJACENT: tuple[tuple[int, ...], tuple[int, ...]] = (
    tuple(_neighbours(index, False) for index in range(64)),
    tuple(_neighbours(index, True) for index in range(64)),
)


def flood(seeds: int, allowed: int, diagonal: bool) -> int:
    """Squares of ``allowed`` connected to ``seeds & allowed`` through ``allowed``."""
    allowed &= FULL
    reached = seeds & allowed
    while True:  # the spreads inlined: this is the hot loop of targets and perft's counts
        if diagonal:
            row = reached | ((reached << 1) & NOT_A) | ((reached >> 1) & NOT_H)
            grown = (row | (row << 8) | (row >> 8)) & allowed
        else:
            grown = (reached | ((reached << 1) & NOT_A) | ((reached >> 1) & NOT_H)
                     | (reached << 8) | (reached >> 8)) & allowed
        if grown == reached:
            return reached
        reached = grown


def sort_stack(stack: str) -> str:
    """A mixed stack with the largest coins at the bottom and the smallest on top."""
    return "".join(sorted(stack, key=STACK_RANK.__getitem__))


def stack_value(coins: str) -> int:
    """The value in cents of some coins."""
    return sum(COIN_VALUES[coin] for coin in coins)
