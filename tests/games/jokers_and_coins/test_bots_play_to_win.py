"""The demo's Jokers and Coins bots play as players who want to win (issue 21, item 6): they take
coins HOME rather than bump for nothing, keep a far-come coin out of an opponent's reach when
another play gains as much, and so a 6-seat game ends within the demo's cap."""

from __future__ import annotations

import random

import pytest

from companion.analysis.bots import bot_move, parse_bot
from companion.demo_cards import choose_from_hand, play_dealt_game
from companion.games.jokers_and_coins import GAME
from tests.games.jokers_and_coins.helpers import table

BOT = GAME.demo_bots[0]


def places(position, seat: int) -> set[str]:
    return {position.ring.place_name(seat, place) for place in position.coins[seat - 1]}


def test_the_bot_takes_a_coin_home_rather_than_bump():
    """Six seats: seat 1's coin on t2 is two spaces before its IN (t4); a 3 takes it HOME, or
    bumps seat 2's coin on t30 with the coin on t27. The way round a 6-seat ring is longer than
    the old flat worth of a coin HOME, so the old bot bumped."""
    position = table(6, {1: ["t2", "t27"], 2: ["t30"]})
    for seed in range(5):
        move = choose_from_hand(GAME, position, ["3"], BOT, random.Random(seed))
        assert "h1-1" in places(GAME.apply(position, move), 1), move.text()


def test_the_bot_moves_a_far_come_coin_out_of_reach_when_another_play_gains_as_much():
    """Seat 1's coin on t60 has come 52 spaces and stands 10 ahead of seat 2's coin on t50 (a
    10, J, Q or K bumps it); a 5 moves it on to t65, out of reach, or moves the coin on t30
    just as far. The bot moves the coin in danger."""
    position = table(6, {1: ["t30", "t60"], 2: ["t50"]})
    assert GAME.purpose(position, GAME.parse_move("5:t60>t65")) > 0
    for seed in range(5):
        move = choose_from_hand(GAME, position, ["5"], BOT, random.Random(seed))
        assert move.text() == "5:t60>t65"


def test_a_purposeful_bot_named_on_the_command_line_plays_purposefully_from_its_hand():
    """``--bot purposeful`` and the search bench go through :func:`bot_move`, which once played
    a purposeful bot with cards as a greedy one: the coin in danger stayed where it was."""
    position = table(6, {1: ["t30", "t60"], 2: ["t50"]})
    for seed in range(5):
        move = bot_move(GAME, position, parse_bot("purposeful"), random.Random(seed),
                        hand=["5"])
        assert move.text() == "5:t60>t65"


@pytest.mark.parametrize("seed", [1, 2])
def test_a_six_seat_game_of_the_demo_bots_ends_within_the_demo_cap(seed):
    """Dealt and played as the demo plays it (real hands, each seat's draw, forced passes):
    before, coins near IN never went HOME and six seats ran past 3000 plies."""
    position, plies = play_dealt_game(GAME, 6, seed, [BOT], GAME.info.demo_plies[6])
    assert GAME.is_over(position), f"no team home after {plies} plies"
    assert GAME.result(position).team
