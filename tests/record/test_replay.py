"""Replay through the real engine: same final position as direct play, damage found, resume."""

import json
import random
import subprocess
import sys
import textwrap

import pytest

from companion.games import get_game
from companion.record.errors import JournalDamagedError, JournalHeaderError, RecordError
from companion.record.export import CommentItem, game_text_from_timeline
from companion.record.journal import JOURNAL_NAME, JournalWriter, read_journal
from companion.record.replay import load_timeline, resume_position

from .games import GAME, header_for, play_on, record_random_game


def journal_lines(folder):
    return (folder / JOURNAL_NAME).read_bytes().split(b"\n")


def rewrite(folder, lines):
    (folder / JOURNAL_NAME).write_bytes(b"\n".join(lines))


def edit_line(folder, line, **changes):
    lines = journal_lines(folder)
    data = json.loads(lines[line - 1])
    data.update(changes)
    lines[line - 1] = json.dumps(data).encode()
    rewrite(folder, lines)


@pytest.mark.parametrize(
    ("seed", "variants", "players", "extras"),
    [
        (1, (), 2, False),
        (2, (), 2, True),
        (3, (), 3, True),
        (4, ("diagonal",), 2, True),
        (5, ("greedy", "standing-still"), 4, True),
    ],
)
def test_replay_gives_the_position_and_scores_of_direct_play(tmp_path, seed, variants, players,
                                                              extras):  # fmt: skip
    game = get_game(GAME)
    recorded = record_random_game(tmp_path, seed, variants, players, extras)
    timeline = load_timeline(tmp_path)
    assert timeline.problems == ()
    assert timeline.stopped_at is None
    assert timeline.final.to_json() == recorded.final.to_json()
    assert game.scores(timeline.final) == game.scores(recorded.final)
    assert game.is_over(timeline.final)
    assert [step.event.move for step in timeline.standing_steps()] == recorded.standing
    assert len(timeline.steps) == recorded.events_written
    assert len(timeline.positions) == len(timeline.steps) + 1
    assert resume_position(tmp_path).to_json() == recorded.final.to_json()


def test_setup_fix_changes_where_play_starts(tmp_path):
    record_random_game(tmp_path, 6, extras=True, max_turns=3)
    timeline = load_timeline(tmp_path)
    fix = timeline.steps[0].event
    assert fix.correction == "setup"
    assert timeline.initial.to_json()["squares"][fix.region] == "P"
    assert timeline.start_of_play().to_json()["squares"][fix.region] == "N"


def test_bad_state_hash_confirmed_by_the_next_line_is_reported_and_kept(tmp_path):
    recorded = record_random_game(tmp_path, 7, max_turns=12)
    edit_line(tmp_path, 6, state_hash="0000000000000000")
    result = read_journal(tmp_path)
    assert [event.number for event in result.events] == list(range(1, 13))
    assert result.stopped_at is None
    (problem,) = result.problems
    assert problem.line == 6 and not problem.skipped
    assert "state hash '0000000000000000', but replay gives" in problem.message
    assert "line 7 confirms its move, so it is kept" in problem.message
    assert load_timeline(tmp_path).final.to_json() == recorded.final.to_json()


def test_bad_state_hash_on_the_last_line_stops_replay_there(tmp_path):
    record_random_game(tmp_path, 7, max_turns=12)
    edit_line(tmp_path, 13, state_hash="0000000000000000")
    timeline = load_timeline(tmp_path)
    assert [step.event.number for step in timeline.steps] == list(range(1, 12))
    assert timeline.stopped_at == 13
    assert [event.number for event in timeline.unreplayed] == [12]
    assert timeline.problems[0].message.endswith("; it is not replayed")


def test_illegal_move_is_reported_where_it_is_and_the_right_one_worked_out(tmp_path):
    recorded = record_random_game(tmp_path, 8, max_turns=10)
    edit_line(tmp_path, 4, move="a1-a1-a1")
    timeline = load_timeline(tmp_path)
    assert len(timeline.steps) == 10 and timeline.stopped_at is None
    (problem,) = timeline.problems
    assert problem.line == 4 and problem.skipped
    assert "cannot be replayed" in problem.message
    assert f"line 5 confirms player 1's move {recorded.standing[2]} instead" in problem.message
    assert [step.event.move for step in timeline.standing_steps()] == recorded.standing
    assert timeline.steps[2].recovered == (
        "journal line 4 was damaged; this move was worked out from the state hash on line 5"
    )


def test_move_by_the_wrong_player_is_reported_and_kept(tmp_path):
    record_random_game(tmp_path, 8, max_turns=10)
    lines = journal_lines(tmp_path)
    player = json.loads(lines[2])["player"]
    edit_line(tmp_path, 3, player=3 - player)
    timeline = load_timeline(tmp_path)
    assert timeline.stopped_at is None
    (problem,) = timeline.problems
    assert f"it is player {player}'s turn" in problem.message
    assert "line 4 confirms its move, so it is kept" in problem.message
    assert timeline.steps[1].event.player == player


