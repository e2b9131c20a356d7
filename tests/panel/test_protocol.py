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
    button_names,
    crc16,
    error_reply_for,
    format_line,
    is_after,
    led_names,
    next_event_number,
    older_hello_version,
    parse_command,
    parse_line,
    steps_after,
)

PROTOCOL_TEXT = (Path(__file__).parents[2] / "firmware" / "PROTOCOL.md").read_text()


def test_crc16_is_ccitt_false():
    assert crc16(b"123456789") == 0x29B1  # the catalogue's check value for CRC-16/IBM-3740
    assert crc16(b"") == 0xFFFF
    assert "`29B1`" in PROTOCOL_TEXT


def test_every_checksummed_line_in_protocol_md_is_right():
    """The ready-made lines (table and text) and the exchange: every `BODY*CCCC` in the text."""
    lines = re.findall(
        r"`([A-Z][A-Z0-9 .]*)\*([0-9A-F]{4})`|^(?:host|device): +(.+)\*([0-9A-F]{4})$",
        PROTOCOL_TEXT,
        flags=re.MULTILINE,
    )
    checked = 0
    for body_a, cc_a, body_b, cc_b in lines:
        body, checksum = (body_a, cc_a) if body_a else (body_b, cc_b)
        assert format_line(body) == f"{body}*{checksum}\n".encode(), body
        checked += 1
    assert checked >= 13


def test_protocol_md_has_its_error_detection_figures():
    assert "ERROR_DETECTION_FIGURES" not in PROTOCOL_TEXT
    assert "bench/bench_panel_checksum.py" in PROTOCOL_TEXT


def test_the_ready_made_line_table_lists_every_command():
    table = re.findall(r"^\| `([A-Z]+)[A-Z0-9 ]*\*[0-9A-F]{4}` \|", PROTOCOL_TEXT, re.MULTILINE)
    assert set(table) == {"HELLO", "PING", "LEDS", "RESEND"}
    assert len(table) == 6


def test_the_exchange_parses_line_by_line():
    exchange = PROTOCOL_TEXT.split("## An exchange", 1)[1]
    device = re.findall(r"^device: +(\S.*)$", exchange, re.MULTILINE)
    host = re.findall(r"^host: +(\S.*)$", exchange, re.MULTILINE)
    assert [parse_line(line.encode()) for line in device] == [
        Hello(2, "0.2.0", 9, 6, "3FA2"),
        LedsApplied(LedState.from_text("100000")),
        Beat(0, 1022),
        Event(1, "END1", 1534),
        LedsApplied(LedState.from_text("010010")),
    ]
    assert [parse_command(line.encode(), 6) for line in host] == [
        HelloRequest(),
        SetLeds(LedState.showing(1)),
        SetLeds(LedState.showing(2, green=LedMode.ON)),
    ]


DEVICE_LINES = [
    (b"HELLO 2 0.2.0 9 6 3FA2*B94D", Hello(2, "0.2.0", 9, 6, "3FA2")),
    (format_line("HELLO 2 0.2.0 6 3 0000")[:-1], Hello(2, "0.2.0", 6, 3, "0000")),
    (format_line("HELLO 2 0.2.0 11 8 FFFF")[:-1], Hello(2, "0.2.0", 11, 8, "FFFF")),
    (b"BEAT 0 1022*5320", Beat(0, 1022)),
    (format_line("BEAT 65535 4294967295")[:-1], Beat(65535, 4294967295)),
    (b"EV 1 PRESS END1 1534*8A51", Event(1, "END1", 1534)),
    (b"LEDS 010010*1D20", LedsApplied(LedState.from_text("010010"))),
    (format_line("LEDS 012")[:-1], LedsApplied(LedState.from_text("012"))),
    (format_line("LEDS 21000012")[:-1], LedsApplied(LedState.from_text("21000012"))),
    (format_line("READY 00FF")[:-1], Ready("00FF")),
    (format_line("EV 65535 PRESS CONFIRM 0")[:-1], Event(65535, "CONFIRM", 0)),
    (format_line("EV 7 PRESS END6 4294967295")[:-1], Event(7, "END6", 4294967295)),
    (format_line("EV 8 PRESS ROLL 12")[:-1], Event(8, "ROLL", 12)),
    (format_line("EV 9 PRESS HINT 13")[:-1], Event(9, "HINT", 13)),
    (format_line("ERR GONE 17")[:-1], ErrorReply("GONE", "17")),
    (format_line("ERR UNKNOWN FOO")[:-1], ErrorReply("UNKNOWN", "FOO")),
    (format_line("ERR CHECKSUM")[:-1], ErrorReply("CHECKSUM", "")),
]


