"""The panel firmware: its C core's unit tests, its build, and the real firmware run in simavr.

The simavr tests drive the compiled firmware through a real serial.Serial on the harness's pty
(fixed path, so they hold a machine-wide lock and never run side by side) and check what
firmware/PROTOCOL.md promises: handshake, one event per bouncing press, LED state on the pins,
resend after a lost event, an error for every bad line.
"""

from __future__ import annotations

import itertools
import random
import re
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.firmware.simavr_panel import (
    BUTTONS,
    FIRMWARE_DIR,
    TTY_PATH,
    PanelSimulator,
    SerialLink,
    build_firmware_and_harness,
    line_for,
    missing_for_simulation,
    simulator_lock,
)

ARDUINO_CORE = Path("/usr/share/arduino/hardware/arduino/avr")
HELLO_ANSWER = re.compile(r"HELLO 1 0\.1\.0 7 6 ([0-9A-F]{4})")


@pytest.fixture(scope="module", autouse=True)
def exclusive() -> Iterator[None]:
    """Builds and simulator runs share firmware/build and the pty path with any other test run
    on this machine: hold the lock for the whole module."""
    with simulator_lock():
        yield


@pytest.fixture(scope="module")
def built() -> str:
    reason = missing_for_simulation()
    if reason:
        pytest.skip(reason)
    return build_firmware_and_harness()


@pytest.fixture(scope="module")
def simulator(built: str) -> Iterator[PanelSimulator]:
    harness = PanelSimulator(seed=4)
    try:
        yield harness
    finally:
        harness.close()


@pytest.fixture
def link(simulator: PanelSimulator) -> Iterator[SerialLink]:
    """A freshly reset panel with the handshake done, its button contacts open."""
    for button in BUTTONS:
        simulator.command(f"release {button}")
    simulator.command("drop 0")
    simulator.command("dropev 0")
    connection = SerialLink()
    simulator.command("reset")
    connection.handshake()
    try:
        yield connection
    finally:
        connection.close()


def test_protocol_core_unit_tests_pass_on_the_host() -> None:
    if shutil.which("gcc") is None or shutil.which("make") is None:
        pytest.skip("needs gcc and make")
    result = subprocess.run(
        ["make", "-s", "-C", str(FIRMWARE_DIR), "test"], capture_output=True, text=True, check=False
    )
    summary = re.search(r"(\d+) passed, (\d+) failed", result.stdout)
    assert summary, result.stdout + result.stderr
    assert int(summary.group(1)) >= 20
    assert summary.group(2) == "0", result.stdout
    assert result.returncode == 0


def test_firmware_fits_an_uno_with_room_for_the_stack(built: str) -> None:
    program = re.search(r"Program:\s+(\d+) bytes", built)
    data = re.search(r"Data:\s+(\d+) bytes", built)
    if program is None or data is None:  # make skipped the link: ask avr-size directly
        sizes = subprocess.run(
            ["make", "-s", "-C", str(FIRMWARE_DIR), "size"], capture_output=True, text=True
        ).stdout
        program = re.search(r"Program:\s+(\d+) bytes", sizes)
        data = re.search(r"Data:\s+(\d+) bytes", sizes)
    assert program and data
    assert int(program.group(1)) < 32256 - 2048  # below the Uno's bootloader, with margin
    assert int(data.group(1)) < 1024  # half the RAM left for the stack
    assert (FIRMWARE_DIR / "build" / "panel.hex").read_text().startswith(":")


