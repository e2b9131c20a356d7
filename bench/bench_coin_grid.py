"""Coin Grid engine speed (printed, not asserted). Run: .venv/bin/python bench/bench_coin_grid.py

Targets (issue 19): the full move list under 1 ms median over random positions; perft at least
as fast as a straightforward reference. The reference is the naive enumerator of the tests
(tests/games/coin_grid/naive.py: position JSON, breadth-first search by coordinates, deep
copies, distinct children by their JSON text), timed in the same run on the same positions and
depths, so the ratio holds on a busy machine too. Optional argument: how many random positions.
"""

import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.perft_compare import compare_perft, golden_positions, median_ms
from companion.games.coin_grid import GAME
from tests.games.coin_grid.naive import naive_perft
from tests.games.coin_grid.playout import random_child

POSITIONS = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "coin-grid"


def random_positions(count, seed=19):
    """Decision nodes after a roll, sampled along random games of every option set."""
    rng = random.Random(seed)
    found = []
    game = 0
    while len(found) < 4 * count:
        variants = ((), ("short",), ("dead-coins-12",))[game % 3]
        position = GAME.new_position(2, variants, seed=game)
        game += 1
        while not GAME.is_over(position):
            if position.phase == "rolled":
                found.append(position)
            position = GAME.apply(position, random_child(position, rng))
    return rng.sample(found, count)


def bench_move_lists():
    positions = random_positions(POSITIONS)
    counts = [len(GAME.legal_moves(position)) for position in positions]
    median, most = median_ms(GAME.legal_moves, positions)
    print(f"full move list after a roll: median {median:.3f} ms, max {most:.3f} ms over "
          f"{len(positions)} random positions (moves: median {statistics.median(counts):.0f}, "
          f"max {max(counts)})")
    median, most = median_ms(GAME.legal_targets, positions)
    print(f"legal targets after a roll: median {median:.3f} ms, max {most:.3f} ms")


#: (golden case, depth): the same work for both enumerators.
SHARED = [("start", 3), ("battle-seed-13", 4), ("exchange", 3), ("wall", 2),
          ("first-move-rule", 4), ("last-pieces", 4), ("attacks-seed-12", 2)]
#: Deeper counts for the engine alone.
DEEP = [("start", 5), ("battle-seed-13", 5), ("last-pieces", 6)]


def bench_perft():
    compare_perft(GAME, naive_perft, golden_positions(GAME, DATA), SHARED, DEEP, repeat=5)


if __name__ == "__main__":
    bench_move_lists()
    bench_perft()
