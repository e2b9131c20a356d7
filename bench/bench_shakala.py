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
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

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
    times, counts = [], []
    for position in positions:
        start = time.perf_counter()
        moves = GAME.legal_moves(position)
        times.append((time.perf_counter() - start) * 1000)
        counts.append(len(moves))
    print(f"full move list: median {statistics.median(times):.3f} ms, "
          f"max {max(times):.3f} ms over {len(times)} random positions "
          f"(moves: median {statistics.median(counts):.0f}, max {max(counts)})")


def golden(case_id):
    """The position of a golden perft case (tests/data/shakala)."""
    for path in sorted(DATA.glob("*.perft")):
        lines = path.read_text().splitlines()
        for index, line in enumerate(lines):
            if line == f"id {case_id}":
                return GAME.position_from_text(lines[index + 1].removeprefix("position "))
    raise SystemExit(f"no golden case {case_id!r}")


#: (golden case, depth): the same work for both enumerators.
SHARED = [("start", 3), ("ply-30-seed-1", 2), ("big-pit-seed-2", 2), ("feed-seed-160", 3),
          ("endgame-seed-0", 4), ("forks-twice", 3), ("feeding", 4)]
#: Deeper counts for the engine alone.
DEEP = [("start", 4), ("ply-30-seed-1", 3)]


def timed_leaves(count_leaves, cases, repeat=1):
    leaves, took = 0, 0.0
    for position, depth in cases:
        start = time.perf_counter()
        for _ in range(repeat):
            leaves += count_leaves(position, depth)
        took += time.perf_counter() - start
    return leaves, took


def bench_perft():
    shared = [(golden(case_id), depth) for case_id, depth in SHARED]
    engine_leaves, engine_time = timed_leaves(GAME.perft, shared, repeat=3)
    naive_cases = [(position.to_json(), depth) for position, depth in shared]
    naive_leaves, naive_time = timed_leaves(naive_perft, naive_cases)
    assert engine_leaves == 3 * naive_leaves
    engine_rate, naive_rate = engine_leaves / engine_time, naive_leaves / naive_time
    print(f"perft, same {len(SHARED)} positions and depths ({naive_leaves:,} leaves): engine "
          f"{engine_rate:,.0f} leaves/s, naive reference {naive_rate:,.0f} leaves/s, "
          f"ratio {engine_rate / naive_rate:,.1f}x")
    deep = [(golden(case_id), depth) for case_id, depth in DEEP]
    leaves, took = timed_leaves(GAME.perft, deep)
    print(f"perft, engine alone on deeper trees ({leaves:,} leaves): "
          f"{leaves / took:,.0f} leaves/s ({took:.2f} s)")


if __name__ == "__main__":
    bench_move_lists()
    bench_perft()
