"""The journal on disk: round trip, one fsync per line, forgiving reading of damaged files."""

import json
import os
import random
import subprocess
import sys
import textwrap
from dataclasses import replace

import pytest

from companion.record import files as files_module
from companion.record import journal as journal_module
from companion.record.errors import (
    JournalExistsError,
    JournalHeaderError,
    JournalLockedError,
    JournalMissingError,
    RecordError,
)
from companion.record.journal import (
    JOURNAL_NAME,
    JournalEvent,
    JournalHeader,
    JournalWriter,
    Seat,
    read_journal,
)

POSITION = {
    "game": "coin-isolation",
    "variants": [],
    "players": 2,
    "sides": {"1": "south", "2": "north"},
    "to_move": 1,
    "squares": {"a1": "P", "b1": "N"},
    "pawns": {"1": None, "2": None},
    "taken": {"1": "", "2": ""},
    "passes": 0,
    "last_taker": None,
}


def make_header(**changes):
    header = JournalHeader(
        game="coin-isolation",
        players=2,
        seats=(Seat(1, "south", "orange", "Ada"), Seat(2, "north", "blue")),
        initial_position=POSITION,
        variants=("diagonal",),
        calibration_path="profile.json",
    )
    return replace(header, **changes)


def write_sample(folder):
    """A journal with one event of every kind; returns the events written."""
    with JournalWriter.create(folder, make_header()) as writer:
        written = [
            writer.record_setup_fix(
                position=POSITION, state_hash="h0", source="panel", region="b1", was="P", now="N"
            ),
            writer.record_ruling(
                "ask",
                text="two moves fit",
                state_hash="h0",
                source="panel",
                candidates=("a1-b1", "a1"),
                chosen="a1-b1",
            ),
            writer.record_move(
                "a1-b1", player=1, state_hash="h1", source="panel", frame="frames/0003.jpg"
            ),
            writer.record_pass(player=2, state_hash="h2"),
            writer.record_undo(retracts=4, state_hash="h1", source="keyboard"),
            writer.record_ruling("reject", text="no legal move fits", state_hash="h1",
                                 source="camera", player=1, regions=("e3", "e4")),
            writer.record_note("panel unplugged", state_hash="h1", source="referee"),
        ]  # fmt: skip
    return written


def lines_of(folder):
    return (folder / JOURNAL_NAME).read_bytes().split(b"\n")


def rewrite(folder, lines):
    (folder / JOURNAL_NAME).write_bytes(b"\n".join(lines))


def test_round_trip_keeps_header_and_every_event(tmp_path):
    written = write_sample(tmp_path)
    result = read_journal(tmp_path, verify=False)
    assert result.problems == ()
    assert result.header == make_header(started=result.header.started)
    assert result.events == tuple(written)
    assert [event.number for event in result.events] == list(range(1, 8))
    assert [event.line for event in result.events] == list(range(2, 9))
    assert result.events[2].frame == "frames/0003.jpg"
    assert result.events[1].candidates == ("a1-b1", "a1")
    assert (tmp_path / "frames").is_dir()


def test_every_line_is_one_json_object_with_the_documented_fields(tmp_path):
    write_sample(tmp_path)
    header, *events = [json.loads(line) for line in lines_of(tmp_path) if line]
    assert header["kind"] == "header"
    assert header["format_version"] == 1
    assert header["initial_position"] == POSITION
    assert header["seats"][0] == {"number": 1, "side": "south", "colour": "orange", "name": "Ada"}
    assert header["calibration"] == {"path": "profile.json", "profile": None}
    assert header["started"].endswith("Z")
    move = events[2]
    assert move == {
        "kind": "move",
        "number": 3,
        "time": move["time"],
        "source": "panel",
        "state_hash": "h1",
        "player": 1,
        "move": "a1-b1",
        "frame": "frames/0003.jpg",
    }
    assert events[4]["correction"] == "undo" and events[4]["retracts"] == 4
    assert events[5]["regions"] == ["e3", "e4"] and events[5]["player"] == 1


