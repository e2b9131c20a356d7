"""A Coin Grid position drawn as text, for `companion rules show` and for logs."""

from __future__ import annotations

from companion.games.coin_grid.board import (
    FILE_COUNT,
    FILES,
    HALF_RANKS,
    RANK_COUNT,
    SQUARE_NAMES,
    STAR_ROW,
    X_ROW,
)
from companion.games.coin_grid.position import CoinGridPosition, Piece

CELL = 5
SIDE_NAMES = ("South", "North")


def piece_text(piece: Piece) -> str:
    """A piece in a cell: ``S`` or ``N`` for its owner, then ``1`` (single coin), ``2``
    (double stack) or ``d`` (dead coin), then ``'`` once it has moved: ``S1``, ``N2'``, ``Sd``."""
    kind = "d" if piece.dead else "2" if piece.double else "1"
    return f"{'SN'[piece.owner - 1]}{kind}{chr(39) if piece.moved else ''}"


def _row_mark(rank: int) -> str:
    """``*`` beside a star row, ``x`` beside an X row."""
    row = 1 << ((rank - 1) * FILE_COUNT)
    if row & (STAR_ROW[1] | STAR_ROW[2]):
        return "*"
    return "x" if row & (X_ROW[1] | X_ROW[2]) else " "


def draw_position(position: CoinGridPosition, summary: str) -> str:
    """The board with rank 12 (North's star row) on top as South sees it, the wall drawn as
    ``=``, rows marked ``*`` (stars) and ``x`` (X's), then the turn and the coins off the
    board; ``summary`` is the last line (whose turn, or the result). ``.`` is an empty square."""
    header = "     " + "".join(f"{file:^{CELL}}" for file in FILES)
    lines = [header]
    pieces = position.pieces()
    for rank in range(RANK_COUNT, 0, -1):
        cells = []
        for file in range(FILE_COUNT):
            square = (rank - 1) * FILE_COUNT + file
            piece = pieces.get(square)
            cells.append(f"{piece_text(piece) if piece else '.':^{CELL}}")
        mark = _row_mark(rank)
        lines.append(f"{rank:>3}{mark} " + "".join(cells) + f" {mark}{rank}")
        if rank == HALF_RANKS + 1:
            lines.append("     " + "=" * (CELL * FILE_COUNT) + "  wall")
    lines.append(header)
    lines.append("variants: " + (", ".join(position.variants) or "none"))
    for player in (1, 2):
        lines.append(f"player {player} ({SIDE_NAMES[player - 1]}): "
                     f"{position.piece_count(player)} pieces, "
                     f"{position.coins_on_board(player)} coins on the board, "
                     f"{position.reserve(player)} in reserve")
    lines.append(f"dead coins in the supply: {position.supply}")
    if position.battle_square is not None and position.attacker is not None:
        lines.append(f"battle on {SQUARE_NAMES[position.battle_square]}: attacker "
                     f"{piece_text(position.attacker)}")
    lines.append(summary)
    return "\n".join(lines)
