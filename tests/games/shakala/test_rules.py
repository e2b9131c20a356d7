"""Every Shakala ruling of RULINGS.md on a small hand-made position, one test a rule, with the
exact positions the mover can reach."""

import pytest

from companion.games import IllegalMoveError, Termination
from companion.games.shakala import GAME
from tests.games.shakala.helpers import board, children, results


def test_the_start_has_a_stone_and_a_gem_in_every_pit_and_south_moves():
    start = GAME.new_position(2)
    data = start.to_json()
    assert start.to_move == 1
    assert [data["pits"][name]["gems"] for name in "ABCDEFGH"] == [[v] for v in (1, 2, 3, 4,
                                                                                 4, 3, 2, 1)]
    assert [data["pits"][name]["gems"] for name in "abcdefgh"] == [[v] for v in (1, 2, 3, 4,
                                                                                 4, 3, 2, 1)]
    assert all(pit["stones"] == 1 for pit in data["pits"].values())
    assert GAME.scores(start) == {1: 0, 2: 0}


def test_options_set_gem_values_and_who_moves_first():
    start = GAME.new_position(2, ["north-first", "gems-1111-2222"])
    assert start.to_move == 2
    assert start.to_json()["pits"]["c"]["gems"] == [1]
    assert start.to_json()["pits"]["G"]["gems"] == [2]


def test_beads_are_sown_in_any_order_one_a_pit():
    position = board({"B": "s2", "a": "s"})
    assert results(position) == {board({"C": "s", "D": "2", "a": "s"}, to_move=2),
                                 board({"C": "2", "D": "s", "a": "s"}, to_move=2)}


def test_same_beads_in_another_order_are_one_move():
    position = board({"B": "ss", "a": "s"})
    assert list(children(position)) == ["B-Cs-Ds"]


def test_the_origin_is_skipped_and_the_track_taken_at_every_fork_pass():
    # Nine stones from H: e, then f g h or a b c d h, then E, then F G or A B C D, H skipped,
    # and a second pass through e picks again (f or a).
    position = board({"H": "s" * 9})
    moves = set(children(position))
    assert moves == {
        "H-es-fs-gs-hs-Es-Fs-Gs-es-fs",
        "H-es-fs-gs-hs-Es-Fs-Gs-es-as",
        "H-es-fs-gs-hs-Es-As-Bs-Cs-Ds",
        "H-es-as-bs-cs-ds-hs-Es-Fs-Gs",
        "H-es-as-bs-cs-ds-hs-Es-As-Bs",
    }
    assert children(position)["H-es-fs-gs-hs-Es-Fs-Gs-es-fs"] == board(
        {"e": "ss", "f": "ss", "g": "s", "h": "s", "E": "s", "F": "s", "G": "s"}, to_move=2)
    with pytest.raises(IllegalMoveError, match="does not follow"):
        GAME.apply_text(position, "H-es-fs-gs-hs-Es-Fs-Gs-Hs-es")


def test_a_fork_that_is_the_origin_gives_the_choice_at_once():
    position = board({"E": "ss", "a": "s"})
    assert set(children(position)) == {"E-Fs-Gs", "E-As-Bs"}


def test_a_stone_on_a_lone_gem_captures_it_directly():
    position = board({"H": "s", "e": "4", "A": "s"})
    assert children(position) == {"H-es:e4": board({"e": "s", "A": "s"}, cups=((4,), ()),
                                                   to_move=2),
                                  "A-Bs": board({"H": "s", "e": "4", "B": "s"}, to_move=2)}


def test_a_stone_on_a_lone_stone_takes_any_gem_from_the_opponents_pits():
    position = board({"H": "s", "e": "s", "b": "2", "c": "3"})
    assert children(position) == {
        "H-es:b2": board({"e": "ss", "c": "3"}, cups=((2,), ()), to_move=2),
        "H-es:c3": board({"e": "ss", "b": "2"}, cups=((3,), ()), to_move=2),
    }


def test_an_indirect_capture_takes_from_the_cup_when_the_pits_hold_no_gem():
    position = board({"H": "s", "e": "s", "D": "4"}, cups=((), (1, 3)))
    moves = children(position)
    assert {moves[text] for text in moves if text.startswith("H")} == {
        board({"e": "ss", "D": "4"}, cups=((1,), (3,)), to_move=2),
        board({"e": "ss", "D": "4"}, cups=((3,), (1,)), to_move=2),
    }


def test_no_gem_anywhere_on_the_opponents_side_means_no_capture():
    position = board({"H": "s", "e": "s", "D": "4"}, cups=((2,), ()))
    moves = children(position)
    assert {text for text in moves if text.startswith("H")} == {"H-es"}
    assert moves["H-es"] == board({"e": "ss", "D": "4"}, cups=((2,), ()), to_move=2)


def test_a_multiple_direct_capture_takes_every_gem_of_the_chain():
    position = board({"H": "ss", "e": "3", "f": "2", "a": "1"})
    assert children(position) == {
        "H-es-fs:e3+f2": board({"e": "s", "f": "s", "a": "1"}, cups=((2, 3), ()), to_move=2),
        "H-es-as:a1+e3": board({"e": "s", "f": "2", "a": "s"}, cups=((1, 3), ()), to_move=2),
    }


