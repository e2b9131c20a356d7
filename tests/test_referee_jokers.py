"""The referee runs a Jokers and Coins turn (issue 21, item 5): the card read on the mover's
discard spot, asked on the panel when the camera is unsure or cannot tell, inferred when only
one card explains the coins; a card that fits no play rejected; a discard and pass; a bump to
the supply, and a teammate's bump to its IN confirmed by the camera; a sloppy move rejected.
Observations are what a perfect camera reports, with the card vision would add."""

from companion.games.jokers_and_coins import GAME
from companion.referee import Effect, Phase, Press, Record, Referee, Seen, WantFrame
from contract.observation import CardReading, Observation, RegionReading
from contract.table_state import TableState
from tests.games.jokers_and_coins.helpers import table


def camera_sees(layout: TableState, card: str | None = None, confidence: float = 0.97,
                seat: int = 1) -> Observation:
    """A perfect camera's observation of ``layout``, with ``card`` face up on ``seat``'s
    discard spot (``"?"``: a card whose rank cannot be read)."""
    regions = {name: RegionReading(look.coin, look.pawn, count=look.count, kinds=look.kinds)
               for name, look in layout.looks().items()}
    if card is not None:
        rank = None if card == "?" else card
        regions[f"discard-{seat}"] = RegionReading(
            card=CardReading(rank, confidence, (100.0, 100.0)))
    return Observation(regions)


def play(referee: Referee, text: str, card: str | None = None, confidence: float = 0.97,
         layout: TableState | None = None) -> list[Effect]:
    """The mover lays ``card``, moves the coins as ``text`` does (or as ``layout`` shows) and
    presses; the camera reads the board."""
    position = referee.position
    assert position is not None
    seat = GAME.to_move(position)
    shown = layout if layout is not None else GAME.layout(GAME.apply_text(position, text))
    assert referee.handle(Press(f"END{seat}")) == [WantFrame()]
    return referee.handle(Seen(camera_sees(shown, card, confidence, seat), frame="f1"))


def moves(effects: list[Effect]) -> list[tuple[str, str | None, str | None]]:
    return [(effect.fields["move"], effect.fields.get("card"), effect.fields.get("card_source"))
            for effect in effects if isinstance(effect, Record) and effect.kind == "move"]


def rulings(effects: list[Effect]) -> list[Record]:
    return [effect for effect in effects if isinstance(effect, Record)
            and effect.kind == "ruling"]


def referee_at(position) -> Referee:
    return Referee(GAME, position, position=position)


def test_the_card_read_on_the_discard_spot_tells_a_queen_from_a_ten():
    referee = referee_at(table(4, {1: ["t20"]}))
    effects = play(referee, "10:t20>t30", card="Q")
    assert moves(effects) == [("Q:t20>t30", "Q", "camera")]
    assert referee.phase is Phase.TURN and GAME.to_move(referee.position) == 2
    assert "The Q was read by the camera." in referee.view().facts
    assert any(line.startswith("Legal plays of that Q") for line in referee.view().facts)


def test_an_unsure_reading_is_confirmed_on_the_panel_with_the_read_card_first():
    referee = referee_at(table(4, {1: ["t20"]}))
    effects = play(referee, "10:t20>t30", card="J", confidence=0.4)
    assert moves(effects) == [] and referee.phase is Phase.CHOOSING
    view = referee.view()
    assert view.candidates[0] == "J:t20>t30"
    assert set(view.candidates) == {"10:t20>t30", "J:t20>t30", "Q:t20>t30", "K:t20>t30"}
    referee.handle(Press("SELECT"))
    effects = referee.handle(Press("CONFIRM", source="panel"))
    chosen = referee.view().candidates  # the list is gone once chosen
    assert chosen == ()
    assert moves(effects) == [(view.candidates[1], view.candidates[1].split(":")[0], "panel")]


def test_a_card_no_other_rank_explains_is_inferred_when_the_camera_reads_none():
    referee = referee_at(table(4, {1: ["t20"]}))
    assert moves(play(referee, "5:t20>t25")) == [("5:t20>t25", "5", "inferred")]
    assert "The 5 was inferred from the coins." in referee.view().facts


def test_an_unreadable_card_on_a_move_several_ranks_make_is_asked():
    referee = referee_at(table(4, {1: ["t20"]}))
    play(referee, "10:t20>t30", card="?")
    assert referee.phase is Phase.CHOOSING and len(referee.view().candidates) == 4


