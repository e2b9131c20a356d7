"""`companion panel monitor [URL]`: watch the panel's events and set its LEDs, to check the wiring.

Events (with the panel's clock when the button was pressed), status sentences and the panel's
answers to the monitor's own commands (the LED state it applied, its answer to a ping) are
printed as they come. Commands are read from standard input, one per line, so the monitor works
from a terminal and from a pipe alike: ``leds 100010`` sets the LEDs (one digit per LED the panel
has: TURN1..TURNn GREEN RED for n seats; 0 off, 1 on, 2 blink), ``ping`` asks for a heartbeat
now, ``press END1`` presses a button of the software panel (``sim://`` only), ``send PING`` sends
any line with its checksum computed, ``quit`` stops. With ``--lines`` every protocol line is printed
too (``->`` sent, ``<-`` received). The end of the input leaves the monitor running until Ctrl-C
(or until ``--seconds`` have passed).
"""

from __future__ import annotations

import argparse
import queue
import sys
import threading
import time
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from companion.panel.driver import Panel

HELP = (
    "commands: leds DIGITS (0/1/2 for TURN1..TURNn GREEN RED, n = seats), "
    "ping, press BUTTON (sim:// only), send BODY, quit"
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `panel` command with its `monitor` subcommand."""
    parser = subparsers.add_parser("panel", help="talk to the button and LED panel")
    actions = parser.add_subparsers(dest="panel_command", metavar="ACTION", required=True)
    monitor = actions.add_parser(
        "monitor",
        help="print the panel's events as they come and set its LEDs from typed commands",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    monitor.add_argument(
        "url", nargs="?", default="auto", help="device path, auto (default) or sim://"
    )
    monitor.add_argument("--seconds", type=float, default=None, help="stop after this many seconds")
    monitor.add_argument(
        "--lines", action="store_true", help="also print every protocol line, in and out"
    )
    monitor.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Open the panel, then print events and obey commands until `quit` or the time is up."""
    from companion.panel.driver import open_panel

    panel = open_panel(args.url)
    answers = _Answers(print_lines=args.lines)
    panel.line_observer = answers.observe
    commands: queue.Queue[str | None] = queue.Queue()
    threading.Thread(target=_read_commands, args=(sys.stdin, commands), daemon=True).start()
    _say(f"monitoring {panel.name}; {HELP}")
    deadline = None if args.seconds is None else time.monotonic() + args.seconds
    try:
        while deadline is None or time.monotonic() < deadline:
            event = panel.next_event(timeout=0.05)
            if event is not None:
                _say(_describe(event))
            if not _obey_waiting(panel, commands, answers):
                _drain(panel)
                break
    finally:
        panel.close()
    return 0


def _drain(panel: Panel) -> None:
    """Print what is still arriving (a press just made) until the panel is quiet for 0.2 s."""
    while (event := panel.next_event(timeout=0.2)) is not None:
        _say(_describe(event))


def _read_commands(stream: TextIO, commands: queue.Queue[str | None]) -> None:
    for line in stream:
        commands.put(line.strip())
    commands.put(None)


class _Answers:
    """Watches the panel's lines: prints the ones the monitor's own commands asked for (the LED
    state applied, the answer to a ping), and every line with ``print_lines``."""

    def __init__(self, print_lines: bool) -> None:
        self.print_lines = print_lines
        self.ping_waiting = False

    def observe(self, direction: str, line: bytes) -> None:
        from companion.panel.errors import ProtocolError
        from companion.panel.protocol import Beat, LedsApplied, parse_line

        if self.print_lines:
            _print_line(direction, line)
        if direction != "in":
            return
        try:
            message = parse_line(line)
        except ProtocolError:
            return  # the session counts it; --lines shows it
        stamp = time.strftime("%H:%M:%S")
        if isinstance(message, LedsApplied):
            _say(f"{stamp} leds {message.state.text()} applied by the panel")
        elif isinstance(message, Beat) and self.ping_waiting:
            self.ping_waiting = False
            _say(f"{stamp} ping answered: the last event made is number {message.last} "
                 f"(panel clock {message.time} ms)")


def _obey_waiting(panel: Panel, commands: queue.Queue[str | None], answers: _Answers) -> bool:
    """Carry out the commands typed so far; False when the user asked to quit."""
    while True:
        try:
            command = commands.get_nowait()
        except queue.Empty:
            return True
        if command is None:
            continue  # end of input: keep monitoring
        if not _obey(panel, command, answers):
            return False


def _obey(panel: Panel, command: str, answers: _Answers) -> bool:
    from companion.panel.protocol import LedState

    verb, _, rest = command.partition(" ")
    verb, rest = verb.lower(), rest.strip()
    if verb in ("quit", "exit"):
        return False
    try:
        if verb == "leds":
            state = LedState.from_text(rest)
            hello = panel.hello
            if hello is not None and len(rest) != hello.leds:
                _say(f"this panel has {hello.leds} LEDs: give {hello.leds} digits "
                     f"(TURN1..TURN{hello.seats} GREEN RED), not {rest!r}")
                return True
            panel.set_leds(state)
            _say(f"leds {rest} sent")
        elif verb == "ping":
            answers.ping_waiting = True
            panel.send_raw("PING")
            _say("ping sent")
        elif verb == "press":
            if panel.twin is None:
                _say("press works only on the software panel (sim://); press the real button")
            else:
                panel.twin.press(rest.upper())
        elif verb == "send":
            panel.send_raw(rest)
            _say(f"sent {rest}")
        elif verb:
            _say(f"unknown command {command!r}; {HELP}")
    except ValueError as error:
        _say(str(error))
    return True


def _describe(event: object) -> str:
    from companion.panel.driver import ButtonPress, PanelStatus

    stamp = time.strftime("%H:%M:%S")
    if isinstance(event, ButtonPress):
        return (f"{stamp} press {event.button} (event {event.number}, boot {event.boot}, "
                f"panel clock {event.device_ms} ms)")
    if isinstance(event, PanelStatus):
        return f"{stamp} status {event.kind.value}: {event.message}"
    return f"{stamp} {event!r}"


def _print_line(direction: str, line: bytes) -> None:
    arrow = "<-" if direction == "in" else "->"
    _say(f"{time.strftime('%H:%M:%S')} {arrow} {line.decode('ascii', errors='backslashreplace')}")


def _say(text: str) -> None:
    print(text, flush=True)
