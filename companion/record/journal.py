"""The append-only game journal: ``journal.jsonl`` in a game's folder.

Line 1 is a header (format version, game, variants and options, players and seats, the initial
position, the calibration used, the software version, the start time); every later line is one
event (move, pass, correction, ruling, note, hint), numbered from 1 without gaps, with a UTC
time, the input source, the state hash after it and, where there is one, the frame snapshot's
file name.

For example (a header, then a move and an automatic pass; the header is abridged)::

    {"kind":"header","format":"coin-table-companion/journal","format_version":1,
     "game":"coin-isolation","variants":["diagonal"],"options":{},"players":2,
     "seats":[{"number":1,"side":"south","colour":"orange"},{"number":2,"side":"north"}],
     "initial_position":{...},"calibration":{"path":"profile.json","profile":null},
     "software":"0.1.0","started":"2026-11-22T07:40:12.345Z"}
    {"kind":"move","number":1,"time":"2026-11-22T07:41:02.120Z","source":"panel",
     "state_hash":"3f9c0a1b2c3d4e5f","player":1,"move":"c1-c2","frame":"frames/0001.jpg"}
    {"kind":"pass","number":2,"time":"2026-11-22T07:41:02.121Z","source":"referee",
     "state_hash":"8e7d6c5b4a392817","player":2,"move":"pass"}

The writer appends each line with one ``write`` on an ``O_APPEND`` descriptor and ``fsync`` s it
before returning, so whatever the referee acknowledged on the panel is on disk. Nothing is ever
rewritten: an undo or a fixed square is a new line.

The reader is forgiving (like python-chess's PGN reader): it skips a damaged line, records why,
and reads on; only a missing or unreadable header is an error. What it keeps of the lines after
a damaged one:

- A line is *readable* when it is UTF-8 JSON holding every field its kind needs; any other line
  (cut, garbled, blank) is skipped and reported, and the lines after it are read as usual.
- A readable line must also continue the numbering. A number at or below the last one kept is a
  repeat or a stray line: skipped. A number that jumps ahead is kept when the next readable line
  continues from it (the events in between were on the damaged lines), but skipped when the next
  readable line continues from the last number kept instead (then this line's number is what is
  damaged: valid JSON, wrong content).
- Replay (:mod:`companion.record.replay`) then checks every kept event against the rules and its
  state hash. A move (or undo) lost on a damaged line is worked out from the next line's state
  hash when exactly one legal action leads there, so the events after it still replay; when it
  cannot be worked out, the events from there on are kept as they were read but not replayed
  (the export lists them in a comment).

Whatever is skipped is reported with its line number, and ``companion export`` and ``companion
replay`` then exit with status 2. A crash in the middle of an append leaves a cut last line;
:meth:`JournalWriter.resume` moves such a damaged tail (every line after the last kept one) into
a side file next to the journal, ``journal.jsonl.damaged-<UTC time>``, never deleting it, and
carries on a clean journal.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.record.entries import (
    CORRECTIONS,
    FORMAT,
    FORMAT_VERSION,
    FRAMES_FOLDER,
    JOURNAL_NAME,
    KINDS,
    OPTIONAL_FIELDS,
    RULINGS,
    SOURCES,
    JournalEvent,
    JournalHeader,
    JournalProblem,
    JournalReadResult,
    JsonObject,
    LineDamage,
    Seat,
    encode_line,
    event_from_json,
    header_from_json,
    utc_now,
)
from companion.record.errors import (
    JournalDamagedError,
    JournalExistsError,
    JournalHeaderError,
    JournalMissingError,
    RecordError,
)
from companion.record.files import fsync_folder, open_locked, set_aside_tail

__all__ = [
    "CORRECTIONS", "FORMAT", "FORMAT_VERSION", "FRAMES_FOLDER", "JOURNAL_NAME", "KINDS", "RULINGS",
    "SOURCES", "JournalEvent", "JournalHeader", "JournalProblem", "JournalReadResult",
    "JournalWriter", "JsonObject", "Seat", "journal_path", "read_journal", "utc_now",
]  # fmt: skip


# ----------------------------------------------------------------------------------- reading


def journal_path(path: str | os.PathLike[str]) -> Path:
    """The journal file of a game folder, or the path itself when it names a ``.jsonl`` file."""
    candidate = Path(path)
    return candidate if candidate.suffix == ".jsonl" else candidate / JOURNAL_NAME


def read_journal(path: str | os.PathLike[str], *, verify: bool = True) -> JournalReadResult:
    """Read a journal (a game folder or its ``journal.jsonl``), collecting damage line by line.

    A cut, non-JSON, blank, incomplete or out-of-sequence line is skipped and reported, and
    reading goes on (see the module docstring for what is kept). With ``verify`` the events are
    replayed through the rules engine, which checks each state hash and works out a move lost on
    a damaged line when it can. Raises :class:`JournalMissingError` or
    :class:`JournalHeaderError` only.
    """
    file_path = _existing_journal(path)
    try:
        raw = file_path.read_bytes()
    except OSError as error:
        raise JournalMissingError(f"cannot read {file_path}: {error.strerror}.") from None
    pieces = raw.split(b"\n")
    ends_with_newline = pieces[-1] == b""
    if ends_with_newline:
        pieces.pop()
    header = _read_header(
        file_path, pieces[0] if pieces else b"", cut=len(pieces) == 1 and not ends_with_newline
    )
    parsed = _parse_lines(pieces[1:], ends_with_newline)
    events, problems = _in_sequence(parsed)
    result = JournalReadResult(
        path=file_path,
        header=header,
        events=tuple(events),
        problems=tuple(problems),
        highest_number=events[-1].number if events else 0,
        ends_with_newline=ends_with_newline,
        intact_length=_intact_length(pieces, events, len(raw)),
    )
    if verify:
        from companion.record.replay import replay  # the replay module imports this one

        timeline = replay(result)
        result = replace(
            result,
            events=timeline.events,
            problems=timeline.problems,
            stopped_at=timeline.stopped_at,
        )
    return result


def _existing_journal(path: str | os.PathLike[str]) -> Path:
    """The journal file of ``path``, or a one-sentence error saying what is missing."""
    file_path = journal_path(path)
    if not file_path.parent.is_dir():
        raise JournalMissingError(
            f"{file_path.parent} does not exist; give the folder of a recorded game."
        )
    if not file_path.is_file():
        raise JournalMissingError(
            f"{file_path.parent} holds no {file_path.name}; give the folder of a recorded game."
        )
    return file_path


def _read_header(file_path: Path, piece: bytes, cut: bool) -> JournalHeader:
    """Parse line 1; any fault is a one-sentence :class:`JournalHeaderError`."""
    where = f"{file_path}"
    if not piece.strip():
        raise JournalHeaderError(f"{where} has no header line; it is not a game journal.")
    try:
        data = json.loads(piece.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        state = "cut short" if cut else "not JSON"
        raise JournalHeaderError(f"{where} line 1 (the header) is {state}: {error}.") from None
    try:
        return header_from_json(data)
    except LineDamage as damage:
        raise JournalHeaderError(f"{where} line 1 (the header) {damage}.") from None


#: One event line as parsed: its line number and the event, or why it cannot be used.
_Parsed = tuple[int, JournalEvent | LineDamage]


def _parse_lines(pieces: list[bytes], ends_with_newline: bool) -> list[_Parsed]:
    """Parse every line after the header on its own (line 2 is the first)."""
    parsed: list[_Parsed] = []
    for index, piece in enumerate(pieces):
        is_last_cut = not ends_with_newline and index == len(pieces) - 1
        try:
            parsed.append((index + 2, _parse_event_line(piece, index + 2, is_last_cut)))
        except LineDamage as damage:
            parsed.append((index + 2, damage))
    return parsed


def _in_sequence(parsed: list[_Parsed]) -> tuple[list[JournalEvent], list[JournalProblem]]:
    """Keep the parsed events whose numbers continue the sequence; report everything else."""
    events: list[JournalEvent] = []
    problems: list[JournalProblem] = []
    damaged_since_last = False
    for index, (line, item) in enumerate(parsed):
        if isinstance(item, LineDamage):
            problems.append(JournalProblem(line, f"{item}; skipped"))
            damaged_since_last = True
            continue
        last = events[-1].number if events else 0
        fault = _sequence_fault(item.number, last, _next_number(parsed, index))
        if fault is not None:
            problems.append(JournalProblem(line, f"{fault}; skipped"))
            damaged_since_last = True
            continue
        if item.number > last + 1 and not damaged_since_last:
            missing = _number_range(last + 1, item.number - 1)
            problems.append(JournalProblem(line, f"event {missing} is missing before it", False))
        events.append(item)
        damaged_since_last = False
    return events, problems


def _sequence_fault(number: int, last: int, following: int | None) -> str | None:
    """Why an event number breaks the sequence, or None when the event can be kept.

    ``last`` is the number kept before it, ``following`` the number on the next line that
    parsed. A number that jumps ahead is kept when the next line continues from it (the events in
    between were lost); it is a damaged number when the next line continues from ``last``.
    """
    if number <= last:
        return f"event number {number} does not follow {last}"
    if number > last + 1 and following is not None and last < following < number:
        return f"event number {number} breaks the sequence ({last} before it, {following} after)"
    return None


def _next_number(parsed: list[_Parsed], index: int) -> int | None:
    """The event number on the first line after ``index`` that parsed, if any."""
    return next(
        (item.number for _, item in parsed[index + 1 :] if isinstance(item, JournalEvent)), None
    )


def _intact_length(pieces: list[bytes], events: list[JournalEvent], size: int) -> int:
    """Bytes up to and including the newline of the last kept line (the header when none)."""
    last_line = events[-1].line if events and events[-1].line is not None else 1
    length = sum(len(piece) + 1 for piece in pieces[:last_line])
    return min(length, size)


def _number_range(first: int, last: int) -> str:
    return f"{first}" if first == last else f"{first}..{last}"


def _parse_event_line(piece: bytes, line: int, is_last_cut: bool) -> JournalEvent:
    if not piece.strip():
        raise LineDamage("is blank")
    try:
        data = json.loads(piece.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        if is_last_cut:
            raise LineDamage("is cut short (the writer stopped in the middle of it)") from None
        raise LineDamage(f"is not JSON ({error})") from None
    return replace(event_from_json(data), line=line)


# ----------------------------------------------------------------------------------- writing


class JournalWriter:
    """Appends events to one game's journal; every call returns only once its line is fsynced.

    Make one with :meth:`create` (a new game) or :meth:`resume` (carry on after a crash). It holds
    an exclusive lock on the journal while open, so two companions cannot interleave lines. Use it
    as a context manager or call :meth:`close`. One thread appends (the referee's); the writer has
    no lock of its own between threads.
    """

    def __init__(
        self,
        path: Path,
        descriptor: int,
        next_number: int,
        standing: tuple[tuple[int, str], ...] = (),
    ) -> None:
        """Use :meth:`create` or :meth:`resume`; this takes an already open, locked descriptor.

        ``standing`` lists the (number, kind) of the moves and passes that stand, so an undo
        knows what it takes back.
        """
        self._path = path
        self._descriptor: int | None = descriptor
        self._next_number = next_number
        self._standing = list(standing)
        self._set_aside: Path | None = None

    # -- opening

    @classmethod
    def create(cls, folder: str | os.PathLike[str], header: JournalHeader) -> JournalWriter:
        """Start a new game record in ``folder`` (created if needed) and write its header."""
        folder_path = Path(folder)
        folder_path.mkdir(parents=True, exist_ok=True)
        (folder_path / FRAMES_FOLDER).mkdir(exist_ok=True)
        path = folder_path / JOURNAL_NAME
        descriptor = open_locked(path)
        if b"\n" in path.read_bytes():
            os.close(descriptor)
            raise JournalExistsError(
                f"{folder_path} already holds a game journal; resume it or choose a new folder."
            )
        os.ftruncate(descriptor, 0)  # a header cut before its line ended was never acknowledged
        writer = cls(path, descriptor, next_number=1)
        writer._write(encode_line(header.to_json()))
        fsync_folder(folder_path)  # the journal's and frames/' entries in the game folder
        fsync_folder(folder_path.parent)  # the game folder's entry, when it is new
        return writer

    @classmethod
    def resume(cls, folder: str | os.PathLike[str]) -> JournalWriter:
        """Reopen a game record to append after its last intact event.

        A damaged tail (a last line cut by a crash, or any lines after the last kept event that
        cannot be read) is moved into a side file next to the journal (:attr:`set_aside` names
        it) and cut from the journal, so the next event follows the last intact line and later
        readers find a clean journal. A journal whose replay stops before its end is refused
        (:class:`JournalDamagedError`): appending would hide the damage.
        """
        file_path = _existing_journal(folder)
        descriptor = open_locked(file_path)
        try:
            writer = cls._resume_locked(file_path, descriptor)
        except BaseException:
            os.close(descriptor)
            raise
        return writer

    @classmethod
    def _resume_locked(cls, file_path: Path, descriptor: int) -> JournalWriter:
        """:meth:`resume` once the journal is locked, so nothing appends while it is read."""
        from companion.record.replay import replay  # the replay module imports this one

        result = read_journal(file_path, verify=False)
        timeline = replay(result)
        if timeline.stopped_at is not None:
            reason = next((p for p in timeline.problems if p.line == timeline.stopped_at), None)
            raise JournalDamagedError(
                f"{result.path} cannot be carried on: its replay stops at line "
                f"{timeline.stopped_at} ({reason.message if reason else 'inconsistent'}); "
                "export what is intact and start a new game from its last position."
            )
        standing = tuple((step.event.number, step.event.kind) for step in timeline.standing_steps())
        writer = cls(file_path, descriptor, result.highest_number + 1, standing)
        try:
            writer._set_aside = set_aside_tail(file_path, descriptor, result.intact_length)
        except OSError as error:
            raise RecordError(
                f"cannot set aside the damaged end of {file_path}: {error.strerror}; "
                "nothing was changed or lost."
            ) from None
        if writer._set_aside is None and not result.ends_with_newline:
            writer._write(b"\n")  # a last line that reads whole but lost its newline
        return writer

    # -- state

    @property
    def path(self) -> Path:
        """The journal file."""
        return self._path

    @property
    def folder(self) -> Path:
        """The game folder."""
        return self._path.parent

    @property
    def set_aside(self) -> Path | None:
        """The side file that :meth:`resume` moved a damaged tail into, or None when none."""
        return self._set_aside

    @property
    def next_number(self) -> int:
        """The number the next event will get (name its frame with it before appending)."""
        return self._next_number

    @property
    def standing(self) -> tuple[int, ...]:
        """The numbers of the moves and passes that stand (not taken back), in order."""
        return tuple(number for number, _ in self._standing)

    # -- appending

    def record_move(
        self,
        move: str,
        *,
        player: int,
        state_hash: str,
        source: str,
        frame: str | None = None,
        text: str | None = None,
    ) -> JournalEvent:
        """Append an accepted move (its notation) and the state hash after it."""
        return self.append(
            self._event("move", source, state_hash, player=player, move=move, frame=frame,
                        text=text)
        )  # fmt: skip

    def record_pass(
        self,
        *,
        player: int,
        state_hash: str,
        source: str = "referee",
        move: str = "pass",
        text: str | None = None,
    ) -> JournalEvent:
        """Append a pass (automatic when the player has no legal move)."""
        return self.append(
            self._event("pass", source, state_hash, player=player, move=move, text=text)
        )

    def record_undo(
        self,
        *,
        state_hash: str,
        source: str,
        retracts: int | None = None,
        text: str | None = None,
    ) -> JournalEvent:
        """Append an undo: it takes back a standing move (by default the last one) and every
        pass after it; ``state_hash`` is the hash of the position before that move."""
        if retracts is None:
            retracts = self._last_standing_move()
        return self.append(
            self._event("correction", source, state_hash, correction="undo", retracts=retracts,
                        text=text)
        )  # fmt: skip

    def record_setup_fix(
        self,
        *,
        position: JsonObject,
        state_hash: str,
        source: str,
        region: str | None = None,
        was: str | None = None,
        now: str | None = None,
        frame: str | None = None,
        text: str | None = None,
    ) -> JournalEvent:
        """Append a corrected starting position (a misread square fixed before the first move)."""
        return self.append(
            self._event("correction", source, state_hash, correction="setup", position=position,
                        region=region, was=was, now=now, frame=frame, text=text)
        )  # fmt: skip

    def record_ruling(
        self,
        ruling: str,
        *,
        text: str,
        state_hash: str,
        source: str,
        player: int | None = None,
        candidates: tuple[str, ...] = (),
        chosen: str | None = None,
        regions: tuple[str, ...] = (),
        frame: str | None = None,
    ) -> JournalEvent:
        """Append an ``ask`` (written just before the chosen move) or a ``reject`` (with the
        ``regions`` that differ); ``state_hash`` is the unchanged position's."""
        return self.append(
            self._event("ruling", source, state_hash, ruling=ruling, text=text, player=player,
                        candidates=tuple(candidates), chosen=chosen, regions=tuple(regions),
                        frame=frame)
        )  # fmt: skip

    def record_note(self, text: str, *, state_hash: str, source: str) -> JournalEvent:
        """Append a free note (a camera that stopped, a panel unplugged, a resume)."""
        return self.append(self._event("note", source, state_hash, text=text))

    def record_fields(self, kind: str, fields: Mapping[str, Any]) -> JournalEvent:
        """Append an event given as its JSON fields (``source``, ``state_hash``, ``player``,
        ``move``...), as a referee effect may carry them; the number and time are filled in.

        An undo without ``retracts`` takes back the last standing move. A field the journal does
        not know is refused (:class:`RecordError`) rather than silently dropped.
        """
        unknown = sorted(set(fields) - set(OPTIONAL_FIELDS) - {"source", "state_hash"})
        if unknown:
            raise RecordError(
                f"{kind} event with field(s) {', '.join(map(repr, unknown))} that the journal "
                f"does not keep; known fields: source, state_hash, {', '.join(OPTIONAL_FIELDS)}."
            )
        data: JsonObject = {"kind": kind, "number": self._next_number, "time": utc_now()}
        data.update(fields)
        if data.get("correction") == "undo" and data.get("retracts") is None:
            data["retracts"] = self._last_standing_move()
        try:
            event = event_from_json(data)
        except LineDamage as damage:
            raise RecordError(f"{kind} event {damage}; nothing was written.") from None
        return self.append(event)

    def _last_standing_move(self) -> int:
        moves = [number for number, kind in self._standing if kind == "move"]
        if not moves:
            raise RecordError(f"no move stands in {self._path} to take back; nothing written.")
        return moves[-1]

    def append(self, event: JournalEvent) -> JournalEvent:
        """Append one event whose number is :attr:`next_number`; returns once it is fsynced.

        The event is checked exactly as the reader will check it, so a line the writer accepts
        is never reported as damaged.
        """
        if event.number != self._next_number:
            raise RecordError(
                f"event number {event.number} given to {self._path}, which expects "
                f"{self._next_number} next; take numbers from next_number."
            )
        data = event.to_json()
        try:
            event_from_json(data)
        except LineDamage as damage:
            raise RecordError(f"event {event.number} {damage}; nothing was written.") from None
        standing = [number for number, _ in self._standing]
        if event.correction == "undo" and event.retracts not in standing:
            raise RecordError(
                f"undo of event {event.retracts} in {self._path}, which is not a standing move; "
                "nothing was written."
            )
        self._write(encode_line(data))
        self._next_number += 1
        self._track(event)
        return event

    def _track(self, event: JournalEvent) -> None:
        if event.kind in ("move", "pass"):
            self._standing.append((event.number, event.kind))
        elif event.correction == "undo":
            index = [number for number, _ in self._standing].index(event.retracts or 0)
            del self._standing[index:]

    def _event(self, kind: str, source: str, state_hash: str, **fields: Any) -> JournalEvent:
        return JournalEvent(
            number=self._next_number,
            kind=kind,
            time=utc_now(),
            source=source,
            state_hash=state_hash,
            **fields,
        )

    def _write(self, data: bytes) -> None:
        if self._descriptor is None:
            raise RecordError(f"{self._path} is closed; reopen it with JournalWriter.resume.")
        view = memoryview(data)
        while view:
            written = os.write(self._descriptor, view)
            view = view[written:]
        os.fsync(self._descriptor)

    # -- closing

    def close(self) -> None:
        """Release the lock and the file; appending afterwards raises :class:`RecordError`."""
        if self._descriptor is not None:
            os.close(self._descriptor)
            self._descriptor = None

    def __enter__(self) -> JournalWriter:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
