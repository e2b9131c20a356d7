"""Sowing plans: the routes a pit's beads can take, grouped by what they can lead to.

Two routes that drop the same number of beads into every pit and end with the same run of drops
on the opponent's side reach the same positions (the mover orders the beads freely, and only
that final run decides a capture), so only the first of them is kept. A plan is cached by its
origin and bead count.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from companion.games.shakala.board import other, owner, routes, side_pits


@dataclass(frozen=True)
class Plan:
    """One route kept for sowing: ``route`` the pits in drop order; ``slots`` each pit it
    drops into with how many beads, in order of first drop; ``tail`` the final run of drops on
    the opponent's side, last drop first (where a capture is counted from); ``feeds`` whether
    any bead falls on the opponent's side."""

    route: tuple[int, ...]
    slots: tuple[tuple[int, int], ...]
    tail: tuple[int, ...]
    feeds: bool


@cache
def plans(origin: int, beads: int) -> tuple[Plan, ...]:
    """The plans of ``beads`` beads sown from ``origin``, one per group of equivalent routes."""
    theirs = set(side_pits(other(owner(origin))))
    kept: dict[tuple[tuple[tuple[int, int], ...], tuple[int, ...]], Plan] = {}
    for route in routes(origin, beads):
        counts: dict[int, int] = {}
        for pit in route:
            counts[pit] = counts.get(pit, 0) + 1
        tail = tuple(_tail(route, theirs))
        key = (tuple(sorted(counts.items())), tail)
        if key not in kept:
            kept[key] = Plan(route, tuple(counts.items()), tail,
                             any(pit in theirs for pit in route))
    return tuple(kept.values())


def _tail(route: tuple[int, ...], theirs: set[int]) -> Iterator[int]:
    for pit in reversed(route):
        if pit not in theirs:
            return
        yield pit


@cache
def submultisets(counts: tuple[int, ...], size: int) -> tuple[tuple[int, ...], ...]:
    """Every way to take ``size`` items from a multiset given as ``counts`` per kind: the
    counts taken per kind, each way once."""
    if size == 0:
        return ((0,) * len(counts),)
    if not counts:
        return ()
    first, rest = counts[0], counts[1:]
    found = []
    for take in range(min(first, size), -1, -1):
        if sum(rest) >= size - take:
            found += [(take, *tail) for tail in submultisets(rest, size - take)]
    return tuple(found)
