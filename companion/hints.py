"""Hints at the table (issue 22, item 3): the HINT button (``h`` on the keyboard) asks the
search engine (:mod:`companion.analysis`) for the mover's best move, shown on the side screen
with its path highlighted and each seat's estimated win chance, and recorded in the journal as a
``hint``, never as a move.

``--hints off|on|limited N`` sets whether a seat may ask, and how often. The search runs in a
process of its own, started when the table opens, so the table's threads keep their time (frames
drawn, verdicts given) while it thinks; its answer comes back to the table's control thread as a
:class:`HintReady` event. A hint stands while the board and the referee's message are as they
were when it was asked for; whatever the referee says next takes it off the screen.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from companion.analysis.rolls import folded_rolls
from companion.display.snapshot import Message, PathView, Snapshot
from companion.games.base import Game, Position
from companion.referee import Effect, Phase, Record, Referee
from companion.referee_events import RefereeView
from contract.errors import CompanionError

#: What ``--hints`` says in a command's help.
HINTS_HELP = ("off (the default), on, or limited N: whether each seat may ask for hints with "
              "HINT (the keyboard's h), and how many")
#: Seconds the search may think: with the process's round trip the hint shows within 2 s.
SEARCH_SECONDS = 1.2
MODES = ("off", "on", "limited")
#: How much lower the search process's scheduling priority is than the table's.
SEARCH_NICENESS = 10


class HintError(CompanionError):
    """A ``--hints`` setting that cannot be used."""


@dataclass(frozen=True)
class HintPolicy:
    """Whether a seat may ask for hints (``off``, ``on``) or how many (``limited`` to
    ``limit`` a seat)."""

    mode: str = "off"
    limit: int | None = None

    @classmethod
    def parse(cls, words: Sequence[str]) -> HintPolicy:
        """``["off"]``, ``["on"]`` or ``["limited", "3"]`` (the words after ``--hints``)."""
        mode = words[0] if words else ""
        if mode in ("off", "on") and len(words) == 1:
            return cls(mode)
        if mode == "limited" and len(words) == 2 and words[1].isdigit() and int(words[1]) >= 1:
            return cls(mode, int(words[1]))
        raise HintError(f"--hints {' '.join(words)} is not a hint setting; use off, on, or "
                        "limited N (N hints a seat, 1 or more)")

    def to_json(self) -> dict[str, Any]:
        """The setting as the journal header's options keep it."""
        return {"mode": self.mode, **({"limit": self.limit} if self.limit is not None else {})}


@dataclass(frozen=True)
class SearchAnswer:
    """What the search process found, as plain values: the best move's text, each seat's win
    chance, the playouts made and the processor seconds it took; ``words``, how the screen
    names the move when not by its text (``roll`` for a roll the mover may choose, whose face
    is thrown, not chosen)."""

    best: str
    win_chance: Mapping[int, float]
    playouts: int
    seconds: float
    words: str = ""


@dataclass(frozen=True)
class HintReady:
    """The control thread's event when a search finished (``answer``) or failed (``problem``)
    for ``seat`` at the position with ``state_hash``; ``asked`` is when HINT was pressed
    (monotonic seconds)."""

    seat: int
    state_hash: str
    asked: float
    source: str = "keyboard"
    answer: SearchAnswer | None = None
    problem: str = ""


@dataclass(frozen=True)
class ShownHint:
    """A hint on the screen: the move, its path and label, the words, and what it stands on."""

    seat: int
    move: str
    path: tuple[str, ...]
    text: str
    anchor: tuple[str, Phase, str]
    latency_s: float


#: The search as run in the search process: (game name, position JSON, seconds, seed).
Searcher = Callable[[str, dict[str, Any], float, int], SearchAnswer]


def search_best(name: str, data: dict[str, Any], seconds: float, seed: int) -> SearchAnswer:
    """Search a position given by game name and JSON (in the search process)."""
    from companion.analysis import SearchLimits, search
    from companion.analysis.rolls import action_text
    from companion.games import get_game

    began = time.process_time()
    game = get_game(name)
    position = game.position_from_json(data)
    found = search(game, position, SearchLimits(seconds=seconds, seed=seed))
    words = action_text(game, position, found.best)
    return SearchAnswer(found.best.text(), dict(found.win_chance), found.playouts,
                        time.process_time() - began, "" if words == found.best.text() else words)


