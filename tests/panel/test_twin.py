"""The software twin answers as PROTOCOL.md says, seen through a raw serial.Serial on its pty."""

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


@pytest.fixture
def terminal(pty_twin):
    twin, path = pty_twin
    term = Terminal(path)
    yield twin, term
    term.port.close()


def test_hello_ping_and_leds(terminal):
    twin, term = terminal
    term.send(b"HELLO*35\n")
    assert term.answers(lambda m: True) == [Hello(1, "0.1.0", 7, 6, twin.boot)]
    term.send(b"LEDS 100000*A5\r\n")
    assert term.answers(lambda m: True) == [LedsApplied(LedState.from_text("100000"))]
    assert twin.leds == LedState.from_text("100000")
    twin.press("SELECT")
    term.send(b"PING*1F\n")
    assert term.answers(lambda m: isinstance(m, Beat)) == [Event(1, "SELECT"), Beat(1)]


@pytest.mark.parametrize(
    ("raw", "reply"),
    [
        (b"HELLO*36\n", ErrorReply("CHECKSUM")),
        (b"HELLO\n", ErrorReply("CHECKSUM")),
        (b"\n", ErrorReply("CHECKSUM")),
        (b"HEL\x01LO*35\n", ErrorReply("CHARS")),
        (b"L" * 60 + b"\n", ErrorReply("TOOLONG")),
        (format_line("LEDS 3"), ErrorReply("ARGS", "LEDS")),
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
    assert term.answers(lambda m: True) == [reply]
    assert twin.leds == LedState()


def test_resend_sends_kept_events_then_a_beat_and_gone_when_too_old(terminal):
    twin, term = terminal
    for _ in range(20):
        twin.press("END1")
    term.answers(lambda m: isinstance(m, Event) and m.number == 20)
    term.send(format_line("RESEND 18"))
    assert term.answers(lambda m: isinstance(m, Beat)) == [
        Event(18, "END1"),
        Event(19, "END1"),
        Event(20, "END1"),
        Beat(20),
    ]
    term.send(format_line("RESEND 2"))
    answer = term.answers(lambda m: isinstance(m, Beat))
    assert answer[0] == ErrorReply("GONE", "5")
    assert [m.number for m in answer[1:-1]] == list(range(5, 21))
    term.send(format_line("RESEND 21"))
    assert term.answers(lambda m: isinstance(m, Beat)) == [Beat(20)]


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
