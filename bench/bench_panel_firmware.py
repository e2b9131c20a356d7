"""Press-to-event latency through the real panel firmware running in simavr.

Builds the firmware and the harness (make -C firmware all sim), starts the harness in real time,
and presses buttons with contact bounce. For each press it measures
  - on the host: wall time from the harness command to the EV line read from the serial pty;
  - in the simulated panel: from the first touch of the contact to the last byte of the EV line
    leaving the UART (bounce, the 10 ms debounce, the main loop, transmission).
It also measures press to ButtonPress through the host driver (companion.panel), the handshake
after a reset, and the time from plugging the (simulated) cable back in until the driver has
reconnected, shaken hands and restored the LEDs. Under traffic (issue 17's targets): 15 ms taps
of random buttons at random moments of random host traffic (none, full 16-event RESEND answers,
floods of bad lines, heartbeats): how many are lost, and the time to the EV line leaving the
panel from the first touch (simulated clock) and from the press the EV reports (the panel's
clock, debounce included); and the heartbeats' spacing while the host floods the panel with bad
lines. Prints figures; asserts nothing.

Run: .venv/bin/python bench/bench_panel_firmware.py [--presses 40] [--resets 5] [--unplugs 5]
     [--taps 100] [--flood-seconds 5] [--speed 1]
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.firmware.simavr_panel import (
    BAD_LINE_FLOOD,
    BUTTONS,
    TTY_PATH,
    PanelSimulator,
    SerialLink,
    build_firmware_and_harness,
    missing_for_simulation,
    next_heartbeat,
    simulator_lock,
    tap_and_time,
    untimed,
)


def summary(name: str, values_ms: list[float]) -> str:
    if not values_ms:
        return f"{name:<44} none measured"
    ordered = sorted(values_ms)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return (
        f"{name:<44} median {statistics.median(ordered):6.2f} ms   p90 {p90:6.2f} ms   "
        f"p99 {p99:6.2f} ms   max {ordered[-1]:6.2f} ms   (n={len(ordered)})"
    )


TRAFFIC = ("idle", "resend", "flood", "heartbeat")


@dataclass
class TrafficFigures:
    """What the taps under one kind of traffic gave."""

    taps: int = 0
    lost: int = 0
    touch_to_sent: list[float] = field(default_factory=list)
    press_to_sent: list[float] = field(default_factory=list)


def measure_taps_under_traffic(simulator: PanelSimulator, link: SerialLink, taps: int,
                               seed: int = 17) -> dict[str, TrafficFigures]:
    """15 ms taps of a random button at random moments of random host traffic: nothing, a full
    16-event RESEND answer (0-40 ms after the request), 30 bad lines sent at once (0-40 ms into
    the flood), or a heartbeat (12 ms before to 6 ms after it). For each kind: taps lost, and
    the time to the EV line's last byte from the first touch (simulated clock) and from the
    press the EV reports (panel clock, debounce included)."""
    chance = random.Random(seed)
    for _ in range(16):
        simulator.tap("UNDO", 25)
        simulator.wait(20)
    link.drain()
    last = int(untimed(link.ask("PING", "BEAT")[0]).split()[1])
    figures = {kind: TrafficFigures() for kind in TRAFFIC}
    simulator.command("trace on")
    last_beat = simulator.wait_transmitted(lambda line: line.startswith("BEAT "), 3.0).sim_ms
    for index in range(taps):
        kind = chance.choice(TRAFFIC)
        button = chance.choice(BUTTONS)
        simulator.clear_notices()
        if kind == "resend":
            link.send(f"RESEND {max(1, last - 15)}")
            simulator.wait(chance.uniform(0, 40))
        elif kind == "flood":
            link.send_raw(BAD_LINE_FLOOD)
            simulator.wait(chance.uniform(0, 40))
        elif kind == "heartbeat":
            now = simulator.sim_ms()
            simulator.wait(next_heartbeat(last_beat, now, 12) - now + chance.uniform(-12, 6))
        timing = tap_and_time(simulator, button, last + 1)
        beats = [sent.sim_ms for sent in simulator.transmitted() if sent.line.startswith("BEAT ")
                 and not sent.line.startswith(f"BEAT {last} ")]
        last_beat = max([last_beat, *beats])
        figures[kind].taps += 1
        if timing is None:
            figures[kind].lost += 1
            last = int(untimed(link.ask("PING", "BEAT")[0]).split()[1])  # resynchronise
            continue
        last += 1
        figures[kind].touch_to_sent.append(timing.touch_to_sent_ms)
        figures[kind].press_to_sent.append(timing.press_to_sent_ms)
        if index % 50 == 49:
            link.drain()
            print(f"  {index + 1} taps", file=sys.stderr, flush=True)
    simulator.command("trace off")
    link.drain()
    counted = int(untimed(link.ask("PING", "BEAT")[0]).split()[1])
    if counted != last:
        print(f"the panel counted {counted} events, the bench {last}: a tap counted twice?")
    return figures


def measure_beats_under_flood(simulator: PanelSimulator, link: SerialLink, seconds: float
                              ) -> list[float]:
    """The gaps between heartbeats (simulated ms) while the host sends bad lines about as fast
    as 115200 baud carries them (a 41-byte line every 4 ms)."""
    simulator.clear_notices()
    simulator.command("trace on")
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        link.send_raw(b"X" * 40 + b"\n")
        time.sleep(0.004)
    time.sleep(1.2)  # the last heartbeat after the flood
    simulator.command("trace off")
    beats = [sent.sim_ms for sent in simulator.transmitted() if sent.line.startswith("BEAT")]
    return [later - earlier for earlier, later in itertools.pairwise(beats)]


def measure_presses(simulator: PanelSimulator, link: SerialLink, presses: int):
    wall: list[float] = []
    simulated: list[float] = []
    simulator.command("trace on")
    for index in range(presses):
        button = BUTTONS[index % len(BUTTONS)]
        started = time.perf_counter()
        touch = simulator.press(button)
        event, _ = link.wait_for(lambda line: line.startswith("EV "))
        wall.append((time.perf_counter() - started) * 1000)
        prefix = f"EV {event.split()[1]} "
        sent = simulator.wait_transmitted(lambda line: line.startswith(prefix))  # noqa: B023
        simulated.append(sent.sim_ms - touch.sim_ms)
        simulator.release(button)
        simulator.wait(20)  # the contact must read open 10 ms before the next press counts
    simulator.command("trace off")
    return wall, simulated


def measure_driver(simulator: PanelSimulator, presses: int) -> list[float]:
    """Press to ButtonPress out of the host driver (companion.panel), wall clock."""
    from companion.panel.driver import ButtonPress, open_panel

    wall: list[float] = []
    with open_panel(TTY_PATH) as panel:
        for index in range(presses):
            button = BUTTONS[index % len(BUTTONS)]
            started = time.perf_counter()
            simulator.press(button)
            while not isinstance(panel.next_event(timeout=3.0), ButtonPress):
                if time.perf_counter() - started > 3.0:
                    pins = simulator.command("pins")
                    raise TimeoutError(f"the driver gave no press of {button} ({pins})")
            wall.append((time.perf_counter() - started) * 1000)
            simulator.release(button)
            simulator.wait(20)
    return wall


def measure_reconnects(simulator: PanelSimulator, count: int) -> list[float]:
    """Plug back in to the driver's RESET status (port reopened, HELLO, LEDs restored), wall."""
    from companion.panel.driver import PanelStatus, StatusKind, open_panel

    def wait_status(panel, kind: StatusKind) -> None:
        deadline = time.perf_counter() + 10.0
        while time.perf_counter() < deadline:
            event = panel.next_event(timeout=0.05)
            if isinstance(event, PanelStatus) and event.kind is kind:
                return
        raise TimeoutError(f"the driver never reported {kind.value}")

    times: list[float] = []
    with open_panel(TTY_PATH) as panel:
        for _ in range(count):
            simulator.unplug()
            wait_status(panel, StatusKind.UNPLUGGED)
            started = time.perf_counter()
            simulator.plug()
            wait_status(panel, StatusKind.RESET)
            times.append((time.perf_counter() - started) * 1000)
    return times


