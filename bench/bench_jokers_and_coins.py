"""Jokers and Coins engine speed (printed, not asserted).
Run: .venv/bin/python bench/bench_jokers_and_coins.py [POSITIONS]

Target (issue 21): perft at least as fast as a straightforward reference. The reference is the
naive enumerator of the tests (tests/games/jokers_and_coins/naive.py: position JSON, coins
walked one space at a time, deep copies, distinct children by their JSON text), timed in the
same run on the same positions and depths, so the ratio holds on a busy machine too. Also the
full move list and the legal targets, median over random positions of random games.
"""

import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.perft_compare import compare_perft, golden_positions, median_ms
from companion.games.jokers_and_coins import GAME
from tests.games.jokers_and_coins.naive import naive_perft

POSITIONS = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "jokers-and-coins"


def random_positions(count, seed=21):
    """Positions sampled along random games of 2 to 6 seats."""
    rng = random.Random(seed)
    found = []
    game = 0
    while len(found) < 4 * count:
        position = GAME.new_position(2 + game % 5)
        game += 1
        while not GAME.is_over(position):
            found.append(position)
            position = GAME.apply(position, rng.choice(GAME.legal_moves(position)))
    return rng.sample(found, count)


def bench_move_lists():
    positions = random_positions(POSITIONS)
    counts = [len(GAME.legal_moves(position)) for position in positions]
    median, most = median_ms(GAME.legal_moves, positions)
    print(f"full move list: median {median:.3f} ms, max {most:.3f} ms over {len(positions)} "
          f"random positions (moves: median {statistics.median(counts):.0f}, max {max(counts)})")
    median, most = median_ms(GAME.legal_targets, positions)
    print(f"legal targets: median {median:.3f} ms, max {most:.3f} ms")


#: (golden case, depth): the same work for both enumerators.
SHARED = [("start/four-players", 4), ("start/two-players", 4), ("rules/splits", 2),
          ("rules/hit-man", 2), ("rules/joker", 2), ("rules/home-rows", 2),
          ("rules/partners", 2), ("midgame/five-players-seed-7", 2)]
#: Deeper counts for the engine alone.
DEEP = [("start/four-players", 5), ("rules/bumps", 3), ("rules/near-end", 4)]


def bench_perft():
    compare_perft(GAME, naive_perft, golden_positions(GAME, DATA), SHARED, DEEP)


if __name__ == "__main__":
    bench_move_lists()
    bench_perft()
