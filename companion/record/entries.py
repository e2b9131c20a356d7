"""The journal's lines as values: the header, the events, the problems found reading them.

Also their JSON form: :func:`header_from_json` and :func:`event_from_json` check every field a
kind needs (raising :class:`LineDamage`, which the reader turns into a reported problem), and
:func:`encode_line` writes one line. The writer checks each event with the same function the
reader uses, so a line the writer accepts is never reported as damaged.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion import __version__
from contract.schemas import describe_error, first_error

FORMAT = "coin-table-companion/journal"
FORMAT_VERSION = 1
JOURNAL_NAME = "journal.jsonl"
FRAMES_FOLDER = "frames"

#: Where an event came from. ``referee`` is for what the referee decides alone (automatic passes);
#: ``random`` for a chance outcome the companion drew from its own random source (a die it rolled).
SOURCES = ("panel", "keyboard", "bot", "camera", "referee", "random")
KINDS = ("move", "pass", "correction", "ruling", "note", "hint")
#: ``undo`` takes back a standing move (and the passes after it); ``setup`` replaces the start.
CORRECTIONS = ("undo", "setup")
#: How the card of a move in a card game was known: read on the discard spot by the camera,
#: inferred from the coins (only one card fits), or entered with a button.
CARD_SOURCES = ("camera", "inferred", "panel", "keyboard")
#: ``ask``: several legal moves fitted and a player chose one; ``reject``: no legal move fitted.
RULINGS = ("ask", "reject")

JsonObject = dict[str, Any]


def utc_now() -> str:
    """The current UTC time as ISO 8601 with milliseconds and a ``Z``."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(frozen=True)
class Seat:
    """One seat at the table: its number (1..), the side it plays from, and how to tell it."""

    number: int
    side: str
    colour: str | None = None
    name: str | None = None

    def to_json(self) -> JsonObject:
        """The seat as a JSON object, leaving out what is not set."""
        data: JsonObject = {"number": self.number, "side": self.side}
        if self.colour is not None:
            data["colour"] = self.colour
        if self.name is not None:
            data["name"] = self.name
        return data


@dataclass(frozen=True)
class JournalHeader:
    """The first line of a journal: everything needed to replay the game from its events."""

    game: str
    players: int
    seats: tuple[Seat, ...]
    initial_position: JsonObject
    variants: tuple[str, ...] = ()
    options: JsonObject = field(default_factory=dict)
    calibration_path: str | None = None
    calibration_profile: JsonObject | None = None
    software: str = __version__
    started: str = field(default_factory=utc_now)
    format_version: int = FORMAT_VERSION

    @classmethod
    def from_position(
        cls,
        position: Mapping[str, Any],
        *,
        names: Mapping[int, str] | None = None,
        colours: Mapping[int, str] | None = None,
        options: JsonObject | None = None,
        calibration_path: str | None = None,
        calibration_profile: JsonObject | None = None,
    ) -> JournalHeader:
        """The header for a game starting at ``position`` (its JSON): game, variants, players
        and seats come from the position, names and pawn colours by seat number."""
        sides = position.get("sides", {})
        numbers = sorted(int(number) for number in sides) or list(
            range(1, int(position.get("players", 0)) + 1)
        )
        seats = tuple(
            Seat(
                number,
                str(sides.get(str(number), "")),
                (colours or {}).get(number),
                (names or {}).get(number),
            )
            for number in numbers
        )
        return cls(
            game=str(position.get("game", "")),
            players=int(position.get("players", len(seats))),
            seats=seats,
            initial_position=dict(position),
            variants=tuple(position.get("variants", ())),
            options=dict(options or {}),
            calibration_path=calibration_path,
            calibration_profile=calibration_profile,
        )

    def to_json(self) -> JsonObject:
        """The header line's JSON object."""
        return {
            "kind": "header",
            "format": FORMAT,
            "format_version": self.format_version,
            "game": self.game,
            "variants": list(self.variants),
            "options": self.options,
            "players": self.players,
            "seats": [seat.to_json() for seat in self.seats],
            "initial_position": self.initial_position,
            "calibration": {"path": self.calibration_path, "profile": self.calibration_profile},
            "software": self.software,
            "started": self.started,
        }


