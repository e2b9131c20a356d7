"""The panel firmware: its C core's unit tests, its build, and the real firmware run in simavr.

The simavr tests drive the compiled firmware through a real serial.Serial on the harness's pty
(fixed path, so they hold a machine-wide lock and never run side by side) and check what
firmware/PROTOCOL.md promises: handshake, one event per bouncing press, LED state on the pins,
resend after a lost event, an error for every bad line.
"""

from __future__ import annotations

import itertools
import json
import random
import re
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.firmware.simavr_panel import (
    BAD_LINE_FLOOD,
    BUTTONS,
    FIRMWARE_DIR,
    TTY_PATH,
    PanelSimulator,
    SerialLink,
    build_firmware_and_harness,
    line_for,
    missing_for_simulation,
    next_heartbeat,
    panel_time,
    simulator_lock,
    tap_and_time,
    untimed,
)

ARDUINO_CORE = Path("/usr/share/arduino/hardware/arduino/avr")
HELLO_ANSWER = re.compile(r"HELLO 2 0\.2\.0 9 6 ([0-9A-F]{4})")


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
    simulator.reset()
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


def test_six_seat_sketch_builds_for_the_mega_under_half_its_flash_and_ram(built: str) -> None:
    if not (ARDUINO_CORE / "variants" / "mega" / "pins_arduino.h").exists():
        pytest.skip("arduino-core-avr is not installed (apt-get install arduino-core-avr)")
    result = subprocess.run(
        ["make", "-s", "-C", str(FIRMWARE_DIR), "mega"], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr[-2000:]
    program = re.search(r"Program:\s+\d+ bytes \((\d+\.\d)% Full\)", result.stdout)
    data = re.search(r"Data:\s+\d+ bytes \((\d+\.\d)% Full\)", result.stdout)
    assert program and data, result.stdout
    assert float(program.group(1)) < 50 and float(data.group(1)) < 50
    assert "atmega2560" in result.stdout


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
    assert untimed(link.ask("PING", "BEAT")[0]) == "BEAT 0"


@pytest.mark.simavr
def test_a_bouncing_press_gives_exactly_one_event(
    simulator: PanelSimulator, link: SerialLink
) -> None:
    press = simulator.press("END3")
    assert press.changes >= 5  # the contact really chattered
    event, _ = link.wait_for(lambda line: line.startswith("EV "))
    assert untimed(event) == "EV 1 PRESS END3"
    simulator.wait(50)  # held: still one event
    assert simulator.release("END3").changes >= 5
    simulator.wait(20)  # the release bounces too, and makes no event
    simulator.press("END3")
    second, before = link.wait_for(lambda line: line.startswith("EV "))
    assert untimed(second) == "EV 2 PRESS END3"
    assert not any(line.startswith("EV ") for line in before)
    beat, before = link.wait_for(lambda line: line.startswith("BEAT "))
    assert untimed(beat) == "BEAT 2"
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
    assert [untimed(event.split("*")[0]) for event in events] == expected
    link.send("PING")
    link.wait_for(lambda line: untimed(line) == "BEAT 24")  # and nothing was counted twice


@pytest.mark.simavr
def test_every_button_is_wired_to_its_name(simulator: PanelSimulator, link: SerialLink) -> None:
    for number, button in enumerate(BUTTONS, start=1):
        simulator.press(button)
        event, _ = link.wait_for(lambda line: line.startswith("EV "))
        assert untimed(event) == f"EV {number} PRESS {button}"
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
    _, before = link.wait_for(lambda line: untimed(line) == "BEAT 1")
    assert not any(line.startswith("EV ") for line in before)
    assert simulator.dropped()[-1].startswith("EV 1 PRESS UNDO ")
    link.send("RESEND 1")
    event, _ = link.wait_for(lambda line: line.startswith("EV "))
    assert untimed(event) == "EV 1 PRESS UNDO"
    assert untimed(link.wait_for(lambda line: line.startswith("BEAT"))[0]) == "BEAT 1"


@pytest.mark.simavr
def test_resend_ahead_of_the_last_event_is_answered_with_a_beat_alone(
    simulator: PanelSimulator, link: SerialLink
) -> None:
    simulator.press("SELECT")
    link.wait_for(lambda line: line.startswith("EV "))
    link.send("RESEND 5")  # not made yet: where the panel stands is the answer
    beat, before = link.wait_for(lambda line: line.startswith("BEAT"))
    assert untimed(beat) == "BEAT 1"
    assert not any(line.startswith(("EV ", "ERR")) for line in before)


@pytest.mark.simavr
def test_bad_lines_are_answered_with_errors(simulator: PanelSimulator, link: SerialLink) -> None:
    cases = [
        (b"HELLO*49D7\n", "ERR CHECKSUM"),
        (b"HELLO*35\n", "ERR CHECKSUM"),  # a version-1 line
        (b"HELLO\n", "ERR CHECKSUM"),
        (line_for("FOO"), "ERR UNKNOWN FOO"),
        (line_for("LEDS 9"), "ERR ARGS LEDS"),
        (line_for("RESEND 0"), "ERR ARGS RESEND"),
        (line_for("RESEND 01"), "ERR ARGS RESEND"),
        (line_for("RESEND 65536"), "ERR ARGS RESEND"),
        (line_for("RESEND 1 2"), "ERR ARGS RESEND"),
        (b"HEL\x00LO*49D6\n", "ERR CHARS"),
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


TAP_LENGTHS = (15, 22, 40)  # ms closed after the bounce; the sweeps take them in turn


def sweep_taps(
    simulator: PanelSimulator, link: SerialLink, traffic: Callable[[int], None],
    offsets: range, button: str = "END1",
) -> tuple[list[int], list[float]]:
    """For each offset: start the host's traffic (which may wait for its own moment), wait
    `offset` ms, tap `button` for 15, 22 or 40 ms. Returns the offsets whose tap made no event,
    and for the others the time from the press to its EV line leaving the panel, on the panel's
    clock (the EV's TIME is when the contact closed for good, so the 10 ms debounce is in)."""
    last = last_event_number(link)
    simulator.clear_notices()
    simulator.command("trace on")
    missed: list[int] = []
    latencies: list[float] = []
    try:
        for offset in offsets:
            traffic(offset)
            simulator.wait(offset)
            timing = tap_and_time(simulator, button, last + 1, closed_ms=TAP_LENGTHS[offset % 3])
            if timing is None:
                missed.append(offset)
                continue
            last += 1
            latencies.append(timing.press_to_sent_ms)
    finally:
        simulator.command("trace off")
    link.drain()
    assert untimed(link.ask("PING", "BEAT")[0]) == f"BEAT {last}"  # none was counted twice
    return missed, latencies


def make_events(simulator: PanelSimulator, link: SerialLink, count: int) -> int:
    """Tap UNDO `count` times; the number of the last event."""
    for _ in range(count):
        simulator.tap("UNDO", 25)
        simulator.wait(20)
    return last_event_number(link)


def last_event_number(link: SerialLink) -> int:
    """The number of the panel's last event, from a BEAT read after everything already sent was
    drained: an unprompted heartbeat still buffered from before would name an older event (it
    does when a slow host stretches a run of taps past the panel's first second)."""
    link.drain()
    return int(untimed(link.ask("PING", "BEAT")[0]).split()[1])


@pytest.mark.simavr
def test_a_tap_during_a_long_resend_answer_is_reported_once_and_soon(
    simulator: PanelSimulator, link: SerialLink
) -> None:
    """A full 16-event RESEND answer takes about 40 ms on the wire; a 15 ms tap starting at
    any moment of it is one event, and its EV line goes out between two lines of the answer
    instead of after it: under 20 ms from the press, debounce included."""
    assert make_events(simulator, link, 16) == 16

    def resend(offset: int) -> None:
        link.send("RESEND 1")

    missed, latencies = sweep_taps(simulator, link, resend, range(0, 44, 2))
    assert not missed, f"taps lost at these ms after the RESEND was sent: {missed}"
    assert max(latencies) < 20, latencies


@pytest.mark.simavr
def test_a_tap_during_a_flood_of_bad_lines_is_reported_once_and_soon(
    simulator: PanelSimulator, link: SerialLink
) -> None:
    """30 bad lines sent at once (more than the panel's 64-byte buffer holds; each answered
    ERR while the bytes keep coming): a tap at any moment is one event, sent within 20 ms."""
    def bad_lines(offset: int) -> None:
        link.send_raw(BAD_LINE_FLOOD)

    missed, latencies = sweep_taps(simulator, link, bad_lines, range(0, 40, 3), button="ROLL")
    assert not missed, f"taps lost at these ms after the flood began: {missed}"
    assert max(latencies) < 20, latencies


@pytest.mark.simavr
def test_a_tap_at_any_moment_of_a_heartbeat_is_reported_once(
    simulator: PanelSimulator, link: SerialLink
) -> None:
    """Taps that start from 12 ms before to 5 ms after a heartbeat leaves, 2 ms apart
    (unprompted beats keep their phase, so the next one is a whole second after a traced one)."""
    def before_next_beat(offset: int) -> None:
        beat = simulator.wait_transmitted(lambda line: line.startswith("BEAT "))
        now = simulator.sim_ms()
        simulator.wait(next_heartbeat(beat.sim_ms, now, 12) - 12 - now)

    missed, latencies = sweep_taps(simulator, link, before_next_beat, range(0, 18, 2), "HINT")
    assert not missed, f"taps lost at these ms from 12 ms before a beat: {missed}"
    assert max(latencies) < 20, latencies


@pytest.mark.simavr
def test_lines_sent_at_once_are_answered_in_order(
    simulator: PanelSimulator, link: SerialLink
) -> None:
    """A host that sends several short lines in one write gets one answer per line, in the
    order sent, and each ERR names the verb it answers (or nothing for a damaged line)."""
    link.send_raw(line_for("PING") + line_for("FOO") + line_for("LEDS 9") + b"HELLO*0000\n"
                  + line_for("LEDS 000001") + line_for("PING 2"))
    bodies = [untimed(link.wait_for(lambda line: True)[0])]  # the PING's BEAT
    while len(bodies) < 6:  # the rest, past any unprompted heartbeat
        bodies.append(link.wait_for(lambda line: not line.startswith("BEAT "))[0])
    assert bodies == ["BEAT 0", "ERR UNKNOWN FOO", "ERR ARGS LEDS", "ERR CHECKSUM",
                      "LEDS 000001", "ERR ARGS PING"]


@pytest.mark.simavr
def test_events_carry_the_panel_clock_at_the_press(
    simulator: PanelSimulator, link: SerialLink
) -> None:
    """EV's TIME is the panel's millis() when the contact closed for good: within the bounce
    (at most 5 ms) and a millisecond of sampling after the first touch; BEAT's TIME is the
    panel's clock when it was sent."""
    simulator.command("trace on")
    try:
        touch = simulator.tap("END2", 20)
        sent = simulator.wait_transmitted(lambda line: line.startswith("EV 1 "))
    finally:
        simulator.command("trace off")
    pressed_at = panel_time(sent.line.split("*")[0])
    assert 0 <= pressed_at - (touch - simulator.reset_ms) <= 6
    simulator.wait(500)
    beat = link.ask("PING", "BEAT")[0]
    resent = link.ask("RESEND 1", "EV")[0]
    assert panel_time(resent) == pressed_at  # a resent event keeps its press time
    assert panel_time(beat) >= pressed_at + 500


@pytest.mark.simavr
def test_the_shared_table_of_lines_and_answers(
    simulator: PanelSimulator, link: SerialLink
) -> None:
    """firmware/tests/protocol_cases.json, which the twin answers too."""
    hello = HELLO_ANSWER.fullmatch(link.handshake())
    assert hello
    for case in json.loads(CASES_PATH.read_text())["cases"]:
        sent = fill_case(case.get("body", case.get("raw", "")), seats=4, boot=hello.group(1))
        data = line_for(sent) if "body" in case else sent.encode("latin-1") + b"\n"
        link.send_raw(data)
        expected = [fill_case(answer, seats=4, boot=hello.group(1)) for answer in case["answer"]]
        wanted = answer_or_beat if expected[0].startswith("BEAT ") else answer_not_beat
        got = [link.wait_for(wanted)[0] for _ in expected]
        assert all(answer_matches(g, e) for g, e in zip(got, expected, strict=True)), (sent, got)


CASES_PATH = FIRMWARE_DIR / "tests" / "protocol_cases.json"


def answer_or_beat(line: str) -> bool:
    """Any line: the answer is a BEAT, and an unprompted one would read the same."""
    return True


def answer_not_beat(line: str) -> bool:
    """A line other than an unprompted heartbeat."""
    return not line.startswith("BEAT ")


def fill_case(text: str, seats: int, boot: str) -> str:
    """A case's line or answer with the panel's own values put in ({TIME} stays a pattern)."""
    leds = seats + 2
    return (text.replace("{FW}", "0.2.0").replace("{BUTTONS}", str(seats + 5))
            .replace("{LEDS}", str(leds)).replace("{BOOT}", boot)
            .replace("{LEDS_OFF}", "0" * leds).replace("{LEDS_TURN1}", "1" + "0" * (leds - 1)))


def answer_matches(got: str, expected: str) -> bool:
    pattern = re.escape(expected).replace(re.escape("{TIME}"), "(0|[1-9][0-9]{0,9})")
    return re.fullmatch(pattern, got) is not None


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
    assert untimed(link.wait_for(lambda line: line.startswith("BEAT"))[0]) == "BEAT 0"


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
