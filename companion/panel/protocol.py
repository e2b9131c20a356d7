"""The panel protocol of ``firmware/PROTOCOL.md`` as pure values and functions, without any I/O.

Lines are ``BODY*CC`` with a CRC-8/SMBUS checksum. :func:`format_line` makes one,
:func:`parse_line` reads a device line into a typed message and :func:`parse_command` reads a host
line into a typed command (for the twin); both raise :class:`ProtocolError` with the protocol's
error code. :class:`LineAssembler` cuts a byte stream into lines and survives garbage. The
transport (a serial port, a pty, an in-memory link) lives elsewhere, as in pyserial's
``serial.threaded``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import IntEnum

from companion.panel.errors import ProtocolError

PROTOCOL_VERSION = 1
BAUD_RATE = 115200
MAX_BODY_BYTES = 48
MAX_LINE_BYTES = MAX_BODY_BYTES + 3
RING_SIZE = 16
EVENT_NUMBER_MAX = 65535
END_BUTTONS = ("END1", "END2", "END3", "END4")
BUTTONS = (*END_BUTTONS, "UNDO", "SELECT", "CONFIRM")
LED_NAMES = ("TURN1", "TURN2", "TURN3", "TURN4", "GREEN", "RED")
ERROR_CODES = ("CHECKSUM", "TOOLONG", "CHARS", "UNKNOWN", "ARGS", "GONE")

_NUMBER = re.compile(r"0|[1-9][0-9]{0,4}")
_BOOT = re.compile(r"[0-9A-F]{4}")
_CHECKSUM = re.compile(r"[0-9A-F]{2}")
_VERSION = re.compile(r"[0-9]+\.[0-9]+\.[0-9]+")


def _crc8_table() -> tuple[int, ...]:
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
        table.append(crc)
    return tuple(table)


_CRC8_TABLE = _crc8_table()


def crc8(data: bytes) -> int:
    """CRC-8/SMBUS of ``data``: polynomial 0x07, initial value 0, no reflection, no final XOR."""
    crc = 0
    for byte in data:
        crc = _CRC8_TABLE[crc ^ byte]
    return crc


def format_line(body: str) -> bytes:
    """The line ``BODY*CC\\n`` for ``body``; refuses a body the protocol forbids."""
    raw = body.encode("ascii", errors="replace")
    printable = body.isascii() and all(0x20 <= b <= 0x7E for b in raw)
    if not printable or not 1 <= len(raw) <= MAX_BODY_BYTES:
        raise ValueError(f"cannot send {body!r}: a body is 1 to 48 printable ASCII characters")
    return raw + b"*%02X\n" % crc8(raw)


def checked_body(line: bytes) -> str:
    """The body of one line (without its line end), after checking length, bytes and checksum."""
    if len(line) > MAX_LINE_BYTES:
        raise ProtocolError(line, "TOOLONG", f"longer than {MAX_LINE_BYTES} bytes")
    if not all(0x20 <= b <= 0x7E for b in line):
        raise ProtocolError(line, "CHARS", "holds a byte outside printable ASCII")
    body, star, checksum = line.rpartition(b"*")
    if not star or not body or not _CHECKSUM.fullmatch(checksum.decode()):
        raise ProtocolError(line, "CHECKSUM", "has no *CC checksum at its end")
    if int(checksum, 16) != crc8(body):
        expected = f"{crc8(body):02X}"
        raise ProtocolError(line, "CHECKSUM", f"checksum {checksum.decode()} is not {expected}")
    return body.decode("ascii")


# Event numbers: 1 to 65535, then 1 again; 0 means "none yet".


def next_event_number(number: int) -> int:
    """The number that follows ``number`` (0 meaning none yet): 65535 wraps to 1."""
    return 1 if number >= EVENT_NUMBER_MAX else number + 1


def steps_after(last: int, number: int) -> int:
    """How many events ``number`` lies after ``last`` (0 = none), counting across the wrap.

    Zero means the same event; a result above :data:`EVENT_NUMBER_MAX` // 2 means ``number`` is
    in fact behind ``last`` (an old or repeated event).
    """
    if last == 0:
        return number
    return (number - last) % EVENT_NUMBER_MAX


def is_after(last: int, number: int) -> bool:
    """Whether event ``number`` comes after event ``last`` (0 = none yet), across the wrap."""
    return 0 < steps_after(last, number) <= EVENT_NUMBER_MAX // 2


# LED state.


class LedMode(IntEnum):
    """What one LED does: the digit of the ``LEDS`` command."""

    OFF = 0
    ON = 1
    BLINK = 2


@dataclass(frozen=True, repr=False)
class LedState:
    """The whole LED state of the panel, as the ``LEDS`` command sets it in one go."""

    turn1: LedMode = LedMode.OFF
    turn2: LedMode = LedMode.OFF
    turn3: LedMode = LedMode.OFF
    turn4: LedMode = LedMode.OFF
    green: LedMode = LedMode.OFF
    red: LedMode = LedMode.OFF

    @classmethod
    def from_text(cls, text: str) -> LedState:
        """Read six digits ``0`` (off), ``1`` (on) or ``2`` (blink), in the order of LED_NAMES."""
        if len(text) != len(LED_NAMES) or any(digit not in "012" for digit in text):
            raise ValueError(
                f"bad LED state {text!r}: give six digits 0 (off), 1 (on) or 2 (blink), "
                f"for {' '.join(LED_NAMES)}"
            )
        return cls._of_modes([LedMode(int(digit)) for digit in text])

    @classmethod
    def showing(
        cls, turn: int | None = None, green: LedMode = LedMode.OFF, red: LedMode = LedMode.OFF
    ) -> LedState:
        """The state with only player ``turn``'s turn LED on (1 to 4, or none) and green/red."""
        modes = [LedMode.OFF] * 4
        if turn is not None:
            if not 1 <= turn <= 4:
                raise ValueError(f"bad player {turn}: the panel has turn LEDs for players 1 to 4")
            modes[turn - 1] = LedMode.ON
        return cls._of_modes([*modes, green, red])

    @classmethod
    def _of_modes(cls, modes: list[LedMode]) -> LedState:
        turn1, turn2, turn3, turn4, green, red = modes
        return cls(turn1, turn2, turn3, turn4, green, red)

    def text(self) -> str:
        """The six digits of this state, as sent after ``LEDS``."""
        return "".join(str(int(mode)) for mode in self.modes())

    def modes(self) -> tuple[LedMode, ...]:
        """The mode of each LED in the order of :data:`LED_NAMES`."""
        return (self.turn1, self.turn2, self.turn3, self.turn4, self.green, self.red)

    def __repr__(self) -> str:
        return f"LedState.from_text({self.text()!r})"


