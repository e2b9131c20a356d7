"""The referee runs Shakala turns (issue 20, item 4): a sowing read from every pit's counts is
accepted without asking, a pit the camera doubts makes it ask in a player's words (the route at
a fork, the gem taken) and confirm takes the one picked, a wrong sowing is rejected with the
pits to put right, feeding, captures, the endgame and the win are announced. Observations are a
camera's counts per pit and cup."""

import random

from companion.games.shakala import GAME
from companion.referee import Phase, Press, Record, Referee, Seen, WantFrame
from contract.observation import Observation, RegionReading
from tests.games.shakala.helpers import board, random_sowing


def camera_sees(position, doubted=(), moved=None):
    """The counts of every pit and cup; ``doubted`` regions read with confidence 0.3;
    ``moved`` = (from, to) moves one coin of ``from`` to ``to`` (a sowing slip)."""
    coins = GAME.layout(position).stacks()
    if moved is not None:
        source, target = moved
        coin = coins[source][0]
        coins[source] = coins[source][1:]
        coins[target] = coins.get(target, "") + coin
    regions = {name: RegionReading(count=len(text), kinds=tuple(sorted(text)),
                                   confidence=0.3 if name in doubted else 0.97)
               for name, text in coins.items() if text}
    for name in doubted:
        regions.setdefault(name, RegionReading(confidence=0.3))
    return Observation(regions)


def records(effects, kind):
    return [effect.fields for effect in effects if isinstance(effect, Record)
            and effect.kind == kind]


def play(referee, player, observation):
    assert referee.handle(Press(f"END{player}")) == [WantFrame()]
    return referee.handle(Seen(observation, frame="frame-1"))


def test_a_sowing_read_from_the_counts_is_accepted_without_asking():
    start = GAME.new_position(2)
    referee = Referee(GAME, start, position=start)
    move = next(m for m in GAME.legal_moves(start) if m.text().startswith("E-A"))
    after = GAME.apply(start, move)
    effects = play(referee, 1, camera_sees(after))
    assert [entry["move"] for entry in records(effects, "move")] == [move.text()]
    assert referee.position == after and referee.phase is Phase.TURN
    assert referee.view().last_path == move.regions()
    assert "North: pick up one of your pits" in referee.view().message


def test_a_doubted_pit_where_the_routes_differ_makes_it_ask_the_route():
    """E's beads go inner (into F) or outer (into A); with F and A both in doubt the camera
    cannot tell, and the screen asks which track was taken at E."""
    position = board({"E": "s1", "e": "s", "a": "s"})
    referee = Referee(GAME, position, position=position)
    inner = GAME.parse_move("E-Fs-G1")
    after = GAME.apply(position, inner)
    play(referee, 1, camera_sees(after, doubted=("F", "G", "A", "B")))
    view = referee.view()
    assert referee.phase is Phase.CHOOSING
    assert inner.text() in view.candidates
    labels = dict(zip(view.candidates, view.candidate_labels, strict=True))
    assert "inner at E" in labels[inner.text()]
    assert any("outer at E" in label for label in view.candidate_labels)
    while view.candidates[view.selected] != inner.text():
        referee.handle(Press("SELECT"))
        view = referee.view()
    assert labels[inner.text()] in view.message
    effects = referee.handle(Press("CONFIRM"))
    assert records(effects, "ruling")[0]["chosen"] == inner.text()
    assert referee.position == after


def test_a_doubted_cup_asks_which_gem_an_indirect_capture_took():
    """A lone stone falls on e's lone stone: North's pits hold no gem, so a gem of North's cup
    is taken; with both cups in doubt the players say which."""
    position = board({"H": "s", "e": "s", "a": "s"}, cups=((), (1, 3)))
    referee = Referee(GAME, position, position=position)
    move = GAME.parse_move("H-es:cup3")
    after = GAME.apply(position, move)
    play(referee, 1, camera_sees(after, doubted=("cup-south", "cup-north")))
    view = referee.view()
    assert referee.phase is Phase.CHOOSING
    assert view.candidates[0] == move.text()  # the whole reading's move first
    assert sorted(view.candidates) == ["H-es:cup1", "H-es:cup3"]
    assert sorted(view.candidate_labels) == ["took a 1 from North's cup",
                                             "took a 3 from North's cup"]


