"""The host driver against the REAL firmware running in simavr, through the harness's pty.

The harness (firmware/sim, built by the firmware helper) has one fixed pty path, so these tests
hold its machine-wide lock. Stopping the harness closes its pty, as pulling the USB cable would;
starting a new one is a panel that comes back after a reset.
"""

import time

import pytest

from companion.panel.driver import open_panel
from companion.panel.protocol import LedState
from companion.panel.session import StatusKind
from tests.firmware.simavr_panel import (
    TTY_PATH,
    PanelSimulator,
    build_firmware_and_harness,
    missing_for_simulation,
    simulator_lock,
)

from .conftest import Collector, wait_until

pytestmark = pytest.mark.simavr


@pytest.fixture(scope="module")
def built():
    reason = missing_for_simulation()
    if reason:
        pytest.skip(reason)
    build_firmware_and_harness()


def test_driver_talks_to_the_real_firmware_and_survives_its_unplug(built):
    with simulator_lock():
        simulator = PanelSimulator(seed=21)
        panel = None
        try:
            panel = open_panel(TTY_PATH)
            events = Collector(panel)
            assert panel.hello is not None and panel.hello.buttons == 9
            wanted = LedState.from_text("010010")
            panel.set_leds(wanted)
            wait_until(lambda: panel.leds_applied == wanted)
            wait_until(lambda: simulator.leds() == "010010", timeout=1.0)

            for button in ("END2", "SELECT", "END2"):
                simulator.press(button)  # with 2-5 ms of contact bounce
                simulator.wait(30)
                simulator.release(button)
                simulator.wait(30)
            events.wait_presses(3)
            events.pump(0.1)
            assert [(p.button, p.number) for p in events.presses] == [
                ("END2", 1),
                ("SELECT", 2),
                ("END2", 3),
            ]

            simulator.close()  # the pty goes away: unplugged
            events.wait_status(StatusKind.UNPLUGGED)
            simulator = PanelSimulator(seed=22)  # plugged back in, freshly booted
            returned = time.monotonic()
            events.wait_status(StatusKind.RESET, timeout=10)
            assert time.monotonic() - returned < 2.0
            wait_until(lambda: simulator.leds() == "010010", timeout=1.0)  # pins follow the answer
            simulator.press("END4")
            simulator.wait(30)
            events.wait_presses(4)
            assert (events.presses[-1].button, events.presses[-1].number) == ("END4", 1)
            assert [s.kind for s in events.statuses] == [
                StatusKind.CONNECTED,
                StatusKind.UNPLUGGED,
                StatusKind.RESET,
            ]
        finally:
            if panel is not None:
                panel.close()
            simulator.close()
