"""Rebuild a game from its journal: replay every event through the rules engine, checking hashes.

Pure apart from :func:`load_timeline` and :func:`resume_position`, which read the journal first.
Replay starts from the header's initial position. A move or pass is parsed and applied by the
engine; an undo restores the position before the move it retracts (taking back with it the passes
that followed that move); a setup fix replaces the position before play begins; rulings and notes
leave it as it is. After every event the engine's state hash must equal the one stored.

An event that does not fit (an illegal move, a move by the wrong player, a hash that differs) or
that follows lost events is not the end of the replay. The state hash of the next readable event
tells what the position must be, so replay looks for the one candidate that leads there:

- events missing before an event (their lines were damaged): the one legal move, chance outcome
  or undo of the last standing move after which that event replays with its hash; it is added as
  a recovered step. When that event is an undo of the missing move itself, whatever the move was
  it is taken back, so the undo is replayed and nothing needs working out;
- an event that does not fit, followed by the next number: its move when that is confirmed (only
  its hash or player was damaged), another move or undo that is, or, for a note or ruling, the
  unchanged position; the event is replaced by what was confirmed, or kept as it was.

Only one action is looked for per gap, and a lost setup fix is not worked out (its position was on
the lost line). Each recovery is reported on its line. When no candidate fits, or more than one
does (or there are more than :data:`SEARCH_LIMIT` moves to try), replay stops there: that event and
everything after it are kept as read in ``unreplayed`` and reported, and everything before is kept.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from itertools import islice

from companion.games import Game, Move, Position, get_game
from companion.record.errors import JournalHeaderError, RecordError
from companion.record.journal import (
    JournalEvent,
    JournalHeader,
    JournalProblem,
    JournalReadResult,
    read_journal,
)
from contract.errors import CompanionError


@dataclass(frozen=True)
class TimelineStep:
    """One replayed event and the position after it.

    ``recovered`` says how the step was worked out when its line was damaged (the event then
    holds what replay found, with the damaged line's number); None for a line read as written.
    """

    event: JournalEvent
    position: Position
    recovered: str | None = None


@dataclass(frozen=True)
class GameTimeline:
    """A journal replayed: the positions after every event, what stands, and every problem.

    ``steps`` holds every event that replayed (moves later undone included, in journal order).
    ``standing`` holds the numbers of the moves and passes that still stand, in order: the line
    of play. ``problems`` holds the reader's problems and replay's, ``stopped_at`` the line where
    replay stopped early (None when the whole journal replayed), ``unreplayed`` the events read
    from there on, kept as they were read.
    """

    header: JournalHeader
    game: Game
    initial: Position
    steps: tuple[TimelineStep, ...]
    standing: tuple[int, ...]
    problems: tuple[JournalProblem, ...] = ()
    stopped_at: int | None = None
    unreplayed: tuple[JournalEvent, ...] = ()

    @property
    def events(self) -> tuple[JournalEvent, ...]:
        """The events that replayed, in journal order."""
        return tuple(step.event for step in self.steps)

    @property
    def positions(self) -> tuple[Position, ...]:
        """The initial position, then the position after each replayed event."""
        return (self.initial, *(step.position for step in self.steps))

    @property
    def final(self) -> Position:
        """The position after the last replayed event: where the game carries on from."""
        return self.steps[-1].position if self.steps else self.initial

    @property
    def last_number(self) -> int:
        """The number of the last replayed event (0 when there is none)."""
        return self.steps[-1].event.number if self.steps else 0

    def standing_steps(self) -> tuple[TimelineStep, ...]:
        """The moves and passes that still stand, each with the position after it."""
        standing = set(self.standing)
        return tuple(step for step in self.steps if step.event.number in standing)

    def start_of_play(self) -> Position:
        """The position the standing moves start from (after any setup fix)."""
        position = self.initial
        for step in self.steps:
            if step.event.kind == "correction" and step.event.correction == "setup":
                position = step.position
        return position


class _Stop(Exception):
    """Internal: the event does not fit the replay; the message says why."""


#: How many legal moves a lost move is looked for among; past this, replay stops instead.
SEARCH_LIMIT = 5000


@dataclass(frozen=True)
class _Candidate:
    """What a damaged line may have held: a move, an undo (of the standing move or pass
    ``retracts``), or (neither) something that leaves the position as it is."""

    move: Move | None = None
    retracts: int | None = None

    @property
    def keeps(self) -> bool:
        """Whether the candidate leaves the position as it is (a note or ruling)."""
        return self.move is None and self.retracts is None


def replay(result: JournalReadResult) -> GameTimeline:
    """Replay the events of a read journal; collects problems, never raises for damage.

    Raises :class:`RecordError` only when the header names a game this companion does not know or
    its initial position is not valid for that game.
    """
    game = _game_of(result.header)
    initial = _initial_position(game, result.header)
    run = _Run(game, initial, result.problems)
    events = result.events
    index = 0
    while index < len(events):
        index = run.take(events, index)
    run.problems.sort(key=lambda problem: problem.line)
    return GameTimeline(
        header=result.header,
        game=game,
        initial=initial,
        steps=tuple(run.steps),
        standing=tuple(number for number, _ in run.undo_stack),
        problems=tuple(run.problems),
        stopped_at=run.stopped_at,
        unreplayed=run.unreplayed,
    )


class _Run:
    """One replay in progress: the position, the steps so far, the undo stack, the problems."""

    def __init__(self, game: Game, initial: Position, problems: tuple[JournalProblem, ...]) -> None:
        self.game = game
        self.position = initial
        self.steps: list[TimelineStep] = []
        self.undo_stack: list[tuple[int, Position]] = []
        self.problems = list(problems)
        self.stopped_at: int | None = None
        self.unreplayed: tuple[JournalEvent, ...] = ()
        self.last_number = 0
        self.kinds: dict[int, str] = {}  # the kind of each move or pass replayed, by number

    def take(self, events: tuple[JournalEvent, ...], index: int) -> int:
        """Replay ``events[index]`` (or work around it); returns the index to go on from."""
        try:
            self._commit(events[index], *self._try(self.position, self.undo_stack, events[index]))
            return index + 1
        except _Stop as stop:
            return self._recover(events, index, str(stop))

    def _try(
        self, position: Position, stack: list[tuple[int, Position]], event: JournalEvent
    ) -> tuple[Position, list[tuple[int, Position]]]:
        """The position and undo stack after ``event``, without changing the run; or _Stop."""
        stack = list(stack)
        after = _replay_event(self.game, position, event, stack)
        _check_hash(after, event)
        return after, stack

    def _commit(
        self,
        event: JournalEvent,
        position: Position,
        stack: list[tuple[int, Position]],
        recovered: str | None = None,
    ) -> None:
        self.position, self.undo_stack = position, stack
        self.steps.append(TimelineStep(event, position, recovered))
        self.last_number = event.number
        if event.kind in ("move", "pass"):
            self.kinds[event.number] = event.kind

    def _recover(self, events: tuple[JournalEvent, ...], index: int, why: str) -> int:
        """Work out a single lost move from the next readable event, or stop the replay.

        When events are missing before ``events[index]`` it is the witness of the move lost
        among them; otherwise ``events[index]`` itself is taken as damaged and the event after it
        is the witness.
        """
        event = events[index]
        if event.number > self.last_number + 1:
            consumed = self._bridge_gap(event)
            if consumed is not None:
                return index + consumed
        if index + 1 < len(events) and self._replace(event, events[index + 1], why):
            return index + 1
        self._stop(events, index, why)
        return len(events)

    def _bridge_gap(self, witness: JournalEvent) -> int | None:
        """Find the one action, lost on damaged lines, after which ``witness`` replays.

        Returns how many events that used up (0: the witness is still to replay; 1: it was
        replayed with the lost move it takes back), or None when nothing fits."""
        number = _lost_number(witness, self.last_number)
        found = self._search(witness, number, keep_position=False)
        damaged = self._damaged_line_before(witness)
        lost = (
            f"journal line {damaged} was damaged"
            if damaged
            else f"a line before journal line {witness.line} is missing"
        )
        where = damaged or witness.line or 0
        if found is None:
            return 1 if self._taken_back_unseen(witness, number, lost, where) else None
        candidate, after, stack = found
        event = self._recovered_event(candidate, number, witness, damaged, in_place=False)
        source = f"the state hash on line {witness.line}"
        self._commit(
            event, after, stack, f"{lost}; this {_noun(event)} was worked out from {source}"
        )
        message = f"held event {number}, {_what(event)}, worked out from {source}"
        self.problems.append(JournalProblem(where, message, skipped=False))
        return 0

    def _taken_back_unseen(self, witness: JournalEvent, number: int, lost: str, where: int) -> bool:
        """Whether ``witness`` takes back the lost move itself, so the line of play is whole
        without it: an undo of the missing number that returns to the current position."""
        if witness.correction != "undo" or witness.retracts != number:
            return False
        if str(self.position.state_hash()) != witness.state_hash:
            return False
        note = f"{lost}; the move it held is taken back here, so the line of play is whole"
        self._commit(witness, self.position, list(self.undo_stack), note)
        message = f"held event {number}, a move taken back on line {witness.line}"
        self.problems.append(JournalProblem(where, message, skipped=False))
        return True

    def _replace(self, event: JournalEvent, witness: JournalEvent, why: str) -> bool:
        """Take ``event`` as damaged: find what stood there from the state hash of ``witness``."""
        if witness.number != event.number + 1:
            return False
        found = self._search(witness, event.number, keep_position=not event.changes_position)
        if found is None:
            return False
        candidate, after, stack = found
        line = event.line or 0
        confirms = f"line {witness.line} confirms"
        if candidate.keeps:  # a note or ruling whose hash is damaged: keep it
            self._commit(event, after, stack, f"journal line {line} was damaged; {confirms} "
                         "the position")  # fmt: skip
            message = f"event {event.number} {why}; {confirms} the position, so it is kept"
            self.problems.append(JournalProblem(line, message, skipped=False))
            return True
        fixed = self._recovered_event(candidate, event.number, event, line, in_place=True)
        same = fixed.move == event.move and event.kind in ("move", "pass")
        note = (
            f"{confirms} this move"
            if same
            else f"this {_noun(fixed)} was worked out from the state hash on line {witness.line}"
        )
        self._commit(fixed, after, stack, f"journal line {line} was damaged; {note}")
        what = "its move, so it is kept" if same else f"{_what(fixed)} instead; skipped"
        self.problems.append(
            JournalProblem(line, f"event {event.number} {why}; {confirms} {what}", not same)
        )
        return True

    def _search(
        self, witness: JournalEvent, number: int, *, keep_position: bool
    ) -> tuple[_Candidate, Position, list[tuple[int, Position]]] | None:
        """The single candidate after which ``witness`` replays with its state hash; None when
        there is none, more than one, or too many moves to look through."""
        fits: list[tuple[_Candidate, Position, list[tuple[int, Position]]]] = []
        candidates = self._candidates(keep_position)
        if candidates is None:
            return None
        for candidate in candidates:
            after, stack = self._after(candidate, number)
            try:
                self._try(after, stack, witness)
            except _Stop:
                continue
            fits.append((candidate, after, stack))
            if len(fits) > 1:
                return None
        return fits[0] if fits else None

    def _candidates(self, keep_position: bool) -> list[_Candidate] | None:
        """What may have stood on a damaged line: nothing that changes the position (for a note
        or ruling), or each legal move or chance outcome and an undo of the last standing move
        (or pass); None when there are more than :data:`SEARCH_LIMIT` moves."""
        if keep_position:
            return [_Candidate()]
        game, position = self.game, self.position
        undo = [_Candidate(retracts=number) for number in self._undoable()]
        if game.is_over(position):
            return undo
        if game.is_chance(position):
            moves = [outcome for outcome, _ in game.chance_outcomes(position)]
        else:
            moves = list(islice(game.iter_moves(position), SEARCH_LIMIT + 1))
        if len(moves) > SEARCH_LIMIT:
            return None
        return [*(_Candidate(move) for move in moves), *undo]

    def _after(
        self, candidate: _Candidate, number: int
    ) -> tuple[Position, list[tuple[int, Position]]]:
        """The position and undo stack after ``candidate`` (numbered ``number`` if a move)."""
        if candidate.move is not None:
            after = self.game.apply(self.position, candidate.move)
            return after, [*self.undo_stack, (number, self.position)]
        if candidate.retracts is not None:
            index = [n for n, _ in self.undo_stack].index(candidate.retracts)
            return self.undo_stack[index][1], self.undo_stack[:index]
        return self.position, list(self.undo_stack)

    def _undoable(self) -> list[int]:
        """What a lost undo may have taken back: the last standing move (what the referee's
        undo takes back, with the passes after it) and the last standing pass after it."""
        standing = [n for n, _ in self.undo_stack]
        moves = [n for n in standing if self.kinds.get(n) == "move"]
        return sorted({*moves[-1:], *standing[-1:]})

    def _recovered_event(
        self,
        candidate: _Candidate,
        number: int,
        read: JournalEvent,
        line: int | None,
        *,
        in_place: bool,
    ) -> JournalEvent:
        """The event a recovered move or undo stands for. In place of a damaged event
        (``in_place``) it keeps that event's time and source, and the whole event when its move
        was right; for a lost line it takes the time of ``read``, the line after it, and the
        source ``referee``."""
        after, _ = self._after(candidate, number)
        base = JournalEvent(
            number=number,
            kind="move",
            time=read.time,
            source=read.source if in_place else "referee",
            state_hash=str(after.state_hash()),
            line=line,
        )
        if candidate.move is None:  # an undo
            retracts = candidate.retracts
            return replace(base, kind="correction", correction="undo", retracts=retracts)
        text = candidate.move.text()
        player = int(self.game.to_move(self.position))
        if in_place and read.kind in ("move", "pass") and read.move == text:
            return replace(read, player=player, state_hash=base.state_hash)
        return replace(base, kind="pass" if text == "pass" else "move", player=player, move=text)

    def _damaged_line_before(self, witness: JournalEvent) -> int | None:
        """The last skipped line between the previous step and ``witness``, if there is one."""
        first = (self.steps[-1].event.line or 1) if self.steps else 1
        last = witness.line or 0
        lines = [p.line for p in self.problems if p.skipped and first < p.line < last]
        return max(lines, default=None)

    def _stop(self, events: tuple[JournalEvent, ...], index: int, why: str) -> None:
        event = events[index]
        self.stopped_at = event.line if event.line is not None else 0
        self.unreplayed = events[index:]
        left = len(events) - index - 1
        after = (
            f"; it and the {left} event(s) after it are not replayed"
            if left
            else ("; it is not replayed")
        )
        self.problems.append(JournalProblem(self.stopped_at, f"event {event.number} {why}{after}"))


def _lost_number(witness: JournalEvent, last_number: int) -> int:
    """The number of a move lost before ``witness``: the one it takes back, if it is an undo of
    a missing number, else the last missing one."""
    retracts = witness.retracts if witness.correction == "undo" else None
    if retracts is not None and last_number < retracts < witness.number:
        return retracts
    return witness.number - 1


def _noun(event: JournalEvent) -> str:
    """``move``, ``pass`` or ``undo``: what a recovered event is."""
    return "undo" if event.correction == "undo" else event.kind


def _what(event: JournalEvent) -> str:
    """``player 2's move h7-h6``, ``player 1's pass`` or ``an undo of event 5``."""
    if event.correction == "undo":
        return f"an undo of event {event.retracts}"
    if event.kind == "pass":
        return f"player {event.player}'s pass"
    return f"player {event.player}'s move {event.move}"


def _game_of(header: JournalHeader) -> Game:
    try:
        return get_game(header.game)
    except CompanionError as error:
        raise RecordError(f"the journal's game {header.game!r} is unknown here: {error}") from None


def _initial_position(game: Game, header: JournalHeader) -> Position:
    try:
        return game.position_from_json(header.initial_position)
    except CompanionError as error:
        raise JournalHeaderError(
            f"the journal's initial position is not a valid {header.game} position: {error}"
        ) from None


def _replay_event(
    game: Game, position: Position, event: JournalEvent, undo_stack: list[tuple[int, Position]]
) -> Position:
    """The position after one event; pushes to or pops from the undo stack as the event says."""
    if event.kind in ("move", "pass"):
        after = _apply(game, position, event)
        undo_stack.append((event.number, position))
        return after
    if event.kind == "correction" and event.correction == "undo":
        standing = [number for number, _ in undo_stack]
        if event.retracts not in standing:
            last = f"the last standing move is {standing[-1]}" if standing else "no move stands"
            raise _Stop(f"retracts event {event.retracts}, but {last}")
        index = standing.index(event.retracts)
        before = undo_stack[index][1]
        del undo_stack[index:]
        return before
    if event.kind == "correction":  # a setup fix
        if undo_stack:
            raise _Stop("fixes the setup after play began")
        try:
            return game.position_from_json(event.position or {})
        except CompanionError as error:
            raise _Stop(f"holds a position that is not valid: {error}") from None
    return position  # rulings and notes


def _apply(game: Game, position: Position, event: JournalEvent) -> Position:
    """Apply a move or pass event, checking it is the recorded player's turn."""
    mover = game.to_move(position)
    if event.player is not None and mover is not None and int(mover) != event.player:
        raise _Stop(f"is by player {event.player}, but it is player {mover}'s turn")
    try:
        move = game.parse_move(event.move or "")
        return game.apply(position, move)
    except CompanionError as error:
        raise _Stop(f"({event.move}) cannot be replayed: {error}") from None


def _check_hash(position: Position, event: JournalEvent) -> None:
    actual = str(position.state_hash())
    if actual != event.state_hash:
        raise _Stop(
            f"has state hash {event.state_hash!r}, but replay gives {actual!r}"
            + (f" after {event.move}" if event.move else "")
        )


def damage_summary(timeline: GameTimeline) -> str:
    """What a damaged journal lost, in a few words: ``line 7 skipped; lines 9-14 not replayed``.

    For the last sentence of ``companion export`` and ``companion replay``; the problems say why.
    """
    stop = timeline.stopped_at
    skipped = sorted({p.line for p in timeline.problems if p.skipped and p.line != stop})
    parts = []
    if skipped:
        lines = ", ".join(str(line) for line in skipped)
        parts.append(f"line{'s' if len(skipped) > 1 else ''} {lines} skipped")
    if timeline.unreplayed:
        numbers = [event.line or 0 for event in timeline.unreplayed]
        span = f"lines {numbers[0]}-{numbers[-1]}" if len(numbers) > 1 else f"line {numbers[0]}"
        parts.append(f"{span} not replayed")
    return "; ".join(parts) or "damaged lines worked around, nothing left out"


def load_timeline(folder: str | os.PathLike[str]) -> GameTimeline:
    """Read and replay a game folder's journal (damage collected as problems)."""
    return replay(read_journal(folder, verify=False))


def resume_position(folder: str | os.PathLike[str]) -> Position:
    """The position to carry on from after a crash: the last one the intact journal reaches.

    For ``companion play --resume DIR``; reopen the journal with ``JournalWriter.resume`` to go on
    recording, which refuses a journal whose replay stops early.
    """
    return load_timeline(folder).final