def measure_handshakes(simulator: PanelSimulator, link: SerialLink, count: int) -> list[float]:
    times: list[float] = []
    for _ in range(count):
        started = time.perf_counter()
        simulator.command("reset")
        link.handshake()
        times.append((time.perf_counter() - started) * 1000)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=40)
    parser.add_argument("--resets", type=int, default=5)
    parser.add_argument("--unplugs", type=int, default=5)
    parser.add_argument("--taps", type=int, default=100)
    parser.add_argument("--flood-seconds", type=float, default=5.0)
    parser.add_argument("--speed", type=float, default=1.0,
                        help="simulated time per wall time for the harness (1 = real time)")
    options = parser.parse_args()
    reason = missing_for_simulation()
    if reason:
        print(f"skipped: {reason}")
        return 0
    with simulator_lock():
        build_firmware_and_harness()
        simulator = PanelSimulator(seed=11, speed=options.speed)
        try:
            link = SerialLink()
            link.handshake()
            wall, simulated = measure_presses(simulator, link, options.presses)
            under_traffic = measure_taps_under_traffic(simulator, link, options.taps)
            beat_gaps = measure_beats_under_flood(simulator, link, options.flood_seconds)
            link.close()
            link = SerialLink()
            simulator.reset()
            link.handshake()
            handshakes = measure_handshakes(simulator, link, options.resets)
            link.close()
            driver = measure_driver(simulator, options.presses)
            reconnects = measure_reconnects(simulator, options.unplugs)
        finally:
            simulator.close()
    print("Panel firmware in simavr (ATmega328P at 16 MHz, paced to real time, 115200 baud)")
    print(summary("press to EV line on the host (wall clock)", wall))
    print(summary("first touch to EV sent (simulated time)", simulated))
    print(summary("press to ButtonPress from the driver (wall)", driver))
    for kind, figures in under_traffic.items():
        print(f"15 ms taps under {kind} traffic: lost {figures.lost} of {figures.taps}")
        print(summary("  first touch to EV sent (simulated clock)", figures.touch_to_sent))
        print(summary("  press to EV sent (panel clock, debounce in)", figures.press_to_sent))
    every = [value for figures in under_traffic.values() for value in figures.press_to_sent]
    print(summary("every tap: press to EV sent (panel clock)", every)
          + f"; lost {sum(f.lost for f in under_traffic.values())} of {options.taps}")
    print(summary("heartbeat gaps under a flood of bad lines (sim)", beat_gaps))
    print(summary("reset to HELLO answered (wall clock)", handshakes))
    print(summary("plug back in to driver reconnected (wall)", reconnects))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