def test_each_append_is_on_disk_and_fsynced_before_it_returns(tmp_path, monkeypatch):
    synced_sizes = []
    real_fsync = os.fsync

    def recording_fsync(descriptor):
        real_fsync(descriptor)
        synced_sizes.append(os.fstat(descriptor).st_size)

    monkeypatch.setattr(journal_module.os, "fsync", recording_fsync)
    writer = JournalWriter.create(tmp_path, make_header())
    path = tmp_path / JOURNAL_NAME
    for number in range(1, 6):
        synced_before = len(synced_sizes)
        event = writer.record_note(f"note {number}", state_hash="h", source="bot")
        size_now = path.stat().st_size
        with open(path, "rb") as other_handle:  # another handle, writer still open
            last_line = other_handle.read().split(b"\n")[-2]
        assert json.loads(last_line)["number"] == event.number == number
        # exactly one fsync for this event, after its whole line was written
        assert synced_sizes[synced_before:] == [size_now]
    writer.close()


def test_writer_refuses_an_event_the_reader_would_reject(tmp_path):
    with JournalWriter.create(tmp_path, make_header()) as writer:
        with pytest.raises(RecordError, match="unknown source"):
            writer.record_note("x", state_hash="h", source="telepathy")
        with pytest.raises(RecordError, match="expects 1 next"):
            writer.append(JournalEvent(5, "note", "2026-01-01T00:00:00Z", "bot", "h", text="x"))
        assert writer.next_number == 1
    assert read_journal(tmp_path, verify=False).events == ()


def test_events_given_as_fields_are_checked_and_numbered(tmp_path):
    with JournalWriter.create(tmp_path, make_header()) as writer:
        move = writer.record_fields(
            "move", {"player": 1, "move": "a1", "source": "panel", "state_hash": "h1"}
        )
        assert (move.number, move.kind, move.move) == (1, "move", "a1")
        undo = writer.record_fields(
            "correction", {"correction": "undo", "source": "panel", "state_hash": "h0"}
        )
        assert undo.retracts == 1
        with pytest.raises(RecordError, match="'differences'"):
            writer.record_fields("ruling", {"differences": ["e3"], "source": "camera"})
        with pytest.raises(RecordError, match="unknown source 'rules'"):
            writer.record_fields("pass", {"player": 2, "move": "pass", "source": "rules",
                                          "state_hash": "h"})  # fmt: skip
        with pytest.raises(RecordError, match="has no 'state_hash'"):
            writer.record_fields("note", {"text": "x", "source": "referee"})
    assert [e.number for e in read_journal(tmp_path, verify=False).events] == [1, 2]


def test_closed_writer_refuses_to_append(tmp_path):
    writer = JournalWriter.create(tmp_path, make_header())
    writer.close()
    with pytest.raises(RecordError, match="closed"):
        writer.record_note("late", state_hash="h", source="bot")


def test_header_from_a_position_takes_game_variants_and_seats_from_it():
    header = JournalHeader.from_position(
        {**POSITION, "variants": ["diagonal"]}, names={1: "Ada"}, colours={1: "orange", 2: "blue"}
    )
    assert header.game == "coin-isolation"
    assert header.variants == ("diagonal",)
    assert header.players == 2
    assert header.seats == (Seat(1, "south", "orange", "Ada"), Seat(2, "north", "blue"))
    assert header.initial_position["squares"] == POSITION["squares"]
    assert header.started.endswith("Z")


def test_a_header_cut_before_its_line_ended_can_be_written_again(tmp_path):
    (tmp_path / JOURNAL_NAME).write_bytes(b'{"kind":"header","form')
    with pytest.raises(JournalHeaderError, match="cut short"):
        read_journal(tmp_path)
    with JournalWriter.create(tmp_path, make_header()) as writer:
        writer.record_note("started again", state_hash="h", source="referee")
    result = read_journal(tmp_path, verify=False)
    assert result.problems == ()
    assert [event.text for event in result.events] == ["started again"]


