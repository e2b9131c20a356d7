"""Damaged journals through the real commands: `export` and `replay` keep every readable line,
name the lines they skipped and exit 2; `play --resume` sets a cut tail aside and goes on clean."""

import json
import random

import pytest

from companion.cli import main
from companion.games import get_game
from companion.record.export import parse_game_text
from companion.record.journal import JOURNAL_NAME, JournalHeader, JournalWriter, read_journal
from companion.record.replay import load_timeline
from tests.games.ring_race import GAME as RING_RACE

from .games import record_random_game


def lines_of(folder):
    """The journal's lines, without the empty piece after the last newline."""
    return (folder / JOURNAL_NAME).read_bytes().split(b"\n")[:-1]


def write_lines(folder, lines, newline_at_end=True):
    (folder / JOURNAL_NAME).write_bytes(b"\n".join(lines) + (b"\n" if newline_at_end else b""))


def flip_middle(line):
    """The line with four bytes in its middle flipped, as a bad disk sector would."""
    damaged = bytearray(line)
    middle = len(damaged) // 2
    for at in range(middle, middle + 4):
        damaged[at] ^= 0x55
    return bytes(damaged)


def exported_moves(folder, capsys, expected_status):
    assert main(["export", str(folder)]) == expected_status
    out, err = capsys.readouterr()
    return parse_game_text((folder / "game.txt").read_text()).moves, out, err


@pytest.fixture
def game(tmp_path, capsys):
    """A recorded two-player game (with rulings, undos and notes), and its moves as exported."""
    folder = tmp_path / "game"
    record_random_game(folder, 42, extras=True)
    moves, _, err = exported_moves(folder, capsys, 0)
    assert err == ""
    return folder, moves


def move_lines(folder):
    """The line numbers (1 is the header) of the journal's move lines."""
    return [n for n, line in enumerate(lines_of(folder), 1) if b'"kind":"move"' in line]