#: The dice of a roll at the table: rounds (a tied battle is rolled again), each the rolls made
#: in it (a battle: the attacker's, then the defender's), each the faces shown.
Dice = tuple[tuple[tuple[int, ...], ...], ...]


@dataclass(frozen=True)
class JournalEvent:
    """One journal line after the header. Which optional fields a kind needs:

    - ``move``: ``player``, ``move`` (its notation); ``frame`` when a camera frame was accepted;
      in a card game ``card`` (its rank) and ``card_source`` (:data:`CARD_SOURCES`).
    - ``pass``: ``player``, ``move`` (the game's pass notation, ``"pass"``).
    - ``correction``: ``correction`` is ``"undo"`` with ``retracts`` (the number of the move taken
      back; the passes that followed it go with it), or ``"setup"`` with ``position`` (the whole
      corrected position JSON) and, for people, ``region``/``was``/``now`` (``"c4"``, ``"P"``,
      ``"N"``).
    - ``ruling``: ``ruling`` is ``"ask"`` (``candidates`` and the ``chosen`` move; written just
      before that move's line) or ``"reject"`` (``regions``: the squares that differ); ``text``
      says what happened; ``player`` whose turn it was.
    - ``note``: ``text``.
    - ``hint``: ``player`` who asked, the ``suggested`` move (never applied: replay, resume and
      export show it but play on without it), ``win_chance`` per seat (seat number as text ->
      0..1) and ``text`` as the screen said it.

    ``state_hash`` is the engine's hash of the position after the event (unchanged by rulings and
    notes), so a reader can check its replay at every line. ``line`` is where the event was read.
    """

    number: int
    kind: str
    time: str
    source: str
    state_hash: str
    player: int | None = None
    move: str | None = None
    frame: str | None = None
    correction: str | None = None
    retracts: int | None = None
    position: JsonObject | None = None
    region: str | None = None
    was: str | None = None
    now: str | None = None
    ruling: str | None = None
    candidates: tuple[str, ...] = ()
    chosen: str | None = None
    regions: tuple[str, ...] = ()
    text: str | None = None
    dice: Dice = ()
    card: str | None = None
    card_source: str | None = None
    suggested: str | None = None
    win_chance: tuple[tuple[str, float], ...] = ()
    line: int | None = field(default=None, compare=False)

    def to_json(self) -> JsonObject:
        """The event line's JSON object: the common fields, then those that are set."""
        data: JsonObject = {
            "kind": self.kind,
            "number": self.number,
            "time": self.time,
            "source": self.source,
            "state_hash": self.state_hash,
        }
        for name in OPTIONAL_FIELDS:
            value = getattr(self, name)
            if name == "win_chance" and value:
                data[name] = dict(value)
            elif value is not None and value != ():
                data[name] = list(value) if isinstance(value, tuple) else value
        return data

    @property
    def changes_position(self) -> bool:
        """Whether replaying this event changes the position (moves, passes, corrections)."""
        return self.kind in ("move", "pass", "correction")


#: Event fields beside kind, number, time, source and state_hash, in the order lines hold them.
OPTIONAL_FIELDS = (
    "player", "move", "frame", "correction", "retracts", "position", "region", "was", "now",
    "ruling", "candidates", "chosen", "regions", "text", "dice", "card", "card_source",
    "suggested", "win_chance",
)  # fmt: skip


