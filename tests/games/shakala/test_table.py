"""Shakala on the table: what the layout puts in pits and cups, candidates from what a camera
sees of loose coins, the start read from the camera, highlighted pits, the text board and the
rules commands."""

import json

import pytest

from companion.cli import main
from companion.games import PositionError
from companion.games.shakala import GAME
from contract.observation import Observation, RegionReading
from tests.games.shakala.helpers import board


def observe(position):
    """What a perfect camera reports: each pit's and cup's count and coin kinds."""
    looks = GAME.layout(position).looks()
    return Observation({name: RegionReading(count=look.count, kinds=look.kinds)
                        for name, look in looks.items()})


def test_layout_puts_stones_as_pennies_and_gems_as_dimes_to_dollars():
    table = GAME.layout(board({"A": "ss1234", "e": "4"}, cups=((2, 3), (1,))))
    assert table.stacks() == {"A": "DNPPQS", "e": "S", "cup-south": "NQ", "cup-north": "D"}
    assert all(contents.loose for contents in table.values())
    assert GAME.info.coin_kinds == "PDNQS"


def test_gem_coins_follow_the_values_in_force():
    start = GAME.new_position(2, ["gems-2255-2255"])
    assert GAME.layout(start).stacks()["A"] == "DP"
    assert GAME.layout(start).stacks()["C"] == "NP"


def test_seat_coins_and_scores_are_the_cups():
    position = board({"A": "s"}, cups=((4, 1), (3,)))
    assert GAME.seat_coins(position) == {1: "DS", 2: "Q"}
    assert GAME.scores(position) == {1: 5, 2: 3}


def test_candidates_are_the_moves_whose_pits_look_like_the_reading():
    position = GAME.new_position(2)
    for move in GAME.legal_moves(position):
        after = GAME.apply(position, move)
        found = GAME.candidates(position, observe(after))
        assert move in found
        assert all(observe(GAME.apply(position, other)) == observe(after) for other in found)


def test_an_indirect_capture_choice_is_seen_in_the_cups():
    position = board({"H": "s", "e": "s", "b": "2", "c": "3"})
    after = GAME.apply_text(position, "H-es:c3")
    assert [move.text() for move in GAME.candidates(position, observe(after))] == ["H-es:c3"]


def test_legal_targets_are_the_movers_pits_with_beads():
    assert GAME.legal_targets(board({"A": "s", "H": "s2", "a": "s"})) == {"A", "H"}
    assert GAME.legal_targets(board({"A": "s"}, to_move=2)) == frozenset()


def test_the_start_is_read_from_the_camera():
    start = GAME.new_position(2, ["north-first"])
    assert GAME.position_from_reading(start, observe(start)) == start


def test_a_wrong_start_is_refused_naming_the_pit():
    start = GAME.new_position(2)
    wrong = observe(board({"A": "s2"}))
    with pytest.raises(PositionError, match="in A"):
        GAME.position_from_reading(start, wrong)


def test_draw_shows_rows_cups_and_who_moves():
    text = GAME.draw(board({"A": "ss34", "d": "1"}, cups=((2,), ())))
    lines = text.splitlines()
    assert lines[0] == "North cup: empty (0 points)"
    assert lines[1].split() == list("dcba")
    assert "1" in lines[2] and "2s 34" in lines[8]
    assert lines[-2] == "South cup: 2 (2 points)"
    assert lines[-1] == "player 1 (South) to move"


def test_draw_of_a_finished_game_gives_the_result():
    text = GAME.draw(board({"A": "s"}, cups=((), ()), to_move=2))
    assert text.splitlines()[-1] == "game over: player 2 wins (0 points to 0 points)"


def test_rules_commands(tmp_path, capsys):
    assert main(["rules", "new", "--game", "shakala"]) == 0
    start = capsys.readouterr().out
    path = tmp_path / "start.json"
    path.write_text(start)
    assert main(["rules", "perft", str(path), "2"]) == 0
    assert capsys.readouterr().out.split()[-1] == "441"
    assert main(["rules", "moves", str(path)]) == 0
    moves = [json.loads(line)["text"] for line in capsys.readouterr().out.splitlines()]
    assert len(moves) == 20 and "E-As-B4" in moves
    assert main(["rules", "apply", str(path), "E-As-B4"]) == 0
    after = json.loads(capsys.readouterr().out)
    assert after["pits"]["B"] == {"stones": 1, "gems": [2, 4]}
    assert main(["rules", "show", str(path)]) == 0
    assert "South cup" in capsys.readouterr().out
    assert main(["rules", "apply", str(path), "E-Bs-A4"]) == 2
    assert "does not follow" in capsys.readouterr().err
