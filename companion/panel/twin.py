"""The software twin: a Python panel that speaks the device side of ``firmware/PROTOCOL.md``.

It keeps a ring of the last 16 events, numbers them, stamps them with its millisecond clock
(counted from its own boot), beats every second and answers every command as the firmware does:
one line at a time, reading the next command only once the answer to the previous one has gone
out, and sending a press made during a long (``RESEND``) answer at once, between two of its
lines. It talks over any :class:`TwinPort`: an in-memory link for the ``sim://`` panel
(:class:`MemoryTwinPort`) or a real pseudo-terminal whose slave path sits behind a fixed symlink
(:class:`PtyTwinPort`), so the driver can open it with ``serial.Serial``. Tests and the demo
press buttons with :meth:`PanelTwin.press`, pull the cable with :meth:`PanelTwin.unplug` and
:meth:`PanelTwin.replug`, and damage the byte stream with :class:`TwinFaults`.
"""

from __future__ import annotations

import contextlib
import errno
import os
import random
import select
import threading
import time
import tty
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from companion.panel.errors import ProtocolError
from companion.panel.protocol import (
    DEFAULT_SEATS,
    PROTOCOL_VERSION,
    RING_SIZE,
    TIME_MAX,
    Beat,
    Command,
    ErrorReply,
    Event,
    Hello,
    HelloRequest,
    LedsApplied,
    LedState,
    LineAssembler,
    OverlongLine,
    Ping,
    Ready,
    ResendRequest,
    SetLeds,
    button_names,
    error_reply_for,
    format_line,
    is_after,
    next_event_number,
    parse_command,
)

FIRMWARE_VERSION = "0.2.0"

#: A line of an answer still to send: its body, or a function making it when it goes out (the
#: ``BEAT`` that ends a ``RESEND`` answer tells the last event made by then).
AnswerLine = str | Callable[[], str]


class TwinPort(Protocol):
    """The device end of a byte link: reads with a timeout, writes that may drop bytes."""

    def read(self, timeout: float) -> bytes:
        """Bytes from the host, or ``b""`` after ``timeout`` seconds (also when unplugged)."""
        ...

    def write(self, data: bytes) -> None:
        """Send bytes to the host; they are lost when nobody listens, as on a real cable."""
        ...

    def plug(self) -> None:
        """Connect the cable."""
        ...

    def unplug(self) -> None:
        """Pull the cable: the host's reads and writes fail."""
        ...

    def close(self) -> None:
        """Release everything."""
        ...


@dataclass(frozen=True)
class TwinFaults:
    """Damage done to the twin's output, per line, with a seeded random generator."""

    drop_byte: float = 0.0
    flip_bits: float = 0.0
    seed: int = 0


