"""Regenerate tests/data/jokers-and-coins/*.perft, cross-checking every count the naive
enumerator can reach in reasonable time first (run:
``.venv/bin/python -m tests.games.jokers_and_coins.make_perft_files [start|rules|midgame]``).

The starts are the four-seat ring for 2 players and a ring of 3, 4 and 6 sides; the rules
positions are hand-made to reach splits, the 7, bumps, the Hit Man, the Joker, HOME rows,
partners, the end, the penalty and a reshuffle; the midgame ones come from seeded random games.
"""

import random
import sys
from pathlib import Path

from companion.games.jokers_and_coins import GAME
from tests.games.jokers_and_coins.helpers import table
from tests.games.jokers_and_coins.naive import naive_perft
from tests.games.perft_files import write_perft_files

DATA = Path(__file__).resolve().parents[2] / "data" / "jokers-and-coins"
#: The largest count the naive enumerator checks (some thousands of leaves a second).
NAIVE_LIMIT = 150_000
HOME = {seat: [f"h{seat}-{space}" for space in range(1, 5)] for seat in range(1, 7)}


def random_game(players, variants, seed, plies):
    """The position after ``plies`` random moves of a seeded game."""
    rng = random.Random(seed)
    position = GAME.new_position(players, variants)
    for _ in range(plies):
        position = GAME.apply(position, rng.choice(GAME.legal_moves(position)))
    return position


def low_cards():
    """Two players, seat 1 penalized (4 cards), one card left to draw: the tree reshuffles,
    and only queens and kings are unseen."""
    data = table(2, {1: ["t9", "t30"], 2: ["t45", "t12"]}).to_json()
    data["cards"]["discard_pile"] = {**{rank: 12 for rank in
                                        ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J")},
                                     "Q": 10, "K": 4, "joker": 0}
    data["cards"]["draw_pile"] = 1
    data["cards"]["hands"] = {"1": 4, "2": 5}
    return GAME.read_position(data)


CASES = {
    "start": [
        ("two-players", GAME.new_position(2), 5),
        ("three-players", GAME.new_position(3), 5),
        ("four-players", GAME.new_position(4), 5),
        ("six-players", GAME.new_position(6), 5),
        ("six-players-teams-of-three", GAME.new_position(6, ["teams-of-three"]), 4),
    ],
    "rules": [
        ("splits", table(4, {1: ["t20", "t22", "h1-1"], 2: ["t30"], 3: ["t50"], 4: ["t1"]}), 3),
        ("seven-backward", table(2, {1: ["t3", "t12"], 2: ["t68", "t5"]}), 3),
        ("bumps", table(4, {1: ["t20"], 2: ["t25", "t40"], 3: ["t30", "t26"], 4: ["t23"]}), 3),
        ("hit-man", table(4, {1: ["t9", "t12"], 2: ["t19"], 3: ["t45"], 4: ["t55", "t63"]}), 3),
        ("joker", table(3, {1: ["t5", "h1-1"], 2: ["t30", "h2-4"], 3: ["t40", "t2"]}), 3),
        ("home-rows", table(2, {1: ["t70", "t2", "h1-2"], 2: ["t38", "h2-1", "h2-4"]}), 4),
        ("partners", table(4, {1: HOME[1], 3: ["t50", "t43"], 2: ["t48"], 4: ["t56"]}), 3),
        ("teams-of-three", table(6, {1: HOME[1], 3: ["t60"], 5: ["t100"], 2: ["t64"]},
                                 variants=("teams-of-three",)), 3),
        ("near-end", table(2, {1: ["h1-2", "h1-3", "h1-4", "t2"],
                               2: ["h2-1", "h2-2", "h2-3", "t38"]}), 4),
        ("penalty-and-reshuffle", low_cards(), 4),
        ("short-ring", table(5, {1: ["t3", "t9"], 2: ["t14", "t20"], 5: ["t50"]},
                             variants=("side-12", "in-2", "start-5")), 3),
    ],
    "midgame": [
        ("three-players-seed-5", random_game(3, (), 5, 150), 3),
        ("four-players-seed-6", random_game(4, (), 6, 300), 3),
        ("five-players-seed-7", random_game(5, (), 7, 400), 3),
    ],
}


def main(names):
    write_perft_files(DATA, CASES, GAME, naive_perft, NAIVE_LIMIT, (
        f"Jokers and Coins perft ({{name}}): the public game tree of RULINGS.md; "
        f"counts up to {NAIVE_LIMIT:,} cross-checked with "
        "tests/games/jokers_and_coins/naive.py"), names)


if __name__ == "__main__":
    main(sys.argv[1:])