def test_a_sloppy_sowing_is_rejected_with_the_pits_to_put_right():
    start = GAME.new_position(2)
    referee = Referee(GAME, start, position=start)
    after = GAME.apply(start, GAME.parse_move("B-C2-Ds"))
    effects = play(referee, 1, camera_sees(after, moved=("D", "H")))
    ruling = records(effects, "ruling")[0]
    assert ruling["ruling"] == "reject"
    assert referee.position == start and referee.phase is Phase.TURN
    assert "H" in ruling["regions"]
    assert "H should hold" in referee.view().message
    # the sowing made is found as the nearest legal move, off by the slipped coin's two pits
    assert "The nearest legal move, B-C2-Ds, differs at D, H." in referee.view().message


def test_the_nearest_sowing_is_found_in_a_pit_of_every_bead():
    """Every bead of the game in H (more bead orders than could ever be listed): the slipped
    coin's sowing is still found, by taking each region and pair of regions in doubt."""
    position = board({"H": "s" * 16 + "1122334411223344"})
    referee = Referee(GAME, position, position=position)
    after = random_sowing(position, random.Random(3))
    source = next(region for region in "efgh" if GAME.layout(after).stacks().get(region))
    effects = play(referee, 1, camera_sees(after, moved=(source, "cup-south")))
    assert records(effects, "ruling")[0]["ruling"] == "reject"
    message = referee.view().message
    nearest = message.split("The nearest legal move, ")[1].split(". ")[0]
    named, regions = nearest.split(", differs at ")
    assert set(regions.split(", ")) == {source, "cup-south"}
    assert GAME.apply(position, GAME.parse_move(named)) == after


def test_feeding_is_announced_when_the_opponent_has_no_beads():
    position = board({"A": "s", "D": "s3", "H": "s"}, cups=((), (1, 2)))
    referee = Referee(GAME, position, position=position)
    message = referee.view().message
    assert "North has no beads" in message and "feeding" in message


def test_a_capture_and_the_endgame_beginning_are_announced():
    position = board({"H": "s", "e": "4", "a": "s", "A": "s"}, cups=((), ()))
    referee = Referee(GAME, position, position=position)
    after = GAME.apply(position, GAME.parse_move("H-es:e4"))
    play(referee, 1, camera_sees(after))
    message = referee.view().message
    assert "South captured e's 4 (4 points)" in message
    assert "The endgame begins" in message
    assert "Endgame: no gems are left in the pits" in message


def test_emptying_the_opponent_with_20_points_wins_and_is_announced():
    """Endgame: North has no beads and no gem is left in the pits, so South need not feed;
    South's sowing leaves North to move with nothing: South wins with 20 points or more."""
    for cup, winner in (((1, 2, 3, 4, 4, 3, 2, 1), "player 1 wins"),
                        ((1, 2, 3, 4), "player 2 wins")):
        position = board({"A": "s"}, cups=(cup, ()))
        referee = Referee(GAME, position, position=position)
        assert "Endgame" in referee.view().message
        effects = play(referee, 1, camera_sees(GAME.apply(position, GAME.parse_move("A-Bs"))))
        assert referee.phase is Phase.OVER
        assert winner in referee.view().message
        assert winner in records(effects, "note")[0]["text"]


def test_the_doubt_threshold_is_the_referees():
    from companion.games.shakala.inference import DOUBT_BELOW
    from companion.judging import UNSURE_CONFIDENCE
    assert DOUBT_BELOW == UNSURE_CONFIDENCE


def test_a_position_coming_back_a_third_time_is_told_and_play_goes_on():
    """Two stones chase each other round the inner track: every eight sowings the board is as
    it was, and from its third time the screen says so (the rulings set no limit)."""
    position = board({"H": "s", "h": "s"}, cups=((1, 2, 3, 4), (4, 3, 2, 1)))
    referee = Referee(GAME, position, position=position)
    lap = ("H-es", "h-Es", "E-Fs", "e-fs", "F-Gs", "f-gs", "G-Hs", "g-hs")
    for turn, text in enumerate(lap * 2, start=1):
        after = GAME.apply(referee.position, GAME.parse_move(text))
        play(referee, GAME.to_move(referee.position), camera_sees(after))
        assert referee.position == after
        told = "This position has now come up 3 times" in referee.view().message
        assert told == (turn == 16), turn
    assert referee.phase is Phase.TURN
