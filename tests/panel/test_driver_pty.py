"""The host driver against the software twin over a real pty, opened with serial.Serial."""

import os
import random
import threading
import time

import pytest

from companion.panel.driver import open_panel
from companion.panel.errors import PanelUnavailableError
from companion.panel.protocol import LedState, format_line
from companion.panel.session import SessionConfig, StatusKind
from companion.panel.twin import TwinFaults

from .conftest import Collector, wait_until


def test_handshake_reports_the_panel_and_leds_reach_it(pty_panel):
    twin, panel, events = pty_panel
    events.pump()
    assert [s.kind for s in events.statuses] == [StatusKind.CONNECTED]
    assert panel.hello is not None and panel.hello.boot == twin.boot
    panel.set_leds(LedState.from_text("100012"))
    wait_until(lambda: panel.leds_applied == LedState.from_text("100012"))
    assert twin.leds == LedState.from_text("100012")


def test_each_press_arrives_once_in_order_with_the_time_it_was_made(pty_panel):
    twin, _panel, events = pty_panel
    pressed = [(button, twin.press(button)) for button in twin.buttons * 3]
    events.wait_presses(len(pressed))
    events.pump(0.05)
    assert [(p.button, p.number) for p in events.presses] == pressed
    assert {p.boot for p in events.presses} == {twin.boot}
    kept = twin.kept_events()  # the last 16, with the panel's clock at each press
    assert [p.device_ms for p in events.presses[-len(kept) :]] == [e.time for e in kept]
    times = [p.device_ms for p in events.presses]
    assert times == sorted(times) and times[-1] <= twin.clock_ms()


def test_the_port_is_opened_exclusively(pty_panel):
    _twin, panel, _events = pty_panel
    with pytest.raises(PanelUnavailableError, match="in use"):
        open_panel(panel.name)


def test_a_missing_port_gives_one_sentence(tmp_path):
    with pytest.raises(PanelUnavailableError, match="There is no panel at"):
        open_panel(str(tmp_path / "nothing"))


def test_a_silent_device_is_refused_after_the_hello_timeout(tmp_path):
    master, slave = os.openpty()
    try:
        started = time.monotonic()
        with pytest.raises(PanelUnavailableError, match="did not answer HELLO"):
            open_panel(os.ttyname(slave), SessionConfig(hello_timeout=0.6))
        assert time.monotonic() - started < 3
        hellos = os.read(master, 4096).count(b"HELLO*49D6\n")
        assert hellos >= 3  # resent every 250 ms, never a single fixed wait
    finally:
        os.close(master)
        os.close(slave)


def test_a_board_that_resets_when_the_port_opens_is_waited_for(pty_twin):
    twin, path = pty_twin
    twin.reset(boot_delay=0.8)  # in its bootloader, deaf, as an Uno after DTR
    started = time.monotonic()
    panel = open_panel(path)
    try:
        assert 0.7 < time.monotonic() - started < 2.0
        assert panel.hello is not None and panel.hello.boot == twin.boot
    finally:
        panel.close()


