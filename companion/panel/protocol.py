"""The panel protocol of ``firmware/PROTOCOL.md`` (version 2) as pure values, without any I/O.

Lines are ``BODY*CCCC`` with a CRC-16/CCITT-FALSE checksum in four hex digits. :func:`format_line`
makes one, :func:`parse_line` reads a device line into a typed message and :func:`parse_command`
reads a host line into a typed command (for the twin); both raise :class:`ProtocolError` with the
protocol's error code. :class:`LineAssembler` cuts a byte stream into lines and survives garbage.
The transport (a serial port, a pty, an in-memory link) lives elsewhere, as in pyserial's
``serial.threaded``.
"""

from __future__ import annotations

import binascii
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import IntEnum

from companion.panel.errors import ProtocolError

PROTOCOL_VERSION = 2
BAUD_RATE = 115200
MAX_BODY_BYTES = 48
CHECKSUM_DIGITS = 4
MAX_LINE_BYTES = MAX_BODY_BYTES + 1 + CHECKSUM_DIGITS
RING_SIZE = 16
EVENT_NUMBER_MAX = 65535
TIME_MAX = 0xFFFFFFFF
MAX_SEATS = 6
DEFAULT_SEATS = 4
END_BUTTONS = tuple(f"END{seat}" for seat in range(1, MAX_SEATS + 1))
OTHER_BUTTONS = ("UNDO", "SELECT", "CONFIRM", "ROLL", "HINT")
BUTTONS = (*END_BUTTONS, *OTHER_BUTTONS)
ERROR_CODES = ("CHECKSUM", "TOOLONG", "CHARS", "UNKNOWN", "ARGS", "GONE")

_NUMBER = re.compile(r"0|[1-9][0-9]{0,9}")
_BOOT = re.compile(r"[0-9A-F]{4}")
_CHECKSUM = re.compile(r"[0-9A-F]{4}")
_VERSION = re.compile(r"[0-9]+\.[0-9]+\.[0-9]+")
# A HELLO answer of an older panel, whose checksum had two hex digits (not checked here).
_OLD_HELLO = re.compile(rb"HELLO ([0-9]{1,3}) [0-9]+\.[0-9]+\.[0-9]+ [0-9]+ [0-9]+ [0-9A-F]{4}"
                        rb"\*[0-9A-F]{2}")


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE of ``data``: polynomial 0x1021, initial 0xFFFF, no reflection or XOR."""
    return binascii.crc_hqx(data, 0xFFFF)


def format_line(body: str) -> bytes:
    """The line ``BODY*CCCC\\n`` for ``body``; refuses a body the protocol forbids."""
    raw = body.encode("ascii", errors="replace")
    printable = body.isascii() and all(0x20 <= b <= 0x7E for b in raw)
    if not printable or not 1 <= len(raw) <= MAX_BODY_BYTES:
        raise ValueError(f"cannot send {body!r}: a body is 1 to 48 printable ASCII characters")
    return raw + b"*%04X\n" % crc16(raw)


def checked_body(line: bytes) -> str:
    """The body of one line (without its line end), after checking length, bytes and checksum."""
    if len(line) > MAX_LINE_BYTES:
        raise ProtocolError(line, "TOOLONG", f"longer than {MAX_LINE_BYTES} bytes")
    if not all(0x20 <= b <= 0x7E for b in line):
        raise ProtocolError(line, "CHARS", "holds a byte outside printable ASCII")
    body, star, checksum = line.rpartition(b"*")
    if not star or not body or not _CHECKSUM.fullmatch(checksum.decode()):
        raise ProtocolError(line, "CHECKSUM", "has no *CCCC checksum at its end")
    if int(checksum, 16) != crc16(body):
        expected = f"{crc16(body):04X}"
        raise ProtocolError(line, "CHECKSUM", f"checksum {checksum.decode()} is not {expected}")
    return body.decode("ascii")


def older_hello_version(line: bytes) -> int | None:
    """The protocol version of a HELLO answer in an older panel's form (a two-digit checksum),
    or None: so that the host can say "flash the firmware" instead of "no answer"."""
    match = _OLD_HELLO.fullmatch(line)
    return int(match.group(1)) if match else None


# Event numbers: 1 to 65535, then 1 again; 0 means "none yet".


def next_event_number(number: int) -> int:
    """The number that follows ``number`` (0 meaning none yet): 65535 wraps to 1."""
    return 1 if number >= EVENT_NUMBER_MAX else number + 1


def previous_event_number(number: int) -> int:
    """The number before ``number``: 1 is preceded by 65535 (across the wrap)."""
    return EVENT_NUMBER_MAX if number <= 1 else number - 1


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


# Panel builds: seats, buttons and LEDs.


def button_names(seats: int) -> tuple[str, ...]:
    """The buttons of a panel with ``seats`` seats, in the order of the protocol's table."""
    _check_seats(seats)
    return (*END_BUTTONS[:seats], *OTHER_BUTTONS)


