"""firmware/tests/protocol_cases.json, answered by the software twin: every host line of the
table sent to twins of 2, 4 and 6 seats just after HELLO, and the whole answer compared, with the
placeholders filled as the table's "about" says; every answer line must parse as a device line."""

import json
import re
from pathlib import Path

import pytest

from companion.panel.protocol import format_line, parse_line
from companion.panel.twin import FIRMWARE_VERSION, PanelTwin

from .conftest import MemoryTerminal

CASES_PATH = Path(__file__).parents[2] / "firmware" / "tests" / "protocol_cases.json"
TABLE = json.loads(CASES_PATH.read_text())
CASES = TABLE["cases"]
PLACEHOLDER = re.compile(r"\{([A-Z_0-9]+)\}")
TIME = r"(?:0|[1-9][0-9]{0,9})"


def values(twin: PanelTwin) -> dict[str, str]:
    """The panel's own values for the table's placeholders (TIME is any number)."""
    off = "0" * twin.led_count
    return {
        "FW": FIRMWARE_VERSION,
        "BUTTONS": str(len(twin.buttons)),
        "LEDS": str(twin.led_count),
        "BOOT": twin.boot,
        "LEDS_OFF": off,
        "LEDS_TURN1": "1" + off[1:],
    }


def filled(template: str, known: dict[str, str]) -> str:
    return PLACEHOLDER.sub(lambda match: known[match.group(1)], template)


def answer_pattern(template: str, known: dict[str, str]) -> re.Pattern[str]:
    """A pattern for one answer line's body: placeholders filled, {TIME} any decimal number."""
    parts = PLACEHOLDER.split(template)
    pattern = "".join(
        (TIME if part == "TIME" else re.escape(known[part])) if index % 2 else re.escape(part)
        for index, part in enumerate(parts)
    )
    return re.compile(pattern)


def host_line(case: dict, known: dict[str, str]) -> bytes:
    if "body" in case:
        return format_line(filled(case["body"], known))
    return case["raw"].encode("latin-1") + b"\n"


def test_the_table_is_well_formed():
    assert all(("body" in case) != ("raw" in case) and case["answer"] for case in CASES)
    used = {name for case in CASES for text in [case.get("body", ""), *case["answer"]]
            for name in PLACEHOLDER.findall(text)}
    assert used <= {"FW", "BUTTONS", "LEDS", "BOOT", "TIME", "LEDS_OFF", "LEDS_TURN1"}
    assert len(CASES) >= 30


@pytest.mark.parametrize("seats", [2, 4, 6])
def test_every_case_is_answered_as_the_table_says(seats):
    twin = PanelTwin(seats=seats, seed=seats, heartbeat_interval=3600.0)  # no unprompted beat
    terminal = MemoryTerminal(twin)
    try:
        known = values(twin)
        terminal.send(format_line("HELLO"))
        assert terminal.line() == format_line(twin.hello().body())[:-1]
        for case in CASES:
            terminal.send(host_line(case, known))
            answer = terminal.lines(len(case["answer"]))
            for line, template in zip(answer, case["answer"], strict=True):
                parse_line(line)  # a good device line: checksum, verb and arguments
                body = line.rpartition(b"*")[0].decode()
                assert answer_pattern(template, known).fullmatch(body), (case, line)
        terminal.send(format_line("PING"))  # nothing more than the table's answers came
        assert re.fullmatch(rf"BEAT 0 {TIME}", terminal.line().rpartition(b"*")[0].decode())
        assert twin.last_event == 0 and twin.leds.text() == known["LEDS_OFF"]
    finally:
        twin.close()
