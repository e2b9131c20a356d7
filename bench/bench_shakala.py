"""Shakala engine speed (printed, not asserted). Run: PYTHONPATH=. .venv/bin/python
bench/bench_shakala.py [POSITIONS]

Targets (issue 20): perft at least as fast as the naive reference, the enumerator of the tests
(tests/games/shakala/naive.py: position JSON, every route and every order of the beads played
out drop by drop, distinct children by their JSON text), timed in the same run on the same
positions and depths, so the ratio holds on a busy machine too; and the full move list time,
median over random positions from play. Optional argument: how many random positions.
"""

import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.perft_compare import compare_perft, golden_positions, median_ms
from companion.games.shakala import GAME
from tests.games.shakala.naive import naive_perft

POSITIONS = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "shakala"


def random_positions(count, seed=20):
    """Positions sampled along random games (the first 400 plies of each)."""
    rng = random.Random(seed)
    found = []
    while len(found) < 4 * count:
        position = GAME.new_position(2)
        for _ in range(400):
            if GAME.is_over(position):
                break
            found.append(position)
            position = GAME.apply(position, rng.choice(GAME.legal_moves(position)))
    return rng.sample(found, count)


def bench_move_lists():
    positions = random_positions(POSITIONS)
    counts = [len(GAME.legal_moves(position)) for position in positions]
    median, most = median_ms(GAME.legal_moves, positions)
    print(f"full move list: median {median:.3f} ms, max {most:.3f} ms over {len(positions)} "
          f"random positions (moves: median {statistics.median(counts):.0f}, max {max(counts)})")


#: (golden case, depth): the same work for both enumerators.
SHARED = [("start", 3), ("ply-30-seed-1", 2), ("big-pit-seed-2", 2), ("feed-seed-160", 3),
          ("endgame-seed-0", 4), ("forks-twice", 3), ("feeding", 4)]
#: Deeper counts for the engine alone.
DEEP = [("start", 4), ("ply-30-seed-1", 3)]


def bench_perft():
    compare_perft(GAME, naive_perft, golden_positions(GAME, DATA), SHARED, DEEP)


if __name__ == "__main__":
    bench_move_lists()
    bench_perft()
