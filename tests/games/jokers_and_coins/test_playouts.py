"""Random games to the end with 5 and 6 seats (2 to 4 are played by tests/games/
test_all_games.py), checking invariants after every move: four coins a seat, none sharing a
space, HOME coins never leave, every card accounted for, and the winners have every coin home."""

import random

import pytest

from companion.games.jokers_and_coins import GAME
from companion.games.jokers_and_coins.cards import DECK_CARDS

MAX_PLIES = 6_000


def check(before, after):
    size = after.ring.size
    track = [place for places in after.coins for place in places if 0 <= place < size]
    assert len(track) == len(set(track))
    for old, new in zip(before.coins, after.coins, strict=True):
        assert len(new) == 4
        assert sum(p >= size for p in new) >= sum(p >= size for p in old)
    assert after.cards.accounted() == DECK_CARDS


@pytest.mark.parametrize(("players", "variants"), [(5, ()), (6, ()), (6, ("teams-of-three",))])
def test_random_games_end_with_five_and_six_seats(players, variants):
    rng = random.Random(players * 10 + len(variants))
    position = GAME.new_position(players, variants)
    for _ in range(MAX_PLIES):
        if GAME.is_over(position):
            break
        before = position
        position = GAME.apply(position, rng.choice(GAME.legal_moves(position)))
        check(before, position)
    assert GAME.is_over(position)
    result = GAME.result(position)
    assert all(GAME.scores(position)[seat] == 4 for seat in result.winners)
    assert GAME.position_from_json(position.to_json()) == position
