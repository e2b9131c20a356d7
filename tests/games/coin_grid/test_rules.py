"""Every Coin Grid rule of RULINGS.md, each on a small hand-made position."""

from fractions import Fraction
from itertools import product

import pytest

from companion.games import IllegalMoveError
from companion.games.coin_grid import GAME
from companion.games.coin_grid.battle import odds
from companion.games.coin_grid.board import names
from companion.games.coin_grid.rules import held_back
from tests.games.coin_grid.helpers import grid, texts


def targets_from(position, origin):
    return sorted(move.text()[len(origin) + 1:] for move in GAME.legal_moves(position)
                  if move.text()[:len(origin)] == origin and move.text()[len(origin)] in "-x")


def apply(position, *moves):
    for move in moves:
        position = GAME.apply_text(position, move)
    return position


# ------------------------------------------------------------------------------------ the start


def test_the_start_fills_both_players_star_and_x_rows_and_south_rolls_first():
    start = GAME.new_position(2)
    data = start.to_json()
    assert sorted(data["pieces"]) == sorted(f"{f}{r}" for f in "abcdef" for r in (1, 2, 11, 12))
    assert {p["owner"] for n, p in data["pieces"].items() if int(n[1:]) <= 2} == {1}
    assert all(not p["moved"] and p["kind"] == "original" and p["stack"] == "single"
               for p in data["pieces"].values())
    assert (data["to_move"], data["phase"], data["supply"]) == (1, "start", 6)
    assert GAME.is_chance(start) and GAME.legal_moves(start) == []
    assert [(m.text(), c) for m, c in GAME.chance_outcomes(start)] == [
        (f"roll:{face}", Fraction(1, 6)) for face in range(1, 7)]


def test_the_short_game_puts_six_coins_each_on_squares_chosen_at_setup():
    short = GAME.new_position(2, ["short", "dead-coins-3"], seed=9)
    pieces = short.to_json()["pieces"]
    south = [n for n, p in pieces.items() if p["owner"] == 1]
    north = [n for n, p in pieces.items() if p["owner"] == 2]
    assert len(south) == len(north) == 6
    assert all(int(n[1:]) in (1, 2) for n in south) and all(int(n[1:]) in (11, 12) for n in north)
    assert short.supply == 3
    assert GAME.new_position(2, ["short"], seed=9) == GAME.new_position(2, ["short"], seed=9)
    assert GAME.new_position(2, ["short"], seed=9) != GAME.new_position(2, ["short"], seed=10)


@pytest.mark.parametrize("variants", [["long"], ["dead-coins-13"], ["dead-coins-1", "dead-coins-2"],
                                      ["short", "short"]])
def test_unknown_or_clashing_options_are_refused(variants):
    with pytest.raises(ValueError, match="variant"):
        GAME.new_position(2, variants)


def test_coin_grid_is_for_two_players():
    with pytest.raises(ValueError, match="2 players, not 3"):
        GAME.new_position(3)


# ---------------------------------------------------------------------------------- king steps


def test_one_step_goes_to_any_of_the_eight_neighbours():
    position = grid({"c3": "S1", "f12": "N1"}, phase="rolled", roll=1)
    assert targets_from(position, "c3") == sorted(["b2", "c2", "d2", "b3", "d3", "b4", "c4",
                                                   "d4"])


def test_a_roll_of_v_goes_up_to_v_king_steps_in_any_mix_of_directions():
    position = grid({"a1": "S1", "f12": "N1"}, phase="rolled", roll=3)
    reached = targets_from(position, "a1")
    assert len(reached) == 15  # the 4x4 corner block but a1
    assert "d4" in reached and "d1" in reached and "e1" not in reached


def test_a_piece_steps_only_through_empty_squares_and_never_ends_on_its_own():
    # a2 and b2 block the way north; only the way east past b1 is open
    position = grid({"a1": "S1", "a2": "S1'", "b2": "S1'", "f12": "N1"}, phase="rolled",
                    roll=2)
    assert targets_from(position, "a1") == ["b1", "c1", "c2"]


def test_enemy_pieces_can_be_attacked_but_not_passed_through():
    position = grid({"a1": "S1", "b1": "N1'", "b2": "N1'", "a2": "N1'", "f12": "N1"},
                    phase="rolled", roll=4)
    assert targets_from(position, "a1") == ["a2", "b1", "b2"]
    assert texts(GAME.legal_moves(position)) == ["a1xa2", "a1xb1", "a1xb2"]