def test_a_card_that_fits_none_of_the_plays_is_rejected_naming_its_plays():
    referee = referee_at(table(4, {1: ["t20"]}))
    effects = play(referee, "4:t20>t24", card="5")
    assert moves(effects) == [] and referee.phase is Phase.TURN
    message = referee.view().message
    assert ("The card on discard-1 is a 5, but the coins moved as a 4 plays; a 5 must be "
            "played") in message
    assert "5:t20>t25" in message and referee.view().marked == ("discard-1",)
    assert rulings(effects)[0].fields["ruling"] == "reject"
    assert moves(play(referee, "5:t20>t25", card="5")) == [("5:t20>t25", "5", "camera")]


def test_a_card_the_camera_misreads_is_put_right_by_pressing_again_and_confirming():
    referee = referee_at(table(3, {1: ["t20"], 2: ["t26"]}))
    effects = play(referee, "joker:t20>t26", card="J")  # a Joker read as a J, surely
    assert moves(effects) == [] and referee.view().severity == "error"
    effects = play(referee, "joker:t20>t26", card="J")  # pressed again, nothing touched
    assert moves(effects) == [] and referee.phase is Phase.CHOOSING
    assert referee.view().candidates == ("6:t20>t26", "joker:t20>t26")  # what the coins show
    assert "the camera still reads the card on discard-1 otherwise" in referee.view().message
    referee.handle(Press("SELECT"))
    assert moves(referee.handle(Press("CONFIRM", source="keyboard"))) == [
        ("joker:t20>t26", "joker", "keyboard")]


def test_a_card_with_no_legal_play_is_discarded_and_the_turn_passes():
    start = GAME.new_position(4)
    referee = referee_at(start)
    effects = play(referee, "discard", card="7", layout=GAME.layout(start))
    assert moves(effects) == [("discard:7", "7", "camera")]
    assert GAME.to_move(referee.position) == 2
    assert referee.position.cards.discard[6] == 1  # the 7 is face up, its rank known


def test_a_card_that_could_move_is_not_discarded():
    start = GAME.new_position(4)
    referee = referee_at(start)
    effects = play(referee, "discard", card="A", layout=GAME.layout(start))
    assert moves(effects) == [] and referee.phase is Phase.TURN
    assert "the coins have not moved, which is a discard" in referee.view().message
    assert "A:enter" in referee.view().message


def test_a_discard_of_unread_rank_is_entered_on_the_panel():
    start = GAME.new_position(4)
    referee = referee_at(start)
    play(referee, "discard", layout=GAME.layout(start))
    candidates = referee.view().candidates
    assert referee.phase is Phase.CHOOSING
    assert set(candidates) == {f"discard:{rank}" for rank in
                               ("2", "3", "4", "5", "6", "7", "8", "9", "10", "joker")}
    while referee.view().candidates[referee.view().selected] != "discard:9":
        referee.handle(Press("SELECT"))
    assert moves(referee.handle(Press("CONFIRM", source="keyboard"))) == [
        ("discard:9", "9", "keyboard")]


def test_an_opponent_bumped_goes_back_to_its_supply():
    referee = referee_at(table(4, {1: ["t20"], 2: ["t25"]}))
    effects = play(referee, "5:t20>t25", card="5")
    assert moves(effects) == [("5:t20>t25", "5", "camera")]
    assert "Seat 2's coin on t25 goes back to its supply." in referee.view().message
    assert referee.position.coins[1].count(-1) == 4


def test_a_teammate_bumped_to_its_in_is_waited_for_until_the_camera_sees_it():
    position = table(4, {1: ["t20"], 3: ["t30"]})
    after = GAME.apply_text(position, "10:t20>t30")
    part = GAME.mover_part(position, GAME.parse_move("10:t20>t30"))
    assert part is not None and "t40" not in part and "t40" in GAME.layout(after)
    referee = referee_at(position)
    effects = play(referee, "10:t20>t30", card="10", layout=part)
    assert moves(effects) == [("10:t20>t30", "10", "camera")]
    assert referee.phase is Phase.RESTORE and referee.view().marked == ("t40",)
    assert "to its IN t40" in referee.view().message
    assert referee.handle(Press("CONFIRM")) == [WantFrame()]
    referee.handle(Seen(camera_sees(part)))
    assert referee.phase is Phase.RESTORE and referee.view().severity == "error"
    referee.handle(Press("CONFIRM"))
    referee.handle(Seen(camera_sees(GAME.layout(after))))
    assert referee.phase is Phase.TURN and GAME.to_move(referee.position) == 2


