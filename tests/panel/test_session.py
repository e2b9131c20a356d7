"""The host's protocol logic without I/O: handshake, gaps, events kept past a gap, duplicates,
resets, silence, LED states fitted to the panel."""

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

HELLO = "HELLO 2 0.2.0 9 6 3FA2"


def line(body: str) -> bytes:
    return format_line(body)[:-1]


def ev(number: int, button: str, ms: int | None = None) -> str:
    """An EV line's body; its time is 1000 + 10 * number ms unless given."""
    return f"EV {number} PRESS {button} {1000 + 10 * number if ms is None else ms}"


def beat(last: int, ms: int = 900_000) -> str:
    return f"BEAT {last} {ms}"


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
    output = feed(session, 0.01, f"HELLO 2 0.2.0 9 6 {boot}")
    assert statuses(output) == [StatusKind.CONNECTED]
    assert output.send == ["LEDS 000000", "PING"]
    feed(session, 0.02, "LEDS 000000", beat(last))
    return session


def test_hello_is_resent_every_250_ms_until_answered_and_lines_before_it_ignored():
    session = PanelSession()
    session.port_opened(0.0)
    assert session.tick(0.1).send == []
    assert session.tick(0.25).send == ["HELLO"]
    assert session.tick(0.4).send == []
    assert session.tick(0.5).send == ["HELLO"]
    assert feed(session, 0.6, "READY 3FA2", ev(1, "END1"), beat(1)).events == []
    feed(session, 0.7, HELLO)
    assert session.connected and session.hello is not None and session.hello.buttons == 9


def test_handshake_gives_up_after_5_s_without_reporting_a_fault_before_first_contact():
    session = PanelSession()
    session.port_opened(0.0)
    output = session.tick(5.0)
    assert output.drop is StatusKind.SILENT
    assert output.events == []


def test_presses_arrive_in_order_once():
    session = connected(last=4)
    output = feed(session, 1.0, ev(5, "END1"), ev(5, "END1"), ev(6, "UNDO"), beat(6))
    assert presses(output) == [("END1", 5), ("UNDO", 6)]
    assert session.duplicates == 1


def test_a_press_carries_the_panels_clock_and_boot_id():
    session = connected(last=4)
    output = feed(session, 1.0, ev(5, "HINT", ms=4294967295), ev(6, "ROLL", ms=0))
    assert output.events == [
        ButtonPress("HINT", 5, "3FA2", 4294967295),
        ButtonPress("ROLL", 6, "3FA2", 0),
    ]


def test_a_new_event_in_the_middle_of_a_resend_answer_is_kept_until_its_turn():
    session = connected(last=1)
    assert feed(session, 1.0, ev(4, "END2")).send == ["RESEND 2"]  # 2 and 3 were lost
    # The answer: 2, then a press made meanwhile (5) between its lines, then 3, 4 and the beat.
    output = feed(session, 1.1, ev(2, "END1"), ev(5, "ROLL"))
    assert presses(output) == [("END1", 2)] and output.send == []
    assert session.held() == (4, 5)
    output = feed(session, 1.11, ev(3, "UNDO"))
    assert presses(output) == [("UNDO", 3), ("END2", 4), ("ROLL", 5)]
    assert [p.device_ms for p in output.events if isinstance(p, ButtonPress)] == [1030, 1040, 1050]
    output = feed(session, 1.12, ev(4, "END2"), beat(5))
    assert presses(output) == [] and session.duplicates == 1
    assert not session.has_gap() and session.held() == () and session.tick(2.0).send == []


def test_a_gap_filled_out_of_order_delivers_in_number_order_as_soon_as_it_is_filled():
    session = connected(last=10)
    output = feed(session, 1.0, ev(14, "END4"), ev(12, "END2"), ev(15, "END1"))
    assert presses(output) == [] and output.send == ["RESEND 11"]
    assert session.held() == (12, 14, 15)
    assert presses(feed(session, 1.05, ev(13, "END3"))) == []  # 11 is still missing
    output = feed(session, 1.1, ev(11, "END1"))
    assert presses(output) == [("END1", 11), ("END2", 12), ("END3", 13), ("END4", 14),
                               ("END1", 15)]
    assert session.last == 15 and not session.has_gap()