class PanelTwin:
    """A panel in software: buttons, LEDs, ring of events, clock, heartbeat, boot id.

    ``seats`` (1 to 6) sets the END buttons and turn LEDs; ``line_pause`` is how long it waits
    after each line of a long answer (as the wire's time, so that tests can press during one);
    ``clock_start_ms`` is what its clock reads at boot (to try the wrap at 2**32).
    """

    def __init__(
        self,
        seats: int = DEFAULT_SEATS,
        seed: int | None = None,
        heartbeat_interval: float = 1.0,
        line_pause: float = 0.0,
        clock_start_ms: int = 0,
    ) -> None:
        self.buttons = button_names(seats)
        self.seats = seats
        self.heartbeat_interval = heartbeat_interval
        self.line_pause = line_pause
        self.clock_start_ms = clock_start_ms
        self.leds = LedState.showing(seats=seats)
        self.boot = ""
        self.last_event = 0
        self.commands_received = 0
        self.errors_sent = 0
        self._random = random.Random(seed)
        self._faults: TwinFaults | None = None
        self._fault_random = random.Random(0)
        self._ring: deque[Event] = deque(maxlen=RING_SIZE)
        self._lock = threading.RLock()
        self._assembler = LineAssembler()
        self._received: deque[bytes | OverlongLine] = deque()
        self._answer: deque[AnswerLine] = deque()
        self._booted_at = time.monotonic()
        self._port: TwinPort | None = None
        self._plugged = True
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._next_beat = 0.0
        self._deaf_until = 0.0
        self._ready_pending = False
        self._boot_up()

    # Wiring.

    def attach(self, port: TwinPort) -> None:
        """Talk over ``port`` from now on, in a thread of the twin's own."""
        self._port = port
        self._next_beat = time.monotonic() + self.heartbeat_interval
        self._thread = threading.Thread(target=self._run, name="panel-twin", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop the twin's thread and release its port."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        if self._port is not None:
            self._port.close()

    # What a test or the demo does to the panel.

    @property
    def led_count(self) -> int:
        """How many LEDs this panel has: one per seat, green and red."""
        return self.seats + 2

    def clock_ms(self) -> int:
        """The panel's clock: milliseconds since its boot (plus ``clock_start_ms``), wrapping."""
        elapsed = int((time.monotonic() - self._booted_at) * 1000)
        return (self.clock_start_ms + elapsed) % (TIME_MAX + 1)

    def hello(self) -> Hello:
        """What this panel answers to ``HELLO``."""
        return Hello(PROTOCOL_VERSION, FIRMWARE_VERSION, len(self.buttons), self.led_count,
                     self.boot)

    def press(self, button: str) -> int:
        """Press and release ``button`` (debounced): one event, sent at once; returns its number."""
        if button not in self.buttons:
            raise ValueError(f"the twin has no button {button!r}; it has {' '.join(self.buttons)}")
        with self._lock:
            number = next_event_number(self.last_event)
            event = Event(number, button, self.clock_ms())
            self.last_event = number
            self._ring.append(event)
            self._emit(event.body())
            return number

    def reset(self, boot_delay: float = 0.0, same_boot_id: bool = False) -> str:
        """Restart the panel: new boot id, numbering from 1, LEDs off; returns the new id.

        For ``boot_delay`` seconds the panel is deaf and mute, as an Uno in its bootloader after
        the port opens; then it says ``READY``. ``same_boot_id`` keeps the old id, as when the
        random id repeats (one reset in 65,536), so tests can check the host copes.
        """
        with self._lock:
            self._deaf_until = time.monotonic() + boot_delay
            old = self.boot
            self._boot_up(keep_boot_id=same_boot_id)
            return self.boot if not same_boot_id else old

    def unplug(self) -> None:
        """Pull the USB cable (the panel keeps its state, as one powered on its own would)."""
        with self._lock:
            self._plugged = False
            if self._port is not None:
                self._port.unplug()

    def replug(self, reset: bool = False) -> None:
        """Put the cable back; with ``reset``, the panel restarts first (a USB-powered board)."""
        with self._lock:
            self._plugged = True
            if self._port is not None:
                self._port.plug()
            if reset:
                self._boot_up()

    def inject(self, data: bytes) -> None:
        """Write raw bytes to the host, as line noise would."""
        with self._lock:
            if self._port is not None and self._plugged:
                self._port.write(data)

    def set_faults(self, faults: TwinFaults | None) -> None:
        """Damage the twin's own lines from now on (``None`` stops it)."""
        with self._lock:
            self._faults = faults
            self._fault_random = random.Random(faults.seed if faults else 0)

    def kept_events(self) -> tuple[Event, ...]:
        """The events in the ring, oldest first."""
        with self._lock:
            return tuple(self._ring)

    # The device's life.

    def _boot_up(self, keep_boot_id: bool = False) -> None:
        old = "" if keep_boot_id else self.boot
        while self.boot == old:
            self.boot = f"{self._random.randrange(0x10000):04X}"
        self.last_event = 0
        self._ring.clear()
        self.leds = LedState.showing(seats=self.seats)
        self._assembler = LineAssembler()
        self._received.clear()
        self._answer.clear()
        self._booted_at = time.monotonic()
        self._ready_pending = True
        self._say_ready_when_booted()

    def _say_ready_when_booted(self) -> None:
        if self._ready_pending and time.monotonic() >= self._deaf_until:
            self._ready_pending = False
            self._emit(Ready(self.boot).body())

    def _run(self) -> None:
        assert self._port is not None
        while not self._stop.is_set():
            busy = bool(self._answer or self._received)
            wait = min(0.05, max(0.0, self._next_beat - time.monotonic()))
            data = self._port.read(0.0 if busy else wait)
            with self._lock:
                if time.monotonic() < self._deaf_until:
                    continue  # still in the bootloader: what arrives is lost
                self._say_ready_when_booted()
                self._received.extend(self._assembler.feed(data))
                sent_part = self._serve_one_line()
                self._beat_when_due()
            if sent_part and self.line_pause:
                self._stop.wait(self.line_pause)

    def _serve_one_line(self) -> bool:
        """Send the next line of the answer under way, reading the next command when there is
        none; the lock is let go between lines, so presses and beats go out between them.
        Returns whether a line of a longer answer went out (more of it follows)."""
        if not self._answer and self._received:
            self._answer_command(self._received.popleft())
        if not self._answer:
            return False
        line = self._answer.popleft()
        self._emit(line if isinstance(line, str) else line())
        return bool(self._answer)

    def _beat_when_due(self) -> None:
        if time.monotonic() >= self._next_beat:
            self._next_beat += self.heartbeat_interval
            self._next_beat = max(self._next_beat, time.monotonic())
            self._emit(self._beat())

    def _beat(self) -> str:
        return Beat(self.last_event, self.clock_ms()).body()

    def _answer_command(self, line: bytes | OverlongLine) -> None:
        self.commands_received += 1
        if isinstance(line, OverlongLine):
            self._queue_error(ErrorReply("TOOLONG"))
            return
        try:
            command = parse_command(line, self.led_count)
        except ProtocolError as error:
            self._queue_error(error_reply_for(error))
            return
        self._execute(command)

    def _execute(self, command: Command) -> None:
        if isinstance(command, HelloRequest):
            self._answer.append(self.hello().body())
        elif isinstance(command, Ping):
            self._answer.append(self._beat)
        elif isinstance(command, SetLeds):
            self.leds = command.state
            self._answer.append(LedsApplied(self.leds).body())
        elif isinstance(command, ResendRequest):
            self._resend(command.number)

    def _resend(self, number: int) -> None:
        """Answer the kept events from ``number`` on, in ring order (the numbering wraps), with
        their own times, then a beat; events made later are sent as they happen."""
        kept = list(self._ring)
        numbers = [event.number for event in kept]
        if number in numbers:
            self._answer.extend(event.body() for event in kept[numbers.index(number) :])
        elif kept and not is_after(self.last_event, number):
            self._queue_error(ErrorReply("GONE", str(kept[0].number)))
            self._answer.extend(event.body() for event in kept)
        self._answer.append(self._beat)

    def _queue_error(self, reply: ErrorReply) -> None:
        self.errors_sent += 1
        self._answer.append(reply.body())

    def _emit(self, body: str) -> None:
        if self._port is None or not self._plugged:
            return
        self._port.write(self._damage(format_line(body)))

    def _damage(self, line: bytes) -> bytes:
        faults = self._faults
        if faults is None:
            return line
        chance = self._fault_random
        data = bytearray(line)
        if chance.random() < faults.drop_byte:
            del data[chance.randrange(len(data))]
        if chance.random() < faults.flip_bits:
            for _ in range(chance.choice((1, 2))):
                position = chance.randrange(len(data) * 8)
                data[position // 8] ^= 1 << (position % 8)
        return bytes(data)


class _Pipe:
    """One direction of an in-memory link."""

    def __init__(self) -> None:
        self.condition = threading.Condition()
        self.data = bytearray()
        self.closed = False


class MemoryEnd:
    """The host end of an in-memory link, shaped like ``serial.Serial`` for the driver."""

    def __init__(self, incoming: _Pipe, outgoing: _Pipe, timeout: float = 0.05) -> None:
        self._incoming = incoming
        self._outgoing = outgoing
        self.timeout = timeout

    def read(self, size: int = 1) -> bytes:
        """Up to ``size`` bytes, waiting at most ``timeout`` for the first one."""
        pipe = self._incoming
        with pipe.condition:
            pipe.condition.wait_for(lambda: pipe.data or pipe.closed, self.timeout)
            if pipe.closed:
                raise OSError(errno.EIO, "the simulated panel was unplugged")
            chunk = bytes(pipe.data[:size])
            del pipe.data[:size]
            return chunk

    def write(self, data: bytes) -> int:
        """Send ``data`` to the twin; fails when the link is cut."""
        pipe = self._outgoing
        with pipe.condition:
            if pipe.closed:
                raise OSError(errno.EIO, "the simulated panel was unplugged")
            pipe.data += data
            pipe.condition.notify_all()
        return len(data)

    @property
    def in_waiting(self) -> int:
        """How many bytes can be read at once."""
        if self._incoming.closed:
            raise OSError(errno.EIO, "the simulated panel was unplugged")
        return len(self._incoming.data)

    def reset_input_buffer(self) -> None:
        """Forget what has arrived and not been read."""
        with self._incoming.condition:
            self._incoming.data.clear()

    def close(self) -> None:
        """Hang up this link (the twin waits for the next one)."""
        for pipe in (self._incoming, self._outgoing):
            with pipe.condition:
                pipe.closed = True
                pipe.condition.notify_all()


class MemoryTwinPort:
    """The twin's end of the in-process ``sim://`` link; the driver calls :meth:`connect`."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._plugged = True
        self._to_host: _Pipe | None = None
        self._to_device: _Pipe | None = None
        self._idle = threading.Event()

    def connect(self) -> MemoryEnd:
        """Open the port from the host side: a fresh link, like reopening a serial device."""
        with self._lock:
            if not self._plugged:
                raise OSError(errno.ENOENT, "the simulated panel is unplugged")
            self._cut()
            self._to_host, self._to_device = _Pipe(), _Pipe()
            return MemoryEnd(self._to_host, self._to_device)

    def read(self, timeout: float) -> bytes:
        pipe = self._to_device
        if pipe is None or pipe.closed:
            self._idle.wait(timeout)
            return b""
        with pipe.condition:
            pipe.condition.wait_for(lambda: pipe.data or pipe.closed, timeout)
            chunk = bytes(pipe.data)
            pipe.data.clear()
            return chunk

    def write(self, data: bytes) -> None:
        pipe = self._to_host
        if pipe is None:
            return
        with pipe.condition:
            if not pipe.closed:
                pipe.data += data
                pipe.condition.notify_all()

    def plug(self) -> None:
        with self._lock:
            self._plugged = True

    def unplug(self) -> None:
        with self._lock:
            self._plugged = False
            self._cut()

    def close(self) -> None:
        self.unplug()

    def _cut(self) -> None:
        for pipe in (self._to_host, self._to_device):
            if pipe is not None:
                with pipe.condition:
                    pipe.closed = True
                    pipe.condition.notify_all()
        self._to_host = self._to_device = None


class PtyTwinPort:
    """A real pseudo-terminal whose slave is reachable at ``link_path`` (a symlink).

    Unplugging closes the master, so the host's reads fail as on a vanished USB device, and
    removes the symlink; plugging creates a new pty behind the same path.
    """

    def __init__(self, link_path: str | Path) -> None:
        self.link_path = Path(link_path)
        self._lock = threading.Lock()
        self._master = -1
        self._slave = -1
        self._generation = 0
        self.plug()

    def plug(self) -> None:
        with self._lock:
            if self._master >= 0:
                return
            master, slave = os.openpty()
            tty.setraw(slave)
            os.set_blocking(master, False)
            self._master, self._slave = master, slave
            self._generation += 1
            temporary = self.link_path.with_name(self.link_path.name + ".new")
            with contextlib.suppress(FileNotFoundError):
                temporary.unlink()
            temporary.symlink_to(os.ttyname(slave))
            temporary.replace(self.link_path)

    def unplug(self) -> None:
        with self._lock:
            if self._master < 0:
                return
            with contextlib.suppress(FileNotFoundError):
                self.link_path.unlink()
            os.close(self._master)
            os.close(self._slave)
            self._master = self._slave = -1
            self._generation += 1

    def close(self) -> None:
        self.unplug()

    def read(self, timeout: float) -> bytes:
        with self._lock:
            master, generation = self._master, self._generation
        if master < 0:
            time.sleep(timeout)  # unplugged: nothing to wait on but the clock
            return b""
        with contextlib.suppress(OSError, ValueError):
            select.select([master], [], [], timeout)
        with self._lock:
            if generation != self._generation:
                return b""
            try:
                return os.read(master, 4096)
            except OSError:
                return b""

    def write(self, data: bytes) -> None:
        deadline = time.monotonic() + 0.05
        with self._lock:
            while data and self._master >= 0:
                try:
                    data = data[os.write(self._master, data) :]
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        return  # nobody reads: the bytes are lost, as on a real cable
                    select.select([], [self._master], [], 0.01)
                except OSError:
                    return