def test_a_pass_is_never_a_child_while_a_step_exists():
    """A pass needs every piece boxed in, which 24 pieces cannot do on a 36-square half (an
    enemy piece can be attacked, the wall stops steps only outward), so in this game it is
    only ever refused; the tree still has it (RULINGS.md)."""
    crowded = grid({**{f"{f}{r}": "S1'" for f in "abcdef" for r in (5, 6)},
                    **{f"{f}7": "N1'" for f in "abcdef"}}, phase="rolled", roll=1)
    moves = texts(GAME.legal_moves(crowded))
    assert moves == sorted(f"{f}5-{g}4" for f in "abcdef" for g in "abcdef"
                           if abs(ord(f) - ord(g)) <= 1)
    with pytest.raises(IllegalMoveError, match="the mover has a legal move"):
        GAME.apply_text(crowded, "pass")


# ------------------------------------------------------------------------------------ the wall


def test_crossing_the_wall_needs_a_roll_of_four_or_more():
    for roll in (1, 2, 3):
        position = grid({"c6": "S1'", "c7": "N1'", "f12": "N1'"}, phase="rolled", roll=roll)
        reached = targets_from(position, "c6")
        assert reached and all(int(square[1:]) <= 6 for square in reached), roll
        with pytest.raises(IllegalMoveError, match="would cross the wall to reach c7"):
            GAME.apply_text(position, "c6xc7")
    position = grid({"c6": "S1'", "c7": "N1'", "f12": "N1'"}, phase="rolled", roll=4)
    assert {"c7", "c10", "b7", "d8"} <= set(targets_from(position, "c6"))
    assert "c6xc7" in texts(GAME.legal_moves(position))


def test_the_wall_binds_north_the_other_way():
    position = grid({"d7": "N1'", "a1": "S1'"}, to_move=2, phase="rolled", roll=3)
    assert all(int(square[1:]) >= 7 for square in targets_from(position, "d7"))
    position = grid({"d7": "N1'", "a1": "S1'"}, to_move=2, phase="rolled", roll=4)
    assert "d3" in targets_from(position, "d7")


def test_going_home_needs_no_four_but_stepping_back_across_does():
    # South's piece in North's half with a 2: it may step home, attack around it, and move
    # inside North's half, but not step home and then back across the wall.
    position = grid({"a7": "S1'", "a8": "N1'", "b8": "N1'", "b7": "N1'", "f1": "S1'",
                     "f12": "N1'"}, phase="rolled", roll=2)
    assert targets_from(position, "a7") == ["a5", "a6", "a8", "b5", "b6", "b7", "b8", "c5",
                                            "c6"]
    position = grid({"a7": "S1'", "a8": "N1'", "b8": "N1'", "b7": "N1'", "f1": "S1'",
                     "f12": "N1'"}, phase="rolled", roll=4)
    assert "c7" in targets_from(position, "a7")


# -------------------------------------------------------- every original coin moves once first


def test_while_an_original_coin_has_not_moved_a_moved_piece_waits():
    position = grid({"a1": "S1", "c3": "S1'", "f12": "N1"}, phase="rolled", roll=1)
    assert {move.text()[:2] for move in GAME.legal_moves(position)} == {"a1"}
    assert names(held_back(position)) == ["c3"]
    with pytest.raises(IllegalMoveError, match="every original coin moves once"):
        GAME.apply_text(position, "c3-c4")


def test_unless_no_unmoved_piece_has_a_legal_move():
    boxed = grid({"a1": "S1", "a2": "S1'", "b1": "S1'", "b2": "S1'", "f12": "N1"},
                 phase="rolled", roll=1)
    assert {move.text()[:2] for move in GAME.legal_moves(boxed)} == {"a2", "b1", "b2"}
    assert held_back(boxed) == 0


def test_dead_coins_start_unmoved_but_do_not_hold_the_others_back():
    only_dead = grid({"a1": "Sd", "c3": "S1'", "f12": "N1"}, phase="rolled", roll=1)
    assert {move.text()[:2] for move in GAME.legal_moves(only_dead)} == {"a1", "c3"}
    with_original = grid({"a1": "Sd", "b5": "S1", "c3": "S1'", "f12": "N1"},
                         phase="rolled", roll=1)
    assert {move.text()[:2] for move in GAME.legal_moves(with_original)} == {"a1", "b5"}


