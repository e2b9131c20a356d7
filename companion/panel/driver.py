"""The host driver: opens a panel by URL and keeps it working through unplugs and resets.

``open_panel(url)`` takes a device path (``/dev/ttyACM0``, or any pty path), ``auto`` (the
Arduino found by its USB vendor and product id, by its ``/dev/serial/by-id`` name when there is
one) or ``sim://`` (the software twin, in-process). One reader thread owns the port: it turns
lines into events on a thread-safe queue (:meth:`Panel.next_event`), runs the protocol's timers
through :class:`~companion.panel.session.PanelSession`, and reconnects with backoff when the port
fails or the panel falls silent. ``set_leds`` is remembered and sent again after every fault.
"""

from __future__ import annotations

import contextlib
import errno
import queue
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from companion.panel.errors import PanelUnavailableError
from companion.panel.protocol import (
    BAUD_RATE,
    DEFAULT_SEATS,
    MAX_SEATS,
    Hello,
    LedState,
    LineAssembler,
    format_line,
)
from companion.panel.session import (
    ButtonPress,
    Output,
    PanelEvent,
    PanelSession,
    PanelStatus,
    SessionConfig,
    StatusKind,
)
from companion.panel.twin import MemoryTwinPort, PanelTwin

SIM_URL = "sim://"
AUTO_URL = "auto"
READ_TIMEOUT = 0.05
BY_ID_FOLDER = Path("/dev/serial/by-id")

# USB ids of Arduino Unos and Nanos and of the USB-serial chips on their clones.
ARDUINO_USB_IDS: dict[tuple[int, int], str] = {
    (0x2341, 0x0043): "Arduino Uno",
    (0x2341, 0x0001): "Arduino Uno",
    (0x2341, 0x0243): "Arduino Uno",
    (0x2341, 0x0058): "Arduino Nano Every",
    (0x2A03, 0x0043): "Arduino Uno",
    (0x1A86, 0x7523): "CH340 (Uno/Nano clone)",
    (0x0403, 0x6001): "FTDI FT232R (Nano)",
    (0x10C4, 0xEA60): "CP210x (Uno/Nano clone)",
}

__all__ = ["ButtonPress", "Panel", "PanelEvent", "PanelStatus", "StatusKind", "open_panel"]


class Transport(Protocol):
    """What the driver needs of a port; ``serial.Serial`` and the twin's link both fit."""

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes, /) -> int | None: ...

    @property
    def in_waiting(self) -> int: ...

    def reset_input_buffer(self) -> None: ...

    def close(self) -> None: ...


Opener = Callable[[], Transport]


@dataclass(frozen=True)
class PortInfo:
    """A serial port as ``serial.tools.list_ports`` lists it (only what discovery needs)."""

    device: str
    vid: int | None
    pid: int | None


