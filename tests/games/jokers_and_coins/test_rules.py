"""Every ruling of RULINGS.md's Jokers and Coins section on a small hand-made position, one
test a rule, asserting the exact result. With four seats on the default ring (72 spaces):
seat 1's corner is t1, IN t4, START t9; seat 2's corner t19, IN t22, START t27; seat 3's
corner t37, IN t40, START t45; seat 4's corner t55, IN t58, START t63."""

import pytest

from companion.games import IllegalMoveError
from companion.games.jokers_and_coins import GAME
from companion.games.jokers_and_coins.ring import ring_for
from tests.games.jokers_and_coins.helpers import coins_after, moves, table


def test_the_ring_has_sides_of_18_with_in_and_start_offsets_and_two_seats_sit_opposite():
    ring = ring_for(2, ())
    assert (ring.sides, ring.size, ring.ins, ring.starts) == (4, 72, (3, 39), (8, 44))
    five = ring_for(5, ("side-12", "in-2", "start-5"))
    assert (five.size, five.ins[1], five.starts[1], five.hit_corners[1]) == (60, 14, 17, 24)


def test_teams_are_pairs_for_four_and_six_seats_or_two_teams_of_three():
    assert ring_for(4, ()).teams == ((1, 3), (2, 4))
    assert ring_for(6, ()).teams == ((1, 4), (2, 5), (3, 6))
    assert ring_for(6, ("teams-of-three",)).teams == ((1, 3, 5), (2, 4, 6))
    assert ring_for(5, ()).teams == ((1,), (2,), (3,), (4,), (5,))


def test_the_start_has_seat_1_to_move_and_only_the_entering_cards_play():
    assert moves(GAME.new_position(4)) == ["A:enter", "J:enter", "Q:enter", "K:enter",
                                           "discard"]


def test_entering_is_blocked_by_an_own_coin_on_start_and_bumps_another():
    assert moves(table(4, {1: ["t9"]}), "A") == ["A:t9>t10"]
    assert coins_after(table(4, {1: [], 2: ["t9"]}), "K:enter")["2"] == ["supply"] * 4


def test_a_ten_moves_ten_and_never_enters():
    assert moves(table(4, {1: ["t20"]}), "10") == ["10:t20>t30"]
    assert moves(table(4, {1: []}), "10") == []


def test_the_full_count_is_used_and_no_own_coin_is_passed_or_landed_on():
    position = table(4, {1: ["t20", "t23", "t26"]})
    assert moves(position, "3") == ["3:t26>t29"]
    assert moves(position, "5") == ["5:t26>t31"]


def test_landing_bumps_an_opponent_to_supply_and_a_partner_to_its_in():
    position = table(4, {1: ["t20"], 2: ["t25"], 3: ["t30"]})
    assert coins_after(position, "5:t20>t25")["2"] == ["supply"] * 4
    assert coins_after(position, "10:t20>t30")["3"] == ["supply"] * 3 + ["t40"]


def test_a_bumped_partner_goes_to_supply_when_its_in_is_taken():
    position = table(4, {1: ["t20"], 2: ["t40"], 3: ["t30"]})
    assert coins_after(position, "10:t20>t30")["3"] == ["supply"] * 4


def test_a_move_that_reaches_in_may_turn_into_home_when_the_rest_fits():
    assert moves(table(4, {1: ["t70"]}), "8") == ["8:t70>t6", "8:t70>h1-2"]
    assert moves(table(4, {1: ["t70"]}), "10") == ["10:t70>t8", "10:t70>h1-4"]
    assert moves(table(4, {1: ["t72"]}), "10") == ["10:t72>t10"]


def test_a_coin_on_in_moves_straight_into_home_and_passes_no_own_coin_there():
    assert moves(table(4, {1: ["t4"]}), "4") == ["4:t4>t8", "4:t4>h1-4"]
    assert moves(table(4, {1: ["t4", "h1-2"]}), "4") == ["4:t4>t8"]
    assert moves(table(4, {1: ["t4", "h1-2"]}), "A") == ["A:t4>t5", "A:t4>h1-1", "A:h1-2>h1-3",
                                                         "A:enter"]


def test_coins_in_home_move_forward_inside_home_only():
    position = table(4, {1: ["h1-1", "h1-3"]})
    assert moves(position, "A") == ["A:h1-1>h1-2", "A:h1-3>h1-4", "A:enter"]
    assert moves(position, "2") == []
    assert moves(position, "7") == []


def test_a_seven_moves_backward_and_never_into_home():
    assert moves(table(4, {1: ["t8"]}), "7") == ["7:t8>t1"]
    assert moves(table(4, {1: ["t3"], 4: ["t68"]}), "7") == ["7:t3>t68"]
    assert coins_after(table(4, {1: ["t3"], 4: ["t68"]}), "7:t3>t68")["4"] == ["supply"] * 4


