"""What goes into the referee and what comes out of it, as plain values: the events it handles
(a button, a steady frame read by vision, a device's news), the effects it asks the runtime to
carry out (lights, journal lines, a frame, the game's start), and the view the side screen
draws. The machine itself is :mod:`companion.referee`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from companion.games.base import DiceRoll, Position
from contract.observation import Observation
from contract.table_state import TableState


class Phase(Enum):
    """Where the turn loop stands."""

    SETUP = "setup"
    TURN = "turn"
    READING = "reading"
    CHOOSING = "choosing"
    ROLL = "roll"
    RESTORE = "restore"
    UNDO = "undo"
    OVER = "over"


# Events -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Press:
    """A button was pressed: ``END1``..``END6``, ``UNDO``, ``SELECT``, ``CONFIRM`` or
    ``ROLL``."""

    button: str
    source: str = "panel"


@dataclass(frozen=True)
class Seen:
    """The steady frame taken after a press, read by vision; pawn labels are player numbers."""

    observation: Observation
    frame: str | None = None


@dataclass(frozen=True)
class DeviceStatus:
    """A device's trouble (``message`` says what to do) or its return (``message`` is None).
    Trouble that is not ``lasting`` (a panel with fewer END buttons than seats) is said once,
    as a warning, instead of standing over every message until it is gone."""

    device: str
    message: str | None
    lasting: bool = True


Event = Press | Seen | DeviceStatus


# Effects ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Lights:
    """The panel lights wanted: whose turn, and the verdict lamp (``green``, ``red``, ``ask``)."""

    turn: int | None
    verdict: str | None = None
    all_turns_blink: bool = False


@dataclass(frozen=True)
class Record:
    """One journal event to append (and fsync) before the panel is answered.

    ``kind`` and ``fields`` follow :mod:`companion.record.entries`; a ``frame`` field holds the key
    of the frame given in :class:`Seen`, which the runtime replaces by the saved frame's name.
    """

    kind: str
    fields: Mapping[str, Any]


@dataclass(frozen=True)
class WantFrame:
    """Ask vision for the next steady frame after the press that caused this."""


@dataclass(frozen=True)
class Begin:
    """The players confirmed the layout: start the game record at ``position``."""

    position: Position


Effect = Lights | Record | WantFrame | Begin


# The state the screen draws ---------------------------------------------------------------------


@dataclass(frozen=True)
class RollShown:
    """One roll of the latest round as the screen shows it: its label (``South's attack``),
    the faces rolled (none when the outcome was entered without them), who gave them
    (``camera``, ``random`` for the companion's ROLL, or a button's source such as ``panel``),
    whether the total counts half, the outcome entered by hand in words, and the dice's colours
    as the camera named them (none for dice it did not see)."""

    label: str
    faces: tuple[int, ...]
    source: str
    halved: bool = False
    entered: str = ""
    colours: tuple[str, ...] = ()


@dataclass(frozen=True)
class RefereeView:
    """Everything the side screen needs from the referee, as plain values: ``candidates`` are
    move texts, ``candidate_labels`` what the screen says of each (the game's words for what
    tells it apart); ``last_path`` the regions of the last move accepted this session."""

    phase: Phase
    position: Position | None
    to_move: int | None
    targets: frozenset[str]
    candidates: tuple[str, ...]
    selected: int | None
    path: tuple[str, ...]
    path_label: str
    marked: tuple[str, ...]
    message: str
    severity: str
    last_moves: tuple[str, ...]
    scores: Mapping[int, int]
    result: str | None
    device_trouble: tuple[str, ...] = ()
    table: TableState = field(default_factory=TableState)
    awaited_roll: DiceRoll | None = None
    facts: tuple[str, ...] = ()
    candidate_labels: tuple[str, ...] = ()
    last_path: tuple[str, ...] = ()
    rolls_shown: tuple[RollShown, ...] = ()


def end_button_seat(button: str) -> int | None:
    """The seat whose END button ``button`` is (``END5`` -> 5), or None for any other button."""
    number = button.removeprefix("END")
    return int(number) if number != button and number.isdigit() and number != "0" else None