def test_second_writer_on_the_same_journal_is_refused(tmp_path):
    with JournalWriter.create(tmp_path / "game", make_header()):
        with pytest.raises(JournalLockedError, match="another running companion"):
            JournalWriter.create(tmp_path / "game", make_header())
        with pytest.raises(JournalLockedError):
            files_module.open_locked(tmp_path / "game" / JOURNAL_NAME)
    with pytest.raises(JournalExistsError, match="already holds a game journal"):
        JournalWriter.create(tmp_path / "game", make_header())
    assert read_journal(tmp_path / "game", verify=False).problems == ()


def test_cut_last_line_is_reported_and_everything_before_kept(tmp_path):
    written = write_sample(tmp_path)
    lines = lines_of(tmp_path)[:-1]  # drop the final empty piece
    rewrite(tmp_path, [*lines[:-1], lines[-1][:25]])
    result = read_journal(tmp_path, verify=False)
    assert result.events == tuple(written[:-1])
    assert [str(problem) for problem in result.problems] == [
        "line 8: is cut short (the writer stopped in the middle of it); skipped"
    ]
    assert not result.ends_with_newline


def test_garbage_line_in_the_middle_is_reported_and_reading_goes_on(tmp_path):
    written = write_sample(tmp_path)
    lines = lines_of(tmp_path)
    lines[3] = b"\x00\x00garbage{{"
    rewrite(tmp_path, lines)
    result = read_journal(tmp_path, verify=False)
    (problem,) = result.problems  # the gap after it is the garbage line's, not reported again
    assert problem.line == 4
    assert "is not JSON" in problem.message
    assert result.events == (*written[:2], *written[3:])  # every event after the garbage is kept
    lines[3:4] = []  # a line gone without a trace: the gap is reported on the line after it
    rewrite(tmp_path, lines)
    result = read_journal(tmp_path, verify=False)
    assert result.problems == (
        journal_module.JournalProblem(4, "event 3 is missing before it", skipped=False),
    )


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"move": None}, "has no 'move'"),
        ({"number": "three"}, "'number' = 'three', not a whole number"),
        ({"player": True}, "'player' = True, not a whole number"),
        ({"kind": "teleport"}, "unknown kind 'teleport'"),
        ({"time": "yesterday"}, "not an ISO 8601 time"),
        ({"kind": "header"}, "is a second header"),
    ],
)
def test_event_with_bad_fields_is_reported_with_its_line(tmp_path, change, expected):
    written = write_sample(tmp_path)
    lines = lines_of(tmp_path)
    data = json.loads(lines[3])
    data.update(change)
    lines[3] = json.dumps({k: v for k, v in data.items() if v is not None}).encode()
    rewrite(tmp_path, lines)
    result = read_journal(tmp_path, verify=False)
    assert result.problems[0].line == 4
    assert expected in result.problems[0].message
    assert result.events[:2] == tuple(written[:2])


def test_repeated_number_and_blank_line_are_skipped(tmp_path):
    written = write_sample(tmp_path)
    lines = lines_of(tmp_path)
    lines.insert(4, lines[3])
    lines.insert(2, b"")
    rewrite(tmp_path, lines)
    result = read_journal(tmp_path, verify=False)
    assert [str(p) for p in result.problems] == [
        "line 3: is blank; skipped",
        "line 6: event number 3 does not follow 3; skipped",
    ]
    assert result.events == tuple(written)


def test_missing_journal_is_one_sentence(tmp_path):
    with pytest.raises(JournalMissingError) as caught:
        read_journal(tmp_path)
    assert "holds no journal.jsonl" in str(caught.value)


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"", "has no header line"),
        (b'{"kind": "header", "format": "coin-table-compan', "is cut short"),
        (b"not json at all\n", "is not JSON"),
        (b'{"kind": "move"}\n', "is not a coin-table-companion/journal header"),
    ],
)
def test_missing_or_garbled_header_is_a_record_error(tmp_path, content, expected):
    (tmp_path / JOURNAL_NAME).write_bytes(content)
    with pytest.raises(JournalHeaderError) as caught:
        read_journal(tmp_path)
    message = str(caught.value)
    assert expected in message
    assert "\n" not in message


