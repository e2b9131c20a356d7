"""The referee runs a Coin Grid turn (issue 19, item 4): the die read from the tray, a cocked
die refused, a battle's two rolls with half damage and a tie rolled again, the companion's own
roll, a double stack declared on the panel, a dead coin placed or declined. Observations are
what a perfect camera reports, with the dice vision would add to the tray."""

import random

import pytest

from companion.games.coin_grid import GAME
from companion.referee import Phase, Press, Record, Referee, Seen, WantFrame
from contract.observation import DieReading, Observation, RegionReading
from tests.games.coin_grid.helpers import grid


def camera_sees(position, dice=()):
    """A perfect camera's observation of ``position``, with ``dice`` (values, None for a cocked
    die) lying in the tray."""
    looks = GAME.layout(position).looks()
    regions = {name: RegionReading(look.coin, look.pawn) for name, look in looks.items()}
    regions["tray"] = RegionReading(dice=tuple(
        DieReading(value, 0.95 if value is not None else 0.9, "white", (500.0 + 20 * i, 300.0))
        for i, value in enumerate(dice)))
    return Observation(regions)


def records(effects):
    return [effect for effect in effects if isinstance(effect, Record)]


def moves(effects):
    return [(r.fields["move"], r.fields["source"], r.fields.get("dice"))
            for r in records(effects) if r.kind == "move"]


def roll_and_read(referee, player, faces):
    """The roller throws ``faces`` in the tray and presses their button; the camera reads it."""
    assert referee.handle(Press(f"END{player}")) == [WantFrame()]
    return referee.handle(Seen(camera_sees(referee.position, faces), frame="f1"))


START = {"a1": "S1", "b1": "S1", "c12": "N1", "d12": "N1"}


def test_the_die_is_read_from_the_tray_and_the_mover_is_told_where_to_go():
    position = grid(START)
    referee = Referee(GAME, position, position=position)
    assert referee.phase is Phase.ROLL
    assert "South's roll: roll 1 die in the tray and press END1" in referee.view().message
    assert referee.handle(Press("END2")) == []  # not North's roll
    effects = roll_and_read(referee, 1, [4])
    assert moves(effects) == [("roll:4", "camera", [[[4]]])]
    assert records(effects)[0].fields["frame"] == "f1"
    assert referee.phase is Phase.TURN
    assert "South rolled 4: move a piece up to 4 squares" in referee.view().message
    assert "a5" in referee.view().targets and "a6" not in referee.view().targets


@pytest.mark.parametrize(("dice", "words"), [
    ([None], "A die is cocked or hidden"),
    ([], "No dice are in the tray"),
    ([3, 5], "The tray holds 2 dice; South's roll takes 1 die"),
])
def test_a_roll_the_camera_cannot_take_is_rolled_again(dice, words):
    position = grid(START)
    referee = Referee(GAME, position, position=position)
    effects = roll_and_read(referee, 1, dice)
    assert records(effects) == [] and referee.phase is Phase.ROLL
    assert words in referee.view().message and referee.view().severity == "warning"
    assert moves(roll_and_read(referee, 1, [2])) == [("roll:2", "camera", [[[2]]])]


def test_an_unsure_die_is_not_taken():
    position = grid(START)
    referee = Referee(GAME, position, position=position)
    referee.handle(Press("END1"))
    unsure = camera_sees(position)
    regions = dict(unsure.regions)
    regions["tray"] = RegionReading(dice=(DieReading(6, 0.3, "red", (0.0, 0.0)),))
    assert records(referee.handle(Seen(Observation(regions)))) == []
    assert "unsure of the red die" in referee.view().message


def battle(defender="N1", attacker="S1'", square="c7", **fields):
    pieces = {"a1": "S1'", square: defender, "f12": "N1"}
    return grid(pieces, phase="battle", battle=(square, attacker), **fields)


def test_a_battle_reads_both_rolls_and_asks_for_the_loser_to_be_taken_off():
    position = battle()
    referee = Referee(GAME, position, position=position)
    assert referee.phase is Phase.ROLL
    assert "South's attack on c7: roll 1 die" in referee.view().message
    first = roll_and_read(referee, 1, [5])
    assert records(first) == [] and "South's attack on c7: 5." in referee.view().message
    assert "North's defence of c7: roll 1 die in the tray and press END2" in (
        referee.view().message)
    effects = roll_and_read(referee, 2, [3])
    assert moves(effects) == [("attacker-wins", "camera", [[[5], [3]]])]
    assert "North's coin on c7 (from under the winner's coin) go into South's reserve" in (
        referee.view().message)
    assert referee.position.reserves == (1, 0) and referee.phase is Phase.ROLL  # North's turn