@pytest.mark.parametrize(("line", "expected"), DEVICE_LINES)
def test_device_lines_parse(line, expected):
    assert parse_line(line) == expected
    assert format_line(expected.body())[:-1] == line


BAD_DEVICE_LINES = [
    (b"BEAT 0 1022*5321", "CHECKSUM"),
    (b"BEAT 0 1022", "CHECKSUM"),
    (b"BEAT 0 1022*", "CHECKSUM"),
    (b"BEAT 0 1022*532", "CHECKSUM"),
    (b"BEAT 0 1022*53200", "CHECKSUM"),
    (b"BEAT 0*3D", "CHECKSUM"),  # a version-1 line
    (b"LEDS 010010*1d20", "CHECKSUM"),
    (b"*FFFF", "CHECKSUM"),
    (b"", "CHECKSUM"),
    (b"BEAT\t0 1022*5320", "CHARS"),
    (b"BEAT 0 1022\r*5320", "CHARS"),
    (b"BEAT \xff*5320", "CHARS"),
    (b"X" * 54, "TOOLONG"),
    (format_line("EV 0 PRESS END1 5")[:-1], "ARGS"),
    (format_line("EV 65536 PRESS END1 5")[:-1], "ARGS"),
    (format_line("EV 01 PRESS END1 5")[:-1], "ARGS"),
    (format_line("EV 1 PRESS END7 5")[:-1], "ARGS"),
    (format_line("EV 1 PRESS END1")[:-1], "ARGS"),  # no time: version 1's form
    (format_line("EV 1 PRESS END1 4294967296")[:-1], "ARGS"),
    (format_line("EV 1 PRESS END1 05")[:-1], "ARGS"),
    (format_line("EV 1 PRESS END1 -5")[:-1], "ARGS"),
    (format_line("EV 1 RELEASE END1 5")[:-1], "ARGS"),
    (format_line("EV 1 PRESS END1 5 6")[:-1], "ARGS"),
    (format_line("BEAT 0")[:-1], "ARGS"),
    (format_line("BEAT 0 1 2")[:-1], "ARGS"),
    (format_line("BEAT  0 1")[:-1], "ARGS"),
    (format_line("BEAT -1 1")[:-1], "ARGS"),
    (format_line("BEAT 1 99999999999")[:-1], "ARGS"),
    (format_line("LEDS 100000103")[:-1], "ARGS"),
    (format_line("LEDS 10")[:-1], "ARGS"),
    (format_line("LEDS 100013")[:-1], "ARGS"),
    (format_line("READY 3fa2")[:-1], "ARGS"),
    (format_line("HELLO 2 0.2 9 6 3FA2")[:-1], "ARGS"),
    (format_line("HELLO 2 0.2.0 9 7 3FA2")[:-1], "ARGS"),  # 4 seats have 6 LEDs
    (format_line("HELLO 2 0.2.0 7 6 3FA2")[:-1], "ARGS"),  # version 1's counts
    (format_line("HELLO 2 0.2.0 5 2 3FA2")[:-1], "ARGS"),  # no seat
    (format_line("HELLO 2 0.2.0 12 9 3FA2")[:-1], "ARGS"),  # seven seats
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
    (b"HELLO*49D6", HelloRequest()),
    (b"PING*6427", Ping()),
    (b"LEDS 000000*8440", SetLeds(LedState())),
    (b"LEDS 100000*C1E0", SetLeds(LedState((LedMode.ON, LedMode.OFF, LedMode.OFF, LedMode.OFF)))),
    (b"LEDS 00000000*AC5E", SetLeds(LedState.showing(seats=6))),
    (b"RESEND 1*70C3", ResendRequest(1)),
    (format_line("RESEND 65535")[:-1], ResendRequest(65535)),
]