def test_a_damaged_move_is_not_guessed_when_the_next_line_is_damaged_too(tmp_path):
    record_random_game(tmp_path, 8, max_turns=10)
    edit_line(tmp_path, 4, move="a1-a1-a1")
    edit_line(tmp_path, 5, state_hash="0000000000000000")  # the witness cannot confirm anything
    timeline = load_timeline(tmp_path)
    assert timeline.stopped_at == 4
    assert [event.number for event in timeline.unreplayed] == list(range(3, 11))


def test_undo_of_a_move_that_does_not_stand_is_reported(tmp_path):
    game = get_game(GAME)
    position = game.new_position(2, seed=9)
    with JournalWriter.create(tmp_path, header_for(position)) as writer:
        after, _ = play_on(writer, position, max_turns=3)
        writer._standing.append((99, "move"))  # as a buggy caller could have numbered it
        writer.record_undo(retracts=99, state_hash=after.state_hash(), source="panel")
    timeline = load_timeline(tmp_path)
    assert timeline.stopped_at == 5
    assert "retracts event 99, but the last standing move is 3" in timeline.problems[0].message
    assert timeline.final.to_json() == after.to_json()


def test_undo_takes_back_the_move_and_the_passes_after_it(tmp_path):
    game = get_game(GAME)
    start = game.new_position(2, seed=0)  # with play_on's fixed choices, turn 25 is a pass
    with JournalWriter.create(tmp_path, header_for(start)) as writer:
        _, stack = play_on(writer, start, max_turns=25)
        assert [text for _, _, text in stack[-2:]][1] == "pass"
        before_move = stack[-2][1]
        with pytest.raises(RecordError, match="not a standing move"):
            writer.record_undo(retracts=40, state_hash="x", source="panel")
        event = writer.record_undo(state_hash=before_move.state_hash(), source="panel")
        assert event.retracts == 24
        assert writer.standing == tuple(range(1, 24))
    timeline = load_timeline(tmp_path)
    assert timeline.problems == ()
    assert timeline.final.to_json() == before_move.to_json()
    assert timeline.standing == tuple(range(1, 24))
    comment = CommentItem(f"taken back: {stack[-2][2]}, pass")
    assert game_text_from_timeline(timeline).items[-1] == comment
    with JournalWriter.resume(tmp_path) as writer:
        assert writer.standing == tuple(range(1, 24))
        assert writer.record_undo(state_hash=stack[-3][1].state_hash(), source="bot").retracts == 23
    assert load_timeline(tmp_path).final.to_json() == stack[-3][1].to_json()


def test_writer_refuses_an_undo_when_no_move_stands(tmp_path):
    game = get_game(GAME)
    writer = JournalWriter.create(tmp_path, header_for(game.new_position(2, seed=1)))
    with pytest.raises(RecordError, match="no move stands"):
        writer.record_undo(state_hash="x", source="panel")
    writer.close()


def test_garbage_line_that_hid_a_move_is_worked_out_from_the_next_line(tmp_path):
    recorded = record_random_game(tmp_path, 10, max_turns=8)
    lines = journal_lines(tmp_path)
    lines[4] = b"#### garbage ####"
    rewrite(tmp_path, lines)
    timeline = load_timeline(tmp_path)
    assert [problem.line for problem in timeline.problems] == [5, 5]
    assert "is not JSON" in timeline.problems[0].message
    assert timeline.problems[1].message == (
        f"held event 4, player 2's move {recorded.standing[3]}, worked out from the state hash "
        "on line 6"
    )
    assert timeline.stopped_at is None
    assert [step.event.number for step in timeline.steps] == list(range(1, 9))
    assert timeline.steps[3].event.source == "referee" and timeline.steps[3].event.line == 5


def test_two_garbage_lines_that_hid_moves_stop_replay_at_the_next_move(tmp_path):
    record_random_game(tmp_path, 10, max_turns=8)
    lines = journal_lines(tmp_path)
    lines[4] = lines[5] = b"#### garbage ####"
    rewrite(tmp_path, lines)
    timeline = load_timeline(tmp_path)
    assert [problem.line for problem in timeline.problems] == [5, 6, 7]
    assert timeline.stopped_at == 7
    assert [step.event.number for step in timeline.steps] == [1, 2, 3]
    assert [event.number for event in timeline.unreplayed] == [6, 7, 8]


@pytest.mark.parametrize(
    ("lost", "expected"),
    [
        (5, "held event 4, an undo of event 3, worked out from the state hash on line 6"),
        (4, "held event 3, a move taken back on line 5"),
    ],
)
def test_a_lost_undo_is_worked_out_and_a_lost_move_taken_back_needs_nothing(
    tmp_path, lost, expected
):
    game = get_game(GAME)
    start = game.new_position(2, seed=14)
    with JournalWriter.create(tmp_path, header_for(start)) as writer:
        _, stack = play_on(writer, start, max_turns=3)
        number, before, _ = stack.pop()
        writer.record_undo(retracts=number, state_hash=before.state_hash(), source="panel")
        play_on(writer, before, max_turns=3)
    whole = load_timeline(tmp_path)
    lines = journal_lines(tmp_path)
    lines[lost - 1] = b"\x00" * 20
    rewrite(tmp_path, lines)
    timeline = load_timeline(tmp_path)
    assert timeline.stopped_at is None
    assert timeline.standing_steps() == whole.standing_steps()
    assert [str(problem) for problem in timeline.problems][-1] == f"line {lost}: {expected}"