def test_a_defender_who_wins_waits_for_the_attacker_to_be_taken_off():
    position = battle()
    referee = Referee(GAME, position, position=position)
    roll_and_read(referee, 1, [1])
    effects = roll_and_read(referee, 2, [6])
    assert moves(effects) == [("defender-wins", "camera", [[[1], [6]]])]
    assert referee.phase is Phase.RESTORE and referee.view().marked == ("c7",)
    assert "Now c7 should show a nickel on top, not a penny" in referee.view().message
    assert "South's coin on c7 (off the top) go into North's reserve" in referee.view().message
    referee.handle(Press("CONFIRM"))
    referee.handle(Seen(camera_sees(referee.position)))
    assert referee.phase is Phase.ROLL and GAME.to_move(referee.position) == 2


def test_a_tied_battle_is_rolled_again_and_every_round_recorded():
    position = battle()
    referee = Referee(GAME, position, position=position)
    roll_and_read(referee, 1, [4])
    roll_and_read(referee, 2, [4])
    assert "A tie: roll again" in referee.view().message and referee.phase is Phase.ROLL
    roll_and_read(referee, 1, [2])
    effects = roll_and_read(referee, 2, [5])
    assert moves(effects) == [("defender-wins", "camera", [[[4], [4]], [[2], [5]]])]


def test_half_damage_against_a_dead_coin_decides_the_battle():
    position = battle(defender="Nd")  # South's 5 counts 2 against a dead coin
    referee = Referee(GAME, position, position=position)
    assert "South's attack on c7 (halved)" in referee.view().message
    roll_and_read(referee, 1, [5])
    assert "South's attack on c7: 5, halved to 2." in referee.view().message
    assert moves(roll_and_read(referee, 2, [3])) == [("defender-wins", "camera", [[[5], [3]]])]


def test_a_double_stack_rolls_two_dice():
    position = battle(attacker="S2'")
    referee = Referee(GAME, position, position=position)
    assert "South's attack on c7: roll 2 dice" in referee.view().message
    roll_and_read(referee, 1, [1, 2])
    assert moves(roll_and_read(referee, 2, [4])) == [("defender-wins", "camera", [[[1, 2], [4]]])]


def test_roll_has_the_companion_roll_real_dice_and_record_them():
    position = battle()
    referee = Referee(GAME, position, position=position)
    referee._random = random.Random(3)
    ((move, source, dice),) = moves(referee.handle(Press("ROLL")))
    assert source == "random" and move in ("attacker-wins", "defender-wins")
    attack, defence = dice[-1]
    assert (attack[0] > defence[0]) == (move == "attacker-wins")
    assert all(a[0] == d[0] for a, d in dice[:-1])  # earlier rounds tied


def test_a_double_stack_is_declared_with_select_and_confirm():
    position = grid({"a1": "S1", "c8": "S1'", "f12": "N1"}, reserves=(1, 0))
    referee = Referee(GAME, position, position=position)
    assert referee.phase is Phase.ROLL
    assert "South may roll, or put a reserve coin under their coin on c8" in (
        referee.view().message)
    assert referee.view().message.count("South may roll") == 1
    candidates = referee.view().candidates
    assert candidates[0] == "double:c8" and "roll:6" in candidates
    assert referee.view().targets == {"c8"}  # the screen marks where a stack can be made
    effects = referee.handle(Press("CONFIRM", "panel"))
    assert moves(effects) == [("double:c8", "panel", None)]
    assert GAME.to_move(referee.position) == 2 and referee.phase is Phase.ROLL


def test_a_dead_coin_is_placed_or_declined_as_the_camera_sees():
    reward = grid({"a1": "S1", "b12": "S1'", "f11": "N1"}, phase="reward")
    referee = Referee(GAME, reward, position=reward)
    assert referee.phase is Phase.TURN
    assert "may bring a dead coin (a dime) from the supply onto a1" not in referee.view().message
    assert "onto b1, c1, d1, e1, f1" in referee.view().message
    placed = GAME.apply(reward, GAME.parse_move("dead:c1"))
    referee.handle(Press("END1"))
    assert moves(referee.handle(Seen(camera_sees(placed)))) == [("dead:c1", "camera", None)]
    declined = Referee(GAME, reward, position=reward)
    declined.handle(Press("END1"))
    assert moves(declined.handle(Seen(camera_sees(reward)))) == [("decline", "camera", None)]


def test_the_screen_names_coins_that_must_wait():
    position = grid({"a1": "S1", "b3": "S1'", "f12": "N1"}, phase="rolled", roll=2)
    referee = Referee(GAME, position, position=position)
    assert "b3 must wait: every original coin moves once before any moves twice" in (
        referee.view().message)


