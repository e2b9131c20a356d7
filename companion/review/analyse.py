"""Analyse a replayed game move by move: each player's win chance before and after every
standing move, and the engine's choice where a player chose.

One search per position of the line of play (the position after a move is the one before the
next, so a 40-move game costs 41 searches at most). A position where chance decides next (a
roll, a battle's dice) cannot be searched: its win chance is the search's estimate, from the
position before, of the move that led to it (the average over the dice the search sampled),
or, where no decision came before, the odds-weighted mean over the outcomes of short searches.
A finished position's chances are its result (a tie shares the win). Hidden hands (Jokers and
Coins) are searched with no hand given, so the engine's choice is over what was known.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from companion.analysis import SearchLimits, SearchResult, search
from companion.analysis.evaluation import evaluation_for
from companion.analysis.rolls import action_text
from companion.games.base import Game, Position, RulesError
from companion.record.replay import GameTimeline

if TYPE_CHECKING:
    from concurrent.futures import Executor

Chances = Mapping[int, float]
#: Searches one position (never finished, never a chance node) with ``share`` of the usual time
#: or playouts (1.0 for a position of the line of play) and says what it found.
Analyser = Callable[[Game, Position, float], SearchResult]

#: Default search time per position: 41 searches of 0.8 s keep a 40-move review under a minute.
DEFAULT_SECONDS = 0.8
#: The share of a position's search time that all the outcomes of a chance node share when no
#: earlier search estimated it: a roll with no estimate costs half a position, not six.
CHANCE_SHARE = 0.5
#: Below this many playouts per search on average, the report warns that its figures are rough.
ROUGH_PLAYOUTS = 100


def default_workers() -> int:
    """Worker processes for the search: both cores of the reference machine, not more."""
    return max(1, min(2, os.cpu_count() or 1))


@dataclass(frozen=True)
class MoveReview:
    """One standing move of the line of play, analysed.

    ``number`` is the journal event's number and ``state_hash`` the state after it (to match
    the journal later); ``ply`` counts the standing moves from 1; ``chance`` marks a roll or
    other chance outcome (its swing is luck, not a mistake). ``before`` and ``after`` are each
    seat's win chance; ``best`` the engine's choice with its chance for the mover (None at a
    chance node), ``played_estimate`` the search's own chance for the move played, if tried.
    """

    number: int
    state_hash: str
    ply: int
    seat: int
    move: str
    chance: bool
    before: Chances
    after: Chances
    best: str | None = None
    best_chance: float | None = None
    played_estimate: float | None = None

    @property
    def change(self) -> float:
        """How the mover's win chance moved: negative when the move lost ground."""
        return self.after.get(self.seat, 0.0) - self.before.get(self.seat, 0.0)

    @property
    def swing(self) -> float:
        """The size of the move's effect: the largest change of any seat's win chance."""
        seats = set(self.before) | set(self.after)
        return max((abs(self.after.get(seat, 0.0) - self.before.get(seat, 0.0))
                    for seat in seats), default=0.0)

    @property
    def engine_agrees(self) -> bool:
        """Whether the move played is the engine's choice (always, at a chance node)."""
        return self.best is None or self.best == self.move


@dataclass(frozen=True)
class GameReview:
    """A whole game reviewed: the moves in order, the seats' names, the settings used, and
    the playouts made in all (for the report's footnote)."""

    game: str
    seat_names: Mapping[int, str]
    moves: tuple[MoveReview, ...]
    settings: str
    playouts: int = 0
    finished: bool = False
    start: Chances = field(default_factory=dict)
    searches: int = 0

    def rough(self) -> str | None:
        """A sentence warning that the chances rest on few playouts (fewer than
        :data:`ROUGH_PLAYOUTS` per search on average), else None."""
        average = self.playouts / max(1, self.searches)
        if not self.searches or average >= ROUGH_PLAYOUTS:
            return None
        return (f"the searches made only {average:.0f} playouts each on average, so these "
                "chances are rough; give the review more time (--seconds) for firmer ones.")


def searcher(seconds: float | None, playouts: int | None, seed: int,
             pool: Executor | None, workers: int) -> Analyser:
    """The default analyser: the search engine within these limits, reusing ``pool``."""
    def analyse(game: Game, position: Position, share: float) -> SearchResult:
        time = None if seconds is None else seconds * share
        bound = None if playouts is None else max(1, round(playouts * share))
        limits = SearchLimits(seconds=time, playouts=bound, seed=seed, workers=workers)
        return search(game, position, limits, pool=pool)

    return analyse


@contextmanager
def search_pool(workers: int) -> Iterator[Executor | None]:
    """A process pool for ``workers`` above 1, shut down afterwards; None for one worker."""
    if workers <= 1:
        yield None
        return
    from companion.analysis.search import worker_pool

    pool = worker_pool(workers)
    try:
        yield pool
    finally:
        pool.shutdown()