@pytest.mark.parametrize(("line", "expected"), HOST_LINES)
def test_host_commands_parse(line, expected):
    assert parse_command(line) == expected
    assert format_line(expected.body())[:-1] == line


BAD_HOST_LINES = [
    (b"HELLO*49D7", "CHECKSUM", ""),
    (b"HELLO*49d6", "CHECKSUM", ""),
    (b"HELLO*35", "CHECKSUM", ""),
    (b"HELLO", "CHECKSUM", ""),
    (format_line("HELLO 1")[:-1], "ARGS", "HELLO"),
    (format_line("PING PONG")[:-1], "ARGS", "PING"),
    (format_line("LEDS 10")[:-1], "ARGS", "LEDS"),
    (format_line("LEDS 100000000")[:-1], "ARGS", "LEDS"),
    (format_line("LEDS 10001X")[:-1], "ARGS", "LEDS"),
    (format_line("LEDS")[:-1], "ARGS", "LEDS"),
    (format_line("RESEND 0")[:-1], "ARGS", "RESEND"),
    (format_line("RESEND 007")[:-1], "ARGS", "RESEND"),
    (format_line("RESEND")[:-1], "ARGS", "RESEND"),
    (format_line("FOO")[:-1], "UNKNOWN", "FOO"),
    (format_line("hello")[:-1], "UNKNOWN", "hello"),
    (b"HEL\x00LO*49D6", "CHARS", ""),
]


@pytest.mark.parametrize(("line", "code", "detail"), BAD_HOST_LINES)
def test_bad_host_lines_give_the_device_answer(line, code, detail):
    with pytest.raises(ProtocolError) as caught:
        parse_command(line)
    assert (caught.value.code, caught.value.detail) == (code, detail)


def test_a_device_takes_leds_with_exactly_its_own_digit_count():
    two_seats = SetLeds(LedState.showing(seats=2))
    assert parse_command(format_line("LEDS 0000")[:-1], leds=4) == two_seats
    for leds in (3, 5, 8):
        with pytest.raises(ProtocolError) as caught:
            parse_command(format_line("LEDS 0000")[:-1], leds=leds)
        assert (caught.value.code, caught.value.detail) == ("ARGS", "LEDS")


def test_a_version_one_hello_is_recognised_without_its_checksum():
    assert older_hello_version(b"HELLO 1 0.1.0 7 6 3FA2*2D") == 1
    assert older_hello_version(b"HELLO 2 0.2.0 9 6 3FA2*B94D") is None
    assert older_hello_version(b"BEAT 0 1022*5320") is None


@pytest.mark.parametrize("seats", range(1, 7))
def test_hello_counts_give_the_seats_and_button_names(seats):
    hello = parse_line(format_line(f"HELLO 2 0.2.0 {seats + 5} {seats + 2} ABCD")[:-1])
    assert isinstance(hello, Hello) and hello.seats == seats
    assert hello.button_names() == (
        *(f"END{seat}" for seat in range(1, seats + 1)), "UNDO", "SELECT", "CONFIRM", "ROLL",
        "HINT",
    )
    assert led_names(seats)[-2:] == ("GREEN", "RED") and len(led_names(seats)) == hello.leds
    assert button_names(seats) == hello.button_names()


