"""The panel protocol's pure parts: checksums, lines read as tables of (line, expected)."""

import re
from pathlib import Path

import pytest

from companion.panel.errors import PanelError, ProtocolError
from companion.panel.protocol import (
    Beat,
    ErrorReply,
    Event,
    Hello,
    HelloRequest,
    LedMode,
    LedsApplied,
    LedState,
    LineAssembler,
    OverlongLine,
    Ping,
    Ready,
    ResendRequest,
    SetLeds,
    crc8,
    error_reply_for,
    format_line,
    is_after,
    next_event_number,
    parse_command,
    parse_line,
    steps_after,
)

PROTOCOL_TEXT = (Path(__file__).parents[2] / "firmware" / "PROTOCOL.md").read_text()


def test_crc8_is_smbus():
    assert crc8(b"123456789") == 0xF4  # the catalogue's check value for CRC-8/SMBUS
    assert crc8(b"") == 0


def test_every_checksummed_line_in_protocol_md_is_right():
    lines = re.findall(
        r"`([A-Z][A-Z0-9 .]*)\*([0-9A-F]{2})`|^(?:host|device): +(.+)\*([0-9A-F]{2})$",
        PROTOCOL_TEXT,
        flags=re.MULTILINE,
    )
    checked = 0
    for body_a, cc_a, body_b, cc_b in lines:
        body, checksum = (body_a, cc_a) if body_a else (body_b, cc_b)
        assert format_line(body) == f"{body}*{checksum}\n".encode(), body
        checked += 1
    assert checked >= 12


DEVICE_LINES = [
    (b"HELLO 1 0.1.0 7 6 3FA2*2D", Hello(1, "0.1.0", 7, 6, "3FA2")),
    (b"BEAT 0*3D", Beat(0)),
    (b"EV 1 PRESS END1*E3", Event(1, "END1")),
    (b"LEDS 010010*FB", LedsApplied(LedState.from_text("010010"))),
    (format_line("READY 00FF")[:-1], Ready("00FF")),
    (format_line("EV 65535 PRESS CONFIRM")[:-1], Event(65535, "CONFIRM")),
    (format_line("ERR GONE 17")[:-1], ErrorReply("GONE", "17")),
    (format_line("ERR UNKNOWN FOO")[:-1], ErrorReply("UNKNOWN", "FOO")),
    (format_line("ERR CHECKSUM")[:-1], ErrorReply("CHECKSUM", "")),
]


@pytest.mark.parametrize(("line", "expected"), DEVICE_LINES)
def test_device_lines_parse(line, expected):
    assert parse_line(line) == expected
    assert format_line(expected.body())[:-1] == line


BAD_DEVICE_LINES = [
    (b"BEAT 0*3E", "CHECKSUM"),
    (b"BEAT 0", "CHECKSUM"),
    (b"BEAT 0*", "CHECKSUM"),
    (b"BEAT 0*3d", "CHECKSUM"),
    (b"*00", "CHECKSUM"),
    (b"", "CHECKSUM"),
    (b"BEAT\t0*3D", "CHARS"),
    (b"BEAT 0\r*3D", "CHARS"),
    (b"BEAT \xff*3D", "CHARS"),
    (b"X" * 52, "TOOLONG"),
    (format_line("EV 0 PRESS END1")[:-1], "ARGS"),
    (format_line("EV 65536 PRESS END1")[:-1], "ARGS"),
    (format_line("EV 01 PRESS END1")[:-1], "ARGS"),
    (format_line("EV 1 PRESS END5")[:-1], "ARGS"),
    (format_line("EV 1 RELEASE END1")[:-1], "ARGS"),
    (format_line("EV 1 PRESS")[:-1], "ARGS"),
    (format_line("BEAT 0 1")[:-1], "ARGS"),
    (format_line("BEAT  0")[:-1], "ARGS"),
    (format_line("BEAT -1")[:-1], "ARGS"),
    (format_line("LEDS 1000103")[:-1], "ARGS"),
    (format_line("LEDS 100013")[:-1], "ARGS"),
    (format_line("READY 3fa2")[:-1], "ARGS"),
    (format_line("HELLO 1 0.1 7 6 3FA2")[:-1], "ARGS"),
    (format_line("HELLO")[:-1], "ARGS"),
    (format_line("ERR WHATEVER")[:-1], "ARGS"),
    (format_line("beat 0")[:-1], "UNKNOWN"),
    (format_line("PING")[:-1], "UNKNOWN"),
]


@pytest.mark.parametrize(("line", "code"), BAD_DEVICE_LINES)
def test_bad_device_lines_raise_with_the_line_and_code(line, code):
    with pytest.raises(ProtocolError) as caught:
        parse_line(line)
    assert caught.value.code == code
    assert repr(line) in str(caught.value)
    assert isinstance(caught.value, PanelError) and isinstance(caught.value, ValueError)


HOST_LINES = [
    (b"HELLO*35", HelloRequest()),
    (b"PING*1F", Ping()),
    (b"LEDS 000000*8C", SetLeds(LedState())),
    (b"LEDS 100000*A5", SetLeds(LedState(turn1=LedMode.ON))),
    (b"RESEND 1*DF", ResendRequest(1)),
    (format_line("RESEND 65535")[:-1], ResendRequest(65535)),
]


