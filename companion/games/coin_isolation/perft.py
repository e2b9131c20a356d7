"""Fast perft for Coin Isolation's plain variants, over bitboards and stack heights only.

Under the plain variants (``diagonal``, ``many-pennies``, ``many-many-pennies``, ``greedy``,
``cleanup``, in any combination) every stack holds one coin type and a legal move is exactly one
distinct (path squares, target) state of a coin path, so perft needs no move object and no
position value: a node is the squares' heights, one bitboard per coin type, the squares holding
a single coin, the pawns, the player to move and the passes in a row. A child is made from a
state directly (the squares it changes and nothing else); the last ply counts states without
making them, and the ply before it makes no child either: it counts each child's moves from the
one bitboard the move changes (:meth:`PlainCounter.last_two`).

The count of one coin type's states depends only on the start squares it can use and the region
they reach, so it is remembered per (starts, region) for the whole perft call: a leaf's
neighbours in the tree mostly leave the player's region untouched. The plain generator in
:mod:`~companion.games.coin_isolation.rules` stays the reference; the tests compare both.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from companion.games.coin_isolation.board import (
    ADJACENT,
    COIN_VALUES,
    FULL,
    NOT_A,
    NOT_H,
    SIDE_ROWS,
    bits,
    flood,
)
from companion.games.coin_isolation.position import CoinIsolationPosition

#: Variants whose legal moves are exactly the (squares, target) states of coin paths.
PLAIN_VARIANTS = frozenset({"diagonal", "many-pennies", "many-many-pennies", "greedy", "cleanup"})
#: Coin letters in the order of a node's bitboards.
COINS = tuple(COIN_VALUES)
#: A remembered count is dropped with all others past this many, to bound memory.
MEMO_LIMIT = 1 << 20


class Node(NamedTuple):
    """A plain-variant position as perft needs it: ``heights`` per square, the squares of each
    coin type (``masks``, in :data:`COINS` order), the squares holding exactly one coin
    (``single``), pawn squares (None: not placed), the index of the player to move (0-based)
    and the passes in a row."""

    heights: tuple[int, ...]
    masks: tuple[int, ...]
    single: int
    pawns: tuple[int | None, ...]
    mover: int
    passes: int


class Rules(NamedTuple):
    """What stays fixed over a perft: first rows by player, adjacency and the take rules (a
    named tuple, like :class:`Node`: cheaper to define than a dataclass, for a command that
    starts, counts and ends in milliseconds)."""

    first_rows: tuple[int, ...]
    diagonal: bool
    greedy: bool
    cleanup: bool


def is_plain(position: CoinIsolationPosition) -> bool:
    """Whether ``position`` plays under plain variants only (this module's perft applies)."""
    return position.variant_set <= PLAIN_VARIANTS


def plain_perft(position: CoinIsolationPosition, depth: int) -> int:
    """perft of a plain-variant position: the same count as the move-by-move recursion."""
    variants = position.variant_set
    rules = Rules(tuple(SIDE_ROWS[side] for side in position.sides), "diagonal" in variants,
                  "greedy" in variants, "cleanup" in variants)
    return PlainCounter(rules).perft(node_of(position), depth)


def node_of(position: CoinIsolationPosition) -> Node:
    """The perft node of a plain-variant position."""
    masks = position.top_masks
    heights = tuple(map(len, position.squares))
    single = sum(1 << square for square, height in enumerate(heights) if height == 1)
    return Node(heights, tuple(masks[coin] for coin in COINS), single, position.pawns,
                position.to_move - 1, position.passes)


class PlainCounter:
    """perft over :class:`Node` values, with the per-region counts remembered for one tree."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.players = len(rules.first_rows)
        self.diagonal = rules.diagonal
        self.greedy = rules.greedy
        self.cleanup = rules.cleanup
        self.adjacent = ADJACENT[rules.diagonal]
        #: Counts by (start squares, the region they reach), and by (starts, allowed squares),
        #: which spares the flood fill where a coin type's squares did not change.
        self.memo: dict[tuple[int, int], int] = {}
        self.known: dict[tuple[int, int], int] = {}

    def perft(self, node: Node, depth: int) -> int:
        """The leaves ``depth`` moves below ``node``."""
        if depth <= 0:
            return 1
        if node.passes >= self.players:
            return 0
        if depth == 1:
            return self.count(self.starts(node.pawns, node.mover), FULL ^ pawn_mask(node.pawns),
                              node.masks)
        if depth == 2:
            return self.last_two(node)
        total = 0
        for child in self.children(node):
            total += self.perft(child, depth - 1)
        return total

    def count(self, starts: int, free: int, masks: tuple[int, ...]) -> int:
        """How many moves a player has from ``starts`` (a pass counts one), with the coin
        types' ``masks`` and the ``free`` squares."""
        total = 0
        for mask in masks:
            total += self.type_count(starts, mask & free)
        return total or 1

    def type_count(self, starts: int, allowed: int) -> int:
        """The moves of one coin type, whose squares without a pawn are ``allowed``."""
        begin = starts & allowed
        if not begin:
            return 0
        known = self.known
        count = known.get((begin, allowed))
        if count is None:
            if len(known) >= MEMO_LIMIT:
                known.clear()
            count = known[begin, allowed] = self.region_count(begin, allowed)
        return count

    def region_count(self, starts: int, allowed: int) -> int:
        """The distinct (squares, target) states of paths from ``starts`` through ``allowed``,
        remembered by the start squares and the region they reach."""
        region = flood(starts, allowed, self.diagonal)
        key = (starts & region, region)
        known = self.memo.get(key)
        if known is None:
            if len(self.memo) >= MEMO_LIMIT:
                self.memo.clear()
            known = self.memo[key] = count_states(starts & region, region, self.diagonal)
        return known

    def starts(self, pawns: tuple[int | None, ...], mover: int) -> int:
        """Where ``mover``'s path may begin: the first row on the first turn, else next to
        the pawn."""
        source = pawns[mover]
        if source is None:
            return self.rules.first_rows[mover]
        return self.adjacent[source]

    def last_two(self, node: Node) -> int:
        """perft 2 of ``node``, without making the children: a child's moves of the coin
        types the move leaves alone are the same for every child (the target holds the moved
        type only, and the mover's pawn leaves the same source), so they are counted once, and
        each child's moves of the moved type from its changed bitboard."""
        following = (node.mover + 1) % self.players
        pawns = pawn_mask(node.pawns)
        source = node.pawns[node.mover]
        free_after = FULL ^ (pawns if source is None else pawns ^ (1 << source))
        next_starts = self.starts(node.pawns, following)
        type_count = self.type_count
        unchanged = [type_count(next_starts, mask & free_after) for mask in node.masks]
        everything = sum(unchanged)
        starts, total, moved = self.starts(node.pawns, node.mover), 0, False
        for index, mask in enumerate(node.masks):
            allowed = mask & ~pawns
            if not starts & allowed:
                continue
            others = everything - unchanged[index]
            # What mask_after makes of the mask, the target aside: the following player's
            # pawn stands on the target, so whether it keeps a coin of this type is no matter.
            moved = True
            if not next_starts & mask & free_after:
                # The following player cannot start a path of this type after any of these
                # moves (a move only takes squares away from it): count the moves at once.
                total += type_count(starts, allowed) * (others or 1)
                continue
            emptied = mask if self.cleanup else node.single
            for visited, target in states(starts, allowed, self.adjacent):
                after = (mask ^ (visited & emptied)) & free_after & ~target
                total += others + type_count(next_starts, after) or 1
        if moved:
            return total
        if node.passes + 1 >= self.players:
            return 0
        return self.count(next_starts, FULL ^ pawns, node.masks)

    def mask_after(self, node: Node, mask: int, visited: int, target: int) -> int:
        """The moved coin type's squares after the path over ``visited`` to ``target``."""
        others = visited ^ (1 << target)
        mask ^= others & (mask if self.cleanup else node.single)
        if not others and (self.greedy or (node.single >> target) & 1):
            mask ^= 1 << target
        return mask

    def children(self, node: Node) -> Iterator[Node]:
        """Every child of ``node``: one per state of every coin type, or the pass."""
        starts = self.starts(node.pawns, node.mover)
        free = FULL ^ pawn_mask(node.pawns)
        moved = False
        for index, mask in enumerate(node.masks):
            allowed = mask & free
            if not starts & allowed:
                continue
            for visited, target in states(starts, allowed, self.adjacent):
                moved = True
                yield self.child(node, index, visited, target.bit_length() - 1)
        if not moved:
            yield node._replace(mover=(node.mover + 1) % self.players, passes=node.passes + 1)

    def child(self, node: Node, coin: int, visited: int, target: int) -> Node:
        """The node after the path over ``visited`` to ``target`` with coins of type ``coin``:
        one coin (greedy: all) taken from the target, one (cleanup: all) from each other path
        square onto it."""
        heights = list(node.heights)
        cleanup = self.cleanup
        collected = 0
        for square in bits(visited ^ (1 << target)):
            moved = heights[square] if cleanup else 1
            collected += moved
            heights[square] -= moved
        left = collected if self.greedy else heights[target] - 1 + collected
        heights[target] = left
        single = node.single & ~visited
        for square in bits(visited):
            if heights[square] == 1:
                single |= 1 << square
        masks = list(node.masks)
        masks[coin] = self.mask_after(node, masks[coin], visited, target)
        pawns = list(node.pawns)
        pawns[node.mover] = target
        return Node(tuple(heights), tuple(masks), single, tuple(pawns),
                    (node.mover + 1) % self.players, 0)


def pawn_mask(pawns: tuple[int | None, ...]) -> int:
    """The squares holding a pawn."""
    mask = 0
    for square in pawns:
        if square is not None:
            mask |= 1 << square
    return mask


def states(starts: int, allowed: int, adjacent: tuple[int, ...]) -> Iterator[tuple[int, int]]:
    """Every distinct (path squares, target) state of paths from ``starts`` through
    ``allowed``, as (bitboard, the target's bit), breadth first by path length."""
    layer: dict[int, int] = {}
    begin = starts & allowed
    while begin:
        low = begin & -begin
        begin ^= low
        layer[low] = low
        yield low, low
    while layer:
        following: dict[int, int] = {}
        for visited, ends in layer.items():
            free = allowed & ~visited
            while ends:
                low = ends & -ends
                ends ^= low
                step = adjacent[low.bit_length() - 1] & free
                while step:
                    bit = step & -step
                    step ^= bit
                    grown = visited | bit
                    known = following.get(grown, 0)
                    if not known & bit:
                        following[grown] = known | bit
                        yield grown, bit
        layer = following


def count_states(starts: int, allowed: int, diagonal: bool) -> int:
    """How many states :func:`states` yields, without yielding them: each layer's ends are
    spread by shifts, not square by square."""
    layer: dict[int, int] = {}
    begin = starts & allowed
    while begin:
        low = begin & -begin
        begin ^= low
        layer[low] = low
    total = len(layer)
    while layer:
        following: dict[int, int] = {}
        get = following.get
        for visited, ends in layer.items():
            if diagonal:
                row = ends | ((ends << 1) & NOT_A) | ((ends >> 1) & NOT_H)
                reach = row | (row << 8) | (row >> 8)
            else:
                reach = ((ends << 1) & NOT_A) | ((ends >> 1) & NOT_H) | (ends << 8) | (ends >> 8)
            reach &= allowed & ~visited
            while reach:
                low = reach & -reach
                reach ^= low
                grown = visited | low
                following[grown] = get(grown, 0) | low
        for ends in following.values():
            total += ends.bit_count()
        layer = following
    return total