def test_players_pressing_again_on_an_unchanged_board_go_on_over_the_camera():
    """A camera that surely misreads the board the players have put right must not hold the
    game for ever: pressed again without the board changing, the players' word goes, and the
    journal says the camera saw it otherwise. A board changed in between is judged afresh."""
    position = table(4, {1: ["t20"], 3: ["t30"]})
    part = GAME.mover_part(position, GAME.parse_move("10:t20>t30"))
    referee = referee_at(position)
    play(referee, "10:t20>t30", card="10", layout=part)
    referee.handle(Press("CONFIRM"))
    referee.handle(Seen(camera_sees(part)))
    assert referee.phase is Phase.RESTORE and "press confirm again" in referee.view().message
    moved = dict(part.items())
    moved["t5"] = moved.pop("t30")  # the board changed since: judged afresh
    referee.handle(Press("CONFIRM"))
    referee.handle(Seen(camera_sees(TableState(moved))))
    assert referee.phase is Phase.RESTORE and referee.view().severity == "error"
    referee.handle(Press("CONFIRM"))
    referee.handle(Seen(camera_sees(TableState(moved))))
    assert referee.phase is Phase.RESTORE  # unchanged, but three regions differ: too many
    referee.handle(Press("CONFIRM"))
    referee.handle(Seen(camera_sees(part)))
    referee.handle(Press("CONFIRM"))
    effects = referee.handle(Seen(camera_sees(part)))
    assert referee.phase is Phase.TURN and GAME.to_move(referee.position) == 2
    notes = [effect.fields["text"] for effect in effects
             if isinstance(effect, Record) and effect.kind == "note"]
    assert notes == ["The players confirmed the board over the camera, which saw t40 otherwise."]


def test_a_teammates_bump_accepted_from_a_misreading_can_be_taken_back():
    """A move misread as a teammate's bump leaves the referee waiting for the coin on its IN;
    UNDO there takes the move back (it used to be ignored, and the demo gave up), and any
    other answer to the undo leaves the bump still to be finished by hand."""
    position = table(4, {1: ["t20"], 3: ["t30"]})
    part = GAME.mover_part(position, GAME.parse_move("10:t20>t30"))
    referee = referee_at(position)
    play(referee, "10:t20>t30", card="10", layout=part)
    assert referee.phase is Phase.RESTORE
    referee.handle(Press("UNDO"))
    assert referee.phase is Phase.UNDO
    referee.handle(Press("SELECT"))
    assert referee.phase is Phase.RESTORE and referee.view().marked == ("t40",)
    referee.handle(Press("UNDO"))
    referee.handle(Press("CONFIRM"))
    assert referee.phase is Phase.TURN and referee.position == position


def test_a_misread_move_that_ended_the_game_can_be_taken_back():
    position = table(4, {1: ["h1-2", "h1-3", "h1-4", "t4"], 3: ["h3-1", "h3-2", "h3-3", "h3-4"]})
    referee = referee_at(position)
    play(referee, "A:t4>h1-1", card="A")
    assert referee.phase is Phase.OVER
    referee.handle(Press("UNDO"))
    referee.handle(Press("CONFIRM"))
    assert referee.phase is Phase.TURN and referee.position == position


def test_a_partners_coin_played_is_accepted_while_the_camera_doubts_another_space():
    """Seat 4, all HOME, moves seat 2's coin while the camera doubts its own h4-4 (seed 2's
    light): the move fits every space the camera is sure of, so it is taken."""
    home = ["h4-1", "h4-2", "h4-3", "h4-4"]
    position = table(4, {4: home, 2: ["t14"]}, to_move=4)
    referee = referee_at(position)
    seen = camera_sees(GAME.layout(GAME.apply_text(position, "Q:t14>t24")), "Q", seat=4)
    regions = dict(seen.regions)
    regions["h4-4"] = RegionReading(None, confidence=0.1)
    referee.handle(Press("END4"))
    effects = referee.handle(Seen(Observation(regions), frame="f1"))
    assert moves(effects) == [("Q:t14>t24", "Q", "camera")] and referee.phase is Phase.TURN