def test_events_kept_past_a_gap_are_bounded_by_the_ring():
    session = connected(last=0)
    feed(session, 1.0, *(ev(n, "END1") for n in range(40, 2, -1)))  # 1 and 2 missing
    assert session.held() == tuple(range(3, 19))  # the nearest 16; the rest come by RESEND
    output = feed(session, 1.1, ev(1, "END1"), ev(2, "END1"))
    assert [n for _, n in presses(output)] == list(range(1, 19))
    assert session.has_gap() and session.tick(1.5).send == ["RESEND 19"]


def test_events_kept_across_the_wrap_are_delivered_in_ring_order():
    session = connected(last=65533)
    feed(session, 1.0, ev(1, "END2"), ev(65535, "END1"), ev(2, "UNDO"))
    output = feed(session, 1.1, ev(65534, "CONFIRM"))
    assert presses(output) == [("CONFIRM", 65534), ("END1", 65535), ("END2", 1), ("UNDO", 2)]


def test_gone_events_kept_here_are_still_delivered():
    session = connected(last=2)
    feed(session, 1.0, ev(10, "END2"), beat(40))  # 10 came, then the panel went on to 40
    output = feed(session, 1.1, "ERR GONE 25", *(ev(n, "END1") for n in range(25, 41)))
    assert statuses(output) == [StatusKind.LOST]
    assert "21 button presses" in output.events[0].message  # 3..24 but 10
    assert [number for _, number in presses(output)] == [10, *range(25, 41)]


def test_first_contact_delivers_only_events_made_after_it():
    session = PanelSession()
    session.port_opened(0.0)
    feed(session, 0.1, HELLO)
    assert presses(feed(session, 0.2, beat(9), ev(9, "END1"), ev(10, "END2"))) == [
        ("END2", 10)
    ]


def test_a_gap_is_filled_by_resend_and_retried_until_filled():
    session = connected(last=1)
    output = feed(session, 1.0, ev(3, "END2"))
    assert presses(output) == [] and output.send == ["RESEND 2"]
    assert session.tick(1.1).send == []
    assert session.tick(1.3).send == ["RESEND 2"]
    output = feed(session, 1.4, ev(2, "END1"), ev(3, "END2"), beat(3))
    assert presses(output) == [("END1", 2), ("END2", 3)]
    assert not session.has_gap() and session.tick(2.0).send == []


def test_a_beat_beyond_the_last_event_asks_for_a_resend():
    session = connected(last=7)
    assert feed(session, 1.0, beat(9)).send == ["RESEND 8"]


def test_numbers_wrap_from_65535_to_1():
    session = connected(last=65534)
    output = feed(session, 1.0, ev(65535, "END1"), ev(1, "END2"), ev(1, "END2"))
    assert presses(output) == [("END1", 65535), ("END2", 1)]


def test_a_phantom_event_ahead_is_settled_by_the_next_beat():
    session = connected(last=3)
    assert feed(session, 1.0, ev(400, "END1")).send == ["RESEND 4"]
    feed(session, 1.1, beat(3))
    assert not session.has_gap() and session.held() == ()
    assert presses(feed(session, 1.2, ev(4, "END1"))) == [("END1", 4)]


def test_gone_events_are_reported_once_and_the_kept_ones_delivered():
    session = connected(last=2)
    output = feed(session, 1.0, beat(40))
    assert output.send == ["RESEND 3"]
    output = feed(session, 1.1, "ERR GONE 25", *(ev(n, "END1") for n in range(25, 41)))
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
    output = feed(session, 2.1, "LEDS 010010", beat(0), ev(1, "END3"))
    assert [e.message for e in output.events if isinstance(e, PanelStatus)] == [RESET_MESSAGE]
    assert presses(output) == [("END3", 1)]


def test_a_new_boot_id_at_reconnection_means_reset():
    session = connected(last=5)
    session.port_lost(StatusKind.UNPLUGGED)
    session.port_opened(3.0)
    output = feed(session, 3.1, "HELLO 2 0.2.0 9 6 BEEF")
    assert statuses(output) == []
    assert output.send == ["LEDS 000000", "RESEND 1"]
    output = feed(session, 3.2, "LEDS 000000", ev(1, "END2"), beat(1))
    assert statuses(output) == [StatusKind.RESET] and presses(output) == [("END2", 1)]


