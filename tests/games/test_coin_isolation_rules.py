"""Coin Isolation rulings and variants on small hand-made positions."""

import pytest

from companion.games import IllegalMoveError, Termination
from companion.games.coin_isolation import GAME


def position(squares, variants=(), pawns=None, players=2, **extra):
    data = {
        "variants": list(variants), "players": players, "squares": squares,
        "pawns": pawns or {str(p): None for p in range(1, players + 1)},
        "taken": {str(p): "" for p in range(1, players + 1)},
    }
    data.update(extra)
    return GAME.position_from_json(data)


def play(start, *texts):
    for text in texts:
        start = GAME.apply(start, GAME.parse_move(text))
    return start


def squares(pos):
    return pos.to_json()["squares"]


def test_a_move_takes_one_coin_and_piles_the_path_on_the_target():
    after = play(position({"a1": "P", "a2": "P", "a3": "PP", "h8": "N"}), "a1-a2-a3")
    assert squares(after) == {"a3": "PPP", "h8": "N"}
    assert after.to_json()["taken"]["1"] == "P"
    assert after.to_json()["pawns"]["1"] == "a3"
    assert after.last_taker == 1


def test_paths_follow_adjacency_type_and_pawns():
    start = position({"a1": "P", "b2": "P", "b1": "N", "c1": "N"}, pawns={"1": None, "2": "c1"})
    with pytest.raises(IllegalMoveError, match="adjacent"):
        play(start, "a1-b2")  # diagonal step without the diagonal variant
    assert play(position(squares(start), ["diagonal"]), "a1-b2").to_json()["pawns"]["1"] == "b2"
    with pytest.raises(IllegalMoveError):
        play(start, "b1-c1")  # c1 holds a pawn
    with pytest.raises(IllegalMoveError):
        play(start, "a1-b1")  # two coin types


def test_later_turns_start_next_to_the_source():
    start = position({"a1": "P", "a2": "N", "a3": "N", "h8": "D", "h7": "D"})
    after = play(start, "a1", "h8")
    with pytest.raises(IllegalMoveError, match="next to the pawn"):
        play(after, "a3")
    assert play(after, "a2-a3").to_json()["pawns"]["1"] == "a3"


def test_pass_only_without_a_move_and_the_game_ends_when_all_pass():
    start = position({"a1": "P", "h8": "Q"})
    after = play(start, "a1", "h8")
    assert [m.text() for m in GAME.legal_moves(after)] == ["pass"]
    assert GAME.forced(after).text() == "pass" and GAME.forced(start) is None
    with pytest.raises(IllegalMoveError, match="may not pass"):
        play(start, "pass")
    over = play(after, "pass", "pass")
    assert GAME.is_over(over)
    assert GAME.legal_moves(over) == []
    assert GAME.result(over).winners == (2,)
    assert GAME.result(over).text() == "player 2 wins (1¢ to 25¢)"
    assert GAME.result(over).termination is Termination.BLOCKED
    emptied = position({}, ["empty-squares"], taken={"1": "P", "2": ""})
    assert GAME.is_over(emptied) and GAME.result(emptied).termination is Termination.EXHAUSTED


def test_tie_goes_to_the_last_taker_and_stands_when_nobody_took():
    tied = position({}, taken={"1": "N", "2": "PPPPP"}, last_taker=1, passes=2)
    assert GAME.result(tied).winners == (1,)
    assert GAME.result(tied).tie_broken
    nobody = position({}, passes=2)
    assert GAME.result(nobody).winners == (1, 2)
    three = position({}, players=3, taken={"1": "N", "2": "N", "3": "P"},
                     take_order=[3, 2, 1], last_taker=3, passes=3)
    assert GAME.result(three).winners == (2,)


def test_greedy_cleanup_and_semi_greedy():
    board = {"a1": "PP", "a2": "PPP"}
    assert squares(play(position(board, ["greedy"]), "a1-a2")) == {"a1": "P", "a2": "P"}
    assert squares(play(position(board, ["cleanup"]), "a1-a2")) == {"a2": "PPPP"}
    semi = position(board, ["semi-greedy"])
    assert {m.text() for m in GAME.legal_moves(semi)} >= {"a1x0", "a1x2", "a1-a2x3"}
    zero = play(semi, "a1-a2x0")
    assert squares(zero) == {"a1": "P", "a2": "PPPP"}
    assert zero.last_taker is None and zero.quiet == 1


