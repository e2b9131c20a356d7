"""The public knowledge of the cards: every one of the 162 cards accounted for, hand sizes, the
draw-before-play penalty, reshuffling, exhausted ranks; hands are never known."""

import random

import pytest

from companion.games import IllegalMoveError, PositionError
from companion.games.jokers_and_coins import GAME
from companion.games.jokers_and_coins.cards import DECK_CARDS, RANKS
from tests.games.jokers_and_coins.helpers import moves, table


def card_totals(position):
    cards = position.cards
    return cards.draw_pile + sum(cards.hands) + sum(cards.discard) + cards.unrecorded


@pytest.mark.parametrize("players", [2, 3, 6])
def test_every_card_is_accounted_for_through_a_random_game(players):
    rng = random.Random(players)
    position = GAME.new_position(players)
    in_play = DECK_CARDS - (6 if players == 2 else 0)
    for ply in range(600):
        if GAME.is_over(position):
            break
        move = rng.choice(GAME.legal_moves(position))
        if ply % 7 == 3 and move.kind != "discard" and not position.cards.penalized(
                position.to_move):
            move = GAME.parse_move(move.text() + "!")
        position = GAME.apply(position, move)
        cards = position.cards
        assert card_totals(position) == in_play and cards.accounted() == DECK_CARDS
        assert set(cards.hands) <= {4, 5}
        unseen = sum(cards.remaining().values())
        assert unseen == cards.draw_pile + sum(cards.hands) + cards.unrecorded
    assert position.cards.shuffles >= 1


def test_the_deal_leaves_the_rest_in_the_draw_pile_and_two_players_set_the_jokers_aside():
    assert GAME.new_position(4).cards.draw_pile == 162 - 20
    two = GAME.new_position(2).cards
    assert two.draw_pile == 156 - 10 and two.remaining()["joker"] == 0


def test_a_turn_draws_one_and_plays_one_and_the_card_goes_face_up():
    after = GAME.apply_text(GAME.new_position(3), "Q:enter")
    assert after.cards.draw_pile == 162 - 15 - 1
    assert after.cards.hands == (5, 5, 5)
    assert after.cards.to_json()["discard_pile"]["Q"] == 1
    assert after.cards.remaining()["Q"] == 11


def test_a_play_without_drawing_is_penalized_next_turn():
    position = table(2, {1: ["t20"], 2: ["t50"]})
    late = GAME.apply_text(position, "5:t20>t25!")
    assert late.cards.hands == (4, 5) and late.cards.draw_pile == position.cards.draw_pile
    assert "no draw now" in GAME.prompt(GAME.apply_text(late, "2:t50>t52"))
    again = GAME.apply_text(GAME.apply_text(late, "2:t50>t52"), "3:t25>t28")
    assert again.cards.hands == (5, 5)
    assert again.cards.draw_pile == position.cards.draw_pile - 1 - 2
    with pytest.raises(IllegalMoveError, match="penalized"):
        GAME.apply_text(GAME.apply_text(late, "2:t50>t52"), "3:t25>t28!")


def test_the_screen_reminds_the_mover_to_draw_first():
    assert GAME.prompt(GAME.new_position(4)).startswith("Player 1: draw one card before you play")


def test_a_discard_counts_a_card_of_unrecorded_rank():
    after = GAME.apply_text(GAME.new_position(4), "discard")
    assert after.cards.unrecorded == 1 and sum(after.cards.discard) == 0
    assert after.to_move == 2 and after.coins == GAME.new_position(4).coins


def test_a_rank_with_every_copy_face_up_cannot_be_played():
    position = table(4, {}, discard={"A": 12})
    assert moves(position) == ["J:enter", "Q:enter", "K:enter", "discard"]
    with pytest.raises(IllegalMoveError, match="every A is face up"):
        GAME.apply_text(position, "A:enter")


def test_an_empty_draw_pile_is_refilled_from_the_discard_pile():
    data = GAME.new_position(2).to_json()
    cards = data["cards"]
    cards["discard_pile"] = {rank: 12 for rank in RANKS[:12]} | {"K": 2, "joker": 0}
    cards["draw_pile"] = 0
    position = GAME.read_position(data)
    after = GAME.apply_text(position, "K:enter")
    assert after.cards.shuffles == 1 and after.cards.draw_pile == 145
    assert after.cards.to_json()["discard_pile"]["K"] == 1 and sum(after.cards.discard) == 1


def test_cards_that_do_not_add_up_are_refused():
    data = GAME.new_position(4).to_json()
    data["cards"]["draw_pile"] -= 1
    with pytest.raises(PositionError, match="add up to 161, not 162"):
        GAME.read_position(data)


def test_at_an_empty_draw_pile_the_mover_may_play_a_rank_the_shuffle_brings_back():
    data = GAME.new_position(2).to_json()
    cards = data["cards"]
    cards["discard_pile"] = {rank: 12 for rank in RANKS[:12]} | {"K": 2, "joker": 0}
    cards["draw_pile"] = 0
    position = GAME.read_position(data)
    assert "A:enter" in moves(position)
    after = GAME.apply_text(position, "A:enter")
    assert after.cards.shuffles == 1 and after.cards.to_json()["discard_pile"]["A"] == 1
    data["cards"]["hands"]["1"], data["cards"]["discard_pile"]["K"] = 4, 3
    penalized = GAME.read_position(data)
    assert penalized.cards.draw_pile == 0 and moves(penalized) == ["K:enter"]