# Device to host messages.


@dataclass(frozen=True)
class Hello:
    """The answer to ``HELLO``: who the panel is, and its boot id (new at every reset)."""

    protocol: int
    firmware: str
    buttons: int
    leds: int
    boot: str

    def body(self) -> str:
        return f"HELLO {self.protocol} {self.firmware} {self.buttons} {self.leds} {self.boot}"

    @property
    def seats(self) -> int:
        """How many seats have an END button on this panel."""
        return max(0, min(len(END_BUTTONS), self.buttons - 3))

    def button_names(self) -> tuple[str, ...]:
        """The buttons of this build: its end buttons first, then UNDO, SELECT, CONFIRM."""
        return (*END_BUTTONS[: self.seats], "UNDO", "SELECT", "CONFIRM")


@dataclass(frozen=True)
class Ready:
    """Sent once right after a reset, with the new boot id."""

    boot: str

    def body(self) -> str:
        return f"READY {self.boot}"


@dataclass(frozen=True)
class Event:
    """A debounced button press, numbered from 1 after each reset."""

    number: int
    button: str

    def body(self) -> str:
        return f"EV {self.number} PRESS {self.button}"


@dataclass(frozen=True)
class Beat:
    """The heartbeat, with the number of the last event made (0 before the first)."""

    last: int

    def body(self) -> str:
        return f"BEAT {self.last}"