def warm_up() -> bool:
    """Import the engines in the search process before the first hint is asked for."""
    import companion.analysis
    import companion.games  # noqa: F401

    return True


@dataclass
class TableHints:
    """The hints of one table: the policy, each seat's count, the search process, and the hint
    on the screen. Its methods run on the table's control thread, except the search."""

    game: Game
    policy: HintPolicy
    names: Mapping[int, str]
    searcher: Searcher = search_best
    seconds: float = SEARCH_SECONDS
    used: dict[int, int] = field(default_factory=dict)
    shown: ShownHint | None = None
    notice: tuple[str, tuple[str, Phase, str]] | None = None
    thinking: HintReady | None = None
    latencies: list[float] = field(default_factory=list)
    answers: list[SearchAnswer] = field(default_factory=list)
    _pool: ProcessPoolExecutor | None = None
    _warm: Future[bool] | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def start(self) -> None:
        """Start the search process (spawned, not forked: the table has threads) and warm it."""
        if self.policy.mode != "off" and self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn"))
            self._warm = self._pool.submit(warm_up)

    def wait_warm(self, timeout: float) -> bool:
        """Wait until the search process has started and imported the engines (benchmarks)."""
        if self._warm is None:
            return False
        with contextlib.suppress(TimeoutError):
            return self._warm.result(timeout=timeout)
        return False

    def close(self) -> None:
        """Stop the search process without waiting for a search under way."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def count_recorded(self, hints: Sequence[int]) -> None:
        """Count the hints a resumed journal records (the seat of each)."""
        for seat in hints:
            self.used[seat] = self.used.get(seat, 0) + 1

    def press(self, referee: Referee, source: str, deliver: Callable[[HintReady], None]
              ) -> list[Effect]:
        """HINT was pressed (on the ``source``, panel or keyboard): start a search for the
        mover, or say in one sentence why not. ``deliver`` hands the finished search to the
        control thread."""
        view = referee.view()
        anchor = _anchor(view)
        refusal = self._refusal(referee, view)
        if refusal:
            self.notice = (refusal, anchor)
            return []
        if self.thinking is not None:
            return []
        position = referee.position
        assert position is not None and view.to_move is not None
        asked = HintReady(view.to_move, position.state_hash(), time.monotonic(), source)
        self.thinking, self.shown = asked, None
        self.notice = (f"Thinking of a hint for {self._name(asked.seat)}...", anchor)
        seed = sum(self.used.values()) + len(referee.view().last_moves)
        self._submit(position.to_json(), seed, asked, deliver)
        return []

    def ready(self, event: HintReady, referee: Referee) -> list[Effect]:
        """A search finished: show and record the hint if the board is still as it was."""
        self.thinking = None
        position = referee.position
        view = referee.view()
        if position is None or position.state_hash() != event.state_hash or not (
                view.phase is Phase.TURN or self._decides_at_roll(view, position)):
            self.notice = None
            return []
        if event.answer is None:
            self.notice = (f"No hint this time: {event.problem}", _anchor(view))
            return []
        return self._show(event, event.answer, view)

    def overlay(self, snapshot: Snapshot, view: RefereeView) -> Snapshot:
        """``snapshot`` with the hint (its path and words) or the hint's notice while they
        still stand, and each seat's hint count in the facts."""
        anchor = _anchor(view)
        facts = (*snapshot.facts, self._count_line()) if self.policy.mode != "off" else (
            snapshot.facts)
        snapshot = replace(snapshot, facts=facts)
        if self.shown is not None and self.shown.anchor == anchor:
            snapshot = replace(snapshot, path=PathView(self.shown.path, f"Hint: {self.shown.move}"),
                               message=Message(self.shown.text, "info"))
        if self.notice is not None and self.notice[1] == anchor:
            text = f"{snapshot.message.text} {self.notice[0]}" if snapshot.message else (
                self.notice[0])
            return replace(snapshot, message=Message(text, "warning"))
        return snapshot

    # Helpers ------------------------------------------------------------------------------------

    def _refusal(self, referee: Referee, view: RefereeView) -> str:
        """Why the mover cannot have a hint now, in one sentence; empty when they can."""
        if self.policy.mode == "off":
            return "Hints are off at this table; start it with --hints on to ask for them."
        position = referee.position
        if view.to_move is None or position is None or not (
                view.phase is Phase.TURN or self._decides_at_roll(view, position)):
            if view.phase is Phase.ROLL:
                return "The dice decide now; ask for a hint once they are rolled."
            return "A hint can be asked for when it is a player's turn to move."
        seat = view.to_move
        if self.policy.limit is not None and self.used.get(seat, 0) >= self.policy.limit:
            spent = ("their one hint" if self.policy.limit == 1
                     else f"all {self.policy.limit} of their hints")
            return f"{self._name(seat)} has used {spent}."
        return ""

    def _decides_at_roll(self, view: RefereeView, position: Position) -> bool:
        """Whether the roll awaited is the mover's choice among others (Coin Grid's turn start
        where a double stack can be made instead): a hint can then say "roll" or the other."""
        if view.phase is not Phase.ROLL:
            return False
        faces = {face for face, _ in folded_rolls(self.game, position)}
        return bool(faces) and any(move not in faces for move in self.game.legal_moves(position))

    def _submit(self, data: dict[str, Any], seed: int, asked: HintReady,
                deliver: Callable[[HintReady], None]) -> None:
        if self._pool is None:
            self.start()
        assert self._pool is not None
        future = self._pool.submit(self.searcher, self.game.name, data, self.seconds, seed)

        def done(finished: Future[SearchAnswer]) -> None:
            try:
                deliver(replace(asked, answer=finished.result()))
            except Exception as error:  # a search that cannot be made is said, not raised
                deliver(replace(asked, problem=_problem(error)))

        future.add_done_callback(done)

    def _show(self, event: HintReady, answer: SearchAnswer, view: RefereeView) -> list[Effect]:
        seat = event.seat
        self.used[seat] = self.used.get(seat, 0) + 1
        move = self.game.parse_move(answer.best)
        chances = ", ".join(f"{self._name(player)} {round(chance * 100)}%"
                            for player, chance in sorted(answer.win_chance.items()))
        shown = " (its path is highlighted)" if move.regions() else ""
        text = (f"Hint for {self._name(seat)}: {answer.words or answer.best}{shown}. "
                f"Estimated win chance: {chances}.{self._left(seat)}")
        latency = time.monotonic() - event.asked
        self.latencies.append(latency)
        self.answers.append(answer)
        named = answer.words or answer.best  # "roll", not the face that stood for it
        self.shown = ShownHint(seat, named, tuple(move.regions()), text, _anchor(view), latency)
        self.notice = None
        return [Record("hint", {
            "player": seat,
            "suggested": named,
            "win_chance": {str(player): round(chance, 4)
                           for player, chance in sorted(answer.win_chance.items())},
            "source": event.source,
            "state_hash": event.state_hash,
            "text": text,
        })]

    def _left(self, seat: int) -> str:
        if self.policy.limit is None:
            return ""
        left = self.policy.limit - self.used.get(seat, 0)
        return f" {left} hint{'s' if left != 1 else ''} left." if left else " No hints left."

    def _count_line(self) -> str:
        out_of = f" of {self.policy.limit}" if self.policy.limit is not None else ""
        counts = ", ".join(f"{self._name(seat)} {self.used.get(seat, 0)}{out_of}"
                           for seat in sorted(self.names))
        return f"Hints used: {counts}"

    def _name(self, seat: int) -> str:
        return self.names.get(seat, f"Player {seat}")


def table_hints(referee: Referee, names: Mapping[int, str], words: Sequence[str] | None,
                recorded: Sequence[int] = ()) -> TableHints | None:
    """The hints for a table from the words after ``--hints`` (None: off), counting the hints
    a resumed journal holds (``recorded``, the seat of each); None when hints are off."""
    policy = HintPolicy.parse(list(words)) if words else HintPolicy()
    if policy.mode == "off":
        return None
    hints = TableHints(referee.game, policy, dict(names))
    hints.count_recorded(recorded)
    return hints


def recorded_hints(folder: Path) -> list[int]:
    """The seat of every hint a game record's journal holds (for a resumed table's counts)."""
    from companion.record.journal import journal_path, read_journal

    return [event.player or 0 for event in read_journal(journal_path(folder)).events
            if event.kind == "hint"]


def _anchor(view: RefereeView) -> tuple[str, Phase, str]:
    """What a hint stands on: the position, the phase and the referee's message."""
    position = "" if view.position is None else view.position.state_hash()
    return position, view.phase, view.message


def _problem(error: BaseException) -> str:
    text = str(error).strip() or type(error).__name__
    return text if text.endswith(".") else f"{text}."