def seat_names(timeline: GameTimeline) -> dict[int, str]:
    """Each seat's name for sentences: the player's own name, else the side (``South``) when
    the name is the default ``Player N``, else ``Player N``."""
    names = {}
    for seat in timeline.header.seats:
        default = f"Player {seat.number}"
        side = seat.side.replace("-", " ").title()
        names[seat.number] = seat.name if seat.name and seat.name != default else side or default
    return names


class _Valuer:
    """Win chances of positions, each searched once; remembers searches for the next move."""

    def __init__(self, game: Game, analyse: Analyser) -> None:
        self.game = game
        self.analyse = analyse
        self.found: dict[tuple[str, float], SearchResult] = {}
        self.playouts = 0
        self.searches = 0

    def result(self, position: Position, share: float = 1.0) -> SearchResult:
        """The search at a decision position (made once per state and share of time)."""
        key = (str(position.state_hash()), share)
        if key not in self.found:
            self.found[key] = self.analyse(self.game, position, share)
            self.playouts += self.found[key].playouts
            self.searches += 1
        return self.found[key]

    def chances(self, position: Position, came_from: Position | None = None,
                move: str | None = None, share: float = 1.0) -> Chances:
        """Each seat's win chance at ``position``, reached by ``move`` from ``came_from``,
        searched with ``share`` of the usual time."""
        game = self.game
        if game.is_over(position):
            return dict(enumerate(evaluation_for(game, position).finished(position), start=1))
        if not game.is_chance(position):
            return dict(self.result(position, share).win_chance)
        if came_from is not None and move is not None and not game.is_chance(came_from) \
                and not game.is_over(came_from):
            for estimate in self.result(came_from).estimates:
                if estimate.move.text() == move:
                    return dict(estimate.win_chance)
        return self._expected(position, share)

    def _expected(self, position: Position, share: float) -> Chances:
        """A chance node's odds-weighted mean of its outcomes' chances, the outcomes sharing
        :data:`CHANCE_SHARE` of the time."""
        total: dict[int, float] = {}
        outcomes = self.game.chance_outcomes(position)
        each = share * CHANCE_SHARE / max(1, len(outcomes))
        for outcome, odds in outcomes:
            after = self.game.apply(position, outcome)
            for seat, chance in self.chances(after, share=each).items():
                total[seat] = total.get(seat, 0.0) + float(odds) * chance
        return total


def review_timeline(timeline: GameTimeline, analyse: Analyser, settings: str = "",
                    progress: Callable[[int, int], None] | None = None) -> GameReview:
    """Analyse every standing move of ``timeline`` with ``analyse``; ``progress(done, total)``
    is called after each move (for the command line's dots)."""
    game = timeline.game
    valuer = _Valuer(game, analyse)
    standing = set(timeline.standing)
    plies = [(index, step) for index, step in enumerate(timeline.steps)
             if step.event.number in standing]
    positions = timeline.positions
    moves: list[MoveReview] = []
    previous: tuple[Position, str] | None = None
    start: Chances = {}
    for ply, (index, step) in enumerate(plies, start=1):
        before_position, event = positions[index], step.event
        text = event.move or "pass"
        before = valuer.chances(before_position, *(previous or (None, None)))
        start = start or before
        after = valuer.chances(step.position, before_position, text)
        moves.append(_move_review(game, valuer, ply, before_position, step.position,
                                  event.number, text, before, after))
        previous = (before_position, text)
        if progress is not None:
            progress(ply, len(plies))
    return GameReview(game.name, seat_names(timeline), tuple(moves), settings,
                      valuer.playouts, game.is_over(timeline.final), start, valuer.searches)


def _move_review(game: Game, valuer: _Valuer, ply: int, before_position: Position,
                 after_position: Position, number: int, text: str, before: Chances,
                 after: Chances) -> MoveReview:
    """One move's review: the chances, and the engine's choice where a player chose."""
    seat = int(game.to_move(before_position) or 1)
    review = MoveReview(number, str(after_position.state_hash()), ply, seat, text,
                        game.is_chance(before_position), before, after)
    if review.chance:
        return review
    found = valuer.result(before_position)
    best = found.estimates[0]
    action = _action(game, before_position, text)
    played = next((estimate.win_chance.get(seat, 0.0) for estimate in found.estimates
                   if action_text(game, before_position, estimate.move) == action), None)
    best_text = action_text(game, before_position, best.move)
    return replace(review, best=text if best_text == action else best_text,
                   best_chance=best.win_chance.get(seat, 0.0), played_estimate=played)


def _action(game: Game, position: Position, text: str) -> str:
    """The search's action for the move played as ``text`` (``roll`` for any face of a roll
    the mover chose to make)."""
    try:
        return action_text(game, position, game.parse_move(text))
    except RulesError:
        return text
