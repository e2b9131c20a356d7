"""The values of the search API: how long to search, and what it found."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.games.base import Move, RulesError


class SearchError(RulesError):
    """A search that cannot be made: a finished position, a chance node, bad limits."""


@dataclass(frozen=True)
class SearchParts:
    """Which parts of the search run, for measuring what each adds (``bench/bench_search.py
    --without``); a search uses them all unless told otherwise. ``chance_averaging``: chance
    nodes scored and followed by their odds; ``progressive_widening``: moves below the root
    widened by the hints' prior; ``playout_policy``: playouts move by the hints' policy;
    ``threats``: the hints' estimate counts threats where the game has them (Coin Grid);
    ``playout_plies``: plies a playout runs before it is scored, instead of the hints' own."""

    chance_averaging: bool = True
    progressive_widening: bool = True
    playout_policy: bool = True
    threats: bool = True
    playout_plies: int | None = None

    def __post_init__(self) -> None:
        if self.playout_plies is not None and self.playout_plies < 0:
            raise SearchError(f"a playout runs 0 plies or more, not {self.playout_plies}")


#: Every part of the search, as a search runs unless told otherwise.
ALL_PARTS = SearchParts()


@dataclass(frozen=True)
class SearchLimits:
    """How long a search runs: ``seconds`` of wall time, ``playouts`` in all (over every
    worker), or whichever comes first when both are given. ``seed`` makes a playout-bounded
    search reproducible; ``workers`` searches in that many processes at once (root
    parallelism), each with its share of the playouts. ``hints`` uses the game's evaluation
    hints where it has them (:mod:`companion.analysis.evaluation`); off, for comparison.
    ``plies_left``: the game is stopped after that many more plies (chance outcomes count) and
    scored by progress, the leader winning, as the demo and the bench do at their ply cap; the
    search scores a line that reaches the cap the same way instead of guessing beyond it.
    ``parts``: which parts of the search run (all by default)."""

    seconds: float | None = None
    playouts: int | None = None
    seed: int = 0
    workers: int = 1
    hints: bool = True
    plies_left: int | None = None
    parts: SearchParts = ALL_PARTS

    def __post_init__(self) -> None:
        if self.seconds is None and self.playouts is None:
            raise SearchError("a search needs a time (seconds) or a playout bound, or both")
        if self.seconds is not None and not self.seconds > 0:
            raise SearchError(f"a search needs more than 0 seconds, not {self.seconds}")
        if self.playouts is not None and self.playouts < 1:
            raise SearchError(f"a search needs at least 1 playout, not {self.playouts}")
        if self.workers < 1:
            raise SearchError(f"a search needs at least 1 worker, not {self.workers}")
        if self.plies_left is not None and self.plies_left < 1:
            raise SearchError("a search needs at least 1 ply left before the game is stopped, "
                              f"not {self.plies_left}")


@dataclass(frozen=True)
class MoveEstimate:
    """One candidate move at the root: how often the search tried it and each seat's
    estimated chance to win after it (seat numbers as ``game.to_move`` gives them)."""

    move: Move
    visits: int
    win_chance: Mapping[int, float]


@dataclass(frozen=True)
class SearchResult:
    """What a search found: the most visited move, every candidate (most visited first), the
    searched position's win chance per seat, and the playouts made."""

    best: Move
    estimates: tuple[MoveEstimate, ...]
    win_chance: Mapping[int, float]
    playouts: int
