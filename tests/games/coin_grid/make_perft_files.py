"""Regenerate tests/data/coin-grid/*.perft, cross-checking every count the naive enumerator can
reach in reasonable time first (run: .venv/bin/python -m tests.games.coin_grid.make_perft_files).

The midgame positions come from random games (seeded) stopped at the first node of a wanted
kind; the rules positions are hand-made to reach the wall, rewards by exchange and the end.
"""

import random
import sys
from pathlib import Path

from companion.games.coin_grid import GAME
from companion.games.coin_grid.rules import double_squares, reward_squares, step_reaches
from tests.games.coin_grid.helpers import grid
from tests.games.coin_grid.naive import naive_perft
from tests.games.coin_grid.playout import random_child
from tests.games.perft_files import write_perft_files

DATA = Path(__file__).resolve().parents[2] / "data" / "coin-grid"
#: The largest count the naive enumerator checks (some thousands of leaves a second).
NAIVE_LIMIT = 500_000


def first_node(variants, seed, wanted, skip=0):
    """The first node of a seeded random game for which ``wanted(position)`` holds, after
    ``skip`` plies."""
    rng = random.Random(seed)
    position = GAME.new_position(2, variants, seed=seed)
    for ply in range(5000):
        if GAME.is_over(position):
            break
        if ply >= skip and wanted(position):
            return position
        position = GAME.apply(position, random_child(position, rng))
    raise AssertionError(f"no wanted node in game {seed} {variants}")


def can_double(position):
    return bool(double_squares(position))


def can_attack(position):
    return any(attacks for _, _, attacks in step_reaches(position))


def in_battle(position):
    return position.phase == "battle"


def exchange_reward(position):
    return position.phase == "reward" and reward_squares(position)[1]


def reward(position):
    return position.phase == "reward"


CASES = {
    "start": [
        ("start", GAME.new_position(2), 5),
        ("short-seed-7", GAME.new_position(2, ["short"], seed=7), 4),
        ("short-dead-coins-0-seed-3", GAME.new_position(2, ["short", "dead-coins-0"], seed=3), 4),
    ],
    "midgame": [
        ("double-stacks-seed-11", first_node((), 11, can_double), 4),
        ("attacks-seed-12", first_node((), 12, can_attack, skip=60), 3),
        ("battle-seed-13", first_node((), 13, in_battle), 5),
        ("reward-seed-14", first_node(("short",), 14, reward), 4),
        ("late-short-seed-15", first_node(("short", "dead-coins-2"), 15, can_attack, 150), 4),
    ],
    "rules": [
        ("wall", grid({"c5": "S1'", "d6": "S1'", "c8": "N1'", "f12": "N1'"},
                      phase="rolled", roll=3), 4),
        ("exchange", grid({**{f"{f}{r}": "S1'" for f in "abcdef" for r in (1, 2)},
                           "a1": "Sd", "f2": "N1'", "c12": "S2'", "a7": "N1'"},
                          phase="reward", supply=2), 4),
        ("last-pieces", grid({"c6": "S1'", "c7": "N2'"}, phase="rolled", roll=1,
                             reserves=(3, 0), supply=0), 6),
        ("first-move-rule", grid({"a1": "S1", "b1": "S1", "a2": "S1", "b2": "S1", "c3": "S1'",
                                  "d12": "Nd", "e12": "N1'", "a6": "N1'"},
                                 to_move=1, phase="rolled", roll=1, reserves=(0, 2)), 5),
    ],
}


def main(names):
    write_perft_files(DATA, CASES, GAME, naive_perft, NAIVE_LIMIT, (
        f"Coin Grid perft ({{name}}): the game tree of RULINGS.md; counts up to "
        f"{NAIVE_LIMIT:,} cross-checked with tests/games/coin_grid/naive.py"), names)


if __name__ == "__main__":
    main(sys.argv[1:])