@pytest.mark.parametrize(("line", "expected"), HOST_LINES)
def test_host_commands_parse(line, expected):
    assert parse_command(line) == expected
    assert format_line(expected.body())[:-1] == line


BAD_HOST_LINES = [
    (b"HELLO*36", "CHECKSUM", ""),
    (b"HELLO", "CHECKSUM", ""),
    (format_line("HELLO 1")[:-1], "ARGS", "HELLO"),
    (format_line("PING PONG")[:-1], "ARGS", "PING"),
    (format_line("LEDS 10001")[:-1], "ARGS", "LEDS"),
    (format_line("LEDS 10001X")[:-1], "ARGS", "LEDS"),
    (format_line("LEDS")[:-1], "ARGS", "LEDS"),
    (format_line("RESEND 0")[:-1], "ARGS", "RESEND"),
    (format_line("RESEND 007")[:-1], "ARGS", "RESEND"),
    (format_line("RESEND")[:-1], "ARGS", "RESEND"),
    (format_line("FOO")[:-1], "UNKNOWN", "FOO"),
    (format_line("hello")[:-1], "UNKNOWN", "hello"),
    (b"HEL\x00LO*35", "CHARS", ""),
]


@pytest.mark.parametrize(("line", "code", "detail"), BAD_HOST_LINES)
def test_bad_host_lines_give_the_device_answer(line, code, detail):
    with pytest.raises(ProtocolError) as caught:
        parse_command(line)
    assert (caught.value.code, caught.value.detail) == (code, detail)


def test_error_reply_detail_is_cut_to_fit_one_body():
    verb = "V" * 48
    with pytest.raises(ProtocolError) as caught:
        parse_command(format_line(verb)[:-1])
    reply = error_reply_for(caught.value)
    assert len(reply.body()) == 48
    assert parse_line(format_line(reply.body())[:-1]) == reply


def test_format_line_refuses_bodies_the_protocol_forbids():
    for body in ("", "X" * 49, "BEAT\n0", "caf\u00e9"):
        with pytest.raises(ValueError):
            format_line(body)
    assert format_line("X" * 48).endswith(b"\n")


@pytest.mark.parametrize("text", ["000000", "100010", "222222", "012012", "000001"])
def test_led_state_text_round_trip_and_repr(text):
    state = LedState.from_text(text)
    assert state.text() == text
    assert eval(repr(state)) == state


def test_led_state_fields_follow_the_led_table():
    state = LedState.from_text("120021")
    assert state.modes() == (
        LedMode.ON,
        LedMode.BLINK,
        LedMode.OFF,
        LedMode.OFF,
        LedMode.BLINK,
        LedMode.ON,
    )
    assert LedState.showing(2, green=LedMode.ON).text() == "010010"
    assert LedState.showing().text() == "000000"
    with pytest.raises(ValueError):
        LedState.showing(5)
    for bad in ("10001", "1000100", "100013", "abcdef"):
        with pytest.raises(ValueError, match=repr(bad)):
            LedState.from_text(bad)


WRAP_TABLE = [
    # last, number, steps, after
    (0, 1, 1, True),
    (0, 5, 5, True),
    (5, 6, 1, True),
    (5, 5, 0, False),
    (6, 5, 65534, False),
    (65535, 1, 1, True),
    (65534, 2, 3, True),
    (2, 65534, 65532, False),
    (100, 100 + 32767, 32767, True),
    (100, 100 + 32768, 32768, False),
]


@pytest.mark.parametrize(("last", "number", "steps", "after"), WRAP_TABLE)
def test_event_numbers_wrap(last, number, steps, after):
    assert steps_after(last, number) == steps
    assert is_after(last, number) is after


def test_next_event_number_wraps_from_65535_to_1():
    assert [next_event_number(n) for n in (0, 1, 65534, 65535)] == [1, 2, 65535, 1]


def test_assembler_splits_lines_across_chunks():
    assembler = LineAssembler()
    assert assembler.feed(b"BEAT 0*3D\nEV 1 PR") == [b"BEAT 0*3D"]
    assert assembler.feed(b"ESS END1*E3\r") == []
    assert assembler.feed(b"\n\n") == [b"EV 1 PRESS END1*E3", b""]


def test_assembler_drops_overlong_lines_and_recovers():
    assembler = LineAssembler()
    lines = assembler.feed(b"A" * 51 + b"\n" + b"B" * 52 + b"\nC" + b"D" * 10_000)
    assert lines == [b"A" * 51, OverlongLine(52)]
    assert assembler.feed(b"D\nBEAT 0*3D\n") == [OverlongLine(10_002), b"BEAT 0*3D"]
    assert assembler.feed(b"A" * 51 + b"\r\n") == [b"A" * 51]


def test_assembler_survives_random_garbage():
    import random

    chance = random.Random(5)
    assembler = LineAssembler()
    for _ in range(2000):
        garbage = bytes(chance.randrange(256) for _ in range(chance.randrange(120)))
        for line in assembler.feed(garbage):
            assert isinstance(line, OverlongLine) or len(line) <= 51
    assembler.feed(b"\n")
    assert assembler.feed(b"BEAT 0*3D\n") == [b"BEAT 0*3D"]
