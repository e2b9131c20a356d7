"""The software twin answers as PROTOCOL.md says, seen through a raw serial.Serial on its pty."""

import time

import pytest
import serial

from companion.panel.driver import PortInfo, choose_panel_port, open_panel
from companion.panel.errors import PanelUnavailableError
from companion.panel.protocol import (
    Beat,
    ErrorReply,
    Event,
    Hello,
    LedsApplied,
    LedState,
    LineAssembler,
    format_line,
    parse_line,
)
from companion.panel.twin import PanelTwin

from .conftest import MemoryTerminal


class Terminal:
    """A person (or the firmware tests) at a serial terminal: send lines, read answers."""

    def __init__(self, path):
        self.port = serial.Serial(path, 115200, timeout=2.0, exclusive=True)
        self.assembler = LineAssembler()
        self.pending = []

    def send(self, raw):
        self.port.write(raw)

    def answers(self, until):
        """Messages up to and including the first one for which ``until`` is true (beats skipped
        unless ``until`` wants them)."""
        found = []
        while True:
            while not self.pending:
                data = self.port.read(max(1, self.port.in_waiting))
                assert data, f"no answer; got {found}"
                self.pending += self.assembler.feed(data)
            message = parse_line(self.pending.pop(0))
            if isinstance(message, Beat) and not until(message):
                continue
            found.append(message)
            if until(message):
                return found


def is_answer(message: object) -> bool:
    """Any message but the twin's unprompted heartbeat, which may come at any moment."""
    return not isinstance(message, Beat)


@pytest.fixture
def terminal(pty_twin):
    twin, path = pty_twin
    term = Terminal(path)
    yield twin, term
    term.port.close()


def test_hello_ping_and_leds(terminal):
    twin, term = terminal
    term.send(b"HELLO*49D6\n")
    assert term.answers(is_answer) == [Hello(2, "0.2.0", 9, 6, twin.boot)]
    term.send(b"LEDS 100000*C1E0\r\n")
    assert term.answers(is_answer) == [LedsApplied(LedState.from_text("100000"))]
    assert twin.leds == LedState.from_text("100000")
    twin.press("SELECT")
    term.send(b"PING*6427\n")
    event, beat = term.answers(lambda m: isinstance(m, Beat))
    assert (event.number, event.button, beat.last) == (1, "SELECT", 1)
    assert 0 <= event.time <= beat.time < 60_000  # milliseconds since the twin's boot


@pytest.mark.parametrize(
    ("raw", "reply"),
    [
        (b"HELLO*49D7\n", ErrorReply("CHECKSUM")),
        (b"HELLO*35\n", ErrorReply("CHECKSUM")),
        (b"HELLO\n", ErrorReply("CHECKSUM")),
        (b"\n", ErrorReply("CHECKSUM")),
        (b"HEL\x01LO*49D6\n", ErrorReply("CHARS")),
        (b"L" * 60 + b"\n", ErrorReply("TOOLONG")),
        (format_line("LEDS 3"), ErrorReply("ARGS", "LEDS")),
        (format_line("LEDS 0000"), ErrorReply("ARGS", "LEDS")),  # two seats' digits
        (format_line("LEDS 00000000"), ErrorReply("ARGS", "LEDS")),  # six seats' digits
        (format_line("RESEND x"), ErrorReply("ARGS", "RESEND")),
        (format_line("RESEND 0"), ErrorReply("ARGS", "RESEND")),
        (format_line("RESEND 01"), ErrorReply("ARGS", "RESEND")),
        (format_line("RESEND 65536"), ErrorReply("ARGS", "RESEND")),
        (format_line("RESEND 1 2"), ErrorReply("ARGS", "RESEND")),
        (format_line("JUMP"), ErrorReply("UNKNOWN", "JUMP")),
    ],
)
def test_every_bad_line_is_answered_with_an_error(terminal, raw, reply):
    twin, term = terminal
    term.send(raw)
    assert term.answers(is_answer) == [reply]
    assert twin.leds == LedState()


def test_resend_sends_kept_events_then_a_beat_and_gone_when_too_old(terminal):
    twin, term = terminal
    for _ in range(20):
        twin.press("END1")
    term.answers(lambda m: isinstance(m, Event) and m.number == 20)
    term.send(format_line("RESEND 18"))
    answer = term.answers(lambda m: isinstance(m, Beat))
    assert answer[:-1] == list(twin.kept_events()[-3:])  # with the time of their press
    assert [(m.number, m.button) for m in answer[:-1]] == [(18, "END1"), (19, "END1"), (20, "END1")]
    assert answer[-1].last == 20
    term.send(format_line("RESEND 2"))
    answer = term.answers(lambda m: isinstance(m, Beat))
    assert answer[0] == ErrorReply("GONE", "5")
    assert [m.number for m in answer[1:-1]] == list(range(5, 21))
    term.send(format_line("RESEND 21"))
    (beat,) = term.answers(lambda m: isinstance(m, Beat))
    assert beat.last == 20