@pytest.mark.parametrize("damage", ["flip", "cut"])
def test_export_keeps_every_move_after_a_damaged_middle_line(game, capsys, damage):
    folder, moves = game
    lines = lines_of(folder)
    target = move_lines(folder)[len(move_lines(folder)) // 2]
    line = lines[target - 1]
    lines[target - 1] = flip_middle(line) if damage == "flip" else line[: len(line) // 2]
    write_lines(folder, lines)
    exported, out, err = exported_moves(folder, capsys, 2)
    assert exported == moves  # the lost move is worked out from the next line's state hash
    assert "Traceback" not in err
    reported = err.splitlines()
    assert reported[0].startswith(f"companion export: {folder / JOURNAL_NAME} line {target}: ")
    assert reported[0].endswith("; skipped.")
    assert all(f"line {target}:" in sentence for sentence in reported)
    assert f"line {target} skipped" in out
    text = (folder / "game.txt").read_text()
    assert f"{{journal line {target} was damaged; this move was worked out" in text


def test_replay_shows_every_step_after_a_damaged_middle_line(game, capsys):
    folder, _ = game
    steps = len(load_timeline(folder).steps)
    lines = lines_of(folder)
    target = move_lines(folder)[3]
    lines[target - 1] = flip_middle(lines[target - 1])
    write_lines(folder, lines)
    assert main(["replay", str(folder), "--headless"]) == 2
    out, err = capsys.readouterr()
    shown = out.splitlines()
    assert len(shown) == steps + 1
    assert f"journal line {target} was damaged" in shown[target - 1]
    assert err.splitlines()[-1] == (
        f"companion replay: {folder / JOURNAL_NAME} is damaged (line {target} skipped); the steps "
        "shown are everything that could be read."
    )


def test_a_readable_line_whose_number_breaks_the_sequence_is_skipped_not_the_rest(game, capsys):
    folder, moves = game
    lines = lines_of(folder)
    target = move_lines(folder)[4]
    data = json.loads(lines[target - 1])
    data["number"] = 777  # valid JSON, damaged content
    lines[target - 1] = json.dumps(data).encode()
    write_lines(folder, lines)
    exported, _, err = exported_moves(folder, capsys, 2)
    assert exported == moves
    assert f"line {target}: event number 777 breaks the sequence" in err
    with JournalWriter.resume(folder) as writer:  # the sequence goes on where it was
        assert writer.next_number == len(lines)


def test_two_lost_moves_in_a_row_keep_the_rest_as_a_comment_and_exit_2(game, capsys):
    folder, moves = game
    lines = lines_of(folder)
    numbers = move_lines(folder)
    first = next(n for n in numbers if n + 1 in numbers)
    lines[first - 1] = b"\x00" * 40
    lines[first] = b"{not json"
    write_lines(folder, lines)
    exported, out, _ = exported_moves(folder, capsys, 2)
    assert len(exported) < len(moves)
    text = (folder / "game.txt").read_text()
    comment = text[text.index("{not replayed (journal line") :]
    left_out = [event for event in load_timeline(folder).unreplayed if event.kind == "move"]
    assert left_out and all(f"player {e.player}: {e.move}" in comment for e in left_out)
    assert f"lines {first}, {first + 1} skipped" in out
    assert "not replayed" in out
    assert main(["replay", str(folder), "--headless"]) == 2
    shown = capsys.readouterr().out.splitlines()
    assert sum(line.startswith("not replayed: ") for line in shown) == len(
        load_timeline(folder).unreplayed
    )


def crash_mid_line(folder):
    """Cut the last line in half, as a crash in the middle of an append leaves it."""
    raw = (folder / JOURNAL_NAME).read_bytes()
    last_start = raw.rstrip(b"\n").rindex(b"\n") + 1
    cut = raw[: last_start + (len(raw) - last_start) // 2]
    (folder / JOURNAL_NAME).write_bytes(cut)
    return cut, last_start


def test_resume_sets_a_cut_tail_aside_and_later_exports_are_clean(tmp_path, capsys):
    folder = tmp_path / "game"
    record_random_game(folder, 43, max_turns=10)
    original, intact = crash_mid_line(folder)
    with JournalWriter.resume(folder) as writer:
        side = writer.set_aside
        assert side is not None and side.parent == folder
        assert side.name.startswith("journal.jsonl.damaged-")
        writer.record_note("carried on", state_hash=load_timeline(folder).final.state_hash(),
                           source="referee")  # fmt: skip
    journal = (folder / JOURNAL_NAME).read_bytes()
    assert journal[:intact] + side.read_bytes() == original  # nothing lost
    assert read_journal(folder).problems == ()
    assert main(["export", str(folder)]) == 0
    assert capsys.readouterr().err == ""
    with JournalWriter.resume(folder) as writer:  # a clean journal sets nothing aside
        assert writer.set_aside is None


def test_play_resume_says_where_the_damaged_tail_went(tmp_path, capsys, monkeypatch):
    import companion.launch

    folder = tmp_path / "game"
    record_random_game(folder, 44, max_turns=6)
    original, intact = crash_mid_line(folder)
    monkeypatch.setattr(companion.launch, "wait_until", lambda *args, **kwargs: True)
    status = main(["play", "--resume", str(folder), "--camera", "sim://", "--panel", "sim://",
                   "--headless"])  # fmt: skip
    err = capsys.readouterr().err
    assert status == 0, err
    (side,) = folder.glob("journal.jsonl.damaged-*")
    assert err.splitlines() == [
        f"companion play: the damaged end of {folder / JOURNAL_NAME} (a line a crash cut short) "
        f"was moved to {side}; the game goes on from the last whole line."
    ]
    assert (folder / JOURNAL_NAME).read_bytes()[:intact] + side.read_bytes() == original
    assert read_journal(folder).problems == ()
    assert main(["export", str(folder)]) == 0
    assert capsys.readouterr().err == ""


def test_resume_still_refuses_a_journal_whose_replay_stops_early(tmp_path):
    from companion.record.errors import JournalDamagedError

    folder = tmp_path / "game"
    record_random_game(folder, 45, max_turns=10)
    before = (folder / JOURNAL_NAME).read_bytes()
    lines = lines_of(folder)
    lines[2] = lines[3] = b"garbage"  # two moves in a row: nothing tells what they were
    write_lines(folder, lines)
    damaged = (folder / JOURNAL_NAME).read_bytes()
    with pytest.raises(JournalDamagedError, match="replay stops at line 5"):
        JournalWriter.resume(folder)
    assert (folder / JOURNAL_NAME).read_bytes() == damaged != before
    assert list(folder.glob("journal.jsonl.damaged-*")) == []


def ring_race_journal(folder, seed):
    """A whole Ring Race game (a die at every turn) recorded as the referee records it."""
    game = get_game(RING_RACE.name)
    rng = random.Random(seed)
    position = game.new_position(2, seed=seed)
    with JournalWriter.create(folder, JournalHeader.from_position(position.to_json())) as writer:
        while not game.is_over(position):
            chance = game.is_chance(position)
            if chance:
                outcomes = game.chance_outcomes(position)
                action = rng.choice([outcome for outcome, _ in outcomes])
            else:
                action = rng.choice(game.legal_moves(position))
            after = game.apply(position, action)
            writer.record_move(action.text(), player=game.to_move(position),
                               state_hash=after.state_hash(),
                               source="random" if chance else "camera")  # fmt: skip
            position = after


@pytest.mark.parametrize("seed", range(30))
def test_one_damaged_line_never_gives_a_wrong_move(tmp_path, capsys, seed):
    rng = random.Random(seed)
    folder = tmp_path / "game"
    if seed % 3 == 2:
        ring_race_journal(folder, seed)
    else:
        record_random_game(folder, seed, players=2 + seed % 3, extras=True)
    whole = load_timeline(folder)
    lines = lines_of(folder)
    target = rng.randrange(1, len(lines))  # any line but the header
    damage = rng.choice(["flip", "cut", "garbage"])
    line = lines[target]
    lines[target] = {
        "flip": lambda: flip_middle(line),
        "cut": lambda: line[: rng.randrange(1, len(line))],
        "garbage": lambda: bytes(rng.randrange(256) for _ in range(30)).replace(b"\n", b" "),
    }[damage]()
    write_lines(folder, lines)
    timeline = load_timeline(folder)
    played = [step.event.move for step in whole.standing_steps()]
    read = [step.event.move for step in timeline.standing_steps()]
    if target == len(lines) - 1:  # nothing comes after the last line to tell what it held
        shorter = min(len(played), len(read))
        assert read[:shorter] == played[:shorter]
    elif timeline.stopped_at is None:  # whatever was worked out is what was played
        assert read == played
        assert timeline.final == whole.final
    else:
        assert timeline.unreplayed
    status = main(["export", str(folder)])
    err = capsys.readouterr().err
    assert status == (2 if timeline.problems else 0)
    assert "Traceback" not in err
    assert len(err.splitlines()) == len(timeline.problems)


def test_demo_resume_says_where_the_damaged_tail_went(tmp_path, capsys, monkeypatch):
    import companion.demo

    out = tmp_path / "demo"
    folder = out / "record"
    record_random_game(folder, 46, max_turns=6)
    original, intact = crash_mid_line(folder)
    monkeypatch.setattr(companion.demo, "table_parts", _stop_here)
    with pytest.raises(_Stopped):
        main(["demo", "--resume", str(out), "--headless"])
    (side,) = folder.glob("journal.jsonl.damaged-*")
    assert capsys.readouterr().err.splitlines() == [
        f"companion demo: the damaged end of {folder / JOURNAL_NAME} (a line a crash cut short) "
        f"was moved to {side}; the game goes on from the last whole line."
    ]
    assert (folder / JOURNAL_NAME).read_bytes()[:intact] + side.read_bytes() == original


class _Stopped(Exception):
    """Raised where the resumed demo would open its camera: the tail was dealt with by then."""


def _stop_here(*args, **kwargs):
    raise _Stopped


@pytest.mark.parametrize(("field", "value", "words"), [
    ("seed", "x", "'options.demo.seed' = 'x', not a whole number"),
    ("sloppy_rate", 7, "'options.demo.sloppy_rate' = 7"),
    ("bots", ["psychic"], "'options.demo.bots[0]' = 'psychic'"),
])
def test_a_hand_edited_demo_header_is_one_sentence(tmp_path, capsys, field, value, words):
    out = tmp_path / "demo"
    folder = out / "record"
    record_random_game(folder, 47, max_turns=4)
    lines = lines_of(folder)
    header = json.loads(lines[0])
    header.setdefault("options", {})["demo"] = {"seed": 1, field: value}
    write_lines(folder, [json.dumps(header).encode(), *lines[1:]])
    before = (folder / JOURNAL_NAME).read_bytes()
    assert main(["demo", "--resume", str(out), "--headless"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and "Traceback" not in err
    assert err.startswith(f"companion demo: {folder / JOURNAL_NAME} line 1 (the header) has ")
    assert (folder / JOURNAL_NAME).read_bytes() == before