class Panel:
    """A connected panel: events come out of :attr:`events`, LED states go in by ``set_leds``."""

    def __init__(
        self,
        opener: Opener,
        name: str,
        config: SessionConfig | None = None,
        twin: PanelTwin | None = None,
        on_close: Callable[[], None] | None = None,
    ) -> None:
        self.name = name
        self.twin = twin
        self.events: queue.Queue[PanelEvent] = queue.Queue()
        self._opener = opener
        self._session = PanelSession(config)
        self._lock = threading.RLock()
        self._port: Transport | None = None
        self._assembler = LineAssembler()
        self._stop = threading.Event()
        self._first_answer = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"panel {name}", daemon=True)
        self._on_close = on_close
        self.line_observer: Callable[[str, bytes], None] | None = None
        """Called with ("in", line) for every line read and ("out", line) for every line sent."""

    # Public interface.

    @property
    def connected(self) -> bool:
        """Whether the panel has answered ``HELLO`` on the current connection."""
        return self._session.connected

    @property
    def hello(self) -> Hello | None:
        """The panel's last ``HELLO`` answer: firmware, button and LED counts, boot id."""
        return self._session.hello

    @property
    def leds(self) -> LedState:
        """The LED state asked for last (sent again after every reconnection), for any number
        of seats; the panel gets it fitted to its own turn LEDs."""
        return self._session.wanted

    @property
    def leds_applied(self) -> LedState | None:
        """The LED state the panel confirmed on this connection (``None`` before it did), with
        as many turn LEDs as the panel has."""
        return self._session.applied

    def set_leds(self, state: LedState) -> None:
        """Show ``state`` on the panel now and after any reconnection; retried until confirmed.

        ``state`` may have more or fewer turn LEDs than the panel: missing ones are sent off,
        those beyond the panel are dropped."""
        with self._lock:
            self._act(self._session.set_leds(state, time.monotonic()))

    def next_event(self, timeout: float | None = None) -> PanelEvent | None:
        """The next press or status, waiting up to ``timeout`` seconds; ``None`` if none came."""
        try:
            return self.events.get(timeout=timeout)
        except queue.Empty:
            return None

    def send_raw(self, body: str) -> None:
        """Send one line with its checksum computed, as a person would; answers go the usual way."""
        with self._lock:
            self._act(Output(send=[body]))

    def close(self) -> None:
        """Stop the reader thread, close the port (and the twin of ``sim://``)."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)
        with self._lock:
            self._close_port()
        if self._on_close is not None:
            self._on_close()

    def __enter__(self) -> Panel:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # Starting.

    def start(self) -> None:
        """Open the port and wait for the first ``HELLO`` answer; raise if there is none."""
        try:
            port = self._opener()
        except OSError as error:
            raise PanelUnavailableError(_open_failure(self.name, error)) from None
        with self._lock:
            self._attach(port)
        self._thread.start()
        deadline = self._session.config.hello_timeout + 1.0
        if not self._first_answer.wait(deadline) or not self._session.ever_connected:
            self.close()
            raise PanelUnavailableError(
                self._session.refusal
                or f"The device at {self.name} did not answer HELLO within "
                f"{self._session.config.hello_timeout:g} s; check that the panel firmware is "
                "flashed and that this is the panel's port."
            )

    # The reader thread.

    def _run(self) -> None:
        delay = self._session.config.backoff_start
        while not self._stop.is_set():
            port = self._port
            if port is None:
                if not self._session.ever_connected or self._session.refusal:
                    self._first_answer.set()
                    return
                if self._reconnect():
                    delay = self._session.config.backoff_start
                else:
                    self._stop.wait(delay)
                    delay = min(delay * 2, self._session.config.backoff_max)
                continue
            self._read_once(port)

    def _read_once(self, port: Transport) -> None:
        try:
            data = port.read(max(1, port.in_waiting))
        except (OSError, TypeError, AttributeError):  # pyserial may fail oddly on a closing fd
            with self._lock:
                if self._port is port:
                    self._lose(StatusKind.UNPLUGGED)
            return
        now = time.monotonic()
        with self._lock:
            if self._port is not port:
                return
            output = Output()
            for line in self._assembler.feed(data):
                self._observe("in", line if isinstance(line, bytes) else b"<too long>")
                if isinstance(line, bytes):
                    output.merge(self._session.receive(line, now))
                else:
                    output.merge(self._session.receive_overlong(now))
            output.merge(self._session.tick(now))
            self._act(output)

    def _reconnect(self) -> bool:
        try:
            port = self._opener()
        except OSError:
            return False
        with self._lock:
            self._attach(port)
        return True

    def _attach(self, port: Transport) -> None:
        self._port = port
        self._assembler = LineAssembler()
        with contextlib.suppress(OSError):
            port.reset_input_buffer()
        self._act(self._session.port_opened(time.monotonic()))

    def _act(self, output: Output) -> None:
        """Send, deliver and drop as the session asks (called with the lock held)."""
        port = self._port
        if port is not None and output.send:
            for body in output.send:
                self._observe("out", format_line(body)[:-1])
            try:
                port.write(b"".join(format_line(body) for body in output.send))
            except (OSError, TypeError, AttributeError):
                output.drop = output.drop or StatusKind.UNPLUGGED
                output.merge(self._session.port_lost(StatusKind.UNPLUGGED))
        for event in output.events:
            self.events.put(event)
        if self._session.connected or self._session.refusal:
            self._first_answer.set()
        if output.drop is not None:
            self._close_port()

    def _observe(self, direction: str, line: bytes) -> None:
        if self.line_observer is not None:
            self.line_observer(direction, line)

    def _lose(self, kind: StatusKind) -> None:
        output = self._session.port_lost(kind)
        output.drop = kind
        self._act(output)

    def _close_port(self) -> None:
        port, self._port = self._port, None
        if port is not None:
            with contextlib.suppress(OSError):
                port.close()


# Opening by URL.


def open_panel(url: str = AUTO_URL, config: SessionConfig | None = None) -> Panel:
    """Open the panel at ``url`` (a device path, ``auto`` or ``sim://``) and shake hands.

    Returns once the panel has answered ``HELLO``; raises :class:`PanelUnavailableError` with a
    sentence saying what to do when there is no panel or it does not answer.
    """
    if not url.strip():
        raise PanelUnavailableError("No panel port was given; give the panel's port (such as "
                                    "/dev/ttyACM0), auto, or sim:// for the software panel.")
    if url.startswith(SIM_URL):
        return _open_twin(config, _twin_seats(url))
    path = find_panel_port() if url == AUTO_URL else url
    panel = Panel(lambda: _open_serial(path), path, config)
    panel.start()
    return panel


def _twin_seats(url: str) -> int:
    """The seats of a ``sim://`` panel: ``sim://?seats=N`` (1 to 6), else 4."""
    from urllib.parse import parse_qs, urlsplit

    options = parse_qs(urlsplit(url).query, keep_blank_values=True)
    unknown = sorted(set(options) - {"seats"})
    if unknown:
        raise PanelUnavailableError(f"{url}: unknown option {unknown[0]!r}; sim:// takes "
                                    f"seats=1 to {MAX_SEATS}")
    seats = options.get("seats", [str(DEFAULT_SEATS)])[-1]
    if not (seats.isdigit() and 1 <= int(seats) <= MAX_SEATS):
        raise PanelUnavailableError(f"{url}: seats must be 1 to {MAX_SEATS}, not {seats!r}")
    return int(seats)


def _open_twin(config: SessionConfig | None, seats: int = DEFAULT_SEATS) -> Panel:
    twin = PanelTwin(seats=seats)
    port = MemoryTwinPort()
    twin.attach(port)
    panel = Panel(port.connect, SIM_URL, config, twin=twin, on_close=twin.close)
    try:
        panel.start()
    except PanelUnavailableError:
        twin.close()
        raise
    return panel


def _open_serial(path: str) -> Transport:
    import serial

    port: Transport = serial.Serial(path, BAUD_RATE, timeout=READ_TIMEOUT, exclusive=True)
    return port


def _open_failure(name: str, error: OSError) -> str:
    text = str(error)
    if isinstance(error, FileNotFoundError) or "No such file" in text or "ENOENT" in text:
        return f"There is no panel at {name}; plug it in, or give its port (see `ls /dev/tty*`)."
    if isinstance(error, PermissionError) or "Permission denied" in text:
        return (
            f"No permission to open {name}; add yourself to the dialout group "
            "(`sudo usermod -aG dialout $USER`, then log in again)."
        )
    if error.errno == errno.ENOTTY or "Inappropriate ioctl" in text:
        return (f"{name} is not a serial port; give the panel's port (such as /dev/ttyACM0), "
                "or auto.")
    if "lock" in text.lower() or "busy" in text.lower() or error.errno == errno.EBUSY:
        return f"{name} is in use by another program; close it (a serial monitor?) and try again."
    return f"Cannot open the panel at {name} ({text}); check the cable and the port name."


# Finding the Arduino.


def find_panel_port() -> str:
    """The path of the one Arduino on USB, preferring its stable ``/dev/serial/by-id`` name."""
    from serial.tools import list_ports

    ports = [PortInfo(port.device, port.vid, port.pid) for port in list_ports.comports()]
    return choose_panel_port(ports, _by_id_links())


def choose_panel_port(ports: Sequence[PortInfo], by_id: Iterable[Path]) -> str:
    """Pick the panel among ``ports`` by USB id; name it by its by-id link when it has one."""
    found = [port for port in ports if (port.vid, port.pid) in ARDUINO_USB_IDS]
    if not found:
        raise PanelUnavailableError(
            "No Arduino panel was found on USB; plug it in, give its port "
            "(e.g. /dev/ttyACM0), or use sim:// to play with the software panel."
        )
    if len(found) > 1:
        names = ", ".join(sorted(port.device for port in found))
        raise PanelUnavailableError(
            f"Several Arduinos are plugged in ({names}); give the panel's port instead of auto."
        )
    device = found[0].device
    for link in sorted(by_id):
        with contextlib.suppress(OSError):
            if str(link.resolve()) == str(Path(device).resolve()):
                return str(link)
    return device


def _by_id_links() -> list[Path]:
    if not BY_ID_FOLDER.is_dir():
        return []
    return list(BY_ID_FOLDER.iterdir())
