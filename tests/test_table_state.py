"""What lies on the table, game-neutral: region contents, what a camera sees of them, and judging
that compares whole regions (a pit holding the wrong number of coins is a difference)."""

from __future__ import annotations

import re

import pytest

from companion.games import get_game
from companion.judging import Difference, count_note, differences
from contract.observation import Observation, RegionReading
from contract.table_state import (
    RegionContents,
    RegionLook,
    TableState,
    TableStateError,
    coins_text,
    seen_looks,
)

GAME = get_game("coin-isolation")


def test_values_have_evaluable_reprs_and_json_round_trips() -> None:
    table = TableState({"a1": RegionContents("PN", token="1"),
                        "pit3": RegionContents("NPP", loose=True)})
    assert eval(repr(table)) == table
    assert TableState.from_json(table.to_json()) == table
    assert RegionContents("PNP", loose=True) == table["pit3"]


def test_empty_regions_are_left_out_and_absent_regions_are_empty() -> None:
    table = TableState({"a1": RegionContents(""), "b2": RegionContents("Q")})
    assert list(table) == ["b2"]
    assert table.contents("a1") == RegionContents()
    assert table.contents("a1").look().is_empty


def test_a_stack_shows_its_top_coin_and_loose_coins_their_count_and_kinds() -> None:
    assert RegionContents("PNQ", token="2").look() == RegionLook("Q", "2")
    assert RegionContents("QPP", loose=True).look() == RegionLook(None, None, 3, ("Q", "P", "P"))


def test_an_empty_pit_read_as_zero_coins_looks_like_an_empty_region() -> None:
    reading = RegionReading(None, None, 0.9, count=0, kinds=())
    assert RegionLook.from_reading(reading) == RegionLook()
    two_nickels = RegionReading(None, None, 1.0, 2, ("N", "N"))
    observation = Observation({"pit1": reading, "pit2": two_nickels})
    assert seen_looks(observation) == {"pit2": RegionLook(None, None, 2, ("N", "N"))}


@pytest.mark.parametrize(("bad", "named"), [
    ({"a1": {"coins": "PX"}}, "'X'"), ({"a1": "P"}, "'P'"),
    ({"a1": {"coins": 3}}, "3"), (["a1"], "['a1']"),
])
def test_bad_table_json_is_a_value_error_naming_the_input(bad: object, named: str) -> None:
    with pytest.raises(ValueError, match=re.escape(named)) as caught:
        TableState.from_json(bad)  # type: ignore[arg-type]
    assert isinstance(caught.value, TableStateError)


def test_a_pit_holding_the_wrong_number_of_coins_is_held_against_a_move() -> None:
    expected = TableState({"pit4": RegionContents("PPN", loose=True)}).looks()
    seen = {"pit4": RegionLook(None, None, 2, ("N", "P"))}
    found = differences(expected, seen)
    assert found == [Difference("pit4", expected["pit4"], seen["pit4"])]
    assert found[0].instruction() == (
        "pit4 should hold 3 coins (2 pennies, 1 nickel), not 2 coins (1 penny, 1 nickel)")
    assert differences(expected, {"pit4": RegionLook(None, None, 3, ("P", "N", "P"))}) == []
    # The same count of the same kinds in other numbers is another pit.
    assert len(differences(expected, {"pit4": RegionLook(None, None, 3, ("N", "N", "P"))})) == 1


def test_changed_regions_compare_whole_contents() -> None:
    before = TableState.of_stacks({"a1": "PN", "b1": "Q"}, {"1": "a1"})
    after = TableState.of_stacks({"a1": "P", "b1": "Q"}, {"1": "b1"})
    assert before.changed(after) == {"a1", "b1"}
    assert before.changed(before) == frozenset()


def test_coin_isolation_lays_out_its_stacks_and_pawns() -> None:
    position = GAME.position_from_json({
        "game": "coin-isolation", "variants": ["mixed-change"], "players": 2, "to_move": 1,
        "squares": {"a1": "P", "b1": "NN", "c4": "QP"}, "pawns": {"1": "b1", "2": None},
        "taken": {"1": "", "2": ""}, "passes": 0})
    table = GAME.layout(position)
    assert table.stacks() == {"a1": "P", "b1": "NN", "c4": "QP"}
    assert table.tokens() == {"1": "b1"}
    assert table.looks()["c4"] == RegionLook("P", None)
    assert table.coin_counts() == {"P": 2, "N": 2, "Q": 1}


def test_a_starting_layout_read_by_the_camera_gives_back_the_position() -> None:
    start = GAME.new_position(2, (), seed=5)
    readings = {name: RegionReading(look.coin, look.pawn)
                for name, look in GAME.layout(start).looks().items()}
    assert GAME.position_from_reading(start, Observation(readings)) == start
    one_gone = dict(readings)
    one_gone.pop(sorted(one_gone)[0])
    short = GAME.position_from_reading(start, Observation(one_gone))
    assert count_note(GAME, start, start) == ""
    note = count_note(GAME, start, short)
    assert note.startswith("I count ") and "a standard set has" in note


def test_coins_text_counts_in_words() -> None:
    assert coins_text({"P": 3, "N": 1}) == "3 pennies, 1 nickel"
    assert coins_text({}) == "no coins"