def test_header_of_a_newer_format_asks_for_an_update(tmp_path):
    data = make_header().to_json()
    data["format_version"] = 99
    (tmp_path / JOURNAL_NAME).write_text(json.dumps(data) + "\n")
    with pytest.raises(JournalHeaderError, match="update the companion"):
        read_journal(tmp_path)


CHILD = textwrap.dedent(
    """
    import sys
    from companion.games import get_game
    from companion.record.journal import JournalHeader, JournalWriter, Seat
    folder, seed = sys.argv[1], int(sys.argv[2])
    header = JournalHeader(game="coin-isolation", players=2,
                           seats=(Seat(1, "south"), Seat(2, "north")),
                           initial_position=get_game("coin-isolation").new_position(2, seed=1)
                           .to_json())
    writer = JournalWriter.create(folder, header)
    print("ready", flush=True)
    number = 0
    while True:
        number += 1
        size = (number * 7919 + seed) % 60000
        event = writer.record_note("x" * size, state_hash=f"h{number}", source="bot")
        print(event.number, flush=True)
    """
)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_sigkill_mid_append_loses_nothing_acknowledged(tmp_path, seed):
    rng = random.Random(seed)
    folder = tmp_path / "game"
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(folder), str(seed)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "ready"
    acknowledged = []
    stop_after = rng.randint(3, 40)
    while len(acknowledged) < stop_after:
        acknowledged.append(int(child.stdout.readline()))
    child.kill()  # SIGKILL, at whatever point of an append the child has reached
    child.wait(timeout=10)
    acknowledged += [int(line) for line in child.stdout.read().split()]
    result = read_journal(folder, verify=False)
    numbers = [event.number for event in result.events]
    assert numbers == list(range(1, len(numbers) + 1))
    assert set(acknowledged) <= set(numbers)
    # at most the one line being written at the kill is damaged, and it is the last
    assert len(result.problems) <= 1
    assert all(problem.line == len(numbers) + 2 for problem in result.problems)


@pytest.mark.parametrize("seed", range(40))
def test_random_damage_after_the_header_never_raises_and_keeps_what_precedes_it(tmp_path, seed):
    rng = random.Random(seed)
    written = write_sample(tmp_path)
    raw = bytearray((tmp_path / JOURNAL_NAME).read_bytes())
    header_end = raw.index(b"\n") + 1
    first = rng.randrange(header_end, len(raw))
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(first, len(raw))
        choice = rng.random()
        if choice < 0.4:
            raw[at] = rng.randrange(256)
        elif choice < 0.7:
            del raw[at : at + rng.randint(1, 40)]
        else:
            raw[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 10)))
    if rng.random() < 0.5:
        del raw[rng.randrange(first, len(raw) + 1) :]  # and cut the tail
    (tmp_path / JOURNAL_NAME).write_bytes(bytes(raw))
    result = read_journal(tmp_path, verify=False)
    intact_lines = raw[:first].count(b"\n")  # complete lines before the first damage
    assert result.events[: intact_lines - 1] == tuple(written[: intact_lines - 1])
    for problem in result.problems:
        assert problem.line > intact_lines and problem.message


def test_the_dice_of_a_roll_are_kept_and_refused_when_not_die_faces(tmp_path):
    from contract.schemas import first_error

    with JournalWriter.create(tmp_path, make_header()) as writer:
        fields = {"player": 1, "move": "c1-c2", "source": "camera", "state_hash": "0" * 16,
                  "dice": [[[4], [4]], [[5], [3, 2]]]}
        written = writer.record_fields("move", fields)
        with pytest.raises(RecordError, match="'dice' field that is not rounds of rolls"):
            writer.record_fields("move", {**fields, "dice": [[[7]]]})
    assert written.dice == (((4,), (4,)), ((5,), (3, 2)))
    line = json.loads((tmp_path / "journal.jsonl").read_text().splitlines()[1])
    assert line["dice"] == [[[4], [4]], [[5], [3, 2]]]
    assert first_error(line, "journal-line") is None
    assert first_error({**line, "dice": [[[0]]]}, "journal-line") is not None
    assert read_journal(tmp_path, verify=False).events[0].dice == written.dice
