"""The host's protocol logic without I/O: handshake, gaps, duplicates, resets, silence."""

from companion.panel.protocol import LedState, format_line
from companion.panel.session import (
    BACK_MESSAGE,
    RESET_MESSAGE,
    SILENT_MESSAGE,
    UNPLUGGED_MESSAGE,
    ButtonPress,
    Output,
    PanelSession,
    PanelStatus,
    SessionConfig,
    StatusKind,
)

HELLO = "HELLO 1 0.1.0 7 6 3FA2"


def line(body: str) -> bytes:
    return format_line(body)[:-1]


def feed(session: PanelSession, now: float, *bodies: str) -> Output:
    output = Output()
    for body in bodies:
        output.merge(session.receive(line(body), now))
    return output


def presses(output: Output) -> list[tuple[str, int]]:
    return [(e.button, e.number) for e in output.events if isinstance(e, ButtonPress)]


def statuses(output: Output) -> list[StatusKind]:
    return [e.kind for e in output.events if isinstance(e, PanelStatus)]


def connected(boot: str = "3FA2", last: int = 0) -> PanelSession:
    session = PanelSession()
    assert session.port_opened(0.0).send == ["HELLO"]
    output = feed(session, 0.01, f"HELLO 1 0.1.0 7 6 {boot}")
    assert statuses(output) == [StatusKind.CONNECTED]
    assert output.send == ["LEDS 000000", "PING"]
    feed(session, 0.02, "LEDS 000000", f"BEAT {last}")
    return session


def test_hello_is_resent_every_250_ms_until_answered_and_lines_before_it_ignored():
    session = PanelSession()
    session.port_opened(0.0)
    assert session.tick(0.1).send == []
    assert session.tick(0.25).send == ["HELLO"]
    assert session.tick(0.4).send == []
    assert session.tick(0.5).send == ["HELLO"]
    assert feed(session, 0.6, "READY 3FA2", "EV 1 PRESS END1", "BEAT 1").events == []
    feed(session, 0.7, HELLO)
    assert session.connected and session.hello is not None and session.hello.buttons == 7


def test_handshake_gives_up_after_5_s_without_reporting_a_fault_before_first_contact():
    session = PanelSession()
    session.port_opened(0.0)
    output = session.tick(5.0)
    assert output.drop is StatusKind.SILENT
    assert output.events == []


def test_presses_arrive_in_order_once():
    session = connected(last=4)
    output = feed(session, 1.0, "EV 5 PRESS END1", "EV 5 PRESS END1", "EV 6 PRESS UNDO", "BEAT 6")
    assert presses(output) == [("END1", 5), ("UNDO", 6)]
    assert session.duplicates == 1


def test_first_contact_delivers_only_events_made_after_it():
    session = PanelSession()
    session.port_opened(0.0)
    feed(session, 0.1, HELLO)
    assert presses(feed(session, 0.2, "BEAT 9", "EV 9 PRESS END1", "EV 10 PRESS END2")) == [
        ("END2", 10)
    ]


def test_a_gap_is_filled_by_resend_and_retried_until_filled():
    session = connected(last=1)
    output = feed(session, 1.0, "EV 3 PRESS END2")
    assert presses(output) == [] and output.send == ["RESEND 2"]
    assert session.tick(1.1).send == []
    assert session.tick(1.3).send == ["RESEND 2"]
    output = feed(session, 1.4, "EV 2 PRESS END1", "EV 3 PRESS END2", "BEAT 3")
    assert presses(output) == [("END1", 2), ("END2", 3)]
    assert not session.has_gap() and session.tick(2.0).send == []


def test_a_beat_beyond_the_last_event_asks_for_a_resend():
    session = connected(last=7)
    assert feed(session, 1.0, "BEAT 9").send == ["RESEND 8"]


def test_numbers_wrap_from_65535_to_1():
    session = connected(last=65534)
    output = feed(session, 1.0, "EV 65535 PRESS END1", "EV 1 PRESS END2", "EV 1 PRESS END2")
    assert presses(output) == [("END1", 65535), ("END2", 1)]


def test_a_phantom_event_ahead_is_settled_by_the_next_beat():
    session = connected(last=3)
    assert feed(session, 1.0, "EV 400 PRESS END1").send == ["RESEND 4"]
    feed(session, 1.1, "BEAT 3")
    assert not session.has_gap()


def test_gone_events_are_reported_once_and_the_kept_ones_delivered():
    session = connected(last=2)
    output = feed(session, 1.0, "BEAT 40")
    assert output.send == ["RESEND 3"]
    output = feed(session, 1.1, "ERR GONE 25", *(f"EV {n} PRESS END1" for n in range(25, 41)))
    assert statuses(output) == [StatusKind.LOST]
    assert "22 button presses" in output.events[0].message  # 3..24
    assert [number for _, number in presses(output)] == list(range(25, 41))