@dataclass(frozen=True)
class JournalProblem:
    """One damaged or inconsistent line, found while reading or replaying a journal."""

    line: int
    message: str
    #: Whether the line's content was left out (damaged, out of sequence, or not replayable),
    #: as opposed to a remark on a line that was used.
    skipped: bool = True

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass(frozen=True)
class JournalReadResult:
    """What could be read of a journal: the header, the intact events, and every problem.

    ``stopped_at`` is the line where replay found the journal inconsistent (a hash that does not
    match, an illegal move) and could not work out how it goes on; the events from there on are
    left out. ``highest_number`` is the largest event number kept, so a resumed writer carries on
    the sequence. ``ends_with_newline`` is false when the last line was cut off.
    ``intact_length`` is the size in bytes of the journal up to the end of its last kept line
    (its newline included): whatever follows it is a damaged tail that a resumed writer sets
    aside.
    """

    path: Path
    header: JournalHeader
    events: tuple[JournalEvent, ...]
    problems: tuple[JournalProblem, ...] = ()
    stopped_at: int | None = None
    highest_number: int = 0
    ends_with_newline: bool = True
    intact_length: int = 0

    @property
    def folder(self) -> Path:
        """The game folder holding the journal."""
        return self.path.parent


class LineDamage(Exception):
    """Internal: why one line cannot be used (becomes a JournalProblem)."""


# ------------------------------------------------------------------------- JSON <-> values


def header_from_json(data: object) -> JournalHeader:
    """The header from its JSON object; raises LineDamage naming the fault."""
    if not isinstance(data, dict):
        raise LineDamage("is not a JSON object")
    if data.get("kind") != "header" or data.get("format") != FORMAT:
        raise LineDamage(f"is not a {FORMAT} header")
    version = _field(data, "format_version", int)
    if version > FORMAT_VERSION:
        raise LineDamage(
            f"has format version {version}, newer than this companion reads "
            f"({FORMAT_VERSION}); update the companion"
        )
    found = first_error(data, "journal-line")
    if found is not None:
        raise LineDamage(f"{describe_error(found)} (correct the line by hand, or restore the "
                         "journal from a copy)")
    calibration = data.get("calibration") or {}
    if not isinstance(calibration, dict):
        raise LineDamage("has a calibration that is not an object")
    return JournalHeader(
        game=_field(data, "game", str),
        players=_field(data, "players", int),
        seats=tuple(_seat_from_json(seat) for seat in _field(data, "seats", list)),
        initial_position=_field(data, "initial_position", dict),
        variants=tuple(_strings(data, "variants")),
        options=_field(data, "options", dict, required=False) or {},
        calibration_path=_field(calibration, "path", str, required=False),
        calibration_profile=_field(calibration, "profile", dict, required=False),
        software=_field(data, "software", str),
        started=_field(data, "started", str),
        format_version=version,
    )


def _seat_from_json(data: object) -> Seat:
    if not isinstance(data, dict):
        raise LineDamage("has a seat that is not an object")
    return Seat(
        number=_field(data, "number", int),
        side=_field(data, "side", str),
        colour=_field(data, "colour", str, required=False),
        name=_field(data, "name", str, required=False),
    )