def test_standing_still_takes_from_the_source():
    start = position({"a1": "PPP", "h8": "N"}, ["standing-still"])
    after = play(start, "a1", "h8")
    assert "stay" in {m.text() for m in GAME.legal_moves(after)}
    stayed = play(after, "stay")
    assert squares(stayed)["a1"] == "P" and stayed.to_json()["pawns"]["1"] == "a1"
    assert "a1" in GAME.legal_targets(after)


def test_mixed_change_moves_a_source_coin_and_names_the_type():
    start = position({"a1": "NP", "a2": "QD", "a3": "ND"}, ["mixed-change"],
                     pawns={"1": "a2", "2": "h8"})
    texts = {m.text() for m in GAME.legal_moves(start)}
    assert {"N:a3^Q", "D:a3^D", "N:a1^Q", "P:a1^D"} <= texts
    after = play(start, "N:a1^Q")
    assert squares(after) == {"a1": "QP", "a2": "D", "a3": "ND"}
    with pytest.raises(IllegalMoveError, match="name the coin type"):
        play(start, "a1")


def test_mixed_change_2008_moves_half_the_source():
    start = position({"a1": "P", "a2": "QNPD"}, ["mixed-change-2008"], pawns={"1": "a2", "2": "h8"})
    sources = {m.text().split("^")[1] for m in GAME.legal_moves(start)}
    assert sources == {"QN", "QP", "QD", "NP", "ND", "PD"}
    assert squares(play(start, "P:a1^QD")) == {"a1": "QD", "a2": "NP"}


def test_transplant_places_coins_on_empty_squares():
    start = position({"a1": "P", "a2": "P", "a3": "P", "h8": "N"}, ["transplant"])
    with pytest.raises(IllegalMoveError, match="place 2 coin"):
        play(start, "a1-a2-a3>a1")
    after = play(start, "a1-a2-a3>g1,a3")
    assert squares(after) == {"a3": "P", "g1": "P", "h8": "N"}
    tvv = position({"b1": "P", "b2": "P", "c2": "P"}, ["transplant-variant-variant"],
                   pawns={"1": "a1", "2": "h8"})
    assert squares(play(tvv, "b1-b2-c2>a1,b1")) == {"a1": "P", "b1": "P"}
    with pytest.raises(IllegalMoveError):
        play(tvv, "b1-b2-c2>b1,c2")  # the pawn is already on the target


def test_empty_squares_paths_and_the_end_with_no_coins():
    start = position({"a1": "P"}, ["empty-squares"], pawns={"1": "c3", "2": "h8"})
    assert "c4-c5" in {m.text() for m in GAME.legal_moves(start)}
    assert GAME.is_over(play(position({"b1": "P"}, ["empty-squares"]), "b1"))


def test_renegade_declares_and_then_only_moves_the_pawn():
    start = position({"a1": "P", "a2": "N", "h8": "Q"}, ["renegade"])
    texts = {m.text() for m in GAME.legal_moves(start)}
    assert {"a1", "renegade:a1", "renegade:b1"} <= texts
    after = play(start, "renegade:a1")
    assert after.renegades == (1,) and squares(after)["a1"] == "P"
    moved = play(after, "h8", "a2")
    assert squares(moved)["a2"] == "N" and moved.to_json()["taken"]["1"] == ""
    stuck = position({"h8": "Q"}, ["renegade"])
    assert "pass" in {m.text() for m in GAME.legal_moves(stuck)}  # declaring is never forced


def test_quiet_limit_ends_wandering_games():
    start = position({"h8": "Q"}, ["renegade"], renegades=[1, 2], quiet=19,
                     pawns={"1": "c3", "2": "f6"})
    assert not GAME.is_over(start)
    assert GAME.is_over(play(start, "c4"))


def test_legal_targets_are_the_flood_fill():
    start = position({"a1": "P", "a2": "P", "b2": "P", "c2": "N", "c3": "P"})
    assert GAME.legal_targets(start) == {"a1", "a2", "b2"}
    assert GAME.legal_targets(position(squares(start), ["diagonal"])) == {"a1", "a2", "b2", "c3"}


def test_interface_extras_for_the_referee():
    start = position({"a1": "P", "a2": "P", "h8": "N"})
    move = GAME.parse_move("a1-a2")
    assert move.path == ("a1", "a2") and move.regions() == ("a1", "a2")
    assert GAME.changed_regions(start, move) == {"a1", "a2"}
    assert not GAME.is_chance(start) and GAME.chance_outcomes(start) == []
    assert GAME.to_move(start) == 1 and GAME.to_move(play(start, "a1-a2")) == 2
    assert "a1" in GAME.draw(start) or " P " in GAME.draw(start)