def test_unknown_game_or_bad_initial_position_is_a_record_error(tmp_path):
    record_random_game(tmp_path, 11, max_turns=2)
    edit_line(tmp_path, 1, game="chess")
    with pytest.raises(RecordError, match="'chess' is unknown"):
        load_timeline(tmp_path)
    edit_line(tmp_path, 1, game=GAME, initial_position={"game": GAME, "squares": {"z9": "P"}})
    with pytest.raises(JournalHeaderError, match="has no 'players' in 'initial_position'"):
        load_timeline(tmp_path)


def test_resume_after_a_cut_line_carries_on_and_the_game_reads_whole(tmp_path):
    game = get_game(GAME)
    start = game.new_position(2, seed=12)
    with JournalWriter.create(tmp_path, header_for(start)) as writer:
        play_on(writer, start, max_turns=6)
    uninterrupted = tmp_path / "whole"
    with JournalWriter.create(uninterrupted, header_for(start)) as writer:
        expected, _ = play_on(writer, start)
    lines = journal_lines(tmp_path)[:-1]
    rewrite(tmp_path, [*lines[:-1], lines[-1][:30]])  # the 6th move was being written
    position = resume_position(tmp_path)
    with JournalWriter.resume(tmp_path) as writer:
        assert writer.next_number == 6
        assert writer.set_aside is not None
        assert writer.set_aside.read_bytes() == lines[-1][:30]
        play_on(writer, position)
    timeline = load_timeline(tmp_path)
    assert timeline.problems == ()  # the cut line went to the side file, not into the journal
    assert timeline.stopped_at is None
    assert timeline.final.to_json() == expected.to_json()


def test_resume_refuses_a_journal_whose_replay_stops_early(tmp_path):
    record_random_game(tmp_path, 13, max_turns=6)
    edit_line(tmp_path, 3, state_hash="ffffffffffffffff")
    edit_line(tmp_path, 4, state_hash="ffffffffffffffff")
    with pytest.raises(JournalDamagedError, match="replay stops at line 3"):
        JournalWriter.resume(tmp_path)


CHILD = textwrap.dedent(
    """
    import sys
    from companion.games import get_game
    from companion.record.journal import JournalWriter
    from companion.record.replay import resume_position
    from tests.record.games import header_for, play_on
    folder, seed, resume = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "resume"
    game = get_game("coin-isolation")
    if resume:
        position, writer = resume_position(folder), JournalWriter.resume(folder)
    else:
        position = game.new_position(2, seed=seed)
        writer = JournalWriter.create(folder, header_for(position))
    print("ready", flush=True)

    def acknowledge(event):
        print(event.number, flush=True)
        sys.stdin.readline()  # go on only when the parent says so: it may kill us here

    play_on(writer, position, on_event=acknowledge)
    print("over", flush=True)
    """
)


def run_child(folder, seed, mode, kill_after=None):
    """Run a recording game in a child process; kill it after ``kill_after`` acknowledgements.

    The child waits after each acknowledgement until told to go on, so it is killed exactly
    there, however fast it plays.
    """
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(folder), str(seed), mode],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout.readline().strip() == "ready"
    acknowledged = []
    for line in child.stdout:
        if line.strip() == "over":
            break
        acknowledged.append(int(line))
        if kill_after is not None and len(acknowledged) >= kill_after:
            child.kill()
            break
        child.stdin.write("\n")
        child.stdin.flush()
    child.stdin.close()
    child.wait(timeout=60)
    acknowledged += [int(word) for word in child.stdout.read().split() if word.isdigit()]
    return acknowledged


@pytest.mark.parametrize("seed", [21, 22])
def test_game_killed_at_a_random_point_resumes_to_the_uninterrupted_result(tmp_path, seed):
    game = get_game(GAME)
    start = game.new_position(2, seed=seed)
    with JournalWriter.create(tmp_path / "whole", header_for(start)) as writer:
        expected, _ = play_on(writer, start)
    folder = tmp_path / "killed"
    acknowledged = run_child(folder, seed, "create", kill_after=random.Random(seed).randint(1, 30))
    numbers = {event.number for event in read_journal(folder).events}
    assert set(acknowledged) <= numbers
    assert load_timeline(folder).final.to_json() != expected.to_json()  # killed before the end
    run_child(folder, seed, "resume")
    timeline = load_timeline(folder)
    assert timeline.stopped_at is None
    assert timeline.final.to_json() == expected.to_json()
    assert game.scores(timeline.final) == game.scores(expected)