def test_every_button_and_clock_extreme_round_trips():
    for button in button_names(6):
        for time in (0, 9, 4294967295):
            event = Event(65535, button, time)
            assert parse_line(format_line(event.body())[:-1]) == event
    longest = format_line("EV 65535 PRESS CONFIRM 4294967295")
    assert len(longest) - 1 <= 53


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


@pytest.mark.parametrize(
    "text", ["000", "120", "0000", "000000", "100010", "222222", "012012", "000001", "10000010",
             "22222222", "1000000"]
)
def test_led_state_text_round_trip_and_repr(text):
    state = LedState.from_text(text)
    assert state.text() == text
    assert state.seats == len(text) - 2
    assert eval(repr(state)) == state


def test_led_state_fields_follow_the_led_table():
    state = LedState.from_text("12000021")
    assert state.turns == (LedMode.ON, LedMode.BLINK, *(LedMode.OFF,) * 4)
    assert (state.green, state.red) == (LedMode.BLINK, LedMode.ON)
    assert state.modes() == (*state.turns, LedMode.BLINK, LedMode.ON)
    assert LedState.showing(2, green=LedMode.ON).text() == "010010"
    assert LedState.showing().text() == "000000" and LedState() == LedState.showing()
    assert LedState.showing(6, red=LedMode.BLINK, seats=6).text() == "00000102"
    assert LedState.showing(1, seats=1).text() == "100"
    for player, seats in ((5, 4), (0, 4), (7, 6)):
        with pytest.raises(ValueError, match=f"bad player {player}"):
            LedState.showing(player, seats=seats)
    for seats in (0, 7):
        with pytest.raises(ValueError, match=f"bad seat count {seats}"):
            LedState.showing(seats=seats)
    for bad in ("10", "100000000", "100013", "abcdef", "", "1 0"):
        with pytest.raises(ValueError, match=repr(bad)):
            LedState.from_text(bad)
    with pytest.raises(ValueError, match="bad turn LEDs"):
        LedState(())
    with pytest.raises(ValueError, match="3"):
        LedState((LedMode.ON,), green=3)


def test_a_state_is_fitted_to_a_panel_by_padding_or_dropping_turn_leds():
    two = LedState.from_text("0110")  # player 2's turn on a two-seat table, green
    assert two.fitted(4) == LedState.from_text("010010")
    assert two.fitted(6).text() == "01000010"
    assert two.fitted(2) == two
    six = LedState.from_text("00001210")
    assert six.fitted(4).text() == "000010"  # turn LEDs 5 and 6 are beyond the panel
    assert six.fitted(1).text() == "010"
    with pytest.raises(ValueError, match="bad seat count 7"):
        six.fitted(7)


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
    assert assembler.feed(b"BEAT 0 1022*5320\nEV 1 PR") == [b"BEAT 0 1022*5320"]
    assert assembler.feed(b"ESS END1 1534*8A51\r") == []
    assert assembler.feed(b"\n\n") == [b"EV 1 PRESS END1 1534*8A51", b""]


def test_assembler_drops_overlong_lines_and_recovers():
    assembler = LineAssembler()
    lines = assembler.feed(b"A" * 53 + b"\n" + b"B" * 54 + b"\nC" + b"D" * 10_000)
    assert lines == [b"A" * 53, OverlongLine(54)]
    assert assembler.feed(b"D\nBEAT 0 1022*5320\n") == [OverlongLine(10_002), b"BEAT 0 1022*5320"]
    assert assembler.feed(b"A" * 53 + b"\r\n") == [b"A" * 53]


def test_assembler_survives_random_garbage():
    import random

    chance = random.Random(5)
    assembler = LineAssembler()
    for _ in range(2000):
        garbage = bytes(chance.randrange(256) for _ in range(chance.randrange(120)))
        for line in assembler.feed(garbage):
            assert isinstance(line, OverlongLine) or len(line) <= 53
    assembler.feed(b"\n")
    assert assembler.feed(b"BEAT 0 1022*5320\n") == [b"BEAT 0 1022*5320"]
