"""Shakala move notation: what a player says of a move, and its parser.

A move is the origin pit, then each bead in the order it was dropped, as the pit it fell into
and what it was (``s`` a stone, a digit a gem of that value), joined by ``-``; then, after a
move that captures, ``:`` and the gems taken, joined by ``+``, each as the pit it was taken from
and its value, or ``cup`` and its value for a gem taken from the opponent's cup::

    B-C2-Ds              South sows B: the 2-gem into C, the stone into D
    E-A4-Bs              from E along the outer track (A follows E only there)
    H-e1-fs:f3           the stone falls on f's lone 3-gem: a direct capture of it
    D-H2-es-fs:b4+cup1   the stone lands on a lone stone twice: two gems taken, b's 4 and
                         one from North's cup once North's pits hold no more gems

The pits named say the route: the pit after a fork (``E`` or ``e``) is ``F``/``f`` on the inner
track and ``A``/``a`` on the outer one, at every pass, and the origin is never named again.
Captured gems are written in a fixed order (pits ``A``..``h``, then the cup, values rising),
so a move has one text. ``parse_move(move.text()).text() == move.text()`` for every move.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from companion.games.base import Move, NotationError
from companion.games.shakala.board import PIT_INDEX, PIT_NAMES

STONE_LETTER = "s"
CUP = "cup"
_DROP = re.compile(r"([A-Ha-h])(s|[1-9])")
_TAKE = re.compile(r"(cup|[A-Ha-h])([1-9])")

#: A dropped bead: (pit, bead) with bead 0 a stone, else a gem's value.
Drop = tuple[int, int]
#: A captured gem: (pit, value), the pit None for the opponent's cup.
Take = tuple[int | None, int]


def _take_order(take: Take) -> tuple[int, int]:
    pit, value = take
    return (16 if pit is None else pit, value)


@dataclass(frozen=True)
class ShakalaMove(Move):
    """One sowing: ``origin``, the ``drops`` in order and the gems ``taken`` (kept sorted)."""

    origin: int
    drops: tuple[Drop, ...]
    taken: tuple[Take, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "taken", tuple(sorted(self.taken, key=_take_order)))

    def text(self) -> str:
        """The notation of the module docstring."""
        parts = [PIT_NAMES[self.origin]]
        parts += [PIT_NAMES[pit] + (STONE_LETTER if bead == 0 else str(bead))
                  for pit, bead in self.drops]
        text = "-".join(parts)
        if self.taken:
            text += ":" + "+".join((CUP if pit is None else PIT_NAMES[pit]) + str(value)
                                   for pit, value in self.taken)
        return text

    def regions(self) -> tuple[str, ...]:
        """The origin, then each pit a bead fell into, in order (a pit once)."""
        seen = [PIT_NAMES[self.origin]]
        for pit, _ in self.drops:
            if PIT_NAMES[pit] not in seen:
                seen.append(PIT_NAMES[pit])
        return tuple(seen)

    def __repr__(self) -> str:
        return f"parse_move({self.text()!r})"


def parse_move(text: str) -> ShakalaMove:
    """Parse the notation; raises :class:`NotationError` naming the bad part."""
    if not isinstance(text, str):
        raise NotationError(f"a Shakala move is text, not {text!r}")
    sowing, colon, taking = text.strip().partition(":")
    parts = sowing.split("-")
    if parts[0] not in PIT_INDEX:
        raise NotationError(f"Shakala move {text!r} must start with the pit sown (A..H, a..h)")
    if len(parts) < 2:
        raise NotationError(f"Shakala move {text!r} names no bead dropped; write e.g. B-C2-Ds")
    drops = tuple(_drop(part, text) for part in parts[1:])
    taken = tuple(_take(part, text) for part in taking.split("+")) if colon else ()
    return ShakalaMove(PIT_INDEX[parts[0]], drops, taken)


def _drop(part: str, text: str) -> Drop:
    match = _DROP.fullmatch(part)
    if match is None:
        raise NotationError(f"{part!r} in Shakala move {text!r} is no drop; a drop is a pit "
                            "and s (a stone) or a gem's value, e.g. Ds or C2")
    bead = match.group(2)
    return PIT_INDEX[match.group(1)], 0 if bead == STONE_LETTER else int(bead)


def _take(part: str, text: str) -> Take:
    match = _TAKE.fullmatch(part)
    if match is None:
        raise NotationError(f"{part!r} in Shakala move {text!r} is no captured gem; write a pit "
                            "or cup and the gem's value, e.g. f3 or cup1")
    where = match.group(1)
    return (None if where == CUP else PIT_INDEX[where]), int(match.group(2))
