"""The Shakala board: sixteen pits, two tracks, two forks, and every route a sowing can take.

Pits as South sees the board (South at the bottom, sowing counter-clockwise)::

    d c b a     North's back row
    h g f e     North's front row
    E F G H     South's front row
    A B C D     South's back row

Pits are numbered 0..15 in the order ``A B C D E F G H a b c d e f g h``: South (player 1) owns
0..7 and North (player 2) 8..15. The inner track is ``E F G H e f g h`` and the outer one
``E A B C D H e a b c d h``; ``E`` and ``e`` are the forks where the mover picks a track, ``H``
and ``h`` are where the tracks join.
"""

from __future__ import annotations

from functools import cache

PIT_NAMES = "ABCDEFGHabcdefgh"
PIT_INDEX = {name: index for index, name in enumerate(PIT_NAMES)}
PITS = range(16)
SIDES = ("south", "north")
PLAYERS = (1, 2)
#: The forks (South's ``E``, North's ``e``), by pit number.
FORKS = (4, 12)
INNER, OUTER = "inner", "outer"
#: The next pit along the track from each pit that is no fork.
_NEXT = {0: 1, 1: 2, 2: 3, 3: 7, 5: 6, 6: 7, 7: 12,
         8: 9, 9: 10, 10: 11, 11: 15, 13: 14, 14: 15, 15: 4}
#: The next pit from each fork, by track.
_FORK_NEXT = {4: {INNER: 5, OUTER: 0}, 12: {INNER: 13, OUTER: 8}}


def other(player: int) -> int:
    """The opponent of ``player``."""
    return 3 - player


def side_pits(player: int) -> range:
    """The pits ``player`` owns: 0..7 for South (1), 8..15 for North (2)."""
    return range(0, 8) if player == 1 else range(8, 16)


def owner(pit: int) -> int:
    """The player who owns ``pit``."""
    return 1 if pit < 8 else 2


def next_pits(pit: int) -> tuple[int, ...]:
    """Where the track goes from ``pit``: two pits (inner, outer) from a fork, else one."""
    if pit in _FORK_NEXT:
        return (_FORK_NEXT[pit][INNER], _FORK_NEXT[pit][OUTER])
    return (_NEXT[pit],)


@cache
def routes(origin: int, beads: int) -> tuple[tuple[int, ...], ...]:
    """Every sequence of pits that ``beads`` beads sown from ``origin`` can drop into: one
    bead a pit along the track, the origin skipped, a choice of track at every pass through a
    fork while beads remain. Different choices give different sequences (the tracks part at
    once), so none is listed twice."""
    found: list[tuple[int, ...]] = []

    def walk(at: int, left: int, path: tuple[int, ...]) -> None:
        if left == 0:
            found.append(path)
            return
        for pit in next_pits(at):
            if pit == origin:
                walk(pit, left, path)
            else:
                walk(pit, left - 1, (*path, pit))

    walk(origin, beads, ())
    return tuple(found)


def follows(before: int, after: int, origin: int) -> bool:
    """Whether a bead dropped in ``after`` can follow one dropped in ``before`` (or the pick-up
    from ``before`` when it is the origin): the next pit on a track, skipping the origin."""
    for pit in next_pits(before):
        if pit == after and pit != origin:
            return True
        if pit == origin and origin != before and follows(origin, after, origin):
            return True
    return False
