"""Regenerate tests/data/shakala/*.perft, cross-checking every count the naive enumerator can
reach in reasonable time first (run: PYTHONPATH=. .venv/bin/python -m
tests.games.shakala.make_perft_files [start|midgame|rules]).

The midgame positions come from seeded random games stopped at the first node of a wanted kind;
the rules positions are hand-made to reach forks twice, captures with a choice, feeding and the
end.
"""

import random
import sys
from pathlib import Path

from companion.games.shakala import GAME
from tests.games.perft_files import write_perft_files
from tests.games.shakala.helpers import board
from tests.games.shakala.naive import naive_perft

DATA = Path(__file__).resolve().parents[2] / "data" / "shakala"
#: The largest count the naive enumerator checks.
NAIVE_LIMIT = 200_000


def first_node(variants, seed, wanted, skip=0):
    """The first node of a seeded random game for which ``wanted(position)`` holds."""
    rng = random.Random(seed)
    position = GAME.new_position(2, variants)
    for ply in range(3000):
        if GAME.is_over(position):
            break
        if ply >= skip and wanted(position):
            return position
        position = GAME.apply(position, rng.choice(GAME.legal_moves(position)))
    raise AssertionError(f"no wanted node in game {seed} {variants}")


def big_pit(position):
    return max(len(beads) for beads in position.pits) >= 6


def endgame(position):
    return not position.gems_in_pits


def must_feed(position):
    return position.gems_in_pits and not position.has_beads(3 - position.to_move)


TWENTY = ((4, 4, 3, 3, 2, 2, 1, 1), ())

CASES = {
    "start": [
        ("start", GAME.new_position(2), 4),
        ("north-first", GAME.new_position(2, ["north-first"]), 3),
        ("gems-1122-3344", GAME.new_position(2, ["gems-1122-3344"]), 3),
    ],
    "midgame": [
        ("ply-30-seed-1", first_node((), 1, lambda p: True, skip=30), 3),
        ("big-pit-seed-2", first_node((), 2, big_pit), 2),
        ("feed-seed-160", first_node((), 160, must_feed), 3),
        ("endgame-seed-0", first_node((), 0, endgame), 4),
    ],
    "rules": [
        ("forks-twice", board({"H": "s" * 8 + "4", "E": "s", "e": "2"}), 3),
        ("indirect-choice", board({"H": "ss", "e": "s", "f": "s", "c": "4", "d": "12",
                                   "A": "s3"}, cups=((), (1, 2))), 3),
        ("direct-chain", board({"H": "ss", "e": "3", "f": "2", "a": "1", "B": "s4"}), 4),
        ("indirect-from-cup", board({"H": "s", "e": "s", "D": "4", "B": "ss"},
                                    cups=((), (1, 3))), 4),
        ("feeding", board({"A": "s", "H": "s2", "C": "ss3"}), 4),
        ("endgame", board({"h": "s", "C": "s", "F": "ss"}, cups=TWENTY, to_move=2), 3),
        ("endgame-short", board({"h": "s", "C": "s", "g": "ss"}, cups=((4, 4, 3, 3, 2, 2, 1),
                                                                       (1,)), to_move=2), 6),
    ],
}


def main(names):
    write_perft_files(DATA, CASES, GAME, naive_perft, NAIVE_LIMIT, (
        f"Shakala perft ({{name}}): the game tree of RULINGS.md, one child per distinct "
        f"position; counts up to {NAIVE_LIMIT:,} cross-checked with "
        "tests/games/shakala/naive.py"), names)


if __name__ == "__main__":
    main(sys.argv[1:])