def led_names(seats: int) -> tuple[str, ...]:
    """The LEDs of a panel with ``seats`` seats, in the order of the ``LEDS`` digits."""
    _check_seats(seats)
    return (*(f"TURN{seat}" for seat in range(1, seats + 1)), "GREEN", "RED")


def _check_seats(seats: int) -> None:
    if not 1 <= seats <= MAX_SEATS:
        raise ValueError(f"bad seat count {seats!r}: a panel has 1 to {MAX_SEATS} seats")


# LED state.


class LedMode(IntEnum):
    """What one LED does: the digit of the ``LEDS`` command."""

    OFF = 0
    ON = 1
    BLINK = 2


_OFF_TURNS = (LedMode.OFF,) * DEFAULT_SEATS


@dataclass(frozen=True, repr=False)
class LedState:
    """The whole LED state of a panel, as the ``LEDS`` command sets it in one go: one turn LED
    per seat (1 to 6 of them), then green and red. ``LedState()`` is all off on four seats."""

    turns: tuple[LedMode, ...] = _OFF_TURNS
    green: LedMode = LedMode.OFF
    red: LedMode = LedMode.OFF

    def __post_init__(self) -> None:
        if not 1 <= len(self.turns) <= MAX_SEATS:
            raise ValueError(
                f"bad turn LEDs {self.turns!r}: a panel has 1 to {MAX_SEATS} of them"
            )
        object.__setattr__(self, "turns", tuple(LedMode(mode) for mode in self.turns))
        object.__setattr__(self, "green", LedMode(self.green))
        object.__setattr__(self, "red", LedMode(self.red))

    @property
    def seats(self) -> int:
        """How many turn LEDs (seats) this state is for."""
        return len(self.turns)

    @classmethod
    def from_text(cls, text: str) -> LedState:
        """Read the digits of ``LEDS``: one per turn LED (1 to 6), then green and red, each ``0``
        (off), ``1`` (on) or ``2`` (blink)."""
        if not 3 <= len(text) <= MAX_SEATS + 2 or any(digit not in "012" for digit in text):
            raise ValueError(
                f"bad LED state {text!r}: give 3 to {MAX_SEATS + 2} digits 0 (off), 1 (on) or "
                "2 (blink), for TURN1..TURNn GREEN RED (n seats)"
            )
        modes = [LedMode(int(digit)) for digit in text]
        return cls(tuple(modes[:-2]), modes[-2], modes[-1])

    @classmethod
    def showing(
        cls,
        turn: int | None = None,
        green: LedMode = LedMode.OFF,
        red: LedMode = LedMode.OFF,
        seats: int = DEFAULT_SEATS,
    ) -> LedState:
        """The state of ``seats`` turn LEDs with only player ``turn``'s on (or none), and
        green and red."""
        _check_seats(seats)
        modes = [LedMode.OFF] * seats
        if turn is not None:
            if not 1 <= turn <= seats:
                raise ValueError(f"bad player {turn!r}: the panel has turn LEDs for 1 to {seats}")
            modes[turn - 1] = LedMode.ON
        return cls(tuple(modes), green, red)

    def fitted(self, seats: int) -> LedState:
        """This state for a panel of ``seats`` seats: missing turn LEDs off, those beyond the
        panel dropped (the table tells the players which seats have no button or light)."""
        _check_seats(seats)
        turns = (*self.turns[:seats], *(LedMode.OFF,) * (seats - len(self.turns)))
        return LedState(turns, self.green, self.red)

    def text(self) -> str:
        """The digits of this state, as sent after ``LEDS``."""
        return "".join(str(int(mode)) for mode in self.modes())

    def modes(self) -> tuple[LedMode, ...]:
        """The mode of each LED in the order of :func:`led_names`."""
        return (*self.turns, self.green, self.red)

    def __repr__(self) -> str:
        return f"LedState.from_text({self.text()!r})"


# Device to host messages.


@dataclass(frozen=True)
class Hello:
    """The answer to ``HELLO``: who the panel is, and its boot id (new at every reset).

    ``buttons`` is the panel's seats plus the five other buttons, ``leds`` its seats plus two.
    """

    protocol: int
    firmware: str
    buttons: int
    leds: int
    boot: str

    def body(self) -> str:
        return f"HELLO {self.protocol} {self.firmware} {self.buttons} {self.leds} {self.boot}"

    @property
    def seats(self) -> int:
        """How many seats have an END button (and a turn LED) on this panel."""
        return self.buttons - len(OTHER_BUTTONS)

    def button_names(self) -> tuple[str, ...]:
        """The buttons of this build: its end buttons first, then the five others."""
        return button_names(self.seats)


