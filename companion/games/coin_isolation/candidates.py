"""Matching a camera observation to Coin Isolation moves, without listing every legal move.

The camera sees each square's top coin type and the pawns, never a stack's height. The mover's
pawn gives the target. For each coin type whose squares hold the target, a square whose top coin
changed must be on the path; a square whose view would not change by losing its coin(s) (a tall
stack) may be; every other square is not. Each choice of the optional squares is one outcome, and
one path through exactly those squares is searched (:func:`fitted_path`). Transplant placements
are read from the observation (squares that now show a coin and were empty), and a path square
that was emptied and refilled is a free connector (it looks, and is, unchanged). Each move so
built is checked, applied and compared with the observation, so only exact matches are returned,
one per distinct outcome.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from companion.games.base import IllegalMoveError
from companion.games.coin_isolation.board import SQUARE_NAMES, bits
from companion.games.coin_isolation.moves import CoinIsolationMove
from companion.games.coin_isolation.position import MIXED_VARIANTS, CoinIsolationPosition
from companion.games.coin_isolation.rules import (
    TRANSPLANTS,
    check,
    is_over,
    play,
    source_options,
    take_and_collect,
)
from companion.games.coin_isolation.search import (
    EMPTY,
    PathClass,
    fitted_path,
    path_classes,
    shortest_path,
    start_squares,
)
from contract.observation import Observation

View = tuple[tuple[str | None, str | None], ...]


def view(position: CoinIsolationPosition) -> View:
    """What the camera sees on each square: top coin letter and pawn label (player number)."""
    pawn_at = {square: str(player) for player, square in enumerate(position.pawns, 1)}
    return tuple(
        (stack[-1] if stack else None, pawn_at.get(index))
        for index, stack in enumerate(position.squares)
    )


def observed_view(observation: Observation) -> View:
    """The same view read from an observation (unread squares count as empty)."""
    return tuple((observation.coin(name), observation.pawn(name)) for name in SQUARE_NAMES)


def candidates(
    position: CoinIsolationPosition, observation: Observation
) -> Iterator[CoinIsolationMove]:
    """Every legal move whose visible result is ``observation``, one per distinct outcome."""
    if is_over(position):
        return
    seen = observed_view(observation)
    matcher = _Matcher(position, seen)
    label = str(position.to_move)
    target = next((index for index, (_, pawn) in enumerate(seen) if pawn == label), None)
    source = position.pawns[position.to_move - 1]
    if target is None or target == source:
        yield from matcher.still_moves()
        return
    yield from matcher.path_moves(target)


class _Matcher:
    """Builds, checks and compares candidate moves for one position and observed view."""

    def __init__(self, position: CoinIsolationPosition, seen: View) -> None:
        self.position = position
        self.seen = seen
        self.before = view(position)
        self.outcomes: set[tuple[object, ...]] = set()
        self.diagonal = "diagonal" in position.variant_set
        self.starts = start_squares(position, position.to_move)

    def consider(self, move: CoinIsolationMove) -> bool:
        """Whether ``move`` is legal, looks like the observation and is a new outcome."""
        try:
            check(self.position, move)
        except IllegalMoveError:
            return False
        after = play(self.position, move)
        if view(after) != self.seen:
            return False
        key = (after.squares, after.pawns, after.taken, after.renegades, after.take_order)
        if key in self.outcomes:
            return False
        self.outcomes.add(key)
        return True

    def still_moves(self) -> Iterator[CoinIsolationMove]:
        """The pawn did not move: standing still (one per coin type) or a pass."""
        position = self.position
        source = position.pawns[position.to_move - 1]
        if source is not None and "standing-still" in position.variant_set:
            mixed = position.variant_set & MIXED_VARIANTS
            for coin in sorted(set(position.squares[source])) if mixed else [None]:
                move = CoinIsolationMove(kind="stay", coin=coin)
                if self.consider(move):
                    yield move
        move = CoinIsolationMove(kind="pass")
        if self.seen == self.before and self.consider(move):
            yield move

    def path_moves(self, target: int) -> Iterator[CoinIsolationMove]:
        """Moves whose pawn ends on ``target``."""
        position = self.position
        player = position.to_move
        variants = position.variant_set
        classes = path_classes(position, with_empty=True)
        if player in position.renegades or "renegade" in variants:
            declare = player not in position.renegades
            for path_class in classes:
                steps = shortest_path(self.starts, path_class.allowed, target, self.diagonal)
                if steps is not None:
                    move = CoinIsolationMove(steps=steps, renegade=declare)
                    if self.consider(move):
                        yield move
                    break
            if not declare:
                return
        for path_class in classes:
            if not (path_class.allowed >> target) & 1:
                continue
            if path_class.coin == EMPTY:
                if "empty-squares" in variants:
                    yield from self._empty_path_moves(path_class, target)
            else:
                yield from self._coin_path_moves(path_class, target)

    def _empty_path_moves(
        self, path_class: PathClass, target: int
    ) -> Iterator[CoinIsolationMove]:
        steps = shortest_path(self.starts, path_class.allowed, target, self.diagonal)
        if steps is None:
            return
        for source_coins in source_options(self.position):
            move = CoinIsolationMove(steps=steps, source_coins=source_coins)
            if self.consider(move):
                yield move

    def _coin_path_moves(self, path_class: PathClass, target: int) -> Iterator[CoinIsolationMove]:
        coin = path_class.coin
        changed = 0
        for index in bits(path_class.allowed):
            if self.before[index][0] != self.seen[index][0]:
                changed |= 1 << index
        required = changed & ~(1 << target)
        tall, connectors = self._optional_squares(path_class, changed | (1 << target))
        tall_squares = list(bits(tall))
        for size in range(len(tall_squares) + 1):
            for subset in combinations(tall_squares, size):
                chosen = required
                for square in subset:
                    chosen |= 1 << square
                steps = fitted_path(self.starts, target, chosen, connectors, self.diagonal)
                if steps is not None:
                    yield from self._choices(coin, steps, connectors)

    def _optional_squares(self, path_class: PathClass, excluded: int) -> tuple[int, int]:
        """Unchanged squares that may be on the path: tall stacks, and (transplant) refills."""
        variants = self.position.variant_set
        cleanup = "cleanup" in variants
        transplant = bool(variants & TRANSPLANTS)
        coin = path_class.coin
        tall = connectors = 0
        for index in bits(path_class.allowed & ~excluded):
            stack = self.position.squares[index]
            count = stack.count(coin) if cleanup else 1
            after = stack.replace(coin, "", count) if count else stack
            if after and after[-1] == stack[-1]:
                tall |= 1 << index
            elif not after and transplant and stack[-1] == coin:
                # Emptied, then refilled by a placement: free if it held one coin.
                if len(stack) == 1:
                    connectors |= 1 << index
                else:
                    tall |= 1 << index
        return tall, connectors

    def _choices(
        self, coin: str, steps: tuple[int, ...], connectors: int
    ) -> Iterator[CoinIsolationMove]:
        position = self.position
        variants = position.variant_set
        named = coin if variants & MIXED_VARIANTS else None
        target = steps[-1]
        takes: list[int | None] = [None]
        if "semi-greedy" in variants:
            takes = list(range(position.squares[target].count(coin) + 1))
        placements_options: list[tuple[int, ...]] = [()]
        if variants & TRANSPLANTS:
            placements_options = self._placements(coin, steps, connectors)
        for source_coins in source_options(position):
            for take in takes:
                for placements in placements_options:
                    move = CoinIsolationMove(
                        steps=steps,
                        coin=named,
                        source_coins=source_coins,
                        take=take,
                        placements=placements,
                    )
                    if self.consider(move):
                        yield move

    def _placements(
        self, coin: str, steps: tuple[int, ...], connectors: int
    ) -> list[tuple[int, ...]]:
        """Placements the observation shows: new coins on empty squares, refilled connectors,
        and the target or source with or without a coin (their views do not tell)."""
        fixed = set()
        for index in range(64):
            if self.before[index][0] is None and self.seen[index][0] == coin:
                fixed.add(index)
        emptied, _, _ = take_and_collect(self.position, coin, steps, None)
        fixed.update(step for step in steps[:-1] if not emptied[step] and self.seen[step][0])
        source = self.position.pawns[self.position.to_move - 1]
        maybe = {steps[-1]} | ({source} if source is not None else set())
        maybe -= fixed
        options = []
        for size in range(len(maybe) + 1):
            for extra in combinations(sorted(maybe), size):
                options.append(tuple(sorted(fixed | set(extra))))
        return options
