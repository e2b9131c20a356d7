"""Position JSON: round trips, the schema, and a sentence naming the field for every bad
one."""

import copy

import pytest

from companion.games import PositionError
from companion.games.jokers_and_coins import GAME
from tests.games.jokers_and_coins.helpers import table


@pytest.mark.parametrize(("players", "variants"), [
    (2, ()), (3, ()), (4, ()), (5, ("side-12", "in-2", "start-5")), (6, ()),
    (6, ("teams-of-three",))])
def test_positions_round_trip_through_json_and_the_schema(players, variants):
    position = GAME.new_position(players, variants)
    assert GAME.read_position(position.to_json()) == position
    assert GAME.position_from_text(position.canonical_json()) == position
    assert eval(repr(position), {"JokersPosition": type(position)}) == position


def test_the_json_lists_ring_teams_coins_and_cards():
    data = table(4, {1: ["h1-2", "t9"], 3: ["t30"]}).to_json()
    assert data["ring"] == {"sides": 4, "side_length": 18, "in": 3, "start": 8}
    assert data["teams"] == [[1, 3], [2, 4]]
    assert data["coins"]["1"] == ["supply", "supply", "t9", "h1-2"]
    assert set(data["cards"]) == {"draw_pile", "hands", "discard_pile", "unrecorded_discards",
                                  "shuffles"}


def broken(change):
    data = GAME.new_position(4).to_json()
    change(data)
    return data


def set_path(path, value):
    def change(data):
        *parents, last = path
        for key in parents:
            data = data[key]
        data[last] = value
    return change


CASES = [
    (lambda d: d.update(extra=1), "unknown field 'extra'"),
    (lambda d: d.pop("teams"), "has no 'teams'"),
    (set_path(["game"], "coin-grid"), "'game'"),
    (set_path(["players"], 7), "'players' = 7"),
    (set_path(["variants"], ["side-9"]), "'variants'"),
    (set_path(["variants"], ["teams-of-three"]), "teams-of-three is for 6 players"),
    (set_path(["variants"], ["in-8"]), "must differ"),
    (set_path(["ring", "side_length"], 20), "'ring'"),
    (set_path(["teams"], [[1, 2], [3, 4]]), "'teams'"),
    (set_path(["to_move"], 5), "'to_move' = 5"),
    (set_path(["coins", "1"], ["t1", "t1", "supply", "supply"]), "two coins stand on t1"),
    (set_path(["coins", "1"], ["h2-1", "supply", "supply", "supply"]), "no place for seat 1"),
    (set_path(["coins", "1"], ["t99", "supply", "supply", "supply"]), "'t99' is no place"),
    (set_path(["coins", "1"], ["supply"]), "the seat's 4 coins"),
    (set_path(["coins", "2"], ["t1", "supply", "supply", "supply"]), None),
    (lambda d: d["coins"].pop("4"), "'coins'"),
    (set_path(["cards", "hands", "1"], 6), "'cards.hands.1' = 6"),
    (set_path(["cards", "discard_pile", "7"], 13), "'cards.discard_pile.7'"),
    (lambda d: d["cards"].pop("shuffles"), "no 'shuffles'"),
]


@pytest.mark.parametrize(("change", "words"), CASES)
def test_bad_fields_are_refused_with_a_sentence_naming_them(change, words):
    data = broken(change)
    if words is None:  # two seats on one space
        data["coins"]["1"] = ["t1", "supply", "supply", "supply"]
        words = "seat 1 already has a coin on t1"
    with pytest.raises(PositionError, match=words.replace("(", r"\(")):
        GAME.position_from_json(copy.deepcopy(data))
    with pytest.raises(PositionError) as caught:
        GAME.read_position(copy.deepcopy(data), "position file 'p.json'")
    assert str(caught.value).startswith("position file 'p.json'")
    assert "\n" not in str(caught.value)
