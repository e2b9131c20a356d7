"""Every 1-bit and 2-bit flip of a line is caught: the CRC-16 in four hex digits rejects them all,
the checksum digits and the `*` included (version 1's CRC-8 took `LEDS 000000*8C` flipped into
`LEDS 000001*8B` for a good line). bench/bench_panel_checksum.py counts it over every form of line.
"""

from itertools import combinations

import pytest

from companion.panel.errors import ProtocolError
from companion.panel.protocol import format_line, parse_command, parse_line

DEVICE_BODIES = [
    "LEDS 000000",
    "LEDS 00000000",
    "EV 1 PRESS END1 1534",
    "EV 65535 PRESS CONFIRM 4294967295",
    "BEAT 0 1022",
    "HELLO 2 0.2.0 9 6 3FA2",
    "ERR GONE 17",
]
HOST_BODIES = ["LEDS 000000", "LEDS 100000", "RESEND 1", "PING", "HELLO"]


def flips(line: bytes, count: int):
    """``line`` with every choice of ``count`` of its bits flipped."""
    for positions in combinations(range(len(line) * 8), count):
        flipped = bytearray(line)
        for position in positions:
            flipped[position // 8] ^= 1 << (position % 8)
        yield bytes(flipped)


def rejected(parse, line: bytes) -> bool:
    try:
        parse(line)
    except ProtocolError:
        return True
    return False


@pytest.mark.parametrize("count", [1, 2])
@pytest.mark.parametrize("body", DEVICE_BODIES)
def test_every_flip_of_a_device_line_is_rejected(body, count):
    line = format_line(body)[:-1]
    parse_line(line)  # the line itself is good
    accepted = [flipped for flipped in flips(line, count) if not rejected(parse_line, flipped)]
    assert accepted == []


@pytest.mark.parametrize("count", [1, 2])
@pytest.mark.parametrize("body", HOST_BODIES)
def test_every_flip_of_a_host_line_is_rejected_by_the_device(body, count):
    line = format_line(body)[:-1]
    parse_command(line, leds=6)
    accepted = [flipped for flipped in flips(line, count) if not rejected(parse_command, flipped)]
    assert accepted == []


def test_the_flip_that_fooled_crc8_is_caught():
    assert rejected(parse_command, b"LEDS 000001*" + format_line("LEDS 000000")[-5:-1])
    assert format_line("LEDS 000000") == b"LEDS 000000*8440\n"
