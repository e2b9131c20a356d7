"""Jokers and Coins with the demo's real deck through a reshuffle (issue 22): at every ply the
engine's public count of the cards matches the cards on the table, and the mover's real hand,
the card just drawn included, fits what the engine says is unseen, so a search bot can play
from it. The search once refused the hand ("holds a K that is not among the unseen cards")
at the draw an empty pile forced: the engine still counted the discard pile face up while
the mover's draw had already shuffled it back."""

import random
from collections import Counter

import pytest

from companion.analysis.bots import Bot, bot_move
from companion.analysis.evaluation import hints_module
from companion.analysis.hidden import hidden_deal
from companion.demo_cards import DealtCards, choose_from_hand
from companion.games import get_game
from companion.games.jokers_and_coins.cards import RANKS

GAME = get_game("jokers-and-coins")
#: Plies to play: past the first reshuffle (two players draw 146 cards before it).
PLIES = 175
#: A search bot plays the plies this close to the reshuffle (either side), with a small budget.
NEAR = 2
SEARCH = Bot("search", playouts=12)


def public_and_real_agree(position, cards: DealtCards) -> None:
    """The engine's draw pile, hand sizes and face-up ranks are the table's."""
    known = position.cards
    face_up = Counter(rank for pile in cards.piles for rank, _ in pile)
    assert known.draw_pile == len(cards.draw_pile)
    assert list(known.hands) == [len(hand) for hand in cards.hands]
    assert {rank: known.discard[index] for index, rank in enumerate(RANKS)
            if known.discard[index]} == dict(face_up)


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 4)])
def test_the_engine_and_the_real_deck_agree_through_a_reshuffle(players, seed):
    position = GAME.new_position(players, (), seed=seed)
    cards = DealtCards.deal(players, seed)
    rng = random.Random(seed)
    hints = hints_module(GAME)
    searched, shuffled_at = 0, None
    for ply in range(PLIES):
        assert not GAME.is_over(position), f"the game ended at ply {ply}, before a reshuffle"
        public_and_real_agree(position, cards)
        mover = GAME.to_move(position)
        cards.draw(mover)
        hand = [rank for rank, _ in cards.hands[mover - 1]]
        hidden_deal(GAME, position, hints, hand)
        if position.cards.shuffles and shuffled_at is None:
            shuffled_at = ply
        after_shuffle = shuffled_at is not None and ply < shuffled_at + NEAR
        if position.cards.draw_pile <= NEAR or after_shuffle:
            move = bot_move(GAME, position, SEARCH, rng, hand=hand, seed=ply)
            searched += 1
        else:
            move = choose_from_hand(GAME, position, cards.ranks(mover), "random", rng)
        cards.lay(mover, GAME.card_of(move))
        position = GAME.apply(position, move)
    public_and_real_agree(position, cards)
    assert position.cards.shuffles >= 1 and searched > NEAR