def test_a_step_marks_the_piece_moved():
    after = apply(grid({"a1": "S1", "f12": "N1"}, phase="rolled", roll=1), "a1-b2")
    assert after.to_json()["pieces"]["b2"]["moved"] is True
    assert (after.to_move, after.phase) == (2, "start")


# --------------------------------------------------------------------------------------- battles


def brute_odds(attacker_dice, attacker_halved, defender_dice, defender_halved):
    """Every roll of both sides, ties left out (they are rolled again)."""
    wins = losses = 0
    for mine, theirs in product(product(range(1, 7), repeat=attacker_dice),
                                product(range(1, 7), repeat=defender_dice)):
        a = sum(mine) // 2 if attacker_halved else sum(mine)
        d = sum(theirs) // 2 if defender_halved else sum(theirs)
        wins += a > d
        losses += d > a
    return Fraction(wins, wins + losses), Fraction(losses, wins + losses)


def battle_outcomes(pieces, square, attacker, to_move=1):
    position = grid(pieces, to_move=to_move, phase="battle", battle=(square, attacker))
    assert GAME.is_chance(position) and GAME.legal_moves(position) == []
    return {move.text(): chance for move, chance in GAME.chance_outcomes(position)}


def test_single_against_single_is_even_once_ties_are_rolled_again():
    outcomes = battle_outcomes({"c5": "N1'", "a1": "S1"}, "c5", "S1'")
    assert outcomes == {"attacker-wins": Fraction(1, 2), "defender-wins": Fraction(1, 2)}


@pytest.mark.parametrize(("pieces", "square", "attacker", "expected"), [
    # a double stack rolls two dice (c9 is in North's half: no halving for South's stack)
    ({"c9": "N1'", "a1": "S1"}, "c9", "S2'", (2, False, 1, False)),
    # against a double stack in its owner's half, the attacker's total is halved
    ({"c9": "N2'", "a1": "S1"}, "c9", "S1'", (1, True, 2, False)),
    # ... but not when the double stack stands in the enemy half
    ({"c5": "N2'", "a1": "S1"}, "c5", "S1'", (1, False, 2, False)),
    # a dead coin halves the rolls against it anywhere
    ({"c5": "Nd'", "a1": "S1"}, "c5", "S1'", (1, True, 1, False)),
    ({"c9": "Nd'", "a1": "S1"}, "c9", "S1'", (1, True, 1, False)),
    # a dead coin attacking: the defender's total is halved
    ({"c9": "N1'", "a1": "S1"}, "c9", "Sd'", (1, False, 1, True)),
    # dead against dead: both halved
    ({"c9": "Nd'", "a1": "S1"}, "c9", "Sd'", (1, True, 1, True)),
    # a double stack attacking into its own half is halved against too
    ({"c5": "N1'", "a1": "S1"}, "c5", "S2'", (2, False, 1, True)),
])
def test_battle_odds_are_exact_with_dice_half_damage_and_ties_rolled_again(
    pieces, square, attacker, expected,
):
    outcomes = battle_outcomes(pieces, square, attacker)
    wins, losses = brute_odds(*expected)
    assert outcomes == {"attacker-wins": wins, "defender-wins": losses}
    assert sum(outcomes.values()) == 1
    assert odds(*expected) == (wins, losses)


def test_with_these_dice_each_side_can_always_win_a_battle():
    """The weakest side, a single die halved (0..3), still beats two dice unhalved at their
    lowest (2), so every battle has both children."""
    for dice in product((1, 2), (True, False), (1, 2), (True, False)):
        assert all(0 < chance < 1 for chance in odds(*dice)), dice


def test_a_battle_a_side_cannot_win_has_one_child(monkeypatch):
    """RULINGS.md's one-child battle, reached by rigging the odds (no real pair of pieces has
    them)."""
    import companion.games.coin_grid.rules as rules

    monkeypatch.setattr(rules, "battle_odds", lambda *_: (Fraction(0), Fraction(1)))
    battle = grid({"c8": "N1'", "a1": "S1"}, phase="battle", battle=("c8", "S1'"))
    assert texts(GAME.children(battle)) == ["defender-wins"]
    assert GAME.perft(battle, 1) == 1
    with pytest.raises(IllegalMoveError, match="that side cannot win this battle"):
        GAME.apply_text(battle, "attacker-wins")


