"""The Jokers and Coins search finds the clearly best play (issue 22).

Positions come from a two-seat game of greedy bots with real dealt hands; a position counts
where one play of the mover's hand leads every other by at least 20 spaces of progress (a
bump, a coin into HOME). A search bot with 300 playouts, playing from its own hand, must pick
that play nearly always: with 24 random plies before the estimate it missed them (noise of
randomly dealt hands drowned the difference).
"""

from __future__ import annotations

import random

from companion.analysis import SearchLimits, search
from companion.demo_cards import DealtCards, choose_from_hand
from companion.games import get_game
from companion.games.base import Game, Position

GAME = get_game("jokers-and-coins")
#: How much better (spaces of lead) the best play must be for a position to count.
MARGIN = 20.0


def _lead(game: Game, position: Position, seat: int) -> float:
    progress = game.progress(position)
    return progress[seat] - max(value for other, value in progress.items() if other != seat)


def _clear_choices(seed: int, plies: int) -> list[tuple[Position, list[str], str]]:
    """(position, mover's hand, clearly best play) along a greedy game of ``seed``."""
    position = GAME.new_position(2, (), seed=seed)
    cards = DealtCards.deal(2, seed)
    rng = random.Random(seed)
    found = []
    for _ in range(plies):
        if GAME.is_over(position):
            break
        mover = GAME.to_move(position)
        cards.draw(mover)
        hand = [rank for rank, _ in cards.hands[mover - 1]]
        plays = [move for move in GAME.iter_moves(position) if GAME.card_of(move) in hand]
        ranked = sorted(((_lead(GAME, GAME.apply(position, move), mover), move.text())
                         for move in plays), reverse=True)
        if len(ranked) >= 2 and ranked[0][0] - ranked[1][0] >= MARGIN:
            found.append((position, hand, ranked[0][1]))
        move = choose_from_hand(GAME, position, list(dict.fromkeys(hand)), "greedy", rng)
        cards.lay(mover, GAME.card_of(move))
        position = GAME.apply(position, move)
    return found


def test_search_finds_the_clearly_best_play() -> None:
    choices = _clear_choices(100, 120)
    assert len(choices) >= 8
    picked = sum(search(GAME, position, SearchLimits(playouts=300, seed=index),
                        hand=hand).best.text() == best
                 for index, (position, hand, best) in enumerate(choices))
    assert picked >= 0.9 * len(choices), f"picked {picked} of {len(choices)}"