@dataclass(frozen=True)
class LedsApplied:
    """The answer to ``LEDS``: the state now applied."""

    state: LedState

    def body(self) -> str:
        return f"LEDS {self.state.text()}"


@dataclass(frozen=True)
class ErrorReply:
    """``ERR CODE [DETAIL]``: a line the device could not accept (or, for GONE, lost events)."""

    code: str
    detail: str = ""

    def body(self) -> str:
        return f"ERR {self.code} {self.detail}" if self.detail else f"ERR {self.code}"


Message = Hello | Ready | Event | Beat | LedsApplied | ErrorReply


# Host to device commands.


@dataclass(frozen=True)
class HelloRequest:
    """``HELLO``: the handshake."""

    def body(self) -> str:
        return "HELLO"


@dataclass(frozen=True)
class Ping:
    """``PING``: ask for a heartbeat now."""

    def body(self) -> str:
        return "PING"


@dataclass(frozen=True)
class SetLeds:
    """``LEDS S``: set every LED at once (idempotent)."""

    state: LedState = field(default_factory=LedState)

    def body(self) -> str:
        return f"LEDS {self.state.text()}"


@dataclass(frozen=True)
class ResendRequest:
    """``RESEND N``: send again every kept event from number N on."""

    number: int

    def body(self) -> str:
        return f"RESEND {self.number}"


Command = HelloRequest | Ping | SetLeds | ResendRequest


def _number(line: bytes, verb: str, token: str, lowest: int) -> int:
    if not _NUMBER.fullmatch(token) or not lowest <= int(token) <= EVENT_NUMBER_MAX:
        raise ProtocolError(line, "ARGS", f"{token!r} is not a number from {lowest}", verb)
    return int(token)


def _arguments(line: bytes, tokens: list[str], count: int) -> list[str]:
    if len(tokens) != count + 1 or not all(tokens):
        raise ProtocolError(line, "ARGS", f"{tokens[0]} takes {count} argument(s)", tokens[0])
    return tokens[1:]


def _led_state(line: bytes, verb: str, text: str) -> LedState:
    try:
        return LedState.from_text(text)
    except ValueError:
        raise ProtocolError(line, "ARGS", f"{text!r} is not six digits 0-2", verb) from None


def _hello(line: bytes, tokens: list[str]) -> Hello:
    protocol, firmware, buttons, leds, boot = _arguments(line, tokens, 5)
    if not _VERSION.fullmatch(firmware) or not _BOOT.fullmatch(boot):
        raise ProtocolError(line, "ARGS", "bad firmware version or boot id", "HELLO")
    return Hello(
        _number(line, "HELLO", protocol, 1),
        firmware,
        _number(line, "HELLO", buttons, 0),
        _number(line, "HELLO", leds, 0),
        boot,
    )


def _ready(line: bytes, tokens: list[str]) -> Ready:
    (boot,) = _arguments(line, tokens, 1)
    if not _BOOT.fullmatch(boot):
        raise ProtocolError(line, "ARGS", f"{boot!r} is not a 4-hex-digit boot id", "READY")
    return Ready(boot)


def _event(line: bytes, tokens: list[str]) -> Event:
    number, action, button = _arguments(line, tokens, 3)
    if action != "PRESS" or button not in BUTTONS:
        raise ProtocolError(line, "ARGS", f"unknown event {action} {button}", "EV")
    return Event(_number(line, "EV", number, 1), button)


def _beat(line: bytes, tokens: list[str]) -> Beat:
    (last,) = _arguments(line, tokens, 1)
    return Beat(_number(line, "BEAT", last, 0))


def _leds_applied(line: bytes, tokens: list[str]) -> LedsApplied:
    (text,) = _arguments(line, tokens, 1)
    return LedsApplied(_led_state(line, "LEDS", text))