def garbage_lines(chance, count):
    """Random bytes, random text, and real-looking lines with one bit flipped."""
    samples = [
        format_line(body)
        for body in (
            "EV 7 PRESS END2 1534",
            "BEAT 12 99000",
            "READY 0F0F",
            "HELLO 2 0.2.0 9 6 ABCD",
            "LEDS 111111",
            "EV 13 PRESS CONFIRM 4000000000",
            "ERR GONE 3",
        )
    ]
    lines = []
    for _ in range(count):
        kind = chance.random()
        if kind < 0.4:
            line = bytes(
                chance.choice([*range(10), *range(11, 256)]) for _ in range(chance.randrange(90))
            )
            lines.append(line + b"\n")
        elif kind < 0.7:
            text = "".join(chance.choice("EVBATRDYLS 0123456789*ABCDEF") for _ in range(30))
            lines.append(text.encode()[: chance.randrange(1, 30)] + b"\n")
        else:
            line = bytearray(chance.choice(samples))
            position = chance.randrange((len(line) - 1) * 8)  # never the final newline
            line[position // 8] ^= 1 << (position % 8)
            if b"\n" in line[:-1]:
                continue
            lines.append(bytes(line))
    return lines


def test_garbage_and_dropped_bytes_lose_no_press_and_count_none_twice(pty_panel):
    twin, panel, events = pty_panel
    chance = random.Random(2026)
    twin.set_faults(TwinFaults(drop_byte=0.05, flip_bits=0.05, seed=9))
    wanted = LedState.from_text("010020")
    panel.set_leds(wanted)
    pressed = []
    bad_before = panel._session.bad_lines
    injected = 0
    host_side = os.open(os.path.realpath(panel.name), os.O_WRONLY | os.O_NOCTTY)
    try:
        for round_number in range(260):
            for line in garbage_lines(chance, 40):
                twin.inject(line)
                injected += 1
            button = chance.choice(twin.buttons)
            pressed.append((button, twin.press(button)))
            if round_number % 20 == 0:  # garbage towards the device too: answered with ERR
                os.write(host_side, b"\x00garbage\xff\nLEDS 9*00\nPING*20\n")
            # A person presses far fewer than 16 buttons in one resend round trip: keep the
            # presses not yet delivered well inside the ring, as play would.
            events.wait_presses(len(pressed) - 8)
    finally:
        os.close(host_side)
    events.wait_presses(len(pressed), timeout=15)
    twin.set_faults(None)
    wait_until(lambda: twin.leds == wanted)
    events.pump(0.05)
    assert [(p.button, p.number) for p in events.presses] == pressed
    assert injected >= 10_000
    assert panel._session.bad_lines - bad_before >= 10_000
    assert twin.errors_sent >= 13
    assert [s.kind for s in events.statuses] == [StatusKind.CONNECTED]


def test_unplug_and_replug_in_play_brings_the_driver_back_with_leds_and_presses(pty_panel):
    twin, panel, events = pty_panel
    wanted = LedState.from_text("001010")
    panel.set_leds(wanted)
    wait_until(lambda: twin.leds == wanted)
    first = [("END1", twin.press("END1"))]
    events.wait_presses(1)

    twin.unplug()
    events.wait_status(StatusKind.UNPLUGGED)
    during = [(b, twin.press(b)) for b in ("END2", "UNDO")]  # a panel with its own power
    twin.leds = LedState()  # so that restoring them shows
    twin.replug()
    returned = time.monotonic()
    events.wait_status(StatusKind.BACK)
    back_after = time.monotonic() - returned
    events.wait_presses(3)
    wait_until(lambda: twin.leds == wanted)

    twin.unplug()
    events.wait_status(StatusKind.UNPLUGGED, count=2)
    twin.replug(reset=True)
    events.wait_status(StatusKind.RESET)
    assert twin.leds == wanted
    after = [("CONFIRM", twin.press("CONFIRM"))]
    events.wait_presses(4)
    events.pump(0.1)

    assert [(p.button, p.number) for p in events.presses] == first + during + after
    assert after == [("CONFIRM", 1)] and events.presses[-1].boot == twin.boot
    assert [s.kind for s in events.statuses] == [
        StatusKind.CONNECTED,
        StatusKind.UNPLUGGED,
        StatusKind.BACK,
        StatusKind.UNPLUGGED,
        StatusKind.RESET,
    ]
    assert (
        events.statuses[1].message
        == "The panel was unplugged; plug it back in and play carries on."
    )
    assert events.statuses[4].message == "The panel reset; its lights were restored."
    assert back_after < 2.0


def test_a_long_unplug_is_reported_once(pty_panel):
    twin, _panel, events = pty_panel
    twin.unplug()
    events.wait_status(StatusKind.UNPLUGGED)
    deadline = time.monotonic() + 1.6  # several failed reopen attempts, with backoff
    while time.monotonic() < deadline:
        events.pump(0.1)
    twin.replug(reset=True)
    events.wait_status(StatusKind.RESET)
    assert [s.kind for s in events.statuses] == [
        StatusKind.CONNECTED,
        StatusKind.UNPLUGGED,
        StatusKind.RESET,
    ]


def test_a_panel_that_goes_silent_is_reported_once_and_reconnected(pty_twin):
    twin, path = pty_twin
    panel = open_panel(path, SessionConfig(heartbeat_timeout=1.5))
    try:
        events = Collector(panel)
        twin.reset(boot_delay=2.0)  # a brown-out: silent for 2 s, its READY comes late
        events.wait_status(StatusKind.SILENT)
        events.wait_status(StatusKind.RESET)
        assert [s.kind for s in events.statuses] == [
            StatusKind.CONNECTED,
            StatusKind.SILENT,
            StatusKind.RESET,
        ]
        assert panel.hello is not None and panel.hello.boot == twin.boot
        twin.press("END4")
        events.wait_presses(1)
        assert (events.presses[0].button, events.presses[0].number) == ("END4", 1)
    finally:
        panel.close()


def test_a_reset_that_repeats_the_boot_id_is_still_caught(pty_panel):
    twin, panel, events = pty_panel
    wanted = LedState.from_text("000110")
    panel.set_leds(wanted)
    pressed = [("END1", twin.press("END1")), ("END2", twin.press("END2"))]
    events.wait_presses(2)
    twin.unplug()
    events.wait_status(StatusKind.UNPLUGGED)
    old = twin.boot
    twin.reset(same_boot_id=True)  # its READY is lost on the unplugged cable
    assert twin.boot == old
    twin.replug()
    events.wait_status(StatusKind.RESET)  # its numbering went back: the host sees it
    assert twin.leds == wanted
    pressed.append(("UNDO", twin.press("UNDO")))
    events.wait_presses(3)
    assert [(p.button, p.number) for p in events.presses] == pressed
    assert pressed[-1] == ("UNDO", 1)


def test_close_joins_the_reader_thread(pty_twin):
    _twin, path = pty_twin
    before = threading.active_count()
    panel = open_panel(path)
    panel.close()
    assert not panel._thread.is_alive()
    assert threading.active_count() == before


def test_sim_url_gives_a_twin_in_process():
    panel = open_panel("sim://")
    try:
        events = Collector(panel)
        assert panel.twin is not None
        panel.twin.press("END3")
        events.wait_presses(1)
        assert events.presses[0].button == "END3"
        panel.twin.unplug()
        events.wait_status(StatusKind.UNPLUGGED)
        panel.twin.replug()
        events.wait_status(StatusKind.BACK)
    finally:
        panel.close()


def test_a_six_seat_panel_gets_the_tables_lights_fitted_to_it():
    panel = open_panel("sim://?seats=6")
    try:
        assert panel.hello is not None and (panel.hello.buttons, panel.hello.leds) == (11, 8)
        panel.set_leds(LedState.from_text("0120"))  # two seats play
        wait_until(lambda: panel.leds_applied == LedState.from_text("01000020"))
        assert panel.twin is not None and panel.twin.leds.text() == "01000020"
        assert panel.leds == LedState.from_text("0120")
        events = Collector(panel)
        panel.twin.press("END6")
        panel.twin.press("HINT")
        events.wait_presses(2)
        assert [p.button for p in events.presses] == ["END6", "HINT"]
    finally:
        panel.close()
