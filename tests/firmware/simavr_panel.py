"""Drive the real panel firmware running in the simavr harness (firmware/sim/panel_sim).

`PanelSimulator` starts the harness, sends it commands (press and release buttons with contact
bounce, read the LED pins, drop lines on the wire, reset) and collects what it reports. `SerialLink`
talks the panel protocol to the firmware through a real `serial.Serial` on the harness's pty.
Used by tests/firmware and bench/bench_panel_firmware.py.
"""

from __future__ import annotations

import contextlib
import fcntl
import queue
import re
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import serial

REPO = Path(__file__).resolve().parents[2]
FIRMWARE_DIR = REPO / "firmware"
ELF_PATH = FIRMWARE_DIR / "build" / "panel.elf"
HARNESS_PATH = FIRMWARE_DIR / "sim" / "build" / "panel_sim"
TTY_PATH = "/tmp/companion-simavr-tty"
LOCK_PATH = "/tmp/companion-simavr.lock"
REQUIRED_PACKAGES = "gcc-avr avr-libc libsimavr-dev libelf-dev"
BUTTONS = ("END1", "END2", "END3", "END4", "UNDO", "SELECT", "CONFIRM", "ROLL", "HINT")
# Lines the harness prints on its own, not in answer to a command.
NOTICE_PREFIXES = ("tx ", "dropped ", "error firmware")


def missing_for_simulation() -> str | None:
    """Why the firmware cannot be built and simulated here, or None when it can."""
    needed = {
        "avr-gcc": shutil.which("avr-gcc") is not None,
        "make": shutil.which("make") is not None,
        "gcc": shutil.which("gcc") is not None,
        "simavr headers": Path("/usr/include/simavr/sim_avr.h").exists(),
        "libelf headers": Path("/usr/include/libelf.h").exists()
        or Path("/usr/include/libelf/libelf.h").exists(),
        "avr-libc": Path("/usr/lib/avr/include/avr/io.h").exists(),
    }
    missing = [name for name, present in needed.items() if not present]
    if not missing:
        return None
    return (
        f"missing {', '.join(missing)}: install the Debian packages {REQUIRED_PACKAGES} "
        "(scripts/system-packages.sh does it as root)"
    )


def build_firmware_and_harness() -> str:
    """Run `make -C firmware all sim`; returns make's output (it includes avr-size's figures)."""
    result = subprocess.run(
        ["make", "-C", str(FIRMWARE_DIR), "all", "sim"],
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise RuntimeError(f"make -C firmware failed:\n{result.stdout}\n{result.stderr}")
    return result.stdout


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE, as in firmware/PROTOCOL.md (written out here so the tests stand
    alone)."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def line_for(body: str) -> bytes:
    """The wire form of a body: BODY*CCCC and a newline."""
    raw = body.encode("ascii")
    return raw + b"*%04X\n" % crc16(raw)


def untimed(line: str) -> str:
    """An EV or BEAT body without its last token, the panel's clock (other lines unchanged)."""
    if line.startswith(("EV ", "BEAT ")):
        return line.rsplit(" ", 1)[0]
    return line


def panel_time(line: str) -> int:
    """The panel's clock in an EV or BEAT body."""
    return int(line.rsplit(" ", 1)[1])


@contextlib.contextmanager
def simulator_lock(timeout: float = 300.0) -> Iterator[None]:
    """Hold the machine-wide lock that keeps two harnesses off the one fixed pty path."""
    with open(LOCK_PATH, "a") as handle:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"{LOCK_PATH} stayed locked for {timeout} s") from None
                time.sleep(0.05)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@dataclass(frozen=True)
class Transmitted:
    """A line the firmware sent, with the simulated time (ms) its last byte left the UART."""

    sim_ms: float
    line: str


@dataclass(frozen=True)
class ContactChange:
    """The harness's answer to press or release: when the contact first moved (simulated ms)
    and how many level changes its bounce made."""

    button: str
    sim_ms: float
    changes: int

    @classmethod
    def from_reply(cls, reply: str) -> ContactChange:
        found = re.fullmatch(r"ok \w+ (\w+) at=(\S+) changes=(\d+)", reply)
        if found is None:
            raise RuntimeError(f"unexpected panel_sim reply {reply!r}")
        return cls(found.group(1), float(found.group(2)), int(found.group(3)))