def test_a_game_resumed_mid_battle_waits_for_the_attackers_roll(tmp_path):
    from companion.launch import resumed_referee
    from companion.record.entries import JournalHeader
    from companion.record.journal import JournalWriter
    from companion.record.replay import load_timeline

    start = grid({"a1": "S1", "c6": "S1", "c7": "N1", "f12": "N1"}, phase="rolled", roll=4)
    step = GAME.parse_move("c6xc7")
    battle_node = GAME.apply(start, step)
    with JournalWriter.create(tmp_path, JournalHeader.from_position(start.to_json())) as writer:
        writer.record_move(step.text(), player=1, state_hash=battle_node.state_hash(),
                           source="camera")
    referee, journal, players = resumed_referee(tmp_path)
    assert referee.position == battle_node and referee.phase is Phase.ROLL and players == 2
    assert "South's attack on c7: roll 1 die" in referee.view().message
    effects = roll_and_read(referee, 1, [6])
    effects += roll_and_read(referee, 2, [2])
    for record in records(effects):
        journal.record_fields(record.kind, record.fields)
    journal.close()
    timeline = load_timeline(tmp_path)
    assert [step.event.move for step in timeline.standing_steps()] == ["c6xc7", "attacker-wins"]
    assert timeline.standing_steps()[-1].event.dice == (((6,), (2,)),)
    assert timeline.final == referee.position


# -- the dice on the side screen -----------------------------------------------------------------


def shown(referee):
    """The rolls the side screen shows now, as (label, faces, source, halved)."""
    return [(roll.label, roll.faces, roll.source, roll.halved)
            for roll in referee.view().rolls_shown]


def test_the_screen_shows_each_battle_roll_as_it_is_read_and_keeps_them_after():
    position = battle(defender="Nd")
    referee = Referee(GAME, position, position=position)
    assert shown(referee) == []
    roll_and_read(referee, 1, [5])
    assert shown(referee) == [("South's attack on c7", (5,), "camera", True)]
    roll_and_read(referee, 2, [3])
    assert shown(referee) == [("South's attack on c7", (5,), "camera", True),
                              ("North's defence of c7", (3,), "camera", False)]
    # The next roll replaces them.
    referee.handle(Press("CONFIRM"))
    referee.handle(Seen(camera_sees(referee.position)))
    roll_and_read(referee, 2, [6])
    assert shown(referee) == [("North's roll", (6,), "camera", False)]


def test_a_tied_round_stays_on_the_screen_until_the_next_die_is_read():
    position = battle()
    referee = Referee(GAME, position, position=position)
    roll_and_read(referee, 1, [4])
    roll_and_read(referee, 2, [4])
    assert [faces for _, faces, _, _ in shown(referee)] == [(4,), (4,)]
    roll_and_read(referee, 1, [2])
    assert shown(referee) == [("South's attack on c7", (2,), "camera", False)]


def test_the_companions_roll_and_a_roll_entered_by_hand_name_their_source():
    position = battle()
    referee = Referee(GAME, position, position=position)
    referee._random = random.Random(3)
    ((_, _, dice),) = moves(referee.handle(Press("ROLL")))
    assert [(faces, source) for _, faces, source, _ in shown(referee)] == [
        (tuple(dice[-1][0]), "random"), (tuple(dice[-1][1]), "random")]
    start = grid(START)
    referee = Referee(GAME, start, position=start)
    while referee.view().candidates[referee.view().selected] != "roll:3":
        referee.handle(Press("SELECT"))
    referee.handle(Press("CONFIRM"))
    assert shown(referee) == [("South's roll", (3,), "panel", False)]


def test_a_battle_entered_by_hand_is_shown_in_words_without_dice():
    position = battle()
    referee = Referee(GAME, position, position=position)
    chosen = referee.view().candidates[referee.view().selected]
    referee.handle(Press("CONFIRM"))
    ((label, faces, source, entered),) = [(roll.label, roll.faces, roll.source, roll.entered)
                                         for roll in referee.view().rolls_shown]
    assert (label, faces, source, entered) == ("South's attack on c7", (), "panel", chosen)


def test_the_screen_shows_the_dice_in_the_colours_the_camera_read():
    position = battle(attacker="S2'")
    referee = Referee(GAME, position, position=position)
    referee.handle(Press("END1"))
    regions = dict(camera_sees(position).regions)
    regions["tray"] = RegionReading(dice=(DieReading(5, 0.95, "red", (500.0, 300.0)),
                                          DieReading(2, 0.95, "white", (540.0, 300.0))))
    referee.handle(Seen(Observation(regions)))
    ((faces, colours),) = [(roll.faces, roll.colours) for roll in referee.view().rolls_shown]
    assert (faces, colours) == ((2, 5), ("white", "red"))
