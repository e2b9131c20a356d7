"""What Coin Grid puts on the table, reading a starting layout, and matching the camera."""

import pytest

from calibration.geometry import mat_for_game
from companion.games import PositionError
from companion.games.coin_grid import GAME
from contract.observation import Observation
from tests.games.coin_grid.helpers import grid, texts


def seen(position):
    """A perfect camera's view of ``position``."""
    return Observation.of_board({name: stack[-1]
                                 for name, stack in GAME.layout(position).stacks().items()})


def test_the_layout_shows_pennies_for_south_nickels_for_north_and_dimes_for_dead_coins():
    position = grid({"a1": "S1", "c9": "S2'", "d5": "N2'", "e1": "Sd", "f12": "N1"})
    assert GAME.layout(position).stacks() == {"a1": "P", "c9": "NP", "d5": "PN", "e1": "D",
                                              "f12": "N"}
    regions = set(mat_for_game(GAME.info.mat).region_names())
    assert set(GAME.layout(GAME.new_position(2)).stacks()) <= regions
    assert len([name for name in regions if name[0] in "abcdef" and name[1:].isdigit()]) == 72


def test_during_a_battle_the_attacker_lies_on_top_of_the_defender():
    battle = grid({"c8": "N2'", "a1": "S1"}, phase="battle", battle=("c8", "S1'"))
    assert GAME.layout(battle).stacks()["c8"] == "PNP"


def test_the_start_read_from_the_camera_is_the_start():
    start = GAME.new_position(2)
    assert GAME.position_from_reading(start, seen(start)) == start
    short = GAME.new_position(2, ["short", "dead-coins-2"], seed=4)
    template = GAME.new_position(2, ["short", "dead-coins-2"], seed=99)
    assert GAME.position_from_reading(template, seen(short)) == short


@pytest.mark.parametrize(("change", "needle"), [
    ({"c4": "P"}, "c4 is outside them"),
    ({"a1": None}, "South has 11 coins"),
    ({"a12": "D"}, "a dime on a12; this game starts with pennies"),
    ({"a12": "P", "a1": "N"}, "South's coins start"),
])
def test_a_layout_that_cannot_start_says_why(change, needle):
    start = GAME.new_position(2)
    coins = {name: stack[-1] for name, stack in GAME.layout(start).stacks().items()} | change
    with pytest.raises(PositionError, match=needle):
        GAME.position_from_reading(start, Observation.of_board(coins))


def test_the_camera_tells_the_step_that_was_made():
    rolled = GAME.apply_text(GAME.new_position(2), "roll:2")
    after = GAME.apply_text(rolled, "b2-c4")
    assert texts(GAME.candidates(rolled, seen(after))) == ["b2-c4"]
    assert GAME.candidates(rolled, seen(rolled)) == []


def test_a_double_stack_a_roll_and_declining_look_like_nothing_changed():
    position = grid({"c9": "S1'", "d10": "S1'", "b12": "N1"}, reserves=(1, 0))
    assert texts(GAME.candidates(position, seen(position))) == texts(GAME.legal_moves(position))
    reward = grid({"c12": "S1'", "a7": "N1'"}, phase="reward")
    placed = GAME.apply_text(reward, "dead:c1")
    assert texts(GAME.candidates(reward, seen(placed))) == ["dead:c1"]
    assert texts(GAME.candidates(reward, seen(reward))) == ["decline"]
    assert GAME.forced(reward) is None


def test_an_attack_looks_like_the_attacker_on_top_of_the_defender():
    rolled = grid({"c3": "S1'", "c4": "N1'", "f12": "N1"}, phase="rolled", roll=1)
    attacked = GAME.apply_text(rolled, "c3xc4")
    assert texts(GAME.candidates(rolled, seen(attacked))) == ["c3xc4"]


def test_a_dime_attacking_a_nickel_may_look_like_the_nickel_alone():
    # A camera takes a dime lying on a nickel for the nickel (both silver, the dime's edge a
    # thin ring inside the nickel's): the attack is still the one move that fits.
    rolled = grid({"f1": "Sd", "f3": "N1'", "a1": "S1", "f12": "N1"}, phase="rolled", roll=4)
    attacked = GAME.apply_text(rolled, "f1xf3")
    assert GAME.layout(attacked).stacks()["f3"] == "ND"
    as_nickel = Observation.of_board({"a1": "P", "f3": "N", "f12": "N"})
    assert texts(GAME.candidates(rolled, as_nickel)) == ["f1xf3"]
    assert texts(GAME.candidates(rolled, seen(attacked))) == ["f1xf3"]
    # A coin of another metal is no such ring: a penny attacking a nickel must be seen.
    penny = grid({"c3": "S1'", "c4": "N1'", "f12": "N1"}, phase="rolled", roll=1)
    assert GAME.candidates(penny, Observation.of_board({"c4": "N", "f12": "N"})) == []
    # Nor does a nickel seen where the dime should stand alone pass for it.
    moved = GAME.apply_text(rolled, "f1-f2")
    assert GAME.candidates(rolled, Observation.of_board(
        {"a1": "P", "f2": "N", "f3": "N", "f12": "N"})) == []
    assert texts(GAME.candidates(rolled, seen(moved))) == ["f1-f2"]


def test_legal_targets_are_what_the_roll_reaches_and_instant():
    rolled = GAME.apply_text(GAME.new_position(2), "roll:1")
    assert GAME.legal_targets(rolled) == frozenset(f"{f}3" for f in "abcdef")
    assert GAME.legal_targets(GAME.new_position(2)) == frozenset()


def test_the_drawing_marks_the_wall_the_rows_and_the_pieces():
    text = GAME.draw(grid({"a1": "S1", "c9": "S2'", "e1": "Sd", "f12": "N1"}, reserves=(2, 1)))
    assert "wall" in text and " 12* " in text and " 11x " in text
    assert "S2'" in text and "Sd" in text
    assert "2 in reserve" in text and "player 1 (South) to roll or make a double stack" in text


def test_the_coin_kinds_are_a_variant_the_layout_and_the_reading_follow():
    start = GAME.new_position(2, ["coins-QND"])
    stacks = GAME.layout(start).stacks()
    assert stacks["a1"] == "Q" and stacks["a12"] == "N"
    assert GAME.position_from_reading(start, seen(start)) == start
    with pytest.raises(PositionError, match="starts with quarters \\(South\\) and nickels"):
        GAME.position_from_reading(start, Observation.of_board({"a1": "P"}))
    double = GAME.apply(GAME.new_position(2, ["coins-QND"]), GAME.parse_move("roll:1"))
    assert GAME.layout(double).stacks()["a1"] == "Q"
    with pytest.raises(PositionError, match="give the coin kinds twice"):
        GAME.new_position(2, ["coins-QND", "coins-PND"])
    with pytest.raises(PositionError, match="unknown Coin Grid variant 'coins-PPD'"):
        GAME.new_position(2, ["coins-PPD"])