def test_a_beat_behind_us_makes_the_host_check_the_boot_id():
    session = connected(last=30)
    assert feed(session, 1.0, beat(2)).send == ["HELLO", "PING"]
    output = feed(session, 1.1, "HELLO 2 0.2.0 9 6 0BAD")
    assert output.send == ["LEDS 000000", "RESEND 1"]


def test_one_damaged_beat_behind_us_changes_nothing():
    session = connected(last=30)
    feed(session, 1.0, beat(3))  # beat(30) with a byte lost that slipped past the checksum
    output = feed(session, 1.1, HELLO, beat(30), ev(31, "END1"))
    assert presses(output) == [("END1", 31)] and output.send == []


def test_numbering_restarted_under_the_same_boot_id_is_a_reset():
    session = connected(last=30)
    assert feed(session, 1.0, beat(0)).send == ["HELLO", "PING"]
    output = feed(session, 1.1, HELLO, beat(0))  # same boot id, still behind: it restarted
    assert output.send == ["LEDS 000000", "RESEND 1"]
    output = feed(session, 1.2, "LEDS 000000", ev(1, "END2"), beat(1))
    assert statuses(output) == [StatusKind.RESET] and presses(output) == [("END2", 1)]


def test_leds_are_fitted_to_the_panels_seats():
    session = PanelSession(leds=LedState.from_text("0110"))  # two seats play: player 2, green
    session.port_opened(0.0)
    output = feed(session, 0.1, "HELLO 2 0.2.0 11 8 3FA2")  # a six-seat panel
    assert output.send == ["LEDS 01000010", "PING"]
    feed(session, 0.2, "LEDS 01000010")
    assert session.applied == LedState.from_text("01000010")
    assert session.tick(1.0).send == []  # confirmed: the fitted state is what was wanted
    output = session.set_leds(LedState.from_text("00000121"), 1.1)  # player 6 on a 6-seat table
    assert output.send == ["LEDS 00000121"]
    session.port_lost(StatusKind.UNPLUGGED)
    session.port_opened(2.0)
    assert feed(session, 2.1, "HELLO 2 0.2.0 7 4 3FA2").send[0] == "LEDS 0021"  # a 2-seat panel


def test_a_hello_whose_counts_fit_no_panel_is_a_bad_line():
    session = PanelSession()
    session.port_opened(0.0)
    assert feed(session, 0.1, "HELLO 2 0.2.0 9 7 3FA2").send == []
    assert session.bad_lines == 1 and not session.connected


def test_leds_are_resent_until_confirmed():
    session = connected()
    session.set_leds(LedState.from_text("200001"), 1.0)
    assert session.tick(1.1).send == []
    assert session.tick(1.3).send == ["LEDS 200001"]
    feed(session, 1.4, "LEDS 200001")
    assert session.tick(2.0).send == []


def test_garbage_is_counted_and_changes_nothing():
    session = connected(last=1)
    for garbage in (b"", b"\xff\xfe", b"EV 2 PRESS END1 5*0000", b"BEAT 2*3D", b"X" * 80):
        assert session.receive(garbage, 1.0).events == []
    assert session.bad_lines == 5 and session.last == 1


def test_another_protocol_version_is_refused_with_a_sentence():
    session = PanelSession(SessionConfig())
    session.port_opened(0.0)
    output = feed(session, 0.1, "HELLO 3 0.9.0 9 6 3FA2")
    assert output.drop is StatusKind.INCOMPATIBLE
    assert session.refusal is not None and "protocol version 3" in session.refusal


def test_a_version_one_panel_is_told_to_be_flashed():
    session = PanelSession()
    session.port_opened(0.0)
    output = session.receive(b"HELLO 1 0.1.0 7 6 3FA2*2D", 0.1)  # its CRC-8 is not read
    assert output.drop is StatusKind.INCOMPATIBLE
    assert [e.kind for e in output.events] == [StatusKind.INCOMPATIBLE]
    assert "protocol version 1" in output.events[0].message and "flash" in output.events[0].message
