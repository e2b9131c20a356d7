"""The search API: :func:`search` runs Monte Carlo tree search from a position for a time or a
number of playouts and says how good each move looks.

With ``workers`` above 1 the search is root-parallel: each worker process grows its own tree
from the same root with its own seed (``seed/worker``) and its share of the playouts, and the
root statistics are summed. A playout-bounded search is reproducible (same seed, playouts and
workers, same answer); a time-bounded one depends on the machine's speed. Processes are used,
not threads, because the engines are pure Python: threads would share one interpreter lock
(and a search in a process leaves the table's threads their time).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from multiprocessing import get_context
from typing import Any

from companion.analysis.evaluation import evaluation_for, hints_module
from companion.analysis.hidden import hidden_deal
from companion.analysis.limits import MoveEstimate, SearchError, SearchLimits, SearchResult
from companion.analysis.tree import RootStats, Worker
from companion.games.base import Game, Move, Position

#: A worker's statistics as plain values that cross a process boundary: per root move its
#: text, visits and totals, then the root's visits and totals.
PlainStats = tuple[tuple[tuple[str, int, tuple[float, ...]], ...], int, tuple[float, ...]]


def search(game: Game, position: Position, limits: SearchLimits, *,
           hand: Sequence[str] | None = None, pool: Executor | None = None) -> SearchResult:
    """Search ``position`` within ``limits``; the best move is the most visited.

    ``hand`` is the mover's own cards where hands are hidden and the mover's are known (a bot);
    ``pool`` is a process pool (:func:`worker_pool`) to search in, even with one worker (the
    caller's threads then keep the interpreter); without it one worker searches here and more
    search in a pool started for this search. Raises :class:`SearchError` at a finished position or
    a chance node (the dice or cards decide there, not a player)."""
    if game.is_over(position):
        raise SearchError("the game is over: there is no move to search for")
    if game.is_chance(position):
        raise SearchError("a chance node (a roll or a draw) is next: the dice or cards decide "
                          "it, not a player; search the position after it")
    deadline = None if limits.seconds is None else time.monotonic() + limits.seconds
    if limits.workers == 1 and pool is None:
        stats = run_worker(game, position, limits, 0, limits.playouts, deadline, hand)
        known = {move.text(): move for move, _, _ in stats.moves}
        return _merged(game, [_plain(stats)], known)
    return _merged(game, _in_processes(game, position, limits, deadline, hand, pool), {})


def run_worker(game: Game, position: Position, limits: SearchLimits, index: int,
               playouts: int | None, deadline: float | None,
               hand: Sequence[str] | None) -> RootStats:
    """Worker ``index``'s search: its own seeded generator, ``playouts`` iterations at most,
    until the monotonic ``deadline`` at the latest."""
    evaluation = evaluation_for(game, position, limits.hints, limits.parts)
    deal = hidden_deal(game, position, hints_module(game), hand)
    worker = Worker(evaluation, position, random.Random(f"{limits.seed}/{index}"), deal,
                    limits.plies_left, limits.parts)
    return worker.run(playouts, deadline)


def worker_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes for searches to reuse (started fresh, not forked, so a
    process with threads, the table's, is safe to start it from)."""
    return ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn"))


def _in_processes(game: Game, position: Position, limits: SearchLimits, deadline: float | None,
                  hand: Sequence[str] | None, pool: Executor | None) -> list[PlainStats]:
    shares = _shares(limits.playouts, limits.workers)
    data = position.to_json()
    own = pool is None
    executor = pool if pool is not None else worker_pool(limits.workers)
    try:
        futures = [executor.submit(_remote_worker, game.name, data, limits, index, share,
                                   deadline, None if hand is None else tuple(hand))
                   for index, share in enumerate(shares)]
        return [future.result() for future in futures]
    finally:
        if own:
            executor.shutdown()


def _remote_worker(name: str, data: dict[str, Any], limits: SearchLimits, index: int,
                   playouts: int | None, deadline: float | None,
                   hand: tuple[str, ...] | None) -> PlainStats:
    """A worker in another process: the game by name, the position from its JSON."""
    from companion.games import get_game

    game = get_game(name)
    position = game.position_from_json(data)
    return _plain(run_worker(game, position, limits, index, playouts, deadline, hand))


def _shares(playouts: int | None, workers: int) -> list[int | None]:
    """Each worker's share of the playouts (None: no bound, time decides)."""
    if playouts is None:
        return [None] * workers
    return [playouts // workers + (1 if index < playouts % workers else 0)
            for index in range(workers)]


def _plain(stats: RootStats) -> PlainStats:
    return (tuple((move.text(), visits, totals) for move, visits, totals in stats.moves),
            stats.visits, stats.totals)


def _merged(game: Game, found: Sequence[PlainStats], known: dict[str, Move]) -> SearchResult:
    """The workers' root statistics summed into one result; moves by their text from
    ``known``, else parsed."""
    order: dict[str, int] = {}
    visits: dict[str, int] = {}
    totals: dict[str, list[float]] = {}
    root_visits, root_totals = 0, [0.0] * len(found[0][2])
    for moves, count, shares in found:
        root_visits += count
        root_totals = [mine + theirs for mine, theirs in zip(root_totals, shares, strict=True)]
        for text, seen, won in moves:
            order.setdefault(text, len(order))
            visits[text] = visits.get(text, 0) + seen
            totals[text] = [mine + theirs for mine, theirs
                            in zip(totals.get(text, [0.0] * len(won)), won, strict=True)]
    if not visits:
        raise SearchError("the search tried no move")
    ranked = sorted(visits, key=lambda text: (-visits[text], order[text]))
    estimates = tuple(MoveEstimate(known.get(text) or game.parse_move(text), visits[text],
                                   _chances(totals[text], visits[text])) for text in ranked)
    return SearchResult(estimates[0].move, estimates, _chances(root_totals, root_visits),
                        root_visits)


def _chances(totals: Sequence[float], visits: int) -> dict[int, float]:
    return {seat: total / max(visits, 1) for seat, total in enumerate(totals, start=1)}
