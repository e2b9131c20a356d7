"""Panel figures: press-to-event latency through the twin, and time to reconnect after an unplug.

Run: .venv/bin/python bench/bench_panel.py [--presses N] [--unplugs N] [--firmware]
The twin runs behind a real pty opened by the driver with serial.Serial, as a real panel would be.
With --firmware, the same is measured through the real firmware under simavr (the firmware
helper's harness, built on the way when gcc-avr, avr-libc and libsimavr-dev are installed).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from companion.panel.driver import open_panel
from companion.panel.session import ButtonPress, PanelStatus, StatusKind
from companion.panel.twin import PanelTwin, PtyTwinPort


def figures(name: str, samples_ms: list[float]) -> str:
    ordered = sorted(samples_ms)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return (
        f"{name}: n={len(ordered)} median={statistics.median(ordered):.2f} ms "
        f"p99={p99:.2f} ms max={ordered[-1]:.2f} ms"
    )


def wait_for(panel, wanted, timeout=10.0):
    """The first event that ``wanted`` accepts, and the time it was taken off the queue."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        event = panel.next_event(timeout=deadline - time.monotonic())
        if event is not None and wanted(event):
            return event, time.monotonic()
    session = panel._session
    raise SystemExit(
        f"timed out waiting for an event after {timeout} s (connected={session.connected}, "
        f"last={session.last}, known_last={session.known_last}, bad_lines={session.bad_lines})"
    )


def press_latency(panel, twin, presses: int) -> list[float]:
    samples = []
    buttons = twin.buttons
    for index in range(presses):
        button = buttons[index % len(buttons)]
        started = time.monotonic()
        number = twin.press(button)
        wait_for(panel, lambda e, n=number: isinstance(e, ButtonPress) and e.number == n)
        samples.append((time.monotonic() - started) * 1000)
    return samples


def status_of(kind: StatusKind):
    return lambda event: isinstance(event, PanelStatus) and event.kind is kind


def reconnect_times(panel, twin, unplugs: int, reset: bool) -> list[float]:
    samples = []
    for index in range(unplugs):
        twin.unplug()
        wait_for(panel, status_of(StatusKind.UNPLUGGED))
        time.sleep(0.2 + 0.37 * index)  # away for a while: the driver's backoff grows meanwhile
        returned = time.monotonic()
        twin.replug(reset=reset)
        wait_for(panel, status_of(StatusKind.RESET if reset else StatusKind.BACK))
        samples.append((time.monotonic() - returned) * 1000)
    return samples


def bench_twin(presses: int, unplugs: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        twin = PanelTwin(seed=1)
        twin.attach(PtyTwinPort(Path(folder) / "ttyPANEL"))
        panel = open_panel(str(Path(folder) / "ttyPANEL"))
        try:
            print(figures("press to event, twin over pty", press_latency(panel, twin, presses)))
            back = reconnect_times(panel, twin, unplugs, reset=False)
            print(figures("replug to panel back (same boot), twin over pty", back))
            restored = reconnect_times(panel, twin, unplugs, reset=True)
            print(figures("replug to lights restored (panel reset), twin over pty", restored))
        finally:
            panel.close()
            twin.close()
    panel = open_panel("sim://")
    try:
        assert panel.twin is not None
        samples = press_latency(panel, panel.twin, presses)
        print(figures("press to event, sim:// in process", samples))
    finally:
        panel.close()


def bench_firmware(presses: int, unplugs: int) -> None:
    """The same figures through the real firmware under simavr (the firmware helper's harness)."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.firmware.simavr_panel import (
        TTY_PATH,
        PanelSimulator,
        build_firmware_and_harness,
        missing_for_simulation,
        simulator_lock,
    )

    reason = missing_for_simulation()
    if reason:
        print(f"firmware under simavr: skipped ({reason})")
        return
    build_firmware_and_harness()
    with simulator_lock():
        simulator = PanelSimulator(seed=5)
        panel = open_panel(TTY_PATH)
        try:
            samples = []
            for index in range(presses):
                button = ("END1", "END2", "UNDO", "SELECT", "CONFIRM")[index % 5]
                started = time.monotonic()
                simulator.press(button)  # bounces 2-5 ms; the firmware wants 10 ms of calm
                wait_for(panel, lambda e: isinstance(e, ButtonPress))
                samples.append((time.monotonic() - started) * 1000)
                simulator.release(button)
                simulator.wait(20)
            print(figures("press to event, real firmware in simavr (incl. debounce)", samples))
            restored = []
            for index in range(unplugs):
                simulator.close()  # its pty vanishes, as a pulled USB cable
                wait_for(panel, status_of(StatusKind.UNPLUGGED))
                simulator = PanelSimulator(seed=100 + index)  # its own seed: a new boot id
                returned = time.monotonic()
                wait_for(panel, status_of(StatusKind.RESET))
                restored.append((time.monotonic() - returned) * 1000)
            print(figures("harness restarted to lights restored, real firmware", restored))
        finally:
            panel.close()
            simulator.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--presses", type=int, default=500)
    parser.add_argument("--unplugs", type=int, default=6)
    parser.add_argument("--firmware", action="store_true", help="also the firmware in simavr")
    args = parser.parse_args()
    bench_twin(args.presses, args.unplugs)
    if args.firmware:
        bench_firmware(min(args.presses, 100), args.unplugs)


if __name__ == "__main__":
    main()
