"""Coin Isolation move generation, legality and the effect of a move, for every variant.

Generation yields one move per distinct outcome (the pass is added by the game class), lazily, so
a caller can stop early or print moves as they come. Plain paths are identified by (squares,
target) and need no check. Where variants let different choices reach the same position, the
choices are grouped so that no position has to be remembered: transplant placements by what they
change on the path squares (:mod:`companion.games.coin_isolation.choices`), and under mixed change
or semi-greedy only a one-square path taking nothing can repeat another move. :func:`count_moves`
counts the moves without building the transplant placements. The decisions taken where the
rulings are silent are listed in :mod:`companion.games.coin_isolation`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from itertools import pairwise

from companion.games.base import IllegalMoveError, Termination
from companion.games.coin_isolation.board import (
    ADJACENT,
    SQUARE_NAMES,
    bits,
    sort_stack,
)
from companion.games.coin_isolation.choices import (
    TRANSPLANTS,
    ChangeKey,
    PlacementGroup,
    changes_nothing,
    path_choices,
    placement_groups,
    receiving_squares,
    remove_coins,
    source_options,
    take_and_collect,
)
from companion.games.coin_isolation.moves import (
    PASS,
    STAY,
    CoinIsolationMove,
    fast_path_move,
)
from companion.games.coin_isolation.position import (
    MIXED_VARIANTS,
    QUIET_VARIANTS,
    CoinIsolationPosition,
)
from companion.games.coin_isolation.search import (
    EMPTY,
    PathClass,
    outcomes,
    path_classes,
    reachable,
    shortest_path,
    start_squares,
)

#: The game also ends after this many rounds in a row in which nobody took a coin.
QUIET_LIMIT_ROUNDS = 10
#: Variants under which two different choices can reach the same position.
DEDUPLICATED = TRANSPLANTS | MIXED_VARIANTS | {"semi-greedy"}

__all__ = [
    "QUIET_LIMIT_ROUNDS", "TRANSPLANTS", "check", "count_moves", "has_own_move", "is_over",
    "iter_moves", "legal_targets", "play", "source_options", "take_and_collect", "termination",
]  # fmt: skip


def is_over(position: CoinIsolationPosition) -> bool:
    """Every player passed in a row; or no coin is left (empty-squares); or too long quiet."""
    return termination(position) is not None


def termination(position: CoinIsolationPosition) -> Termination | None:
    """Why the game is over, or None while it goes on."""
    if position.passes >= position.players:
        return Termination.BLOCKED
    if "empty-squares" in position.variant_set and not position.coin_mask:
        return Termination.EXHAUSTED
    quiet = position.variant_set & QUIET_VARIANTS
    if quiet and position.quiet >= QUIET_LIMIT_ROUNDS * position.players:
        return Termination.QUIET
    return None


def iter_moves(position: CoinIsolationPosition) -> Iterator[CoinIsolationMove]:
    """Every legal move except ``pass``, one per distinct outcome."""
    if is_over(position):
        return
    variants = position.variant_set
    if position.to_move in position.renegades:
        yield from _pawn_only_moves(position, declare=False)
        return
    yield from _stay_moves(position)
    if variants & TRANSPLANTS:
        for group in _placement_groups(position):
            yield from group.moves()
    else:
        yield from _coin_path_moves(position)
    if "empty-squares" in variants:
        yield from _empty_path_moves(position)
    if "renegade" in variants:
        yield from _pawn_only_moves(position, declare=True)


def count_moves(position: CoinIsolationPosition) -> int:
    """How many moves :meth:`CoinIsolation.iter_moves` yields (``pass`` included), counting
    transplant placements as combinations instead of building them."""
    if is_over(position):
        return 0
    if position.to_move in position.renegades or not position.variant_set & TRANSPLANTS:
        own = declared = 0
        for move in iter_moves(position):
            declared += move.renegade
            own += not move.renegade
        return own + declared + (own == 0)
    own = sum(1 for _ in _stay_moves(position))
    own += sum(group.size for group in _placement_groups(position))
    if "empty-squares" in position.variant_set:
        own += sum(1 for _ in _empty_path_moves(position))
    declared = 0
    if "renegade" in position.variant_set:
        declared = sum(1 for _ in _pawn_only_moves(position, declare=True))
    return own + declared + (own == 0)


def has_own_move(position: CoinIsolationPosition) -> bool:
    """Whether the player to move has a move without declaring renegade (else they may pass)."""
    return any(not move.renegade for move in iter_moves(position))


def _stay_moves(position: CoinIsolationPosition) -> Iterator[CoinIsolationMove]:
    source = position.pawns[position.to_move - 1]
    if "standing-still" not in position.variant_set or source is None:
        return
    stack = position.squares[source]
    if not stack:
        return
    if position.variant_set & MIXED_VARIANTS:
        for coin in sorted(set(stack), key=stack.index):
            yield CoinIsolationMove(kind=STAY, coin=coin)
    else:
        yield CoinIsolationMove(kind=STAY)


def _coin_path_moves(position: CoinIsolationPosition) -> Iterator[CoinIsolationMove]:
    """Coin paths and their choices without transplant; a move that changes nothing but the
    pawn (and source coins) is kept once, the only kind that can repeat an outcome."""
    diagonal = "diagonal" in position.variant_set
    starts = start_squares(position, position.to_move)
    plain = not position.variant_set & DEDUPLICATED
    unchanged: set[tuple[int, str]] = set()
    for path_class in path_classes(position, with_empty=False):
        for steps in outcomes(starts, path_class.allowed, diagonal):
            if plain:
                yield fast_path_move(steps)
                continue
            for move in path_choices(position, path_class.coin, steps):
                if changes_nothing(move):
                    key = (steps[-1], move.source_coins)
                    if key in unchanged:
                        continue
                    unchanged.add(key)
                yield move


def _placement_groups(position: CoinIsolationPosition) -> Iterator[PlacementGroup]:
    """Every transplant placement group of every coin path, each distinct outcome in one."""
    diagonal = "diagonal" in position.variant_set
    starts = start_squares(position, position.to_move)
    seen: set[ChangeKey] = set()
    for path_class in path_classes(position, with_empty=False):
        for steps in outcomes(starts, path_class.allowed, diagonal):
            yield from placement_groups(position, path_class.coin, steps, seen)


def _empty_path_moves(position: CoinIsolationPosition) -> Iterator[CoinIsolationMove]:
    diagonal = "diagonal" in position.variant_set
    starts = start_squares(position, position.to_move)
    for path_class in path_classes(position, with_empty=True):
        if path_class.coin != EMPTY:
            continue
        for target in bits(reachable(starts, path_class.allowed, diagonal)):
            steps = shortest_path(starts, path_class.allowed, target, diagonal)
            assert steps is not None
            for source_coins in source_options(position):
                yield CoinIsolationMove(steps=steps, source_coins=source_coins)


def _pawn_only_moves(
    position: CoinIsolationPosition, declare: bool
) -> Iterator[CoinIsolationMove]:
    """Renegade moves: one per target square, over coins of one type or over empty squares."""
    diagonal = "diagonal" in position.variant_set
    starts = start_squares(position, position.to_move)
    classes = path_classes(position, with_empty=True)
    done = 0
    for path_class in classes:
        targets = reachable(starts, path_class.allowed, diagonal) & ~done
        done |= targets
        for target in bits(targets):
            steps = shortest_path(starts, path_class.allowed, target, diagonal)
            assert steps is not None
            yield CoinIsolationMove(steps=steps, renegade=declare)


def legal_targets(position: CoinIsolationPosition) -> int:
    """The squares the player to move can end on, as a bitboard (flood fills only)."""
    if is_over(position):
        return 0
    player = position.to_move
    variants = position.variant_set
    pawn_only = player in position.renegades or "renegade" in variants
    with_empty = pawn_only or "empty-squares" in variants
    starts = start_squares(position, player)
    diagonal = "diagonal" in variants
    targets = 0
    for path_class in path_classes(position, with_empty=with_empty):
        targets |= reachable(starts, path_class.allowed, diagonal)
    source = position.pawns[player - 1]
    standing = "standing-still" in variants and player not in position.renegades
    if standing and source is not None and position.squares[source]:
        targets |= 1 << source
    return targets


def check(position: CoinIsolationPosition, move: CoinIsolationMove) -> None:
    """Raise :class:`IllegalMoveError` unless ``move`` is legal in ``position``."""
    if is_over(position):
        raise _illegal(position, move, "the game is over")
    if move.kind == PASS:
        if has_own_move(position):
            raise _illegal(position, move, "a player who can move may not pass")
        return
    player = position.to_move
    renegade = player in position.renegades
    if move.renegade and ("renegade" not in position.variant_set or renegade):
        raise _illegal(position, move, "only a player who is not yet renegade may declare")
    if move.renegade or renegade:
        _check_pawn_only(position, move)
    elif move.kind == STAY:
        _check_stay(position, move)
    else:
        _check_path(position, move)


def _illegal(
    position: CoinIsolationPosition, move: CoinIsolationMove, reason: str
) -> IllegalMoveError:
    return IllegalMoveError(f"illegal move {move.text()!r} for player {position.to_move}: {reason}")


def _check_pawn_only(position: CoinIsolationPosition, move: CoinIsolationMove) -> None:
    if move.kind != "path" or move.coin or move.source_coins or move.take is not None:
        raise _illegal(position, move, "a renegade only moves their pawn along a path")
    if move.placements:
        raise _illegal(position, move, "a renegade never moves coins")
    starts = start_squares(position, position.to_move)
    diagonal = "diagonal" in position.variant_set
    for path_class in path_classes(position, with_empty=True):
        if _fits(move.steps, starts, path_class.allowed, diagonal):
            return
    raise _illegal(position, move, _path_problem(position, move))


def _check_stay(position: CoinIsolationPosition, move: CoinIsolationMove) -> None:
    if move not in set(_stay_moves(position)):
        raise _illegal(position, move, "standing still needs the variant and coins under the pawn")


def _check_path(position: CoinIsolationPosition, move: CoinIsolationMove) -> None:
    variants = position.variant_set
    mixed = bool(variants & MIXED_VARIANTS)
    first = position.squares[move.steps[0]]
    if mixed and move.coin is None and first:
        raise _illegal(position, move, "under mixed-change name the coin type, e.g. 'P:c1-c2'")
    if not mixed and move.coin is not None:
        raise _illegal(position, move, "only mixed-change names a coin type")
    coin = move.coin if move.coin is not None else (first[-1] if first else EMPTY)
    if coin == EMPTY and "empty-squares" not in variants:
        raise _illegal(position, move, f"square {SQUARE_NAMES[move.steps[0]]} is empty")
    classes = path_classes(position, with_empty=coin == EMPTY)
    allowed = next((c.allowed for c in classes if c.coin == coin), 0)
    starts = start_squares(position, position.to_move)
    if not _fits(move.steps, starts, allowed, "diagonal" in variants):
        raise _illegal(position, move, _path_problem(position, move))
    if move.source_coins not in source_options(position):
        options = " or ".join(repr(option) for option in source_options(position))
        raise _illegal(position, move, f"the coins moved from the source must be {options}")
    _check_choices(position, move, PathClass(coin, allowed))


def _check_choices(
    position: CoinIsolationPosition, move: CoinIsolationMove, path_class: PathClass
) -> None:
    variants = position.variant_set
    coin = path_class.coin
    if coin == EMPTY or "semi-greedy" not in variants:
        if move.take is not None:
            raise _illegal(position, move, "a take count is only for semi-greedy coin paths")
    else:
        count = position.squares[move.steps[-1]].count(coin)
        if move.take is None or not 0 <= move.take <= count:
            raise _illegal(position, move, f"semi-greedy takes 0 to {count} coins, e.g. 'x1'")
    if coin == EMPTY or not variants & TRANSPLANTS:
        if move.placements:
            raise _illegal(position, move, "placements are only for transplant coin paths")
        return
    squares, collected, _ = take_and_collect(position, coin, move.steps, move.take)
    empties = set(receiving_squares(position, squares, move.steps[-1]))
    if len(move.placements) != len(collected) or not empties.issuperset(move.placements):
        names = ",".join(SQUARE_NAMES[square] for square in sorted(empties)[:8])
        more = ",..." if len(empties) > 8 else ""
        raise _illegal(
            position,
            move,
            f"place {len(collected)} coin(s) on distinct empty squares ({names}{more})",
        )


def _fits(steps: tuple[int, ...], starts: int, allowed: int, diagonal: bool) -> bool:
    if not steps or not (starts >> steps[0]) & 1 or len(set(steps)) != len(steps):
        return False
    adjacent = ADJACENT[diagonal]
    if any(not (allowed >> step) & 1 for step in steps):
        return False
    return all((adjacent[a] >> b) & 1 for a, b in pairwise(steps))


def _path_problem(position: CoinIsolationPosition, move: CoinIsolationMove) -> str:
    starts = start_squares(position, position.to_move)
    if not (starts >> move.steps[0]) & 1:
        first_turn = position.pawns[position.to_move - 1] is None
        where = "on the first row" if first_turn else "next to the pawn"
        return f"the path must start {where}, not on {SQUARE_NAMES[move.steps[0]]}"
    return "the path's squares must be adjacent, pawn-free and hold the same coin type"


def play(position: CoinIsolationPosition, move: CoinIsolationMove) -> CoinIsolationPosition:
    """The position after a legal ``move`` (call :func:`check` first for untrusted moves)."""
    child = _played(position, move)
    _carry_masks(position, child, (*move.steps, *move.placements, position.pawns[
        position.to_move - 1]))
    return child


def _carry_masks(position: CoinIsolationPosition, child: CoinIsolationPosition,
                 touched: tuple[int | None, ...]) -> None:
    """Give ``child`` its variant set and, where ``position`` has them, its top-coin
    bitboards, updated on the ``touched`` squares only instead of read from all 64 squares
    (the cost of every new position in a search)."""
    child.__dict__["variant_set"] = position.variant_set
    masks = position.__dict__.get("top_masks")
    if masks is None:
        return
    masks = dict(masks)
    for index in touched:
        if index is None:
            continue
        bit = 1 << index
        for coin, mask in masks.items():
            masks[coin] = mask & ~bit
        stack = child.squares[index]
        if stack:
            masks[stack[-1]] |= bit
    child.__dict__["top_masks"] = masks


def _played(position: CoinIsolationPosition, move: CoinIsolationMove) -> CoinIsolationPosition:
    player = position.to_move
    if move.kind == PASS:
        return _next_turn(position, position.squares, position.pawns, "", passed=True)
    squares = list(position.squares)
    pawns = list(position.pawns)
    source = pawns[player - 1]
    if move.kind == STAY:
        assert source is not None
        coin = move.coin or squares[source][-1]
        squares[source] = remove_coins(squares[source], coin, 1)
        return _next_turn(position, tuple(squares), position.pawns, coin)
    target = move.steps[-1]
    pawns[player - 1] = target
    if move.renegade or player in position.renegades:
        renegades = tuple(sorted({*position.renegades, player}))
        moved = replace(position, renegades=renegades)
        return _next_turn(moved, position.squares, tuple(pawns), "")
    first = position.squares[move.steps[0]]
    coin = move.coin or (first[-1] if first else EMPTY)
    taken = ""
    if coin != EMPTY:
        squares, collected, taken = take_and_collect(position, coin, move.steps, move.take)
        if position.variant_set & TRANSPLANTS:
            for square in move.placements:
                squares[square] = coin
        else:
            squares[target] += collected
    if move.source_coins:
        assert source is not None
        for moved_coin in move.source_coins:
            squares[source] = remove_coins(squares[source], moved_coin, 1)
        squares[target] += move.source_coins
    if position.variant_set & MIXED_VARIANTS:
        squares[target] = sort_stack(squares[target])
    return _next_turn(position, tuple(squares), tuple(pawns), taken)


def _next_turn(
    position: CoinIsolationPosition,
    squares: tuple[str, ...],
    pawns: tuple[int | None, ...],
    taken: str,
    passed: bool = False,
) -> CoinIsolationPosition:
    player = position.to_move
    take_order = position.take_order
    all_taken = position.taken
    if taken:
        take_order = (player, *(other for other in take_order if other != player))
        all_taken = tuple(
            coins + taken if number == player else coins
            for number, coins in enumerate(position.taken, 1)
        )
    quiet = 0
    if position.variant_set & QUIET_VARIANTS and not taken:
        quiet = position.quiet + 1
    return replace(
        position,
        squares=squares,
        pawns=pawns,
        taken=all_taken,
        to_move=player % position.players + 1,
        passes=position.passes + 1 if passed else 0,
        take_order=take_order,
        quiet=quiet,
    )