class PanelSimulator:
    """The harness process: commands on its stdin, replies and notices from its stdout."""

    def __init__(self, seed: int | None = None, speed: float = 1.0) -> None:
        arguments = [str(HARNESS_PATH), "--speed", str(speed)]
        if seed is not None:
            arguments += ["--seed", str(seed)]
        self.process = subprocess.Popen(
            [*arguments, str(ELF_PATH)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.reset_ms = 0.0
        self._replies: queue.Queue[str] = queue.Queue()
        self._notices_lock = threading.Lock()
        self.notices: list[str] = []
        assert self.process.stdout is not None
        self._reader = threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True)
        self._reader.start()
        self.ready_line = self._reply(timeout=10.0)
        if not self.ready_line.startswith("ready "):
            raise RuntimeError(f"panel_sim did not start: {self.ready_line!r}")

    def _read(self, stream: IO[str]) -> None:
        for raw in stream:
            line = raw.rstrip("\n")
            if line.startswith(NOTICE_PREFIXES):
                with self._notices_lock:
                    self.notices.append(line)
            else:
                self._replies.put(line)
        self._replies.put("")

    def _reply(self, timeout: float = 5.0) -> str:
        try:
            return self._replies.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(
                f"panel_sim gave no reply within {timeout} s ({self._process_state()}; last "
                f"notice {self.notices[-1] if self.notices else None!r})"
            ) from None

    def _process_state(self) -> str:
        """What the harness process is doing, for a message about it hanging."""
        if self.process.poll() is not None:
            return f"exited with {self.process.returncode}"
        try:
            base = Path("/proc") / str(self.process.pid)
            state = (base / "stat").read_text().split()[2]
            return f"state {state}, waiting in {(base / 'wchan').read_text() or 'nothing'}"
        except OSError:
            return "state unknown"

    def command(self, text: str) -> str:
        """Send one command line and return its reply line."""
        assert self.process.stdin is not None
        self.process.stdin.write(text + "\n")
        self.process.stdin.flush()
        reply = self._reply()
        if not reply or reply.startswith("error"):
            raise RuntimeError(f"panel_sim refused {text!r}: {reply!r}")
        return reply

    def press(self, button: str) -> ContactChange:
        """Close a contact, bouncing for 2 to 5 ms; says when it first touched."""
        return ContactChange.from_reply(self.command(f"press {button}"))

    def release(self, button: str) -> ContactChange:
        """Open a contact, bouncing as it goes."""
        return ContactChange.from_reply(self.command(f"release {button}"))

    def tap(self, button: str, closed_ms: float) -> float:
        """Press ``button``, hold it ``closed_ms`` after its bounce (at most 5 ms), release it;
        the simulated time of its first touch."""
        touch = self.press(button)
        self.wait(5 + closed_ms)
        self.release(button)
        return touch.sim_ms

    def wait(self, milliseconds: float) -> float:
        """Let `milliseconds` of simulated time pass; returns the simulated time then."""
        return float(self.command(f"wait {milliseconds}").split()[-1])

    def reset(self) -> float:
        """Reset the AVR as DTR does; the simulated time of the reset, which is 0 on the
        panel's own clock (millis) to within a few microseconds."""
        self.reset_ms = float(self.command("reset").split()[2])
        return self.reset_ms

    def unplug(self) -> None:
        """Pull the cable: the pty goes away (clients see a hang-up) and the board loses power."""
        self.command("unplug")

    def plug(self) -> None:
        """Plug it back: a new pty behind the same path, and the board boots afresh."""
        self.reset_ms = float(self.command("plug").split()[2])

    def leds(self) -> str:
        """The LED pin levels, TURN1..TURN4 GREEN RED, as a string of 0 and 1."""
        return self.command("leds").split()[1]

    def sim_ms(self) -> float:
        return float(self.command("time").split()[1])

    def clear_notices(self) -> None:
        """Forget the notices so far (before a trace whose lines alone matter)."""
        with self._notices_lock:
            self.notices.clear()

    def transmitted(self) -> list[Transmitted]:
        """Every line the firmware sent since tracing began (needs `trace on`)."""
        with self._notices_lock:
            found = [re.match(r"tx (\S+) (.*)", notice) for notice in self.notices]
        return [Transmitted(float(m.group(1)), m.group(2)) for m in found if m]

    def wait_transmitted(self, wanted: Callable[[str], bool], timeout: float = 3.0) -> Transmitted:
        """The last traced line satisfying `wanted`, waiting for its notice to arrive."""
        deadline = time.monotonic() + timeout
        while True:
            found = [sent for sent in self.transmitted() if wanted(sent.line)]
            if found:
                return found[-1]
            if time.monotonic() > deadline:
                raise TimeoutError(f"panel_sim traced no wanted line within {timeout} s")
            time.sleep(0.001)

    def dropped(self) -> list[str]:
        with self._notices_lock:
            notices = list(self.notices)
        prefix = "dropped "
        return [notice[len(prefix) :] for notice in notices if notice.startswith(prefix)]

    def close(self) -> None:
        if self.process.poll() is None:
            with contextlib.suppress(BrokenPipeError, RuntimeError, TimeoutError):
                self.command("quit")
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process.stdin is not None:
            with contextlib.suppress(BrokenPipeError):
                self.process.stdin.close()
        if self.process.stdout is not None:
            self.process.stdout.close()


class SerialLink:
    """The host side: protocol lines over a real serial.Serial on the harness's pty."""

    def __init__(self, path: str = TTY_PATH) -> None:
        self.port = serial.Serial(path, 115200, timeout=0.05, exclusive=True)
        self.port.reset_input_buffer()
        self._pending = b""

    def send(self, body: str) -> None:
        self.port.write(line_for(body))

    def send_raw(self, data: bytes) -> None:
        self.port.write(data)

    def read_line(self, timeout: float) -> str | None:
        """The next line's body (checksum verified), or None when none came in time."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self._pending:
            if time.monotonic() > deadline:
                return None
            self._pending += self.port.read(self.port.in_waiting or 1)
        raw, self._pending = self._pending.split(b"\n", 1)
        body, star, checksum = raw.rpartition(b"*")
        if not star or checksum != b"%04X" % crc16(body):
            raise AssertionError(f"firmware sent a line with a bad checksum: {raw!r}")
        return body.decode("ascii")

    def wait_for(
        self, wanted: Callable[[str], bool], timeout: float = 3.0
    ) -> tuple[str, list[str]]:
        """Read until a line satisfies `wanted`; returns it and the lines read before it."""
        deadline = time.monotonic() + timeout
        before: list[str] = []
        while True:
            line = self.read_line(max(0.0, deadline - time.monotonic()))
            if line is None:
                raise TimeoutError(f"no wanted line within {timeout} s; got {before}")
            if wanted(line):
                return line, before
            before.append(line)

    def ask(self, body: str, answer_prefix: str, timeout: float = 2.0) -> tuple[str, list[str]]:
        """Send a command and wait for the line starting with `answer_prefix`."""
        self.send(body)
        return self.wait_for(lambda line: line.startswith(answer_prefix), timeout)

    def handshake(self, timeout: float = 5.0) -> str:
        """HELLO every 250 ms until the answer comes, as PROTOCOL.md asks of the host."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.send("HELLO")
            with contextlib.suppress(TimeoutError):
                line, _ = self.wait_for(lambda text: text.startswith("HELLO "), 0.25)
                return line
        raise TimeoutError(f"no HELLO answer within {timeout} s")

    def drain(self) -> None:
        """Forget every line received so far (after a stretch the test watched by trace), once
        the panel has been quiet for 100 ms so that no half line is left."""
        quiet_since = time.monotonic()
        while time.monotonic() - quiet_since < 0.1:
            if self.port.in_waiting:
                self.port.read(self.port.in_waiting)
                quiet_since = time.monotonic()
            time.sleep(0.005)
        self._pending = b""

    def close(self) -> None:
        self.port.close()


#: 30 bad lines in one write: more than the panel's 64-byte buffer holds, each answered ERR.
BAD_LINE_FLOOD = b"".join(b"FLOOD%02d*0000\n" % index for index in range(30))


def next_heartbeat(beat_ms: float, now_ms: float, lead_ms: float) -> float:
    """The first unprompted heartbeat more than ``lead_ms`` after ``now_ms`` (simulated ms),
    given one at ``beat_ms``: they keep their phase, a whole second apart."""
    return beat_ms + 1000 * (1 + int((now_ms + lead_ms - beat_ms) // 1000))


@dataclass(frozen=True)
class TapTiming:
    """One traced tap that made its event: on the simulated clock, from the first touch to the
    EV line's last byte leaving the UART; and on the panel's own clock, from the press it
    reports (the contact closed for good, so after the bounce but before the 10 ms debounce)
    to that same moment."""

    touch_to_sent_ms: float
    press_to_sent_ms: float


def tap_and_time(simulator: PanelSimulator, button: str, number: int,
                 timeout: float = 1.5, closed_ms: float = 15) -> TapTiming | None:
    """Tap `button` now, closed for `closed_ms` after its bounce, and wait (with tracing on)
    for EV `number` of it; None when no such event was sent (the tap was lost)."""
    touch = simulator.tap(button, closed_ms)
    simulator.wait(30)
    wanted = f"EV {number} PRESS {button}"
    try:
        sent = simulator.wait_transmitted(
            lambda line: untimed(line.split("*")[0]) == wanted, timeout=timeout)
    except TimeoutError:
        return None
    panel_clock_at_send = sent.sim_ms - simulator.reset_ms
    return TapTiming(sent.sim_ms - touch,
                     panel_clock_at_send - panel_time(sent.line.split("*")[0]))