def event_from_json(data: object) -> JournalEvent:
    """An event from its JSON object, checking the fields its kind needs."""
    if not isinstance(data, dict):
        raise LineDamage("is not a JSON object")
    kind = data.get("kind")
    if kind == "header":
        raise LineDamage("is a second header")
    if kind not in KINDS:
        raise LineDamage(f"has an unknown kind {kind!r}")
    source = _field(data, "source", str)
    if source not in SOURCES:
        raise LineDamage(f"has an unknown source {source!r}")
    number = _field(data, "number", int)
    if number < 1:
        raise LineDamage(f"has event number {number}, below 1")
    event = JournalEvent(
        number=number,
        kind=kind,
        time=_timestamp(data),
        source=source,
        state_hash=_field(data, "state_hash", str),
        player=_field(data, "player", int, required=kind in ("move", "pass", "hint")),
        move=_field(data, "move", str, required=kind in ("move", "pass")),
        frame=_field(data, "frame", str, required=False),
        correction=_choice(data, "correction", CORRECTIONS, required=kind == "correction"),
        retracts=_field(data, "retracts", int, required=data.get("correction") == "undo"),
        position=_field(data, "position", dict, required=data.get("correction") == "setup"),
        region=_field(data, "region", str, required=False),
        was=_field(data, "was", str, required=False),
        now=_field(data, "now", str, required=False),
        ruling=_choice(data, "ruling", RULINGS, required=kind == "ruling"),
        candidates=tuple(_strings(data, "candidates")),
        chosen=_field(data, "chosen", str, required=False),
        regions=tuple(_strings(data, "regions")),
        text=_field(data, "text", str, required=kind in ("note", "ruling", "hint")),
        dice=_dice(data),
        card=_field(data, "card", str, required=False),
        card_source=_choice(data, "card_source", CARD_SOURCES, required=False),
        suggested=_field(data, "suggested", str, required=kind == "hint"),
        win_chance=_win_chance(data),
    )
    return event


def _win_chance(data: Mapping[str, Any]) -> tuple[tuple[str, float], ...]:
    """The ``win_chance`` field of a hint: seat number (as text) -> chance from 0 to 1."""
    raw = _field(data, "win_chance", dict, required=False) or {}
    chances = []
    for seat, chance in raw.items():
        if not (seat.isdigit() and isinstance(chance, int | float)
                and not isinstance(chance, bool) and 0 <= chance <= 1):
            raise LineDamage(f"has 'win_chance' {seat!r}: {chance!r}, not a seat number and a "
                             "chance from 0 to 1")
        chances.append((seat, float(chance)))
    return tuple(chances)


def _dice(data: Mapping[str, Any]) -> Dice:
    """The ``dice`` field: rounds of rolls of die faces (``[[[4], [4]], [[5], [3, 2]]]``)."""
    raw = data.get("dice", [])
    try:
        rounds = tuple(tuple(tuple(_face(face) for face in roll) for roll in round_)
                       for round_ in raw)
    except (TypeError, ValueError):
        raise LineDamage("has a 'dice' field that is not rounds of rolls of die faces "
                         "1 to 6") from None
    return rounds


def _face(value: Any) -> int:
    if type(value) is not int or not 1 <= value <= 6:
        raise ValueError(value)
    return value


def _field(data: Mapping[str, Any], name: str, kind: type, *, required: bool = True) -> Any:
    """One field of the expected JSON type (bool is not an int here), or None when optional."""
    value = data.get(name)
    if value is None:
        if required:
            raise LineDamage(f"has no {name!r}")
        return None
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise LineDamage(f"has {name!r} = {value!r}, not a {_JSON_NAMES[kind]}")
    return value


_JSON_NAMES: dict[type, str] = {
    int: "whole number", str: "string", list: "list", dict: "JSON object",
}  # fmt: skip


def _choice(data: Mapping[str, Any], name: str, allowed: tuple[str, ...], *, required: bool) -> Any:
    value = _field(data, name, str, required=required)
    if value is not None and value not in allowed:
        raise LineDamage(f"has {name!r} = {value!r}, not one of {', '.join(allowed)}")
    return value


def _strings(data: Mapping[str, Any], name: str) -> Iterator[str]:
    values = _field(data, name, list, required=False) or []
    for value in values:
        if not isinstance(value, str):
            raise LineDamage(f"has {name!r} holding {value!r}, not a string")
        yield value


def _timestamp(data: Mapping[str, Any]) -> str:
    text: str = _field(data, "time", str)
    try:
        datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise LineDamage(f"has 'time' = {text!r}, not an ISO 8601 time") from None
    return text


def encode_line(data: Mapping[str, Any]) -> bytes:
    """One journal line: compact JSON, UTF-8, ending in a newline."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=False)
    return (text + "\n").encode("utf-8")