def _error_reply(line: bytes, tokens: list[str]) -> ErrorReply:
    if len(tokens) < 2 or tokens[1] not in ERROR_CODES or not all(tokens):
        raise ProtocolError(line, "ARGS", "unknown error code", "ERR")
    return ErrorReply(tokens[1], " ".join(tokens[2:]))


_MESSAGE_PARSERS: dict[str, Callable[[bytes, list[str]], Message]] = {
    "HELLO": _hello,
    "READY": _ready,
    "EV": _event,
    "BEAT": _beat,
    "LEDS": _leds_applied,
    "ERR": _error_reply,
}


def parse_line(line: bytes) -> Message:
    """Read one device line (without its ``\\n``) into a typed message.

    Raises :class:`ProtocolError` naming the line when its length, characters, checksum, verb
    or arguments are wrong.
    """
    tokens = checked_body(line).split(" ")
    parser = _MESSAGE_PARSERS.get(tokens[0])
    if parser is None:
        raise ProtocolError(line, "UNKNOWN", "unknown verb", tokens[0])
    return parser(line, tokens)


def parse_command(line: bytes) -> Command:
    """Read one host line (without its ``\\n``) into a typed command, as the device does.

    Raises :class:`ProtocolError` whose ``code`` and ``detail`` are what the device answers.
    """
    tokens = checked_body(line).split(" ")
    verb = tokens[0]
    if verb == "HELLO":
        _arguments(line, tokens, 0)
        return HelloRequest()
    if verb == "PING":
        _arguments(line, tokens, 0)
        return Ping()
    if verb == "LEDS":
        (text,) = _arguments(line, tokens, 1)
        return SetLeds(_led_state(line, verb, text))
    if verb == "RESEND":
        (number,) = _arguments(line, tokens, 1)
        return ResendRequest(_number(line, verb, number, 1))
    raise ProtocolError(line, "UNKNOWN", "unknown verb", verb)


def error_reply_for(error: ProtocolError) -> ErrorReply:
    """The ``ERR`` line a device answers to a bad line, its detail cut to fit in one body."""
    room = MAX_BODY_BYTES - len(f"ERR {error.code} ")
    detail = error.detail.encode("ascii", errors="replace")[:room].decode("ascii")
    return ErrorReply(error.code, detail)


# Cutting a byte stream into lines.


@dataclass(frozen=True)
class OverlongLine:
    """Stands for a line that was longer than the protocol allows and was thrown away."""

    length: int


class LineAssembler:
    """Cuts a byte stream into lines, dropping over-long ones without holding them in memory.

    ``feed`` returns the complete lines seen so far (without ``\\n``; a ``\\r`` before it is
    removed) and an :class:`OverlongLine` for each line that was too long. Garbage costs at most
    one line: the next ``\\n`` starts afresh.
    """

    def __init__(self, max_length: int = MAX_LINE_BYTES) -> None:
        self.max_length = max_length
        self._buffer = bytearray()
        self._overlong = 0

    def feed(self, data: bytes) -> list[bytes | OverlongLine]:
        """Take the next bytes of the stream; return the lines they complete."""
        lines: list[bytes | OverlongLine] = []
        start = 0
        while True:
            end = data.find(b"\n", start)
            piece = data[start:] if end < 0 else data[start:end]
            self._take(piece)
            if end < 0:
                return lines
            lines.append(self._finish())
            start = end + 1

    def _take(self, piece: bytes) -> None:
        if self._overlong:
            self._overlong += len(piece)
            return
        self._buffer += piece
        if len(self._buffer) > self.max_length + 1:  # one more for a "\r" before the "\n"
            self._overlong = len(self._buffer)
            self._buffer.clear()

    def _finish(self) -> bytes | OverlongLine:
        if self._overlong:
            length, self._overlong = self._overlong, 0
            return OverlongLine(length)
        line = bytes(self._buffer)
        self._buffer.clear()
        if line.endswith(b"\r"):
            line = line[:-1]
        if len(line) > self.max_length:
            return OverlongLine(len(line))
        return line
