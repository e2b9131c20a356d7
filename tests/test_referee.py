"""The referee's state machine on real Coin Isolation positions: accept, ask, reject, undo."""

import random

from companion.games import get_game
from companion.judging import appearance
from companion.referee import Begin, Lights, Phase, Press, Record, Referee, Seen, WantFrame
from contract.observation import Observation, RegionReading

GAME = get_game("coin-isolation")


def looks_like(position) -> Observation:
    """A perfect camera reading of ``position``."""
    regions = {
        square: RegionReading(coin=look.coin, pawn=look.pawn)
        for square, look in appearance(GAME, position).items()
    }
    return Observation(regions=regions)


def started_referee(seed: int = 1, variants=()):
    template = GAME.new_position(2, variants, seed=seed)
    referee = Referee(GAME, template)
    effects = referee.start()
    assert WantFrame() in effects
    referee.handle(Seen(looks_like(template)))
    effects = referee.handle(Press("CONFIRM"))
    assert referee.phase is Phase.TURN
    assert Begin(template) in effects
    assert referee.position == template
    return referee


def test_setup_reads_layout_and_confirm_starts_the_game():
    referee = started_referee()
    view = referee.view()
    assert view.to_move == 1
    assert view.targets == GAME.legal_targets(referee.position)
    assert view.targets, "player 1 has moves on a fresh board"


def test_a_legal_move_is_accepted_recorded_and_the_next_player_lit():
    referee = started_referee(seed=2)
    position = referee.position
    move = random.Random(2).choice(GAME.legal_moves(position))
    after = GAME.apply(position, move)
    assert referee.handle(Press("END1")) == [WantFrame()]
    effects = referee.handle(Seen(looks_like(after), frame="0001.jpg"))
    records = [effect for effect in effects if isinstance(effect, Record)]
    assert records[0].kind == "move"
    assert records[0].fields["state_hash"] == after.state_hash()
    assert records[0].fields["frame"] == "0001.jpg"
    assert effects[-1] == Lights(turn=2, verdict="green")
    assert referee.view().to_move == 2


def test_the_wrong_players_button_is_refused_with_a_message():
    referee = started_referee()
    assert referee.handle(Press("END2")) == []
    assert "player 1's turn" in referee.view().message


def test_an_unchanged_board_is_rejected_without_losing_the_position():
    referee = started_referee(seed=3)
    position = referee.position
    referee.handle(Press("END1"))
    effects = referee.handle(Seen(looks_like(position)))
    assert Lights(turn=1, verdict="red") in effects
    assert referee.position == position
    assert referee.phase is Phase.TURN


def test_an_illegal_change_is_rejected_with_the_squares_to_put_back():
    referee = started_referee(seed=4)
    position = referee.position
    observation = looks_like(position)
    regions = dict(observation.regions)
    regions["d4"] = RegionReading(coin=None)
    regions["e5"] = RegionReading(coin="Q", pawn="1")
    referee.handle(Press("END1"))
    effects = referee.handle(Seen(Observation(regions=regions)))
    assert Lights(turn=1, verdict="red") in effects
    view = referee.view()
    assert set(view.marked) >= {"d4"}
    assert "d4" in view.message
    assert view.severity == "error"
    assert referee.position == position


def test_undo_needs_confirm_and_restores_the_position():
    referee = started_referee(seed=5)
    position = referee.position
    move = GAME.legal_moves(position)[0]
    referee.handle(Press("END1"))
    referee.handle(Seen(looks_like(GAME.apply(position, move))))
    referee.handle(Press("UNDO"))
    assert referee.phase is Phase.UNDO
    effects = referee.handle(Press("CONFIRM"))
    assert any(isinstance(effect, Record) and effect.kind == "correction" for effect in effects)
    assert referee.position == position
    assert referee.view().last_moves == ()


def test_undo_cancelled_by_another_button_keeps_the_move():
    referee = started_referee(seed=6)
    position = referee.position
    move = GAME.legal_moves(position)[0]
    referee.handle(Press("END1"))
    referee.handle(Seen(looks_like(GAME.apply(position, move))))
    after = referee.position
    referee.handle(Press("UNDO"))
    referee.handle(Press("SELECT"))
    assert referee.position == after
    assert referee.phase is Phase.TURN