def test_the_attacker_that_wins_holds_the_square_and_keeps_the_loser_coins():
    battle = grid({"c8": "N2'", "a1": "S1", "f12": "N1"}, phase="battle",
                  battle=("c8", "S1'"), reserves=(0, 0))
    after = apply(battle, "attacker-wins")
    assert after.to_json()["pieces"]["c8"] == {"owner": 1, "kind": "original",
                                                "stack": "single", "moved": True}
    assert after.reserves == (2, 0) and (after.to_move, after.phase) == (2, "start")


def test_the_defender_that_wins_stays_and_keeps_the_attacker_coins():
    battle = grid({"c8": "N1'", "a1": "S1", "f12": "N1"}, phase="battle",
                  battle=("c8", "S2'"), reserves=(0, 1))
    after = apply(battle, "defender-wins")
    assert after.to_json()["pieces"]["c8"]["owner"] == 2
    assert after.reserves == (0, 3) and after.piece_count(1) == 1


def test_a_step_onto_an_enemy_piece_starts_a_battle_written_with_x():
    position = grid({"c3": "S1'", "c4": "N1'", "f12": "N1"}, phase="rolled", roll=1)
    with pytest.raises(IllegalMoveError, match="write c3xc4"):
        GAME.apply_text(position, "c3-c4")
    battle = apply(position, "c3xc4")
    assert battle.phase == "battle" and battle.to_move == 1
    assert "c3" not in battle.to_json()["pieces"]
    assert battle.to_json()["battle"]["square"] == "c4"


# ---------------------------------------------------------------------------------- double stacks


def test_a_double_stack_goes_under_a_single_original_coin_in_the_enemy_half():
    position = grid({"c9": "S1'", "d10": "S1", "e8": "Sd'", "f11": "S2'", "a5": "S1'",
                     "b12": "N1"}, reserves=(2, 0))
    assert not GAME.is_chance(position)
    assert texts(GAME.legal_moves(position)) == sorted(
        ["double:c9", "double:d10", *(f"roll:{face}" for face in range(1, 7))])
    assert GAME.legal_targets(position) == frozenset({"c9", "d10"})
    after = apply(position, "double:c9")
    assert after.to_json()["pieces"]["c9"] == {"owner": 1, "kind": "original",
                                               "stack": "double", "moved": True}
    assert after.reserves == (1, 0) and (after.to_move, after.phase) == (2, "start")


def test_no_double_stack_without_a_reserve_coin_and_the_start_is_then_pure_chance():
    position = grid({"c9": "S1'", "b12": "N1"}, reserves=(0, 3))
    assert GAME.is_chance(position) and GAME.legal_moves(position) == []
    with pytest.raises(IllegalMoveError, match="no coin in reserve"):
        GAME.apply_text(position, "double:c9")


def test_no_double_stack_in_ones_own_half():
    position = grid({"c5": "S1'", "b12": "N1"}, reserves=(1, 0))
    with pytest.raises(IllegalMoveError, match="enemy half"):
        GAME.apply_text(position, "double:c5")


def test_north_stacks_in_south_half():
    position = grid({"c5": "N1'", "c9": "N1'", "a1": "S1"}, to_move=2, reserves=(0, 1))
    assert "double:c5" in texts(GAME.legal_moves(position))
    assert "double:c9" not in texts(GAME.legal_moves(position))


# ----------------------------------------------------------------------------------- dead coins


def test_ending_on_the_enemy_star_row_brings_a_dead_coin_to_ones_own_star_row():
    position = grid({"c11": "S1'", "a1": "S1'", "f12": "N1'"}, phase="rolled", roll=1)
    reward = apply(position, "c11-c12")
    assert (reward.phase, reward.to_move) == ("reward", 1)
    assert texts(GAME.legal_moves(reward)) == sorted(
        ["decline", *(f"dead:{f}1" for f in "bcdef")])
    after = apply(reward, "dead:d1")
    assert after.to_json()["pieces"]["d1"] == {"owner": 1, "kind": "dead", "stack": "single",
                                               "moved": False}
    assert after.supply == 5 and (after.to_move, after.phase) == (2, "start")
    declined = apply(reward, "decline")
    assert declined.supply == 6 and "d1" not in declined.to_json()["pieces"]


