"""The demo's real hands (issue 21, item 6): the shuffled decks dealt, drawn and laid by the
rules text, every card accounted for, rebuilt the same from the record, and bots that play only
cards they hold, in step with what the engine knows of the cards."""

import random

import pytest

from companion.demo_cards import DealtCards, choose_from_hand, full_deck
from companion.games.jokers_and_coins import GAME
from companion.games.jokers_and_coins.cards import RANK_INDEX
from companion.games.jokers_and_coins.ring import SUPPLY


def counted(cards: DealtCards) -> int:
    return len(cards.draw_pile) + sum(map(len, cards.hands)) + sum(map(len, cards.piles))


@pytest.mark.parametrize(("players", "total"), [(2, 156), (3, 162), (6, 162)])
def test_the_deal_gives_five_cards_a_seat_from_three_decks(players, total):
    cards = DealtCards.deal(players, seed=5)
    assert [len(hand) for hand in cards.hands] == [5] * players
    assert counted(cards) == total == len(full_deck(players))
    assert ("joker" in {rank for rank, _ in cards.draw_pile}) == (players > 2)


@pytest.mark.parametrize(("players", "bots"), [(2, ("greedy", "random")), (4, ("greedy",)),
                                               (6, ("random",))])
def test_bots_play_cards_they_hold_and_the_engine_counts_the_same_cards(players, bots):
    position = GAME.new_position(players)
    cards = DealtCards.deal(players, seed=3)
    played = []
    rng = random.Random(9)
    for _ in range(200 if players == 2 else 120):
        if GAME.is_over(position):
            break
        seat = GAME.to_move(position)
        cards.draw(seat)
        held = cards.ranks(seat)
        move = choose_from_hand(GAME, position, held, bots[(seat - 1) % len(bots)], rng)
        rank = GAME.card_of(move)
        assert rank in held
        cards.lay(seat, rank)
        played.append((seat, rank))
        position = GAME.apply(position, move)
        known = position.cards
        assert known.draw_pile == len(cards.draw_pile)
        assert list(known.hands) == [len(hand) for hand in cards.hands]
        face_up = [0] * len(known.discard)
        for pile in cards.piles:
            for pile_rank, _ in pile:
                face_up[RANK_INDEX[pile_rank]] += 1
        assert list(known.discard) == face_up
        assert counted(cards) == len(full_deck(players))
    assert any(move_rank is not None for _, move_rank in played)
    again = DealtCards.replayed(players, 3, played)
    assert (again.draw_pile, again.hands, again.piles) == (cards.draw_pile, cards.hands,
                                                           cards.piles)


def test_a_bot_with_no_playable_card_discards_one_it_holds_naming_it():
    start = GAME.new_position(4)
    move = choose_from_hand(GAME, start, ["7", "3"], "greedy", random.Random(1))
    assert move.text() in ("discard:7", "discard:3")
    enter = choose_from_hand(GAME, start, ["7", "K"], "greedy", random.Random(1))
    assert enter.text() == "K:enter"


def test_the_greedy_bot_plays_for_its_team():
    """Seat 1 holds a 5: it may bump its partner's coin (seat 3's, sent on to its IN, nearer
    HOME) or walk another coin; the team gains most by the bump. A bot counting its partner
    among its rivals would walk instead."""
    from tests.games.jokers_and_coins.helpers import table

    position = table(4, {1: ["t20", "t30"], 3: ["t25"]})
    move = choose_from_hand(GAME, position, ["5"], "greedy", random.Random(1))
    after = GAME.apply(position, move)
    assert "t40" in {after.ring.place_name(3, place) for place in after.coins[2]}
    # Seat 2's coin on t20 is two spaces before its IN (t22), nearly home.
    rival = table(4, {1: ["t15", "t30"], 2: ["t20"]})
    bump = GAME.apply(rival, choose_from_hand(GAME, rival, ["5"], "greedy", random.Random(1)))
    assert bump.coins[1].count(SUPPLY) == 4  # seat 2's coin, nearly home, went back