def test_sketch_builds_against_the_arduino_core_as_the_ide_would(built: str) -> None:
    if not (ARDUINO_CORE / "cores" / "arduino" / "Arduino.h").exists():
        pytest.skip("arduino-core-avr is not installed (apt-get install arduino-core-avr)")
    result = subprocess.run(
        ["make", "-s", "-C", str(FIRMWARE_DIR), "arduino"], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert (FIRMWARE_DIR / "build" / "arduino" / "panel.hex").read_text().startswith(":")


@pytest.mark.simavr
def test_handshake_reports_counts_and_a_new_boot_id_after_reset(
    simulator: PanelSimulator, link: SerialLink
) -> None:
    first = HELLO_ANSWER.fullmatch(link.handshake())
    assert first, "HELLO answer does not match PROTOCOL.md"
    simulator.command("reset")
    ready, _ = link.wait_for(lambda line: line.startswith("READY "))
    second = HELLO_ANSWER.fullmatch(link.handshake())
    assert second
    assert ready == f"READY {second.group(1)}"
    assert second.group(1) != first.group(1)
    assert link.ask("PING", "BEAT")[0] == "BEAT 0"


@pytest.mark.simavr
def test_a_bouncing_press_gives_exactly_one_event(
    simulator: PanelSimulator, link: SerialLink
) -> None:
    press = simulator.press("END3")
    assert press.changes >= 5  # the contact really chattered
    event, _ = link.wait_for(lambda line: line.startswith("EV "))
    assert event == "EV 1 PRESS END3"
    simulator.wait(50)  # held: still one event
    assert simulator.release("END3").changes >= 5
    simulator.wait(20)  # the release bounces too, and makes no event
    simulator.press("END3")
    second, before = link.wait_for(lambda line: line.startswith("EV "))
    assert second == "EV 2 PRESS END3"
    assert not any(line.startswith("EV ") for line in before)
    beat, before = link.wait_for(lambda line: line.startswith("BEAT "))
    assert beat == "BEAT 2"
    assert not any(line.startswith("EV ") for line in before)


@pytest.mark.simavr
def test_many_bouncing_presses_give_one_event_each(
    simulator: PanelSimulator, link: SerialLink
) -> None:
    simulator.clear_notices()
    simulator.command("trace on")
    try:
        for _ in range(12):
            for button in ("CONFIRM", "END2"):  # one on port B beside the LEDs, one on port D
                simulator.press(button)
                simulator.wait(30)
                simulator.release(button)
                simulator.wait(20)
        simulator.wait(5)
    finally:
        simulator.command("trace off")
    events = [sent.line for sent in simulator.transmitted() if sent.line.startswith("EV ")]
    expected = [f"EV {n} PRESS {('CONFIRM', 'END2')[(n - 1) % 2]}" for n in range(1, 25)]
    assert [event.split("*")[0] for event in events] == expected
    link.send("PING")
    link.wait_for(lambda line: line == "BEAT 24")  # and nothing was counted twice


@pytest.mark.simavr
def test_every_button_is_wired_to_its_name(simulator: PanelSimulator, link: SerialLink) -> None:
    for number, button in enumerate(BUTTONS, start=1):
        simulator.press(button)
        event, _ = link.wait_for(lambda line: line.startswith("EV "))
        assert event == f"EV {number} PRESS {button}"
        simulator.release(button)


@pytest.mark.simavr
def test_led_state_is_applied_to_the_pins(simulator: PanelSimulator, link: SerialLink) -> None:
    for led in range(6):  # each digit drives its own pin
        state = "".join("1" if index == led else "0" for index in range(6))
        assert link.ask(f"LEDS {state}", "LEDS")[0] == f"LEDS {state}"
        assert wait_until(pins_show(simulator, state)), state
    assert link.ask("LEDS 100101", "LEDS")[0] == "LEDS 100101"
    assert wait_until(lambda: simulator.leds() == "100101")
    assert link.ask("LEDS 100101", "LEDS")[0] == "LEDS 100101"  # idempotent
    assert link.ask("LEDS 000013", "ERR")[0] == "ERR ARGS LEDS"
    assert simulator.leds() == "100101"  # a refused state changes nothing
    assert link.ask("LEDS 020000", "LEDS")[0] == "LEDS 020000"
    seen: set[str] = set()

    def both_blink_phases_seen() -> bool:
        seen.add(simulator.leds())
        return {"010000", "000000"} <= seen

    assert wait_until(both_blink_phases_seen)
    assert seen <= {"010000", "000000"}


@pytest.mark.simavr
def test_a_lost_event_is_sent_again_on_resend(simulator: PanelSimulator, link: SerialLink) -> None:
    simulator.command("dropev 1")
    simulator.press("UNDO")
    _, before = link.wait_for(lambda line: line == "BEAT 1")
    assert not any(line.startswith("EV ") for line in before)
    assert simulator.dropped()[-1].startswith("EV 1 PRESS UNDO*")
    link.send("RESEND 1")
    event, _ = link.wait_for(lambda line: line.startswith("EV "))
    assert event == "EV 1 PRESS UNDO"
    assert link.wait_for(lambda line: line.startswith("BEAT"))[0] == "BEAT 1"


@pytest.mark.simavr
def test_resend_ahead_of_the_last_event_is_answered_with_a_beat_alone(
    simulator: PanelSimulator, link: SerialLink
) -> None:
    simulator.press("SELECT")
    link.wait_for(lambda line: line.startswith("EV "))
    link.send("RESEND 5")  # not made yet: where the panel stands is the answer
    beat, before = link.wait_for(lambda line: line.startswith("BEAT"))
    assert beat == "BEAT 1"
    assert not any(line.startswith(("EV ", "ERR")) for line in before)


@pytest.mark.simavr
def test_bad_lines_are_answered_with_errors(simulator: PanelSimulator, link: SerialLink) -> None:
    cases = [
        (b"HELLO*36\n", "ERR CHECKSUM"),
        (b"HELLO\n", "ERR CHECKSUM"),
        (line_for("FOO"), "ERR UNKNOWN FOO"),
        (line_for("LEDS 9"), "ERR ARGS LEDS"),
        (line_for("RESEND 0"), "ERR ARGS RESEND"),
        (line_for("RESEND 01"), "ERR ARGS RESEND"),
        (line_for("RESEND 65536"), "ERR ARGS RESEND"),
        (line_for("RESEND 1 2"), "ERR ARGS RESEND"),
        (b"HEL\x00LO*35\n", "ERR CHARS"),
        (b"X" * 120 + b"\n", "ERR TOOLONG"),
    ]
    for sent, expected in cases:
        link.send_raw(sent)
        assert link.wait_for(lambda line: line.startswith("ERR"))[0] == expected, sent
    chance = random.Random(7)
    for _ in range(40):
        garbage = bytes(chance.choice(range(256)) for _ in range(chance.randint(1, 60)))
        garbage = garbage.replace(b"\n", b"").replace(b"\r", b"")
        link.send_raw(garbage + b"\n")
        answer, _ = link.wait_for(lambda line: not line.startswith("BEAT "))
        assert answer.startswith("ERR"), garbage
    assert HELLO_ANSWER.fullmatch(link.handshake())


@pytest.mark.simavr
def test_the_simulated_uart_sends_a_byte_in_a_115200_baud_bytes_time(
    simulator: PanelSimulator, link: SerialLink
) -> None:
    """A byte is 10 bits at 115200 baud (117,647 with the double-speed divisor 16): 85 us.
    simavr fixes the byte time when the baud register is written, so the firmware must set
    the double-speed bit first (it sent bytes in 187 us before, doubling every latency).
    Measured on a RESEND answer, whose lines leave back to back (the 1 ms button interrupt
    may hold a byte back by a few microseconds)."""
    for button in ("UNDO", "SELECT", "CONFIRM"):
        simulator.press(button)
        link.wait_for(lambda line: line.startswith("EV "))
        simulator.release(button)
        simulator.wait(20)
    simulator.clear_notices()
    simulator.command("trace on")
    try:
        link.send("RESEND 1")
        simulator.wait_transmitted(lambda line: line.startswith("BEAT 3"))
    finally:
        simulator.command("trace off")
    answer = [sent for sent in simulator.transmitted()
              if sent.line.startswith(("EV ", "BEAT 3"))][-4:]
    assert [sent.line.split(" ")[0] for sent in answer] == ["EV", "EV", "EV", "BEAT"]
    per_byte_us = [(later.sim_ms - earlier.sim_ms) * 1000 / (len(later.line) + 1)
                   for earlier, later in itertools.pairwise(answer)]
    assert all(80 <= microseconds <= 110 for microseconds in per_byte_us), per_byte_us


@pytest.mark.simavr
def test_a_tap_during_a_long_resend_answer_is_reported_once(
    simulator: PanelSimulator, link: SerialLink
) -> None:
    """A full 16-event RESEND answer takes about 28 ms on the wire; a 15 ms tap starting at
    any moment of it is one event (the buttons are sampled in the 1 ms timer interrupt, not
    between lines)."""
    for _ in range(16):
        simulator.tap("UNDO", 25)
        simulator.wait(20)
    last = int(link.ask("PING", "BEAT")[0].split()[1])
    assert last == 16
    missed = []
    for offset in range(0, 40, 2):
        link.send(f"RESEND {last - 15}")
        simulator.wait(offset)
        simulator.tap("END1", 15)
        simulator.wait(30)
        wanted = f"EV {last + 1} PRESS END1"
        try:
            link.wait_for(wanted.__eq__, timeout=1.5)
        except TimeoutError:
            missed.append(offset)
            continue
        last += 1
    assert not missed, f"taps lost at these ms after the RESEND was sent: {missed}"
    assert link.ask("PING", "BEAT")[0] == f"BEAT {last}"  # and none was counted twice


@pytest.mark.simavr
def test_heartbeats_come_every_simulated_second(
    simulator: PanelSimulator, link: SerialLink
) -> None:
    def traced_beats() -> list[float]:
        return [sent.sim_ms for sent in simulator.transmitted() if sent.line.startswith("BEAT")]

    simulator.clear_notices()
    simulator.command("trace on")
    try:
        assert wait_until(lambda: len(traced_beats()) >= 3, timeout=5.0)
    finally:
        simulator.command("trace off")
    gaps = [later - earlier for earlier, later in itertools.pairwise(traced_beats())]
    assert all(abs(gap - 1000) < 3 for gap in gaps), gaps
    assert link.wait_for(lambda line: line.startswith("BEAT"))[0] == "BEAT 0"


@pytest.mark.simavr
def test_host_driver_gets_every_press_once_through_a_lost_line_and_a_reset(
    simulator: PanelSimulator, link: SerialLink
) -> None:
    from companion.panel.driver import ButtonPress, PanelStatus, StatusKind, open_panel
    from companion.panel.protocol import LedState

    link.close()  # the driver opens the port exclusively
    with open_panel(TTY_PATH) as panel:
        panel.set_leds(LedState.from_text("100001"))
        assert wait_until(pins_show(simulator, "100001"))
        simulator.command("dropev 1")
        for button in ("END1", "END2", "UNDO"):
            simulator.press(button)
            simulator.wait(30)
            simulator.release(button)
            simulator.wait(20)
        presses = collect(panel, lambda seen: sum(isinstance(e, ButtonPress) for e in seen) >= 3)
        assert [(p.button, p.number) for p in presses if isinstance(p, ButtonPress)] == [
            ("END1", 1),
            ("END2", 2),
            ("UNDO", 3),
        ]
        simulator.command("reset")
        news = collect(panel, lambda seen: any(isinstance(e, PanelStatus) for e in seen))
        assert any(isinstance(e, PanelStatus) and e.kind is StatusKind.RESET for e in news)
        assert wait_until(pins_show(simulator, "100001"))  # restored after the reset
        simulator.press("CONFIRM")
        after = collect(panel, lambda seen: any(isinstance(e, ButtonPress) for e in seen))
        press = next(e for e in after if isinstance(e, ButtonPress))
        assert (press.button, press.number) == ("CONFIRM", 1)


def status_arrives(panel, kind, timeout: float = 5.0) -> bool:
    """Whether the driver reports a PanelStatus of `kind` in time (other events are dropped)."""
    from companion.panel.driver import PanelStatus

    def arrived(seen: list) -> bool:
        return any(isinstance(e, PanelStatus) and e.kind is kind for e in seen)

    return arrived(collect(panel, arrived, timeout))


def collect(panel, enough: Callable[[list], bool], timeout: float = 5.0) -> list:
    """Events from the driver until `enough` says so (or the time is up)."""
    seen: list = []
    deadline = time.monotonic() + timeout
    while not enough(seen) and time.monotonic() < deadline:
        event = panel.next_event(timeout=0.05)
        if event is not None:
            seen.append(event)
    return seen


@pytest.mark.simavr
def test_host_driver_comes_back_after_an_unplug(
    simulator: PanelSimulator, link: SerialLink
) -> None:
    from companion.panel.driver import ButtonPress, StatusKind, open_panel
    from companion.panel.protocol import LedState

    link.close()
    with open_panel(TTY_PATH) as panel:
        panel.set_leds(LedState.from_text("001020"))
        assert wait_until(pins_show(simulator, "001010"))  # GREEN blinks: wait for its on phase
        simulator.unplug()
        assert status_arrives(panel, StatusKind.UNPLUGGED)
        simulator.plug()
        assert status_arrives(panel, StatusKind.RESET)  # the board lost power, so it reset
        assert wait_until(pins_show(simulator, "001010"))  # LED state restored
        simulator.press("SELECT")
        after = collect(panel, lambda seen: any(isinstance(e, ButtonPress) for e in seen))
        press = next(e for e in after if isinstance(e, ButtonPress))
        assert (press.button, press.number) == ("SELECT", 1)


def pins_show(simulator: PanelSimulator, expected: str) -> Callable[[], bool]:
    """A condition: the LED pins read `expected`."""
    return lambda: simulator.leds() == expected


def wait_until(condition: Callable[[], bool], timeout: float = 3.0) -> bool:
    """Poll a condition every few milliseconds until it holds or the time is up."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.005)
    return bool(condition())