def find_ambiguous(seed: int):
    """A position and a move whose look is shared with other legal moves."""
    rng = random.Random(seed)
    for attempt in range(400):
        variants = ("mixed-change",) if attempt % 2 else ()
        position = GAME.new_position(2, variants, seed=seed + attempt)
        for _ in range(rng.randrange(2, 12)):
            if GAME.is_over(position):
                break
            position = GAME.apply(position, rng.choice(GAME.legal_moves(position)))
        if GAME.is_over(position):
            continue
        for move in GAME.legal_moves(position):
            after = GAME.apply(position, move)
            if len(GAME.candidates(position, looks_like(after))) > 1:
                return position, move
    raise AssertionError("no ambiguous move found")


def choose(referee, position, move):
    """Press select until the shown candidate has the same outcome as ``move``, then confirm."""
    wanted = GAME.apply(position, move)
    for _ in range(len(referee.view().candidates)):
        view = referee.view()
        if GAME.apply(position, GAME.parse_move(view.candidates[view.selected])) == wanted:
            return referee.handle(Press("CONFIRM"))
        referee.handle(Press("SELECT"))
    raise AssertionError(f"{move.text()} is not among {referee.view().candidates}")


def test_ambiguous_moves_are_asked_and_select_confirm_picks_one():
    position, move = find_ambiguous(7)
    referee = Referee(GAME, position, position=position)
    mover = GAME.to_move(position)
    referee.handle(Press(f"END{mover}"))
    effects = referee.handle(Seen(looks_like(GAME.apply(position, move))))
    assert Lights(turn=mover, verdict="ask") in effects
    view = referee.view()
    assert view.phase is Phase.CHOOSING
    assert len(view.candidates) > 1
    assert view.path, "the shown candidate is drawn on the board"
    effects = choose(referee, position, move)
    records = [effect for effect in effects if isinstance(effect, Record)]
    assert [record.kind for record in records[:2]] == ["ruling", "move"]
    assert records[1].fields["state_hash"] == GAME.apply(position, move).state_hash()


def test_undo_while_choosing_cancels_the_choice_and_relights_the_mover():
    position, move = find_ambiguous(7)
    referee = Referee(GAME, position, position=position)
    mover = GAME.to_move(position)
    referee.handle(Press(f"END{mover}"))
    referee.handle(Seen(looks_like(GAME.apply(position, move))))
    assert referee.phase is Phase.CHOOSING
    assert referee.handle(Press("UNDO")) == [Lights(turn=mover)]
    assert referee.phase is Phase.TURN
    assert referee.position == position, "cancelling a choice plays nothing"


def test_a_whole_game_ends_with_the_result():
    referee = started_referee(seed=8)
    rng = random.Random(8)
    for _ in range(500):
        if referee.phase is Phase.OVER:
            break
        position = referee.position
        move = rng.choice(GAME.legal_moves(position))
        referee.handle(Press(f"END{GAME.to_move(position)}"))
        referee.handle(Seen(looks_like(GAME.apply(position, move))))
        if referee.phase is Phase.CHOOSING:
            choose(referee, position, move)
    assert referee.phase is Phase.OVER
    view = referee.view()
    assert view.result == GAME.result(referee.position).text()
    assert view.scores == GAME.scores(referee.position)


def test_a_doubtful_square_is_not_held_against_the_move_that_fits_the_rest():
    referee = started_referee(seed=9)
    position = referee.position
    move = GAME.legal_moves(position)[0]
    after = GAME.apply(position, move)
    observation = looks_like(after)
    target = move.regions()[-1]
    regions = dict(observation.regions)
    regions[target] = RegionReading(coin="Q", pawn="1", confidence=0.1)
    referee.handle(Press("END1"))
    effects = referee.handle(Seen(Observation(regions=regions)))
    assert Lights(turn=2, verdict="green") in effects or referee.phase is Phase.CHOOSING


def test_a_confident_misreading_is_still_rejected():
    referee = started_referee(seed=9)
    position = referee.position
    move = GAME.legal_moves(position)[0]
    observation = looks_like(GAME.apply(position, move))
    target = move.regions()[-1]
    regions = dict(observation.regions)
    regions[target] = RegionReading(coin="Q", pawn="1", confidence=0.95)
    referee.handle(Press("END1"))
    effects = referee.handle(Seen(Observation(regions=regions)))
    if GAME.candidates(position, Observation(regions=regions)):
        return
    assert Lights(turn=1, verdict="red") in effects


