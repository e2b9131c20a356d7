"""What a coin path lets the player choose, and which choices are distinct moves.

A path's variants add choices: the coins moved from the source square (mixed change), how many
coins are taken (semi-greedy) and, under transplant, the empty squares that receive the collected
coins. Legal moves are listed once per distinct outcome, and the placements are where most of the
sameness comes from: a path square the move empties and then refills looks as it did before, so
many (path, placements) pairs leave one position. Applying every pair and remembering every
resulting position took minutes and gigabytes on an open board, so this module never does that.

Instead each path's placements are split in two: *refills* (path squares the move empties) and
*fresh* squares (empty before the move, which depend only on the target). A
:class:`PlacementGroup` is one path, one take, one choice of source coins and one set of refills;
its moves are every choice of the fresh squares, ``comb(len(fresh), count)`` of them, all
distinct, and they can be counted without being built. Two groups leave the same positions
exactly when they change the board's path squares alike (same target, same coins taken, same
source coins), so only that small change key is remembered, once per group, never a position.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations
from math import comb

from companion.games.coin_isolation.moves import CoinIsolationMove, placed_move
from companion.games.coin_isolation.position import MIXED_VARIANTS, CoinIsolationPosition

TRANSPLANTS = frozenset({"transplant", "transplant-variant-variant"})

#: What a group changes on the board: target, coins taken, source coins, and each path square
#: whose stack differs afterwards with its new stack.
ChangeKey = tuple[int, str, str, tuple[tuple[int, str], ...]]


@dataclass(frozen=True)
class PlacementGroup:
    """Transplant moves that share a path, a take, source coins and refills: ``base`` with
    ``refills`` plus every choice of ``count`` squares of ``fresh`` as its placements."""

    base: CoinIsolationMove
    refills: tuple[int, ...]
    fresh: tuple[int, ...]
    count: int

    @property
    def size(self) -> int:
        """How many moves the group holds, without building them."""
        return comb(len(self.fresh), self.count)

    def moves(self) -> Iterator[CoinIsolationMove]:
        """The group's moves, placements in index order."""
        base = self.base
        _ = base.path, base.mask  # computed once, shared by every move of the group
        for chosen in combinations(self.fresh, self.count):
            yield placed_move(base, tuple(sorted(self.refills + chosen)))


def takes(position: CoinIsolationPosition, coin: str, target: int) -> list[int | None]:
    """The take counts a path to ``target`` offers: 0 to all under semi-greedy, else the rule's
    (None)."""
    if "semi-greedy" not in position.variant_set:
        return [None]
    return list(range(position.squares[target].count(coin) + 1))


def path_choices(
    position: CoinIsolationPosition, coin: str, steps: tuple[int, ...]
) -> Iterator[CoinIsolationMove]:
    """Every choice of source coins and take for one path (no transplant)."""
    named = coin if position.variant_set & MIXED_VARIANTS else None
    for source_coins in source_options(position):
        for take in takes(position, coin, steps[-1]):
            yield CoinIsolationMove(steps=steps, coin=named, source_coins=source_coins, take=take)


def changes_nothing(move: CoinIsolationMove) -> bool:
    """Whether a (non-transplant) path move leaves every coin where it was but the source coins:
    a one-square path taking nothing. Only such moves can repeat another's outcome (a zero take
    under mixed change, with each coin type the target holds), so only they are deduplicated."""
    return len(move.steps) == 1 and move.take == 0


def placement_groups(
    position: CoinIsolationPosition, coin: str, steps: tuple[int, ...], seen: set[ChangeKey]
) -> Iterator[PlacementGroup]:
    """The transplant groups of one path that no earlier group (in ``seen``, which this adds
    to) already covers."""
    named = coin if position.variant_set & MIXED_VARIANTS else None
    for source_coins in source_options(position):
        for take in takes(position, coin, steps[-1]):
            base = CoinIsolationMove(steps=steps, coin=named, source_coins=source_coins, take=take)
            yield from _groups(position, base, coin, seen)


def _groups(
    position: CoinIsolationPosition, base: CoinIsolationMove, coin: str, seen: set[ChangeKey]
) -> Iterator[PlacementGroup]:
    steps = base.steps
    squares, collected, taken = take_and_collect(position, coin, steps, base.take)
    receiving = receiving_squares(position, squares, steps[-1])
    on_path = set(steps)
    refillable = [square for square in receiving if square in on_path]
    fresh = tuple(square for square in receiving if square not in on_path)
    need = len(collected)
    for size in range(max(0, need - len(fresh)), min(need, len(refillable)) + 1):
        for refills in combinations(refillable, size):
            key = _change_key(position, squares, coin, steps, refills, taken, base.source_coins)
            if key not in seen:
                seen.add(key)
                yield PlacementGroup(base, refills, fresh, need - size)


def _change_key(
    position: CoinIsolationPosition,
    squares: list[str],
    coin: str,
    steps: tuple[int, ...],
    refills: tuple[int, ...],
    taken: str,
    source_coins: str,
) -> ChangeKey:
    """What the group does to the path squares. Fresh squares and the source take the same
    coins in every group with this key, so equal keys mean equal positions, and the number of
    fresh squares to fill follows from the coins the key leaves on the board."""
    changed = []
    for square in sorted(steps):
        after = coin if square in refills else squares[square]
        if after != position.squares[square]:
            changed.append((square, after))
    return steps[-1], taken, source_coins, tuple(changed)


def source_options(position: CoinIsolationPosition) -> list[str]:
    """What the mixed-change rules let the player move from the source square ([""] if none)."""
    variants = position.variant_set
    source = position.pawns[position.to_move - 1]
    if not variants & MIXED_VARIANTS or source is None or not position.squares[source]:
        return [""]
    stack = position.squares[source]
    if "mixed-change-2008" in variants:
        return sorted({"".join(choice) for choice in combinations(stack, len(stack) // 2)})
    return sorted(set(stack), key=stack.index)


def take_and_collect(
    position: CoinIsolationPosition, coin: str, steps: tuple[int, ...], take: int | None
) -> tuple[list[str], str, str]:
    """The board after taking from the target and collecting the path coins; and those coins."""
    squares = list(position.squares)
    target = steps[-1]
    variants = position.variant_set
    if take is None:
        take = squares[target].count(coin) if "greedy" in variants else 1
    squares[target] = remove_coins(squares[target], coin, take)
    collected = []
    cleanup = "cleanup" in variants
    for square in steps[:-1]:
        count = squares[square].count(coin) if cleanup else 1
        squares[square] = remove_coins(squares[square], coin, count)
        collected.append(coin * count)
    return squares, "".join(collected), coin * take


def remove_coins(stack: str, coin: str, count: int) -> str:
    """``stack`` without ``count`` coins of type ``coin`` (from the top when they are there)."""
    if not count:
        return stack
    if stack[-count:] == coin * count:
        return stack[:-count]
    position = stack.index(coin)
    return stack[:position] + stack[position + count :]


def receiving_squares(
    position: CoinIsolationPosition, squares: list[str], target: int
) -> list[int]:
    """Empty squares when the collected coins are placed (transplant: pawn not yet moved;
    transplant-variant-variant: pawn already on the target)."""
    pawns = position.pawn_mask
    if "transplant-variant-variant" in position.variant_set:
        source = position.pawns[position.to_move - 1]
        if source is not None:
            pawns &= ~(1 << source)
        pawns |= 1 << target
    return [index for index in range(64) if not squares[index] and not (pawns >> index) & 1]
