"""The Shakala board as text for a terminal: four rows of pits as South sees them, North's
back row on top, each pit as its stones and gems (``2s 34``: two stones, gems worth 3 and 4;
``.`` empty), and each cup with its points."""

from __future__ import annotations

from companion.games.shakala.board import PIT_INDEX
from companion.games.shakala.position import STONE, Beads, ShakalaPosition

#: The rows as South sees them, top to bottom.
ROWS = ("dcba", "hgfe", "EFGH", "ABCD")
SIDE_NAMES = ("South", "North")
CELL = 9


def pit_text(beads: Beads) -> str:
    """One pit: ``2s 34`` (two stones, gems 3 and 4), ``1s``, ``4``, or ``.`` when empty."""
    stones = beads.count(STONE)
    gems = "".join(str(bead) for bead in beads if bead != STONE)
    parts = ([f"{stones}s"] if stones else []) + ([gems] if gems else [])
    return " ".join(parts) or "."


def cup_line(position: ShakalaPosition, player: int) -> str:
    """A cup's gems and points: ``North cup: 3 4 (7 points)``."""
    gems = " ".join(map(str, position.cup(player))) or "empty"
    return f"{SIDE_NAMES[player - 1]} cup: {gems} ({position.points(player)} points)"


def draw_position(position: ShakalaPosition, summary: str) -> str:
    """The board with pit names over each row of contents, cups, and ``summary`` last."""
    lines = [cup_line(position, 2)]
    for row in ROWS:
        lines.append("".join(name.center(CELL) for name in row).rstrip())
        lines.append("".join(pit_text(position.pits[PIT_INDEX[name]]).center(CELL)
                             for name in row).rstrip())
    lines.append(cup_line(position, 1))
    lines.append(summary)
    return "\n".join(lines)
