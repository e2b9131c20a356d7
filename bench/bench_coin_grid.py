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
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

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
    times, counts = [], []
    for position in positions:
        start = time.perf_counter()
        moves = GAME.legal_moves(position)
        times.append((time.perf_counter() - start) * 1000)
        counts.append(len(moves))
    targets = []
    for position in positions:
        start = time.perf_counter()
        GAME.legal_targets(position)
        targets.append((time.perf_counter() - start) * 1000)
    print(f"full move list after a roll: median {statistics.median(times):.3f} ms, "
          f"max {max(times):.3f} ms over {len(times)} random positions "
          f"(moves: median {statistics.median(counts):.0f}, max {max(counts)})")
    print(f"legal targets after a roll: median {statistics.median(targets):.3f} ms, "
          f"max {max(targets):.3f} ms")


def golden(case_id):
    """The position of a golden perft case (tests/data/coin-grid)."""
    for path in sorted(DATA.glob("*.perft")):
        lines = path.read_text().splitlines()
        for index, line in enumerate(lines):
            if line == f"id {case_id}":
                return GAME.position_from_text(lines[index + 1].removeprefix("position "))
    raise SystemExit(f"no golden case {case_id!r}")


#: (golden case, depth): the same work for both enumerators.
SHARED = [("start", 3), ("battle-seed-13", 4), ("exchange", 3), ("wall", 2),
          ("first-move-rule", 4), ("last-pieces", 4), ("attacks-seed-12", 2)]
#: Deeper counts for the engine alone.
DEEP = [("start", 5), ("battle-seed-13", 5), ("last-pieces", 6)]


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
    engine_leaves, engine_time = timed_leaves(GAME.perft, shared, repeat=5)
    naive_cases = [(position.to_json(), depth) for position, depth in shared]
    naive_leaves, naive_time = timed_leaves(naive_perft, naive_cases)
    assert engine_leaves == 5 * naive_leaves
    engine_rate, naive_rate = engine_leaves / engine_time, naive_leaves / naive_time
    print(f"perft, same {len(SHARED)} positions and depths ({naive_leaves:,} leaves): engine "
          f"{engine_rate:,.0f} leaves/s, naive reference {naive_rate:,.0f} leaves/s, "
          f"ratio {engine_rate / naive_rate:,.0f}x")
    deep = [(golden(case_id), depth) for case_id, depth in DEEP]
    leaves, took = timed_leaves(GAME.perft, deep)
    print(f"perft, engine alone on deeper trees ({leaves:,} leaves): "
          f"{leaves / took:,.0f} leaves/s ({took:.2f} s)")


if __name__ == "__main__":
    bench_move_lists()
    bench_perft()
