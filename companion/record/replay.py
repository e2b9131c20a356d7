"""Rebuild a game from its journal: replay every event through the rules engine, checking hashes.

Pure apart from :func:`load_timeline` and :func:`resume_position`, which read the journal first.
Replay starts from the header's initial position. A move or pass is parsed and applied by the
engine; an undo restores the position before the move it retracts (taking back with it the passes
that followed that move); a setup fix replaces the position before play begins; rulings and notes
leave it as it is. After every event the engine's state hash must equal the one stored. At the
first event that does not fit (an illegal move, a hash that differs, an undo of a move that does
not stand) replay stops: that event and everything after it are left out and reported, and
everything before is kept.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from companion.games import Game, Position, get_game
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
    """One replayed event and the position after it."""

    event: JournalEvent
    position: Position


@dataclass(frozen=True)
class GameTimeline:
    """A journal replayed: the positions after every event, what stands, and every problem.

    ``steps`` holds every event that replayed (moves later undone included, in journal order).
    ``standing`` holds the numbers of the moves and passes that still stand, in order: the line
    of play. ``problems`` holds the reader's problems and replay's, ``stopped_at`` the line where
    replay stopped early (None when the whole journal replayed).
    """

    header: JournalHeader
    game: Game
    initial: Position
    steps: tuple[TimelineStep, ...]
    standing: tuple[int, ...]
    problems: tuple[JournalProblem, ...] = ()
    stopped_at: int | None = None

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


def replay(result: JournalReadResult) -> GameTimeline:
    """Replay the events of a read journal; collects problems, never raises for damage.

    Raises :class:`RecordError` only when the header names a game this companion does not know or
    its initial position is not valid for that game.
    """
    game = _game_of(result.header)
    initial = _initial_position(game, result.header)
    steps: list[TimelineStep] = []
    undo_stack: list[tuple[int, Position]] = []
    position = initial
    problems = list(result.problems)
    stopped_at: int | None = None
    for index, event in enumerate(result.events):
        try:
            position = _replay_event(game, position, event, undo_stack)
            _check_hash(position, event)
        except _Stop as stop:
            stopped_at = event.line if event.line is not None else 0
            left = len(result.events) - index - 1
            after = f"; it and the {left} event(s) after it are left out" if left else "; left out"
            problems.append(JournalProblem(stopped_at, f"event {event.number} {stop}{after}"))
            break
        steps.append(TimelineStep(event, position))
    problems.sort(key=lambda problem: problem.line)
    return GameTimeline(
        header=result.header,
        game=game,
        initial=initial,
        steps=tuple(steps),
        standing=tuple(number for number, _ in undo_stack),
        problems=tuple(problems),
        stopped_at=stopped_at,
    )


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


def load_timeline(folder: str | os.PathLike[str]) -> GameTimeline:
    """Read and replay a game folder's journal (damage collected as problems)."""
    return replay(read_journal(folder, verify=False))


def resume_position(folder: str | os.PathLike[str]) -> Position:
    """The position to carry on from after a crash: the last one the intact journal reaches.

    For ``companion play --resume DIR``; reopen the journal with ``JournalWriter.resume`` to go on
    recording, which refuses a journal whose replay stops early.
    """
    return load_timeline(folder).final