def test_a_multiple_indirect_capture_takes_one_gem_a_pit_of_the_chain():
    position = board({"H": "ss", "e": "s", "f": "s", "c": "4", "d": "12"})
    moves = children(position)
    inner = {text for text in moves if text.startswith("H-es-fs")}
    assert inner == {"H-es-fs:c4+d1", "H-es-fs:c4+d2", "H-es-fs:d1+d2"}
    assert moves["H-es-fs:d1+d2"] == board({"e": "ss", "f": "ss", "c": "4"}, cups=((1, 2), ()),
                                           to_move=2)
    assert moves["H-es-as"] == board({"e": "ss", "f": "s", "a": "s", "c": "4", "d": "12"},
                                     to_move=2)


def test_an_indirect_capture_short_of_gems_in_pits_finishes_from_the_cup():
    position = board({"H": "ss", "e": "s", "f": "s", "c": "4"}, cups=((), (1, 2)))
    moves = children(position)
    assert {text for text in moves if text.startswith("H-es-fs")} == {
        "H-es-fs:c4+cup1", "H-es-fs:c4+cup2"}
    assert moves["H-es-fs:c4+cup1"] == board({"e": "ss", "f": "ss"}, cups=((1, 4), (2,)),
                                             to_move=2)


def test_direct_and_indirect_captures_do_not_mix():
    # f holds a lone stone (indirect), e a lone gem: the chain is f alone.
    position = board({"H": "ss", "e": "3", "f": "s", "c": "1"})
    moves = children(position)
    assert {text for text in moves if text.startswith("H-es-fs")} == {
        "H-es-fs:c1", "H-es-fs:e3"}
    assert moves["H-es-fs:c1"] == board({"e": "s3", "f": "ss"}, cups=((1,), ()), to_move=2)


def test_a_bead_dropped_earlier_in_the_move_counts_as_the_lone_bead():
    # Nine beads from H round the inner tracks twice into f: the 4-gem dropped into the empty
    # f on the first lap is captured by the stone of the second, unless the mover drops the
    # gem last, which stops the chain.
    position = board({"H": "ssssssss4"})
    moves = children(position)
    assert moves["H-es-f4-gs-hs-Es-Fs-Gs-es-fs:f4"] == board(
        {"e": "ss", "f": "s", "g": "s", "h": "s", "E": "s", "F": "s", "G": "s"},
        cups=((4,), ()), to_move=2)
    assert GAME.apply_text(position, "H-es-fs-gs-hs-Es-Fs-Gs-es-f4") == board(
        {"e": "ss", "f": "s4", "g": "s", "h": "s", "E": "s", "F": "s", "G": "s"}, to_move=2)
    with pytest.raises(IllegalMoveError, match="capture"):
        GAME.apply_text(position, "H-es-f4-gs-hs-Es-Fs-Gs-es-fs")


def test_a_starving_opponent_must_be_fed_while_gems_remain_in_pits():
    position = board({"A": "s", "H": "s2"})
    moves = children(position)
    assert set(moves) == {"H-es-f2", "H-e2-fs", "H-es-a2", "H-e2-as"}
    with pytest.raises(IllegalMoveError, match="must be fed"):
        GAME.apply_text(position, "A-Bs")


def test_in_the_endgame_nobody_has_to_feed():
    position = board({"A": "s", "H": "ss"}, cups=((4,), ()))
    assert "A-Bs" in children(position)


def test_emptying_the_opponent_with_twenty_points_wins():
    position = board({"D": "s", "H": "s"}, cups=((4, 4, 3, 3, 2, 2, 1, 1), ()), to_move=2)
    assert GAME.is_over(position) and GAME.legal_moves(position) == []
    result = GAME.result(position)
    assert result.winners == (1,) and result.termination is Termination.GOAL
    assert result.text() == "player 1 wins (20 points to 0 points)"


def test_emptying_the_opponent_with_fewer_than_twenty_points_loses():
    position = board({"D": "s"}, cups=((4, 4, 3, 3, 2, 2, 1), (1,)), to_move=2)
    result = GAME.result(position)
    assert result.winners == (2,) and result.termination is Termination.EMPTIED


def test_a_player_who_sows_their_last_beads_away_is_not_fed_in_the_endgame():
    twenty = ((4, 4, 3, 3, 2, 2, 1, 1), ())
    position = board({"h": "s", "C": "s"}, cups=twenty, to_move=2)
    after = GAME.apply_text(position, "h-Es")
    assert after == board({"E": "s", "C": "s"}, cups=twenty, to_move=1)
    assert not GAME.is_over(after)
    assert set(children(after)) == {"C-Ds", "E-Fs", "E-As"}
    final = GAME.apply_text(after, "C-Ds")
    assert GAME.is_over(final)
    assert GAME.result(final).winners == (1,)


def test_the_mover_may_empty_their_own_side_and_is_then_fed():
    position = board({"H": "s", "c": "sss2"})
    after = GAME.apply_text(position, "H-es")
    assert not after.has_beads(1)
    assert {move.text().split("-")[0] for move in GAME.legal_moves(after)} == {"c"}
    assert all(any(pit in "ABCDEFGH" for pit in move.regions()[1:])
               for move in GAME.legal_moves(after))
