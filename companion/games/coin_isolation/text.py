"""A Coin Isolation position drawn as text, for `companion rules show` and for logs."""

from __future__ import annotations

from companion.games.base import Result
from companion.games.coin_isolation.board import FILES
from companion.games.coin_isolation.position import CoinIsolationPosition

CELL = 6


def draw_position(position: CoinIsolationPosition, result: Result) -> str:
    """The board with rank 8 on top as South sees it, then whose turn it is and the scores.

    A cell shows the top coin and the stack height when above 1 (``N3`` is three coins, a nickel
    on top) and ``@2`` when player 2's pawn stands there; ``.`` is an empty square.
    """
    pawn_at = {square: player for player, square in enumerate(position.pawns, 1)}
    lines = ["    " + "".join(f"{file:^{CELL}}" for file in FILES)]
    for rank in range(7, -1, -1):
        cells = []
        for file in range(8):
            index = rank * 8 + file
            stack = position.squares[index]
            text = stack[-1] + (str(len(stack)) if len(stack) > 1 else "") if stack else "."
            if index in pawn_at:
                text += f"@{pawn_at[index]}"
            cells.append(f"{text:^{CELL}}")
        lines.append(f"{rank + 1:>2}  " + "".join(cells) + f"  {rank + 1}")
    lines.append(lines[0])
    lines.append("variants: " + (", ".join(position.variants) or "none"))
    for player, side in enumerate(position.sides, 1):
        flags = " (renegade)" if player in position.renegades else ""
        lines.append(
            f"player {player} ({side}){flags}: {position.score(player)}¢ taken "
            f"[{position.taken[player - 1] or '-'}]"
        )
    from companion.games.coin_isolation.rules import is_over

    if is_over(position):
        lines.append(f"game over: {result.text()}")
    else:
        lines.append(f"player {position.to_move} to move; passes in a row: {position.passes}")
    return "\n".join(lines)
