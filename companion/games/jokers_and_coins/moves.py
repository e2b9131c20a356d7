"""Jokers and Coins actions and their text notation: the card, then its play.

One word per action, no spaces, so an action is one command-line argument::

    5:t12>t17          a 5 moves the coin on t12 to t17 (a coin it lands on is bumped)
    4:t2>h1-2          ... a 4 that reaches seat 1's IN (t4) turns into HOME
    3:h1-1>h1-4        ... forward inside HOME
    6:t12>t16,t30>t32  a 6 split between two coins (4 then 2), played in that order
    7:t12>t5           a 7 moves a coin backward
    A:enter            A J Q K: a coin from the supply onto the seat's START
    K:hitman           J Q K: the coin on START jumps to the corner ahead and bumps the coin there
    joker:supply>t40   a Joker: a coin from the supply (or from a track space: joker:t12>t40)
                       replaces another seat's coin on t40
    discard            no legal play: a card is discarded (its rank not entered), the turn passes
    discard:7          ... a 7, which has no legal play, is discarded (its rank known: seen by the
                       camera or entered on the panel at the table; not a child of the game tree)

Cards are ``A 2 3 4 5 6 7 8 9 10 J Q K joker``. The coins moved are the seat's whose coins the
mover plays: their own, or their partner's once their own are all HOME. Places are the regions
of :mod:`~companion.games.jokers_and_coins.ring`. A trailing ``!`` (``5:t12>t17!``) records a
play made without drawing first (the rules text's penalty); it changes only the cards.

``parse(text).text() == text`` for every action, and text not in this form is a
:class:`~companion.games.base.NotationError` naming it. Whether the move is legal is for the
position to say (:class:`~companion.games.base.IllegalMoveError`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from companion.games.base import Move, NotationError

STEP, ENTER, HITMAN, JOKER, DISCARD = "step", "enter", "hitman", "joker", "discard"
ENTERING_CARDS = ("A", "J", "Q", "K")
HITMAN_CARDS = ("J", "Q", "K")
_CARD = r"(?P<card>A|[2-9]|10|J|Q|K)"
_PLACE = r"(?:t[1-9][0-9]*|h[1-6]-[1-4])"
_STEP = rf"(?P<a>{_PLACE})>(?P<b>{_PLACE})(?:,(?P<c>{_PLACE})>(?P<d>{_PLACE}))?"
_PATTERNS = (
    (DISCARD, re.compile(r"discard(?::(?P<card>A|[2-9]|10|J|Q|K|joker))?")),
    (ENTER, re.compile(rf"{_CARD}:enter")),
    (HITMAN, re.compile(rf"{_CARD}:hitman")),
    (JOKER, re.compile(r"joker:(?P<a>supply|t[1-9][0-9]*)>(?P<b>t[1-9][0-9]*)")),
    (STEP, re.compile(rf"{_CARD}:{_STEP}")),
)


@dataclass(frozen=True, repr=False)
class JokersMove(Move):
    """One action (see the module docstring): ``kind``, the ``card`` played (None for a
    discard whose rank is not known), ``steps`` as (from, to) region pairs in the order they
    are played, and ``no_draw`` for a play made without drawing first."""

    kind: str
    card: str | None = None
    steps: tuple[tuple[str, str], ...] = ()
    no_draw: bool = False

    @classmethod
    def parse(cls, text: str) -> JokersMove:
        """Read one action; raises :class:`NotationError` naming the text."""
        return parse_move(text)

    def text(self) -> str:
        """The notation of the module docstring."""
        if self.kind == DISCARD:
            body = f"discard:{self.card}" if self.card else "discard"
        elif self.kind in (ENTER, HITMAN):
            body = f"{self.card}:{self.kind}"
        else:
            body = f"{self.card}:" + ",".join(f"{a}>{b}" for a, b in self.steps)
        return body + ("!" if self.no_draw else "")

    def regions(self) -> tuple[str, ...]:
        """The places named, in order (supply left out); enter and Hit Man name none."""
        return tuple(place for step in self.steps for place in step if place != "supply")

    def __repr__(self) -> str:
        return f"JokersMove.parse({self.text()!r})"


@cache
def parse_move(text: str) -> JokersMove:
    """Parse the notation of the module docstring."""
    if not isinstance(text, str):
        raise NotationError(f"a Jokers and Coins move is text, not {text!r}")
    body, no_draw = (text[:-1], True) if text.endswith("!") else (text, False)
    for kind, pattern in _PATTERNS:
        match = pattern.fullmatch(body)
        if match:
            return _checked(kind, match, no_draw, text)
    raise NotationError(f"cannot read Jokers and Coins move {text!r}; write e.g. 5:t12>t17, "
                        "6:t12>t16,t30>t32, A:enter, K:hitman, joker:supply>t40 or discard")


def _checked(kind: str, match: re.Match[str], no_draw: bool, text: str) -> JokersMove:
    groups = match.groupdict()
    card = "joker" if kind == JOKER else groups.get("card")
    if kind == ENTER and card not in ENTERING_CARDS:
        raise NotationError(f"{text!r}: only A, J, Q and K enter a coin")
    if kind == HITMAN and card not in HITMAN_CARDS:
        raise NotationError(f"{text!r}: only J, Q and K make the Hit Man move")
    steps: tuple[tuple[str, str], ...] = ()
    if kind in (STEP, JOKER):
        steps = ((groups["a"], groups["b"]),)
        if groups.get("c"):
            if card != "6":
                raise NotationError(f"{text!r}: only a 6 is split between two coins")
            steps += ((groups["c"], groups["d"]),)
    return JokersMove(kind, card, steps, no_draw)
