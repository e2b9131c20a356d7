"""What the host says and reports, line by line: the driver's logic without any I/O.

:class:`PanelSession` takes the lines that arrive and the passing of time, and answers with the
lines to send, the events to hand to the game (presses, each once and in order, and status
sentences, each fault once) and whether to drop the connection. The driver
(:mod:`companion.panel.driver`) only moves bytes and runs the clock, so every rule of
``firmware/PROTOCOL.md`` about handshakes, gaps, resets and heartbeats is tested here directly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from companion.panel.errors import ProtocolError
from companion.panel.protocol import (
    EVENT_NUMBER_MAX,
    PROTOCOL_VERSION,
    RING_SIZE,
    Beat,
    ErrorReply,
    Event,
    Hello,
    HelloRequest,
    LedsApplied,
    LedState,
    Message,
    Ping,
    Ready,
    ResendRequest,
    SetLeds,
    is_after,
    next_event_number,
    older_hello_version,
    parse_line,
    previous_event_number,
    steps_after,
)


class StatusKind(Enum):
    """The kinds of news about the panel itself, as opposed to its buttons."""

    CONNECTED = "connected"
    UNPLUGGED = "unplugged"
    SILENT = "silent"
    BACK = "back"
    RESET = "reset"
    LOST = "lost"
    INCOMPATIBLE = "incompatible"


@dataclass(frozen=True)
class ButtonPress:
    """A button pressed on the panel, delivered once: ``number`` is unique within ``boot``, and
    ``device_ms`` is the panel's clock (milliseconds since that boot) when it was pressed, so the
    host knows when the press happened whatever the delivery delay."""

    button: str
    number: int
    boot: str
    device_ms: int


@dataclass(frozen=True)
class PanelStatus:
    """News about the panel, with one sentence a player can act on."""

    kind: StatusKind
    message: str


PanelEvent = ButtonPress | PanelStatus

UNPLUGGED_MESSAGE = "The panel was unplugged; plug it back in and play carries on."
SILENT_MESSAGE = "The panel stopped answering; check its cable, play carries on when it answers."
BACK_MESSAGE = "The panel is back."
RESET_MESSAGE = "The panel reset; its lights were restored."


@dataclass(frozen=True)
class SessionConfig:
    """The timings of the protocol, in seconds (tests may shorten them)."""

    hello_interval: float = 0.25
    hello_timeout: float = 5.0
    heartbeat_timeout: float = 3.0
    retry_interval: float = 0.25
    backoff_start: float = 0.1
    backoff_max: float = 1.0


@dataclass
class Output:
    """What the session wants done: lines to send, events to deliver, a connection to drop."""

    send: list[str] = field(default_factory=list)
    events: list[PanelEvent] = field(default_factory=list)
    drop: StatusKind | None = None

    def merge(self, other: Output) -> Output:
        """Add ``other``'s actions after this one's; returns self."""
        self.send += other.send
        self.events += other.events
        self.drop = self.drop or other.drop
        return self


class PanelSession:
    """The host side of the protocol for one panel, across every reconnection.

    Presses are delivered in number order and once. An event that arrives past a gap (a line
    lost, or a new press sent between the lines of a ``RESEND`` answer) is kept, at most
    :data:`~companion.panel.protocol.RING_SIZE` of them, while ``RESEND`` (retried until the gap
    is filled) brings the missing ones; it is delivered as soon as the gap is filled.
    """

    def __init__(self, config: SessionConfig | None = None, leds: LedState | None = None) -> None:
        self.config = config or SessionConfig()
        self.wanted = leds or LedState()
        self.applied: LedState | None = None
        self.hello: Hello | None = None
        self.boot: str | None = None
        self.last = 0
        self.known_last = 0
        self.baseline_known = False
        self.handshaking = False
        self.connected = False
        self.ever_connected = False
        self.refusal: str | None = None
        self.bad_lines = 0
        self.duplicates = 0
        self._held: dict[int, Event] = {}
        self._fault: StatusKind | None = None
        self._reset_pending = False
        self._behind_beats = 0
        self._last_line_at = 0.0
        self._handshake_started = 0.0
        self._hello_sent_at = 0.0
        self._leds_sent_at = 0.0
        self._resend_sent_at = 0.0

    # Connection life.

    def port_opened(self, now: float) -> Output:
        """The port is open: start the handshake (the board may be resetting)."""
        self.handshaking, self.connected, self.applied = True, False, None
        self._handshake_started = self._last_line_at = now
        return self._send_hello(now)

    def port_lost(self, kind: StatusKind) -> Output:
        """The port failed or was given up; report the fault unless it is already reported."""
        self.handshaking = self.connected = False
        self.applied = None
        output = Output()
        if self._fault is None and self.ever_connected:
            self._fault = kind
            message = UNPLUGGED_MESSAGE if kind is StatusKind.UNPLUGGED else SILENT_MESSAGE
            output.events.append(PanelStatus(kind, message))
        return output

    def set_leds(self, state: LedState, now: float) -> Output:
        """Remember the wanted LED state and send it when connected (it is resent after faults).

        The state may be for any number of seats: the panel gets it fitted to its own LEDs.
        """
        self.wanted = state
        if not self.connected:
            return Output()
        return self._send_leds(now)

    def leds_for_panel(self) -> LedState:
        """The wanted state fitted to the connected panel's turn LEDs (as is before HELLO)."""
        if self.hello is None:
            return self.wanted
        return self.wanted.fitted(self.hello.seats)

    # Lines and time.

    def receive(self, line: bytes, now: float) -> Output:
        """Handle one line from the device (without its line end); bad lines are counted."""
        self._last_line_at = now
        try:
            message = parse_line(line)
        except ProtocolError:
            self.bad_lines += 1
            older = older_hello_version(line) if self.handshaking else None
            return Output() if older is None else self._refuse(older)
        if not (self.handshaking or self.connected):
            return Output()
        if isinstance(message, Hello):
            return self._on_hello(message, now)
        if self.handshaking:
            return Output()  # everything before the HELLO answer is ignored
        return self._dispatch(message, now)

    def receive_overlong(self, now: float) -> Output:
        """A line too long for the protocol arrived (and was thrown away): count it."""
        self._last_line_at = now
        self.bad_lines += 1
        return Output()

    def tick(self, now: float) -> Output:
        """Retry what is unanswered and watch the heartbeat; call it often (every ~50 ms)."""
        config = self.config
        output = Output()
        if self.handshaking:
            if now - self._handshake_started >= config.hello_timeout:
                output.drop = StatusKind.SILENT
                return output.merge(self.port_lost(StatusKind.SILENT))
            if now - self._hello_sent_at >= config.hello_interval:
                output.merge(self._send_hello(now))
            return output
        if not self.connected:
            return output
        if now - self._last_line_at >= config.heartbeat_timeout:
            output.drop = StatusKind.SILENT
            return output.merge(self.port_lost(StatusKind.SILENT))
        unconfirmed = self.applied != self.leds_for_panel()
        if unconfirmed and now - self._leds_sent_at >= config.retry_interval:
            output.merge(self._send_leds(now))
        if self.has_gap() and now - self._resend_sent_at >= config.retry_interval:
            output.merge(self._send_resend(now))
        return output

    def has_gap(self) -> bool:
        """Whether the device has made events that have not arrived yet."""
        return is_after(self.last, self.known_last)

    def held(self) -> tuple[int, ...]:
        """The numbers of the events kept past a gap, in number order."""
        return tuple(sorted(self._held, key=lambda number: steps_after(self.last, number)))

    # Messages.

    def _dispatch(self, message: Message, now: float) -> Output:
        if isinstance(message, Event):
            return self._on_event(message, now)
        if isinstance(message, Beat):
            return self._on_beat(message, now)
        if isinstance(message, LedsApplied):
            return self._on_leds(message)
        if isinstance(message, Ready):
            return self._on_reset(message.boot, now)
        if isinstance(message, ErrorReply) and message.code == "GONE":
            return self._on_gone(message)
        return Output()  # other errors: the timers resend whatever was not answered

    def _on_hello(self, hello: Hello, now: float) -> Output:
        if hello.protocol != PROTOCOL_VERSION:
            return self._refuse(hello.protocol)
        self.hello = hello
        if self.connected and hello.boot == self.boot:
            return Output()
        if self.connected:
            return self._on_reset(hello.boot, now)
        return self._on_handshake(hello, now)

    def _refuse(self, version: int) -> Output:
        """A panel of another protocol version: say so once, and drop it."""
        self.refusal = (
            f"The panel speaks protocol version {version} but this companion speaks "
            f"{PROTOCOL_VERSION}; flash the firmware from this version's firmware/ folder."
        )
        output = Output(drop=StatusKind.INCOMPATIBLE)
        if self._fault is not StatusKind.INCOMPATIBLE:
            self._fault = StatusKind.INCOMPATIBLE
            output.events.append(PanelStatus(StatusKind.INCOMPATIBLE, self.refusal))
        return output

    def _on_handshake(self, hello: Hello, now: float) -> Output:
        reset = self.boot is not None and hello.boot != self.boot
        self.handshaking, self.connected = False, True
        output = Output()
        if not self.ever_connected:
            self.ever_connected = True
            output.events.append(
                PanelStatus(
                    StatusKind.CONNECTED,
                    f"The panel is connected (firmware {hello.firmware}, {hello.seats} seats, "
                    f"{hello.buttons} buttons, {hello.leds} lights).",
                )
            )
        elif not reset and self._fault is not None:
            output.events.append(PanelStatus(StatusKind.BACK, BACK_MESSAGE))
        self._fault = None
        if reset:
            return output.merge(self._on_reset(hello.boot, now))
        self.boot = hello.boot
        output.merge(self._send_leds(now))
        if self.baseline_known:
            return output.merge(self._send_resend(now))
        output.send.append(Ping().body())
        return output

    def _on_reset(self, boot: str, now: float) -> Output:
        """The panel restarted: its numbering starts again and its LEDs must be restored."""
        self.boot = boot
        self._behind_beats = 0
        self.last = self.known_last = 0
        self._held.clear()
        self.baseline_known = True
        self._reset_pending = True
        self.applied = None
        return self._send_leds(now).merge(self._send_resend(now))

    def _on_event(self, event: Event, now: float) -> Output:
        if not self.baseline_known:
            self.baseline_known = True
            self.last = self.known_last = 0 if event.number == 1 else event.number - 1
        if event.number == next_event_number(self.last):
            return self._deliver([event])
        if is_after(self.last, event.number) and event.number not in self._held:
            return self._hold(event, now)
        self.duplicates += 1
        return Output()

    def _deliver(self, events: list[Event]) -> Output:
        """Deliver ``events`` (in number order), then every kept event they lead up to."""
        output = Output(events=[self._press(event) for event in events])
        while (following := self._held.pop(next_event_number(self.last), None)) is not None:
            output.events.append(self._press(following))
        if not is_after(self.last, self.known_last):
            self.known_last = self.last
        return output

    def _press(self, event: Event) -> ButtonPress:
        assert self.boot is not None
        self.last = event.number
        return ButtonPress(event.button, event.number, self.boot, event.time)

    def _hold(self, event: Event, now: float) -> Output:
        """Keep an event past a gap (the farthest is let go beyond the ring's size: a later
        ``RESEND`` brings it) and ask for the missing ones."""
        self._held[event.number] = event
        if len(self._held) > RING_SIZE:
            del self._held[max(self._held, key=lambda number: steps_after(self.last, number))]
        if is_after(self.known_last, event.number):
            self.known_last = event.number
        if now - self._resend_sent_at >= self.config.retry_interval:
            return self._send_resend(now)
        return Output()

    def _on_beat(self, beat: Beat, now: float) -> Output:
        if not self.baseline_known:
            self.baseline_known = True
            self.last = self.known_last = beat.last
            return Output()
        if beat.last == self.last or is_after(self.last, beat.last):
            self._behind_beats = 0
            # Lines come in order, so a kept event beyond the beat was a damaged line.
            for number in [n for n in self._held if is_after(beat.last, n)]:
                del self._held[number]
        if beat.last == self.last:
            self.known_last = self.last
            return Output()
        if is_after(self.last, beat.last):
            self.known_last = beat.last  # lines come in order: the beat is the device's truth
            if now - self._resend_sent_at >= self.config.retry_interval:
                return self._send_resend(now)
            return Output()
        # The panel is behind us: it reset without our seeing READY, or a damaged line slipped
        # through. Ask who it is and where it is; a second beat behind us with the same boot id
        # means its numbering restarted under an unchanged (colliding) boot id.
        self._behind_beats += 1
        if self._behind_beats >= 2:
            self._behind_beats = 0
            assert self.boot is not None
            return self._on_reset(self.boot, now)
        return self._send_hello(now).merge(Output(send=[Ping().body()]))

    def _on_leds(self, applied: LedsApplied) -> Output:
        self.applied = applied.state
        if applied.state != self.leds_for_panel() or not self._reset_pending:
            return Output()
        self._reset_pending = False
        return Output(events=[PanelStatus(StatusKind.RESET, RESET_MESSAGE)])

    def _on_gone(self, reply: ErrorReply) -> Output:
        """Events before ``OLDEST`` are gone from the ring: deliver those kept here, report the
        others as lost once, and carry on from ``OLDEST``."""
        oldest = int(reply.detail) if reply.detail.isdigit() else 0
        if not 1 <= oldest <= EVENT_NUMBER_MAX or not is_after(self.last, oldest):
            return Output()
        gap = steps_after(self.last, oldest) - 1
        kept = [self._held.pop(n) for n in self.held() if steps_after(self.last, n) <= gap]
        lost = gap - len(kept)
        output = Output()
        if lost > 0:
            presses = "press" if lost == 1 else "presses"
            message = (
                f"{lost} button {presses} made while the panel was away could not be recovered; "
                "press again if it was your turn."
            )
            output.events.append(PanelStatus(StatusKind.LOST, message))
        output.events += [self._press(event) for event in kept]
        self.last = previous_event_number(oldest)
        return output.merge(self._deliver([]))  # any kept from OLDEST on

    # Sending.

    def _send_hello(self, now: float) -> Output:
        self._hello_sent_at = now
        return Output(send=[HelloRequest().body()])

    def _send_leds(self, now: float) -> Output:
        self._leds_sent_at = now
        return Output(send=[SetLeds(self.leds_for_panel()).body()])

    def _send_resend(self, now: float) -> Output:
        self._resend_sent_at = now
        return Output(send=[ResendRequest(next_event_number(self.last)).body()])