def test_the_x_row_when_the_star_row_is_full_then_an_exchange_when_both_are():
    star_full = {f"{f}1": "S1'" for f in "abcdef"}
    reward = grid({**star_full, "c12": "S1'", "a7": "N1'"}, phase="reward")
    assert texts(GAME.legal_moves(reward)) == sorted(
        ["decline", *(f"dead:{f}2" for f in "abcdef")])
    both_full = {**star_full, **{f"{f}2": "S1'" for f in "abcde"}, "f2": "N1'"}
    reward = grid({**both_full, "c12": "S1'", "a7": "N1'"}, phase="reward")
    assert texts(GAME.legal_moves(reward)) == sorted(
        ["decline", *(f"dead:x{f}{r}" for f in "abcdef" for r in (1, 2) if f"{f}{r}" != "f2")])
    after = apply(reward, "dead:xb2")
    assert after.to_json()["pieces"]["b2"]["kind"] == "dead"
    assert after.coins_on_board(1) == reward.coins_on_board(1)  # the old piece left play
    with pytest.raises(IllegalMoveError, match="dead:xSQUARE"):
        GAME.apply_text(reward, "dead:b2")


def test_winning_a_battle_on_the_enemy_star_row_earns_the_reward_too():
    battle = grid({"c12": "N1'", "d12": "N1'", "a1": "S1'"}, phase="battle",
                  battle=("c12", "S1'"))
    assert apply(battle, "attacker-wins").phase == "reward"
    assert apply(battle, "defender-wins").phase == "start"


def test_no_reward_with_an_empty_supply_or_on_ones_own_star_row():
    position = grid({"c11": "S1'", "a1": "S1'", "f12": "N1'"}, phase="rolled", roll=1,
                    supply=0)
    assert apply(position, "c11-c12").phase == "start"
    position = grid({"c2": "S1'", "f12": "N1'"}, phase="rolled", roll=1)
    assert apply(position, "c2-c1").phase == "start"


def test_north_brings_its_dead_coins_to_rank_twelve():
    position = grid({"c2": "N1'", "a12": "N1'", "f1": "S1'"}, to_move=2, phase="rolled",
                    roll=1)
    reward = apply(position, "c2-c1")
    assert reward.phase == "reward"
    assert texts(GAME.legal_moves(reward)) == sorted(
        ["decline", *(f"dead:{f}12" for f in "bcdef")])


# -------------------------------------------------------------------------------------- the end


def test_the_player_who_loses_their_last_piece_loses_at_once_with_no_reward():
    battle = grid({"c12": "N1'", "a1": "S1'"}, phase="battle", battle=("c12", "S1'"))
    after = apply(battle, "attacker-wins")
    assert GAME.is_over(after) and GAME.legal_moves(after) == [] and GAME.children(after) == []
    result = GAME.result(after)
    assert result.winners == (1,) and result.termination is not None
    assert result.text() == "player 1 wins (3 coins to 0 coins)"
    assert GAME.perft(after, 3) == 0
    assert not GAME.is_over(apply(battle, "defender-wins"))  # South still has a1
    alone = grid({"c12": "N1'", "d12": "N1'"}, phase="battle", battle=("c12", "S1'"))
    lost = apply(alone, "defender-wins")
    assert GAME.is_over(lost) and GAME.result(lost).winners == (2,)


def test_an_attacker_in_battle_is_still_in_play():
    battle = grid({"c12": "N1'"}, phase="battle", battle=("c12", "S1'"))
    assert not GAME.is_over(battle) and GAME.is_chance(battle)


def test_illegal_actions_say_which_step_of_the_turn_it_is():
    start = GAME.new_position(2)
    with pytest.raises(IllegalMoveError, match="in phase 'start'; the turn needs a roll"):
        GAME.apply_text(start, "b2-b3")
    with pytest.raises(IllegalMoveError, match="no piece on c5"):
        GAME.apply_text(apply(start, "roll:2"), "c5-c6")
    with pytest.raises(IllegalMoveError, match="cannot reach b5 with a 2"):
        GAME.apply_text(apply(start, "roll:2"), "b2-b5")


def test_with_both_rows_full_of_enemy_pieces_the_referee_declines_by_itself():
    rows = {f"{f}{r}": "N1'" for f in "abcdef" for r in (1, 2)}
    reward = grid({**rows, "c12": "S1'"}, phase="reward")
    assert texts(GAME.legal_moves(reward)) == ["decline"]
    assert GAME.forced(reward) == GAME.parse_move("decline")
