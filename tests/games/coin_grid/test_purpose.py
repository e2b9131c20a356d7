"""The demo's purposeful Coin Grid bots go for the enemy: they attack at fair odds, make double
stacks, close in on the nearest enemy piece, and so finish games in far fewer steps than the
greedy and random bots did, while every step is still a legal one the engine applies."""

import random

from companion.analysis.bots import bot_move, parse_bot
from companion.games import get_game
from companion.games.coin_grid import GAME
from companion.games.coin_grid.purpose import distance
from tests.games.coin_grid.helpers import grid

PURPOSEFUL = parse_bot("purposeful")


def chosen(position, seed=0):
    return bot_move(GAME, position, PURPOSEFUL, random.Random(seed)).text()


def test_an_even_battle_is_chosen_over_any_quiet_step():
    position = grid({"c3": "S1'", "d4": "N1'", "f12": "N1'"}, phase="rolled", roll=2)
    assert {chosen(position, seed) for seed in range(8)} == {"c3xd4"}


def test_a_battle_at_poor_odds_is_left_for_a_quiet_step():
    # A single coin attacking a double stack in its owner's half rolls one die against two,
    # and its total is halved.
    position = grid({"c8": "S1'", "d9": "N2'", "a12": "N1'"}, phase="rolled", roll=1)
    assert not {chosen(position, seed) for seed in range(8)} & {"c8xd9"}


def test_a_double_stack_is_made_rather_than_rolling():
    position = grid({"c8": "S1'", "a12": "N1'"}, reserves=(1, 0))
    assert chosen(position) == "double:c8"


def test_a_quiet_step_closes_in_on_the_nearest_enemy_piece():
    position = grid({"a1": "S1'", "f12": "N1'"}, phase="rolled", roll=1)
    enemy = position.pieces_of(2)
    move = GAME.parse_move(chosen(position))
    assert distance(move.square, enemy) == distance(move.origin, enemy) - 1


def test_a_game_without_a_purpose_is_played_greedily():
    game = get_game("coin-isolation")
    position = game.new_position(2, (), seed=5)
    for seed in range(4):
        assert (bot_move(game, position, PURPOSEFUL, random.Random(seed))
                == bot_move(game, position, parse_bot("greedy"), random.Random(seed)))


def _steps(seed, bots):
    """Steps of a whole engine game between ``bots``, chance outcomes drawn by their odds."""
    position, dice, steps = GAME.new_position(2, (), seed), random.Random(f"{seed}/dice"), 0
    while not GAME.is_over(position):
        if GAME.is_chance(position):
            outcomes = GAME.chance_outcomes(position)
            move = dice.choices([move for move, _ in outcomes],
                                [float(chance) for _, chance in outcomes])[0]
        else:
            bot = parse_bot(bots[GAME.to_move(position) - 1])
            move = bot_move(GAME, position, bot, random.Random(f"{seed}/{steps}"))
            if move.text().startswith("roll:"):
                move = dice.choice([roll for roll, _ in GAME.chance_outcomes(position)])
        position = GAME.apply(position, move)
        steps += 1
    return steps


def test_purposeful_games_end_in_far_fewer_steps():
    seeds = range(1, 3)
    purposeful = sum(_steps(seed, GAME.demo_bots) for seed in seeds)
    aimless = sum(_steps(seed, ("greedy", "random")) for seed in seeds)
    assert GAME.demo_bots == ("purposeful", "purposeful")
    assert purposeful < 0.7 * aimless