def test_unplug_is_reported_once_and_back_once():
    session = connected(last=2)
    assert [e.message for e in session.port_lost(StatusKind.UNPLUGGED).events] == [
        UNPLUGGED_MESSAGE
    ]
    assert session.port_lost(StatusKind.UNPLUGGED).events == []
    session.port_opened(5.0)
    assert session.tick(10.0).events == []  # a failed handshake during the outage: no new report
    session.port_opened(11.0)
    output = feed(session, 11.1, HELLO)
    assert [e.message for e in output.events] == [BACK_MESSAGE]
    assert output.send == ["LEDS 000000", "RESEND 3"]


def test_silence_of_3_s_drops_the_connection_with_one_sentence():
    session = connected()
    assert session.tick(2.9).drop is None
    output = session.tick(3.1)
    assert output.drop is StatusKind.SILENT
    assert [e.message for e in output.events] == [SILENT_MESSAGE]


def test_a_reset_restores_the_leds_and_is_reported_once_they_are_back():
    session = connected(last=5)
    wanted = LedState.from_text("010010")
    assert session.set_leds(wanted, 1.0).send == ["LEDS 010010"]
    feed(session, 1.1, "LEDS 010010")
    output = feed(session, 2.0, "READY 0001")
    assert output.send == ["LEDS 010010", "RESEND 1"]
    assert output.events == []
    output = feed(session, 2.1, "LEDS 010010", "BEAT 0", "EV 1 PRESS END3")
    assert [e.message for e in output.events if isinstance(e, PanelStatus)] == [RESET_MESSAGE]
    assert presses(output) == [("END3", 1)]


def test_a_new_boot_id_at_reconnection_means_reset():
    session = connected(last=5)
    session.port_lost(StatusKind.UNPLUGGED)
    session.port_opened(3.0)
    output = feed(session, 3.1, "HELLO 1 0.1.0 7 6 BEEF")
    assert statuses(output) == []
    assert output.send == ["LEDS 000000", "RESEND 1"]
    output = feed(session, 3.2, "LEDS 000000", "EV 1 PRESS END2", "BEAT 1")
    assert statuses(output) == [StatusKind.RESET] and presses(output) == [("END2", 1)]


def test_a_beat_behind_us_makes_the_host_check_the_boot_id():
    session = connected(last=30)
    assert feed(session, 1.0, "BEAT 2").send == ["HELLO", "PING"]
    output = feed(session, 1.1, "HELLO 1 0.1.0 7 6 0BAD")
    assert output.send == ["LEDS 000000", "RESEND 1"]


def test_one_damaged_beat_behind_us_changes_nothing():
    session = connected(last=30)
    feed(session, 1.0, "BEAT 3")  # "BEAT 30" with a byte lost that slipped past the checksum
    output = feed(session, 1.1, HELLO, "BEAT 30", "EV 31 PRESS END1")
    assert presses(output) == [("END1", 31)] and output.send == []


def test_numbering_restarted_under_the_same_boot_id_is_a_reset():
    session = connected(last=30)
    assert feed(session, 1.0, "BEAT 0").send == ["HELLO", "PING"]
    output = feed(session, 1.1, HELLO, "BEAT 0")  # same boot id, still behind: it restarted
    assert output.send == ["LEDS 000000", "RESEND 1"]
    output = feed(session, 1.2, "LEDS 000000", "EV 1 PRESS END2", "BEAT 1")
    assert statuses(output) == [StatusKind.RESET] and presses(output) == [("END2", 1)]


def test_leds_are_resent_until_confirmed():
    session = connected()
    session.set_leds(LedState.from_text("200001"), 1.0)
    assert session.tick(1.1).send == []
    assert session.tick(1.3).send == ["LEDS 200001"]
    feed(session, 1.4, "LEDS 200001")
    assert session.tick(2.0).send == []


def test_garbage_is_counted_and_changes_nothing():
    session = connected(last=1)
    for garbage in (b"", b"\xff\xfe", b"EV 2 PRESS END1*00", b"BEAT 2*3D", b"X" * 80):
        assert session.receive(garbage, 1.0).events == []
    assert session.bad_lines == 5 and session.last == 1


def test_another_protocol_version_is_refused_with_a_sentence():
    session = PanelSession(SessionConfig())
    session.port_opened(0.0)
    output = feed(session, 0.1, "HELLO 2 0.9.0 7 6 3FA2")
    assert output.drop is StatusKind.INCOMPATIBLE
    assert session.refusal is not None and "protocol version 2" in session.refusal
