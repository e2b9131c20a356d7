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
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.games.jokers_and_coins import GAME
from tests.games.jokers_and_coins.naive import naive_perft
from tests.games.perft_files import read_perft_files

POSITIONS = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "jokers-and-coins"
GOLDEN = {case["id"]: case["position"] for case in read_perft_files(DATA)}


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


def median_ms(call, positions):
    times = []
    for position in positions:
        start = time.perf_counter()
        call(position)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), max(times)


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


def timed_leaves(count_leaves, cases, repeat=1):
    leaves, took = 0, 0.0
    for position, depth in cases:
        start = time.perf_counter()
        for _ in range(repeat):
            leaves += count_leaves(position, depth)
        took += time.perf_counter() - start
    return leaves, took


def bench_perft():
    shared = [(GAME.read_position(GOLDEN[case_id]), depth) for case_id, depth in SHARED]
    engine_leaves, engine_time = timed_leaves(GAME.perft, shared, repeat=3)
    naive_cases = [(position.to_json(), depth) for position, depth in shared]
    naive_leaves, naive_time = timed_leaves(naive_perft, naive_cases)
    assert engine_leaves == 3 * naive_leaves
    engine_rate, naive_rate = engine_leaves / engine_time, naive_leaves / naive_time
    print(f"perft, same {len(SHARED)} positions and depths ({naive_leaves:,} leaves): engine "
          f"{engine_rate:,.0f} leaves/s, naive reference {naive_rate:,.0f} leaves/s, "
          f"ratio {engine_rate / naive_rate:,.1f}x")
    deep = [(GAME.read_position(GOLDEN[case_id]), depth) for case_id, depth in DEEP]
    leaves, took = timed_leaves(GAME.perft, deep)
    print(f"perft, engine alone on deeper trees ({leaves:,} leaves): "
          f"{leaves / took:,.0f} leaves/s ({took:.2f} s)")


if __name__ == "__main__":
    bench_move_lists()
    bench_perft()
