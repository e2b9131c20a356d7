"""The referee at chance nodes, with a game of another shape (Ring Race: a ring track and a die):
the companion rolls with its own random source, or the players enter their roll with select and
confirm; every outcome is recorded with its source, a forced pass is played by the referee, and
the game replays from its journal with no random source. No referee code knows the game."""

import random

from companion.record.entries import JournalHeader
from companion.record.journal import JournalWriter
from companion.record.replay import load_timeline
from companion.referee import Phase, Press, Record, Referee, Seen, WantFrame
from contract.observation import Observation, RegionReading
from tests.games.ring_race import GAME, RacePosition


def camera_sees(position):
    """What a perfect camera reports for ``position`` (pawns labelled by player number)."""
    looks = GAME.layout(position).looks()
    return Observation({name: RegionReading(look.coin, look.pawn) for name, look in looks.items()})


def records(effects):
    return [effect for effect in effects if isinstance(effect, Record)]


def start(**changes):
    position = GAME.new_position(2, seed=4)
    data = {**position.to_json(), **changes}
    return GAME.position_from_json(data)


def test_the_companion_rolls_records_the_roll_and_then_reads_the_move():
    position = start()
    referee = Referee(GAME, position, position=position, dice=random.Random(1))
    assert referee.phase is Phase.ROLL
    assert referee.handle(Press("SELECT")) == []  # only ROLL, confirm or the roller's END roll
    rolled = records(referee.handle(Press("ROLL")))  # a 1 with this seed: no gust
    assert [record.fields["source"] for record in rolled] == ["random"]
    assert rolled[0].fields["move"].startswith("roll:")
    assert referee.phase is Phase.TURN
    after_roll = referee.position
    assert isinstance(after_roll, RacePosition) and after_roll.rolled is not None
    (move,) = GAME.legal_moves(after_roll)
    after = GAME.apply(after_roll, move)
    referee.handle(Press("END1"))
    accepted = records(referee.handle(Seen(camera_sees(after))))
    assert [record.fields["move"] for record in accepted] == [move.text()]
    assert referee.position == after and referee.phase is Phase.ROLL  # player 2's die


def test_players_enter_their_roll_with_select_and_confirm():
    position = start()
    referee = Referee(GAME, position, position=position)
    assert referee.view().candidates == ("roll:1", "roll:2", "roll:3")
    referee.handle(Press("SELECT", "keyboard"))
    assert referee.view().selected == 1 and "roll:2" in referee.view().message
    entered = records(referee.handle(Press("CONFIRM", "keyboard")))
    assert [(r.fields["move"], r.fields["source"]) for r in entered] == [("roll:2", "keyboard")]
    assert referee.position.rolled == 2


def test_a_roll_that_changes_the_table_waits_for_the_camera_to_show_the_change():
    position = start(tokens={"1": "t1", "2": "t7"}, coins={"t2": "P", "t9": "N"})
    referee = Referee(GAME, position, position=position)
    referee.handle(Press("SELECT"))
    referee.handle(Press("SELECT"))
    referee.handle(Press("CONFIRM"))  # roll:3, a gust: the penny on t2 goes back in the box
    assert referee.phase is Phase.RESTORE and referee.view().marked == ("t2",)
    assert "take the penny off t2" in referee.view().message
    unchanged = RacePosition(2, 1, None, ("t1", "t7"), (("t2", "P"), ("t9", "N")), ("", ""))
    assert referee.handle(Press("CONFIRM")) == [WantFrame()]
    referee.handle(Seen(camera_sees(unchanged)))
    assert referee.phase is Phase.RESTORE and referee.view().severity == "error"
    referee.handle(Press("CONFIRM"))
    referee.handle(Seen(camera_sees(referee.position)))
    assert referee.phase is Phase.TURN
    assert [move.text() for move in GAME.legal_moves(referee.position)] == ["t1-t4"]


def test_a_blocked_token_passes_by_itself_and_the_next_die_is_awaited():
    position = start(tokens={"1": "t1", "2": "t2"})
    referee = Referee(GAME, position, position=position)
    effects = referee.handle(Press("CONFIRM"))  # roll:1 onto player 2's token: no move
    kinds = [(record.kind, record.fields["move"]) for record in records(effects)]
    assert kinds == [("move", "roll:1"), ("pass", "pass")]
    assert referee.phase is Phase.ROLL and GAME.to_move(referee.position) == 2


def test_a_game_with_dice_replays_from_its_journal_without_the_dice(tmp_path):
    position = start()
    journal = JournalWriter.create(tmp_path, JournalHeader.from_position(position.to_json()))
    referee = Referee(GAME, position, position=position, dice=random.Random(7))

    def write(effects):
        for record in records(effects):
            fields = record.fields
            if record.kind == "move":
                journal.record_move(fields["move"], player=fields["player"],
                                    state_hash=fields["state_hash"], source=fields["source"])
            elif record.kind == "pass":
                journal.record_pass(player=fields["player"], state_hash=fields["state_hash"],
                                    move=fields["move"])

    for _ in range(200):
        if referee.phase is Phase.OVER:
            break
        if referee.phase is Phase.ROLL:
            write(referee.handle(Press("ROLL")))
            continue
        if referee.phase is Phase.RESTORE:  # the players blow the coin away; the camera sees it
            referee.handle(Press("CONFIRM"))
            write(referee.handle(Seen(camera_sees(referee.position))))
            continue
        (move,) = GAME.legal_moves(referee.position)
        mover = GAME.to_move(referee.position)
        referee.handle(Press(f"END{mover}"))
        write(referee.handle(Seen(camera_sees(GAME.apply(referee.position, move)))))
    journal.close()
    assert referee.phase is Phase.OVER
    timeline = load_timeline(tmp_path)
    assert not timeline.problems
    assert timeline.final == referee.position
    assert "ring race" in timeline.header.game.replace("-", " ")