def test_a_six_moves_one_coin_or_is_split_between_two_each_part_legal():
    # t20 cannot move 6 (it would pass t22); both orders of a split are one move
    assert moves(table(4, {1: ["t20", "t22"]}), "6") == [
        "6:t22>t28", "6:t20>t21,t22>t27", "6:t22>t25,t20>t23", "6:t22>t26,t20>t22"]
    assert moves(table(4, {1: ["t20", "t22", "h1-1"]}), "6") == [
        "6:t22>t28", "6:t20>t21,t22>t27", "6:h1-1>h1-2,t22>t27", "6:h1-1>h1-3,t22>t26",
        "6:t22>t25,t20>t23", "6:t22>t25,h1-1>h1-4", "6:t22>t26,t20>t22"]
    assert moves(table(4, {1: ["t20"]}), "6") == ["6:t20>t26"]


def test_the_hit_man_jumps_from_start_to_the_corner_ahead_whatever_lies_between():
    position = table(4, {1: ["t9", "t12"], 2: ["t19"]})
    assert moves(position, "K") == ["K:t12>t22", "K:hitman"]
    assert coins_after(position, "K:hitman") == {"1": ["supply", "supply", "t12", "t19"],
                                                 "2": ["supply"] * 4, "3": ["supply"] * 4,
                                                 "4": ["supply"] * 4}
    assert "K:hitman" not in moves(table(4, {1: ["t9"]}), "K")


def test_a_hit_man_landing_where_a_ten_lands_is_one_move():
    position = table(4, {1: ["t9"], 2: ["t19"]})
    assert moves(position, "J") == ["J:t9>t19"]
    assert GAME.apply_text(position, "J:hitman") == GAME.apply_text(position, "J:t9>t19")


def test_a_joker_puts_a_coin_from_supply_or_track_on_another_seats_track_coin():
    position = table(3, {1: ["t5", "h1-1"], 2: ["t30", "h2-4"], 3: ["t40"]})
    assert moves(position, "joker") == ["joker:supply>t30", "joker:supply>t40",
                                        "joker:t5>t30", "joker:t5>t40"]
    assert coins_after(position, "joker:t5>t40")["3"] == ["supply"] * 4


def test_two_players_have_no_jokers_and_a_joker_on_a_partner_sends_it_to_in():
    assert moves(table(2, {1: ["t5"], 2: ["t50"]}), "joker") == []
    after = coins_after(table(4, {1: ["t5"], 3: ["t60"]}), "joker:supply>t60")
    assert after["3"] == ["supply"] * 3 + ["t40"]


def test_a_seat_plays_its_partners_coins_once_its_own_are_home():
    position = table(4, {1: ["h1-1", "h1-2", "h1-3", "h1-4"], 3: ["t50"]})
    assert moves(position, "2") == ["2:t50>t52"]
    assert moves(position, "A") == ["A:t50>t51", "A:enter"]
    assert coins_after(position, "A:enter")["3"] == ["supply", "supply", "t45", "t50"]


def test_with_teams_of_three_a_seat_helps_the_teammate_to_its_left_then_the_other():
    home = ["h1-1", "h1-2", "h1-3", "h1-4"]
    position = table(6, {1: home, 3: ["t60"], 5: ["t100"]}, variants=("teams-of-three",))
    assert moves(position, "2") == ["2:t60>t62"]
    position = table(6, {1: home, 3: [f"h3-{k}" for k in range(1, 5)], 5: ["t100"]},
                     variants=("teams-of-three",))
    assert moves(position, "2") == ["2:t100>t102"]


def test_a_team_with_every_coin_home_wins():
    home = {seat: [f"h{seat}-{k}" for k in range(1, 5)] for seat in (1, 3)}
    position = table(4, home, to_move=2)
    assert GAME.is_over(position) and GAME.legal_moves(position) == []
    result = GAME.result(position)
    assert result.winners == (1, 3) and dict(result.scores) == {1: 4, 2: 0, 3: 4, 4: 0}
    assert result.text().startswith("players 1 and 3 win as a team (")
    with pytest.raises(IllegalMoveError, match="over"):
        GAME.apply_text(position, "discard")


def test_the_last_coin_home_ends_the_game_for_a_lone_seat():
    position = table(3, {1: ["h1-2", "h1-3", "h1-4", "t2"]})
    assert moves(position, "3") == ["3:t2>t5", "3:t2>h1-1"]
    after = GAME.apply_text(position, "3:t2>h1-1")
    assert GAME.is_over(after) and GAME.result(after).winners == (1,)


def test_a_discard_is_one_more_child_only_when_some_rank_has_no_play():
    assert moves(table(4, {1: ["t20"]}))[-1] == "discard"
    everything = table(3, {1: ["t20", "t40"], 2: ["t50"]}, to_move=1)
    assert "discard" not in moves(everything)
    with pytest.raises(IllegalMoveError, match="every card"):
        GAME.apply_text(everything, "discard")


def test_an_illegal_move_says_why_and_lists_the_legal_plays_of_its_card():
    with pytest.raises(IllegalMoveError, match=r"5:t20>t26 is not legal.*5:t20>t25"):
        GAME.apply_text(table(4, {1: ["t20"]}), "5:t20>t26")


def test_legal_targets_are_the_spaces_moved_coins_end_on():
    targets = GAME.legal_targets(table(4, {1: ["t70"]}))
    assert {"t9", "h1-3", "t6", "t71", "t63"} <= targets
    assert all(name.startswith(("t", "h1-")) for name in targets)
