"""Shakala notation and position JSON: round trips, evaluable reprs, the schema against real
positions, bad input refused naming the part or field, and moves refused saying why."""

import json
import random

import pytest
from jsonschema import Draft202012Validator

from companion.games import IllegalMoveError, NotationError, PositionError
from companion.games.shakala import GAME, ShakalaPosition  # noqa: F401 (eval)
from companion.games.shakala.moves import parse_move  # noqa: F401 (eval)
from contract.schemas import load_schema
from tests.games.shakala.helpers import board

TEXTS = ["B-C2-Ds", "E-A4-Bs", "H-e1-fs:f3", "D-H2-es-fs:b4+cup1", "H-es-as-bs-cs-ds-hs-Es-As-Bs",
         "h-Es:E9", "e-fs-gs:cup1+cup1"]
BAD_TEXTS = ["", "B", "B-", "X-Cs", "B-C0", "B-Cx", "B-C22", "B-Cs:", "B-Cs:q1", "B-Cs:cup",
             "B-Cs:e3+", "b2-c4", "B-Cs Ds"]


@pytest.mark.parametrize("text", TEXTS)
def test_move_text_round_trips_and_repr_evaluates(text):
    move = GAME.parse_move(text)
    assert move.text() == text == str(move)
    assert eval(repr(move)) == move
    assert GAME.parse_move(move.text()) == move


def test_captured_gems_are_written_in_one_order():
    assert GAME.parse_move("D-H2-es-fs:cup1+b4").text() == "D-H2-es-fs:b4+cup1"


@pytest.mark.parametrize("text", BAD_TEXTS)
def test_bad_move_text_is_a_notation_error_naming_it(text):
    with pytest.raises(NotationError, match="Shakala move"):
        GAME.parse_move(text)


def test_regions_are_the_origin_and_the_pits_sown():
    assert GAME.parse_move("H-es-fs-gs-hs-Es-Fs-Gs-es-fs").regions() == (
        "H", "e", "f", "g", "h", "E", "F", "G")


def random_positions(count, seed=5):
    rng = random.Random(seed)
    found = []
    for index in range(count):
        variants = rng.choice([(), ("north-first",), ("gems-2222-3333",)])
        position = GAME.new_position(2, variants)
        for _ in range(rng.randrange(1, 150)):
            if GAME.is_over(position):
                break
            position = GAME.apply(position, rng.choice(GAME.legal_moves(position)))
            found.append(position)
        del index
    return found


def test_every_move_round_trips_and_applies_from_its_text():
    for position in random_positions(6)[::7]:
        for move in GAME.legal_moves(position)[:200]:
            again = GAME.parse_move(move.text())
            assert again.text() == move.text()
            assert GAME.apply(position, again) == GAME.apply(position, move)


def test_positions_round_trip_and_match_the_schema():
    validator = Draft202012Validator(load_schema("position-shakala"))
    for position in random_positions(4):
        data = position.to_json()
        assert not list(validator.iter_errors(data))
        assert GAME.read_position(json.loads(json.dumps(data))) == position
        assert eval(repr(position)) == position


def _start():
    return GAME.new_position(2).to_json()


def _change(path, value):
    def apply(data):
        *parents, last = path
        target = data
        for key in parents:
            target = target[key]
        if value is KeyError:
            del target[last]
        else:
            target[last] = value
        return data
    return apply


BAD_POSITIONS = [
    (_change(["game"], "chess"), "'game'"),
    (_change(["variants"], ["gems-12345-4321"]), "'variants'"),
    (_change(["variants"], ["gems-1234-5678"]), "more than 4 gem values"),
    (_change(["variants"], ["north-first", "north-first"]), "'variants'"),
    (_change(["players"], 3), "'players'"),
    (_change(["sides"], {"1": "north", "2": "south"}), "'sides'"),
    (_change(["to_move"], 0), "'to_move'"),
    (_change(["pits", "C"], KeyError), "pits"),
    (_change(["pits", "C", "stones"], -1), "pits.C.stones"),
    (_change(["pits", "C", "gems"], [5]), "pits.C.gems"),
    (_change(["pits", "C", "colour"], "red"), "colour"),
    (_change(["pits", "z"], {"stones": 0, "gems": []}), "'z'"),
    (_change(["pits", "C", "stones"], 2), "17 stones"),
    (_change(["pits", "C", "gems"], [3, 3, 3]), "gems worth 3"),
    (_change(["cups", "1"], [4, 4]), "gems worth 4"),
    (_change(["cups", "3"], []), "'cups'"),
    (_change(["cups", "2"], "34"), "cups.2"),
    (_change(["extra"], 1), "'extra'"),
    (_change(["to_move"], KeyError), "'to_move'"),
]


@pytest.mark.parametrize(("change", "needle"), BAD_POSITIONS)
def test_the_reader_refuses_a_bad_field_naming_it(change, needle):
    with pytest.raises(PositionError, match=needle.replace(".", r"\.")):
        GAME.position_from_json(change(_start()))


@pytest.mark.parametrize(("change", "needle"), BAD_POSITIONS)
def test_the_checked_reader_refuses_it_in_one_sentence(change, needle):
    with pytest.raises(PositionError) as caught:
        GAME.read_position(change(_start()), "position 'p.json'")
    assert "\n" not in str(caught.value) and str(caught.value).startswith("position 'p.json'")


ILLEGAL = [
    ("A-Bs", "must be fed"),
    ("H-fs-g2", "does not follow"),
    ("H-es-fs-gs", "beads dropped"),
    ("H-e2-f2", "beads dropped"),
    ("a-bs", "not the mover's"),
]


@pytest.mark.parametrize(("text", "needle"), ILLEGAL)
def test_an_illegal_move_says_why(text, needle):
    position = board({"A": "s", "H": "s2"})
    with pytest.raises(IllegalMoveError, match=needle):
        GAME.apply_text(position, text)


def test_a_wrong_capture_is_refused():
    position = board({"H": "s", "e": "s", "b": "2", "c": "3", "A": "s"})
    with pytest.raises(IllegalMoveError, match="indirect capture of 1"):
        GAME.apply_text(position, "H-es")
    with pytest.raises(IllegalMoveError, match="indirect capture"):
        GAME.apply_text(position, "H-es:cup2")
    with pytest.raises(IllegalMoveError, match="capture nothing"):
        GAME.apply_text(position, "A-Bs:b2")
    assert GAME.apply_text(position, "H-es:b2").points(1) == 2


def test_no_move_after_the_end():
    position = board({"A": "s"}, to_move=2)
    with pytest.raises(IllegalMoveError, match="over"):
        GAME.apply_text(position, "A-Bs")