def test_resend_follows_the_ring_across_the_wrap(terminal):
    twin, term = terminal
    with twin._lock:  # start near the end of the numbering, as after a very long session
        twin.last_event = 65533
    numbers = [twin.press("UNDO") for _ in range(4)]
    assert numbers == [65534, 65535, 1, 2]
    term.answers(lambda m: isinstance(m, Event) and m.number == 2)
    term.send(format_line("RESEND 65535"))
    answer = term.answers(lambda m: isinstance(m, Beat))
    assert [m.number for m in answer[:-1]] == [65535, 1, 2]


def test_reset_says_ready_with_a_new_boot_id(terminal):
    twin, term = terminal
    old = twin.boot
    twin.press("END2")
    new = twin.reset()
    assert new != old and twin.last_event == 0
    messages = term.answers(lambda m: getattr(m, "boot", None) == new)
    assert messages[-1].body() == f"READY {new}"


def test_auto_finds_the_one_arduino_and_prefers_its_by_id_name(tmp_path):
    device = tmp_path / "ttyACM0"
    device.touch()
    link = tmp_path / "usb-Arduino__www.arduino.cc__0043_7513-if00"
    link.symlink_to(device)
    ports = [PortInfo(str(tmp_path / "ttyS0"), None, None), PortInfo(str(device), 0x2341, 0x0043)]
    assert choose_panel_port(ports, [link]) == str(link)
    assert choose_panel_port(ports, []) == str(device)
    with pytest.raises(PanelUnavailableError, match="No Arduino panel was found"):
        choose_panel_port(ports[:1], [])
    twice = [*ports, PortInfo("/dev/ttyUSB0", 0x1A86, 0x7523)]
    with pytest.raises(PanelUnavailableError, match="Several Arduinos"):
        choose_panel_port(twice, [])


def test_auto_without_an_arduino_says_what_to_do():
    try:
        from serial.tools import list_ports
    except ImportError:  # pragma: no cover
        pytest.skip("pyserial without list_ports")
    if any((p.vid, p.pid) == (0x2341, 0x0043) for p in list_ports.comports()):
        pytest.skip("an Arduino is plugged in")
    with pytest.raises(PanelUnavailableError, match="sim://"):
        open_panel("auto")


def test_a_press_during_a_resend_answer_goes_out_between_its_lines():
    twin = PanelTwin(seed=3, heartbeat_interval=3600.0, line_pause=0.05)
    terminal = MemoryTerminal(twin)
    try:
        for button in ("END1", "END2", "UNDO", "SELECT"):
            twin.press(button)
        first_times = [event.time for event in twin.kept_events()]
        assert [parse_line(terminal.line()).number for _ in range(4)] == [1, 2, 3, 4]
        terminal.send(format_line("RESEND 1"))
        assert parse_line(terminal.line()) == twin.kept_events()[0]
        twin.press("ROLL")  # while the answer is still going out, a line every 50 ms
        answer = [parse_line(line) for line in terminal.lines(5)]
        assert [(m.number, m.button) for m in answer[:4]] == [
            (5, "ROLL"), (2, "END2"), (3, "UNDO"), (4, "SELECT")
        ]  # the new event at once; the answer holds only events made before RESEND came
        assert [m.time for m in answer[1:4]] == first_times[1:]  # the time of the press
        assert answer[4] == Beat(5, answer[4].time)  # its beat tells the last event by then
        assert answer[0].time >= first_times[-1]
    finally:
        twin.close()


def test_the_twins_clock_counts_milliseconds_from_its_boot_and_wraps():
    start = 2**32 - 30
    twin = PanelTwin(seed=1, clock_start_ms=start)
    try:
        readings = [twin.clock_ms()]
        deadline = time.monotonic() + 2
        while readings[-1] >= start and time.monotonic() < deadline:
            time.sleep(0.005)
            readings.append(twin.clock_ms())
        assert readings[0] >= start
        assert readings[-1] < 1000  # wrapped to 0 after 4294967295
        assert twin.press("HINT") == 1 and twin.kept_events()[0].time < 1000
    finally:
        twin.close()


@pytest.mark.parametrize("seats", range(1, 7))
def test_a_twin_of_any_seat_count_says_so_in_hello(seats):
    twin = PanelTwin(seats=seats, heartbeat_interval=3600.0)
    terminal = MemoryTerminal(twin)
    try:
        terminal.send(format_line("HELLO"))
        hello = parse_line(terminal.line())
        assert hello == Hello(2, "0.2.0", seats + 5, seats + 2, twin.boot)
        assert hello.button_names() == twin.buttons
        assert twin.leds == LedState.showing(seats=seats)
    finally:
        twin.close()
    with pytest.raises(ValueError, match="bad seat count 7"):
        PanelTwin(seats=7)
