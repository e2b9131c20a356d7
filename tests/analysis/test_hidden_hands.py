"""Jokers and Coins' hidden hands: every deal the search guesses fits what is known, a bot's
own hand bounds its moves, and the mover's unknown hand leaves every public move open."""

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from companion.analysis import SearchError, SearchLimits, search
from companion.analysis.hidden import HiddenDeal, hidden_deal
from companion.games import get_game
from companion.games.jokers_and_coins import hints

DATA = Path(__file__).resolve().parents[1] / "data" / "analysis"
GAME = get_game("jokers-and-coins")


@pytest.fixture(scope="module")
def race():
    """Both seats three coins HOME and one five spaces short: a 6 wins now for seat 1."""
    data = json.loads((DATA / "jokers-and-coins-win-in-one.json").read_text())
    return GAME.read_position(data["position"]), set(data["wins"])


def test_each_deal_fits_the_public_cards(race):
    position, _ = race
    facts = hints.card_facts(position)
    deal = HiddenDeal.of(facts, 1, None)
    for seed in range(20):
        hands = deal.dealt(random.Random(seed))
        assert [len(hand) for hand in hands.hands] == facts["hands"]
        assert len(hands.draw_pile) == facts["draw_pile"]
        dealt = Counter([card for hand in hands.hands for card in hand] + hands.draw_pile)
        unrecorded = Counter(hands.laid) - Counter(facts["face_up"])
        assert dealt + unrecorded == Counter(facts["pool"])


def test_a_known_hand_is_kept_and_the_draw_pile_shortens_once_drawn(race):
    position, _ = race
    facts = hints.card_facts(position)
    drawn = HiddenDeal.of(facts, 1, ["6", "A", "2", "3", "4", "5"])
    hands = drawn.dealt(random.Random(1))
    assert hands.hands[0] == ["6", "A", "2", "3", "4", "5"]
    assert len(hands.draw_pile) == facts["draw_pile"] - 1


def test_a_hand_that_does_not_fit_is_refused(race):
    position, _ = race
    with pytest.raises(SearchError, match="not among the unseen cards"):
        hidden_deal(GAME, position, hints, ["joker", "A", "2", "3", "4"])
    with pytest.raises(SearchError, match="holds 3 cards"):
        hidden_deal(GAME, position, hints, ["A", "2", "3"])


def test_a_bot_holding_the_six_wins_and_one_without_plays_what_it_holds(race):
    position, wins = race
    limits = SearchLimits(playouts=60, seed=2)
    holding = search(GAME, position, limits, hand=["6", "A", "2", "3", "4", "5"])
    assert holding.best.text() in wins
    hand = ["A", "2", "3", "4", "5", "9"]
    without = search(GAME, position, limits, hand=hand)
    assert all(GAME.card_of(estimate.move) in hand for estimate in without.estimates)


def test_with_the_hand_unknown_every_public_move_is_a_candidate_and_the_win_is_found(race):
    position, wins = race
    moves = GAME.legal_moves(position)
    result = search(GAME, position, SearchLimits(playouts=4 * len(moves), seed=1))
    assert {estimate.move.text() for estimate in result.estimates} == {m.text() for m in moves}
    assert result.best.text() in wins
    assert result.estimates[0].win_chance[1] == 1.0
