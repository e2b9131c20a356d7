"""The table: layout, candidates for what the camera sees, reading a laid-out position."""

import pytest

from companion.games import PositionError
from companion.games.jokers_and_coins import GAME
from contract.observation import Observation, RegionReading
from tests.games.jokers_and_coins.helpers import table


def observed(position):
    """A perfect camera's observation of ``position``."""
    layout = GAME.layout(position)
    return Observation({name: RegionReading(coin=c.top, pawn=c.token, count=c.look().count,
                                            kinds=c.look().kinds)
                        for name, c in layout.items()})


def test_seats_1_to_4_are_coins_and_seats_5_and_6_tokens():
    layout = GAME.layout(table(6, {1: ["t1", "h1-2"], 4: ["t5"], 6: ["t9"]}))
    assert layout.stacks() == {"t1": "P", "h1-2": "P", "t5": "Q", "supply-1": "PP",
                               "supply-2": "NNNN", "supply-3": "DDDD", "supply-4": "QQQ"}
    assert all(layout[f"supply-{seat}"].loose for seat in range(1, 7))
    # A token seat's supply shows its token while it holds any, not how many.
    assert layout["t9"].token == layout["supply-6"].token == "6"
    assert layout["supply-5"].token == "5"


def test_candidates_are_every_card_that_leaves_what_the_camera_sees():
    position = table(4, {1: ["t20"]})
    seen = observed(GAME.apply_text(position, "J:t20>t30"))
    assert [move.text() for move in GAME.candidates(position, seen)] == [
        "10:t20>t30", "J:t20>t30", "Q:t20>t30", "K:t20>t30"]
    two = table(2, {1: ["t20"]})  # no Jokers: every rank has a play, so no discard
    assert [move.text() for move in GAME.candidates(two, observed(two))] == []


def test_a_discard_is_the_candidate_when_nothing_moved():
    position = GAME.new_position(4)
    assert [m.text() for m in GAME.candidates(position, observed(position))] == ["discard"]
    assert GAME.forced(position) is None  # entering is possible too


def test_position_from_reading_puts_unseen_coins_in_supply():
    laid = table(5, {1: ["t9"], 5: ["t30", "h5-1"]})
    read = GAME.position_from_reading(GAME.new_position(5), observed(laid))
    assert read == laid


def test_position_from_reading_refuses_a_coin_of_no_seat():
    with pytest.raises(PositionError, match="'Q' coin on t3"):
        GAME.position_from_reading(GAME.new_position(3), Observation.of_board({"t3": "Q"}))
    with pytest.raises(PositionError, match="another seat's HOME"):
        GAME.position_from_reading(GAME.new_position(3), Observation.of_board({"h2-1": "P"}))


def test_the_text_drawing_shows_the_ring_homes_and_cards():
    text = GAME.draw(table(4, {1: ["t1", "h1-1"], 3: ["t45"]}))
    assert "t1   1 . . i . . . . s" in text
    assert "seat 1: HOME [1 . . .]  supply 2  hand 5" in text
    assert "teams: 1+3, 2+4" in text and "unseen by rank: A:12" in text


def test_the_table_note_says_where_bumped_coins_go():
    position = table(4, {1: ["t20"], 2: ["t25"], 3: ["t30"]})
    assert GAME.table_note(position, GAME.parse_move("5:t20>t25")) == (
        "Seat 2's coin on t25 goes back to its supply.")
    assert GAME.table_note(position, GAME.parse_move("10:t20>t30")) == (
        "Seat 3's coin on t30 goes to its IN t40.")
    assert GAME.table_note(position, GAME.parse_move("2:t20>t22")) == ""