def _misread_move(seed: int):
    """A started referee, a legal move, and what a camera sure of one wrong square sees after it:
    the square the move ends on shows a quarter (nothing legal leaves one there)."""
    referee = started_referee(seed=seed)
    position = referee.position
    for move in GAME.legal_moves(position):
        target = move.regions()[-1]
        regions = dict(looks_like(GAME.apply(position, move)).regions)
        regions[target] = RegionReading(coin="Q", pawn=regions[target].pawn, confidence=0.95)
        observation = Observation(regions=regions)
        if not GAME.candidates(position, observation):
            return referee, move, target, observation
    raise AssertionError("no move whose misreading fits no other move")


def test_pressing_again_on_an_unchanged_rejected_board_offers_the_nearest_move_to_confirm():
    """The camera is sure and wrong about one square: the first press is rejected and says how
    to insist; the second press on the same board offers the move, confirm accepts it and the
    record says it was taken over the camera."""
    referee, move, target, observation = _misread_move(seed=9)
    position = referee.position
    referee.handle(Press("END1"))
    assert Lights(turn=1, verdict="red") in referee.handle(Seen(observation))
    assert "press your button again without touching the board" in referee.view().message
    referee.handle(Press("END1"))
    effects = referee.handle(Seen(observation))
    assert Lights(turn=1, verdict="ask") in effects
    assert referee.phase is Phase.CHOOSING
    assert target in referee.view().marked
    for _ in range(8):  # moves that look alike are offered in turn; select shows the next
        if move.text() in referee.view().message:
            break
        referee.handle(Press("SELECT"))
    assert move.text() in referee.view().message
    effects = referee.handle(Press("CONFIRM"))
    ruling = next(e for e in effects if isinstance(e, Record) and e.kind == "ruling")
    assert ruling.fields["chosen"] == move.text()
    assert "over the camera" in ruling.fields["text"] and target in ruling.fields["text"]
    assert referee.position == GAME.apply(position, move)


def test_a_changed_board_after_a_rejection_is_judged_afresh():
    """Pressing again after changing the board is a new attempt, not insisting: rejected again
    when it fits no move. Insisting on that board then offers the nearest move; UNDO turns the
    offer down and keeps the position."""
    referee, _, target, observation = _misread_move(seed=9)
    position = referee.position
    referee.handle(Press("END1"))
    referee.handle(Seen(observation))
    moved = dict(observation.regions)
    emptied = next(name for name, reading in moved.items()
                   if reading.coin and name != target and not reading.pawn)
    moved[emptied] = RegionReading(coin=None)
    referee.handle(Press("END1"))
    assert Lights(turn=1, verdict="red") in referee.handle(Seen(Observation(regions=moved)))
    referee.handle(Press("END1"))
    assert Lights(turn=1, verdict="ask") in referee.handle(Seen(Observation(regions=moved)))
    assert set(referee.view().marked) == {target, emptied}
    assert referee.handle(Press("UNDO")) == [Lights(turn=1)]
    assert referee.position == position
    assert referee.phase is Phase.TURN


def test_nearest_moves_are_every_legal_move_as_close_to_what_was_seen_as_any():
    """Checked against every legal move: none is closer than those returned, all returned are
    equally close, and the move actually played is among them."""
    from companion.judging import differences, nearest_moves, seen_looks

    for seed in (9, 11, 12):
        referee, move, _, observation = _misread_move(seed=seed)
        position = referee.position
        seen = seen_looks(observation)
        moves, differing = nearest_moves(GAME, position, seen, most=50)
        counts = {
            candidate.text():
                len(differences(appearance(GAME, GAME.apply(position, candidate)), seen))
            for candidate in GAME.legal_moves(position)
        }
        assert min(counts.values()) == len(differing) == 1
        assert {candidate.text() for candidate in moves} == {
            text for text, count in counts.items() if count == len(differing)
        }
        assert move.text() in {candidate.text() for candidate in moves}
