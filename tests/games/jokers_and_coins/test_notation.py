"""Jokers and Coins notation: every form round-trips, every legal move of random positions
round-trips, and text not in the notation is refused with a sentence naming it."""

import random

import pytest

from companion.games import NotationError
from companion.games.jokers_and_coins import GAME, JokersMove

FORMS = ["5:t12>t17", "4:t2>h1-2", "3:h1-1>h1-4", "6:t12>t16,t30>t32", "7:t12>t5", "A:enter",
         "J:enter", "K:hitman", "Q:hitman", "joker:supply>t40", "joker:t12>t40", "discard",
         "10:t70>h4-4", "5:t12>t17!", "discard!", "A:enter!", "discard:5", "discard:joker!"]


@pytest.mark.parametrize("text", FORMS)
def test_every_form_round_trips(text):
    move = GAME.parse_move(text)
    assert move.text() == text
    assert eval(repr(move), {"JokersMove": JokersMove}) == move


@pytest.mark.parametrize(("text", "why"), [
    ("5", "cannot read"), ("5:t0>t5", "cannot read"), ("5:t1>h7-1", "cannot read"),
    ("10:enter", "only A, J, Q and K enter"), ("A:hitman", "only J, Q and K"),
    ("5:t1>t3,t4>t6", "only a 6 is split"), ("joker:t1>h1-1", "cannot read"),
    ("discard:11", "cannot read"), ("6:t1>t2,t3>t4,t5>t6", "cannot read"), ("", "cannot read"),
])
def test_bad_notation_is_refused_naming_the_text(text, why):
    with pytest.raises(NotationError, match=why) as caught:
        GAME.parse_move(text)
    assert repr(text) in str(caught.value)


def test_every_legal_move_of_random_positions_round_trips():
    rng = random.Random(3)
    position = GAME.new_position(3)
    for _ in range(200):
        if GAME.is_over(position):
            break
        legal = GAME.legal_moves(position)
        for move in legal:
            assert GAME.parse_move(move.text()) == move
            assert GAME.apply(position, GAME.parse_move(move.text())) is not None
        position = GAME.apply(position, rng.choice(legal))
