"""Path search for Coin Isolation: distinct (squares, target) outcomes, targets, fitted paths.

A move's outcome depends on the set of path squares and the target, not on the order in between,
so the search runs over states (set of visited squares, last square), never over raw paths: states
are grown one layer (path length) at a time, keyed by the visited set, with the set of possible
last squares as a bitboard. Each state is one distinct outcome and is reached once, with the first
path found kept as its representative. Legal targets are a flood fill. ``fitted_path`` finds one
path covering given squares, for ``candidates``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from typing import NamedTuple

from companion.games.coin_isolation.board import ADJACENT, FULL, SIDE_ROWS, bits, flood
from companion.games.coin_isolation.position import CoinIsolationPosition

#: The pseudo coin type of a path over empty squares (empty-squares, renegade).
EMPTY = ""


class PathClass(NamedTuple):
    """Squares a path may use: all hold ``coin`` (or are empty, for ``EMPTY``), none a pawn.
    (A named tuple: cheaper to define than a dataclass, for commands that start and end in
    milliseconds.)"""

    coin: str
    allowed: int


def start_squares(position: CoinIsolationPosition, player: int) -> int:
    """Where a path may begin: the side's first row on the first turn, else next to the pawn."""
    source = position.pawns[player - 1]
    if source is None:
        return SIDE_ROWS[position.sides[player - 1]]
    return ADJACENT["diagonal" in position.variant_set][source]


def path_classes(
    position: CoinIsolationPosition, with_empty: bool
) -> list[PathClass]:
    """The coin types a path can be made of, with their squares; plus empty squares if asked."""
    free = FULL ^ position.pawn_mask
    classes = []
    for coin, mask in position.type_masks.items():
        if mask & free:
            classes.append(PathClass(coin, mask & free))
    if with_empty:
        empty = free & ~position.coin_mask & FULL
        if empty:
            classes.append(PathClass(EMPTY, empty))
    return classes


def outcomes(starts: int, allowed: int, diagonal: bool) -> Iterator[tuple[int, ...]]:
    """One representative path (square indices, target last) per distinct (squares, target).

    Breadth first by path length; ``layer`` maps a visited set to {last square: path}.
    """
    adjacent = ADJACENT[diagonal]
    layer: dict[int, dict[int, tuple[int, ...]]] = {}
    for square in bits(starts & allowed):
        path: tuple[int, ...] = (square,)
        layer[1 << square] = {square: path}
        yield path
    while layer:
        following: dict[int, dict[int, tuple[int, ...]]] = {}
        for visited, ends in layer.items():
            free = allowed & ~visited
            for last, path in ends.items():
                step_mask = adjacent[last] & free
                while step_mask:
                    low = step_mask & -step_mask
                    step_mask ^= low
                    grown = visited | low
                    known = following.get(grown)
                    square = low.bit_length() - 1
                    if known is None:
                        longer = (*path, square)
                        following[grown] = {square: longer}
                        yield longer
                    elif square not in known:
                        longer = (*path, square)
                        known[square] = longer
                        yield longer
        layer = following


def outcome_paths(starts: int, allowed: int, diagonal: bool) -> list[tuple[int, ...]]:
    """The same paths as :func:`outcomes`, built as a list (faster when all are wanted)."""
    adjacent = ADJACENT[diagonal]
    layer: dict[int, dict[int, tuple[int, ...]]] = {}
    for square in bits(starts & allowed):
        layer[1 << square] = {square: (square,)}
    paths: list[tuple[int, ...]] = [path for ends in layer.values() for path in ends.values()]
    append = paths.append
    while layer:
        following: dict[int, dict[int, tuple[int, ...]]] = {}
        get = following.get
        for visited, ends in layer.items():
            free = allowed & ~visited
            for last, path in ends.items():
                step_mask = adjacent[last] & free
                while step_mask:
                    low = step_mask & -step_mask
                    step_mask ^= low
                    grown = visited | low
                    known = get(grown)
                    if known is None:
                        square = low.bit_length() - 1
                        longer = (*path, square)
                        following[grown] = {square: longer}
                        append(longer)
                    else:
                        square = low.bit_length() - 1
                        if square not in known:
                            longer = (*path, square)
                            known[square] = longer
                            append(longer)
        layer = following
    return paths