def test_a_teammates_bump_is_accepted_while_the_camera_doubts_another_space():
    """The mover's part of a bump (the teammate's coin not yet on its IN) fits every space the
    camera is sure of: taken, and the IN asked for (it was refused for ever)."""
    position = table(4, {1: ["t20"], 3: ["t30", "h3-4"]})
    part = GAME.mover_part(position, GAME.parse_move("10:t20>t30"))
    assert part is not None
    regions = dict(camera_sees(part, "10").regions)
    regions["h3-4"] = RegionReading(None, confidence=0.1)
    referee = referee_at(position)
    referee.handle(Press("END1"))
    effects = referee.handle(Seen(Observation(regions), frame="f1"))
    assert moves(effects) == [("10:t20>t30", "10", "camera")]
    assert referee.phase is Phase.RESTORE and referee.view().marked == ("t40",)


def test_a_sloppy_move_is_rejected_and_the_put_right_one_accepted():
    position = table(4, {1: ["t20", "t50"]})
    referee = referee_at(position)
    sloppy = GAME.layout(GAME.apply_text(position, "5:t20>t25"))
    sloppy = TableState({name: contents for name, contents in sloppy.items() if name != "t50"})
    effects = play(referee, "5:t20>t25", card="5", layout=sloppy)
    assert moves(effects) == [] and "t50" in referee.view().marked
    assert rulings(effects)[0].fields["ruling"] == "reject"
    assert moves(play(referee, "5:t20>t25", card="5")) == [("5:t20>t25", "5", "camera")]


def test_a_coin_read_on_a_discard_spot_is_a_cards_picture_and_supplies_are_judged():
    from calibration.geometry import mat_for_game
    from companion.table import judged_only

    geometry = mat_for_game("jokers-and-coins", players=4)
    card = CardReading("7", 0.9, (0.0, 0.0))
    seen = Observation({"t9": RegionReading("P"), "discard-2": RegionReading("D", "red", card=card),
                        "discard-3": RegionReading("Q"),
                        "supply-1": RegionReading(count=3, kinds=("P", "P", "P"))})
    kept = judged_only(seen, geometry)
    assert kept.regions["supply-1"].count == 3
    assert kept.regions["t9"] == RegionReading("P")
    assert kept.regions["discard-2"].coin is None and kept.regions["discard-2"].card == card
    assert kept.regions["discard-3"].coin is None and kept.regions["discard-2"].pawn is None


def test_a_doubtful_space_read_as_it_was_does_not_hide_the_play_that_landed_there():
    """Seat 3's Joker brings a dime from its supply onto its partner's penny on t9, whose
    penny is still to go onto its IN by hand: on the ring only t9 has changed, and the camera,
    unsure there, reads the penny still (the demo's ply 2 of seed 1). That reading also fits
    a discard; the Joker, which the spaces the camera is sure of fit as well, must be among
    the plays offered, not left out for the discard."""
    position = table(4, {1: ["t9"]}, to_move=3)
    part = GAME.mover_part(position, GAME.parse_move("joker:supply>t9"))
    assert part is not None
    seen = camera_sees(part, "?", seat=3)
    regions = dict(seen.regions)
    regions["t9"] = RegionReading("P", confidence=0.45)
    referee = referee_at(position)
    referee.handle(Press("END3"))
    effects = referee.handle(Seen(Observation(regions), frame="f1"))
    offered = referee.view().candidates if referee.phase is Phase.CHOOSING else ()
    accepted = [move for move, _, _ in moves(effects)]
    assert "joker:supply>t9" in (*offered, *accepted)
    assert not accepted or accepted == ["joker:supply>t9"]


def test_a_doubtful_space_read_right_still_names_the_play_its_reading_fits_first():
    """A coin entering on an empty START, read there unsure, is still the play offered
    first (or taken): the doubt adds plays, it does not reorder them."""
    position = table(4, {}, to_move=1)
    played = GAME.apply_text(position, "K:enter")
    seen = camera_sees(GAME.layout(played), "K", confidence=0.4)
    regions = dict(seen.regions)
    regions["t9"] = RegionReading("P", confidence=0.45)
    referee = referee_at(position)
    referee.handle(Press("END1"))
    referee.handle(Seen(Observation(regions), frame="f1"))
    assert referee.phase is Phase.CHOOSING and referee.view().candidates[0] == "K:enter"