@dataclass(frozen=True)
class Ready:
    """Sent once right after a reset, with the new boot id."""

    boot: str

    def body(self) -> str:
        return f"READY {self.boot}"


@dataclass(frozen=True)
class Event:
    """A debounced button press, numbered from 1 after each reset; ``time`` is the panel's
    clock (milliseconds since its reset) when the contact first closed."""

    number: int
    button: str
    time: int

    def body(self) -> str:
        return f"EV {self.number} PRESS {self.button} {self.time}"


@dataclass(frozen=True)
class Beat:
    """The heartbeat: the number of the last event made (0 before the first) and the panel's
    clock when it was sent."""

    last: int
    time: int

    def body(self) -> str:
        return f"BEAT {self.last} {self.time}"


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


def _number(line: bytes, verb: str, token: str, lowest: int, highest: int = EVENT_NUMBER_MAX
            ) -> int:
    if not _NUMBER.fullmatch(token) or not lowest <= int(token) <= highest:
        raise ProtocolError(
            line, "ARGS", f"{token!r} is not a number from {lowest} to {highest}", verb
        )
    return int(token)


def _time(line: bytes, verb: str, token: str) -> int:
    return _number(line, verb, token, 0, TIME_MAX)


def _arguments(line: bytes, tokens: list[str], count: int) -> list[str]:
    if len(tokens) != count + 1 or not all(tokens):
        raise ProtocolError(line, "ARGS", f"{tokens[0]} takes {count} argument(s)", tokens[0])
    return tokens[1:]


def _led_state(line: bytes, verb: str, text: str, leds: int | None = None) -> LedState:
    try:
        state = LedState.from_text(text)
    except ValueError:
        raise ProtocolError(line, "ARGS", f"{text!r} is not 3 to 8 digits 0-2", verb) from None
    if leds is not None and len(text) != leds:
        raise ProtocolError(line, "ARGS", f"{text!r} is not {leds} digits", verb)
    return state


def _hello(line: bytes, tokens: list[str]) -> Hello:
    protocol, firmware, buttons, leds, boot = _arguments(line, tokens, 5)
    if not _VERSION.fullmatch(firmware) or not _BOOT.fullmatch(boot):
        raise ProtocolError(line, "ARGS", "bad firmware version or boot id", "HELLO")
    hello = Hello(
        _number(line, "HELLO", protocol, 1),
        firmware,
        _number(line, "HELLO", buttons, 0),
        _number(line, "HELLO", leds, 0),
        boot,
    )
    # Counts are checked for this version only: another version is refused by its number.
    fits = 1 <= hello.seats <= MAX_SEATS and hello.leds == hello.seats + 2
    if hello.protocol == PROTOCOL_VERSION and not fits:
        raise ProtocolError(
            line, "ARGS", f"{buttons} buttons and {leds} LEDs fit no panel of 1 to 6 seats",
            "HELLO",
        )
    return hello


def _ready(line: bytes, tokens: list[str]) -> Ready:
    (boot,) = _arguments(line, tokens, 1)
    if not _BOOT.fullmatch(boot):
        raise ProtocolError(line, "ARGS", f"{boot!r} is not a 4-hex-digit boot id", "READY")
    return Ready(boot)


def _event(line: bytes, tokens: list[str]) -> Event:
    number, action, button, time = _arguments(line, tokens, 4)
    if action != "PRESS" or button not in BUTTONS:
        raise ProtocolError(line, "ARGS", f"unknown event {action} {button}", "EV")
    return Event(_number(line, "EV", number, 1), button, _time(line, "EV", time))


def _beat(line: bytes, tokens: list[str]) -> Beat:
    last, time = _arguments(line, tokens, 2)
    return Beat(_number(line, "BEAT", last, 0), _time(line, "BEAT", time))


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
    or arguments are wrong (a version-2 HELLO whose counts fit no panel included).
    """
    tokens = checked_body(line).split(" ")
    parser = _MESSAGE_PARSERS.get(tokens[0])
    if parser is None:
        raise ProtocolError(line, "UNKNOWN", "unknown verb", tokens[0])
    return parser(line, tokens)


def parse_command(line: bytes, leds: int | None = None) -> Command:
    """Read one host line (without its ``\\n``) into a typed command, as a device with ``leds``
    LEDs does (any count from 3 to 8 when None).

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
        return SetLeds(_led_state(line, verb, text, leds))
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