def count_outcomes(starts: int, allowed: int, diagonal: bool) -> int:
    """The number of distinct (squares, target) states, without building paths."""
    adjacent = ADJACENT[diagonal]
    layer: dict[int, int] = {}
    for square in bits(starts & allowed):
        layer[1 << square] = 1 << square
    total = len(layer)
    while layer:
        following: dict[int, int] = {}
        for visited, ends in layer.items():
            reach = 0
            for last in bits(ends):
                reach |= adjacent[last]
            reach &= allowed & ~visited
            while reach:
                low = reach & -reach
                reach ^= low
                grown = visited | low
                following[grown] = following.get(grown, 0) | low
        total += sum(ends.bit_count() for ends in following.values())
        layer = following
    return total


def reachable(starts: int, allowed: int, diagonal: bool) -> int:
    """Every square some path can end on (a flood fill from the start squares)."""
    return flood(starts, allowed, diagonal)


def shortest_path(
    starts: int, allowed: int, target: int, diagonal: bool
) -> tuple[int, ...] | None:
    """A shortest path from a start square to ``target`` through ``allowed``, or None."""
    adjacent = ADJACENT[diagonal]
    if not (allowed >> target) & 1:
        return None
    parent: dict[int, int | None] = {}
    queue: deque[int] = deque()
    for square in bits(starts & allowed):
        parent[square] = None
        queue.append(square)
    while queue:
        square = queue.popleft()
        if square == target:
            path = [square]
            while (previous := parent[path[-1]]) is not None:
                path.append(previous)
            return tuple(reversed(path))
        for following in bits(adjacent[square] & allowed):
            if following not in parent:
                parent[following] = square
                queue.append(following)
    return None


def fitted_path(
    starts: int, target: int, required: int, optional: int, diagonal: bool
) -> tuple[int, ...] | None:
    """A path from a start square to ``target`` visiting every square of ``required`` and no
    square outside ``required | optional | target``; None if there is none.

    Depth first with pruning: the unvisited required squares and the target must stay reachable
    from the last square, the target is entered last, and failed states are remembered.
    """
    adjacent = ADJACENT[diagonal]
    target_bit = 1 << target
    required &= ~target_bit
    region = required | optional | target_bit
    optional &= ~target_bit & ~required
    failed: set[tuple[int, int]] = set()
    spread_allowed = region

    def search(visited: int, last: int, path: list[int]) -> bool:
        if last == target:
            return required & ~visited == 0
        if (visited, last) in failed:
            return False
        free = spread_allowed & ~visited
        needed = (required & ~visited) | target_bit
        if flood(adjacent[last] & free, free, diagonal) & needed != needed or _dead_end(
            required & ~visited, free | (1 << last), adjacent
        ):
            failed.add((visited, last))
            return False
        step_mask = adjacent[last] & free
        if required & ~visited:
            step_mask &= ~target_bit
        for square in _ordered(step_mask, required, target_bit, adjacent, free):
            path.append(square)
            if search(visited | (1 << square), square, path):
                return True
            path.pop()
        failed.add((visited, last))
        return False

    for start in bits(starts & region):
        if start == target and required:
            continue
        path = [start]
        if search(1 << start, start, path):
            return tuple(path)
    return None


def _dead_end(waiting: int, region: int, adjacent: tuple[int, ...]) -> bool:
    """Whether a square still to visit (not the target) has at most one way in or out, so the
    path would have to end there."""
    return any((adjacent[square] & region).bit_count() < 2 for square in bits(waiting))


def _ordered(
    step_mask: int, required: int, target_bit: int, adjacent: tuple[int, ...], free: int
) -> list[int]:
    """Required squares before optional ones, the target last, and among equals the square
    with the fewest free neighbours first (Warnsdorff's rule finds long paths quickly)."""
    return sorted(
        bits(step_mask),
        key=lambda square: (
            (target_bit >> square) & 1,
            not (required >> square) & 1,
            (adjacent[square] & free).bit_count(),
        ),
    )
