"""What the engine benches share: golden positions from tests/data/<game> (read by
tests/games/perft_files.py), timing a call over positions, and perft of the engine against a
naive reference on the same positions and depths in the same run, so the ratio holds on a busy
machine too."""

import statistics
import time
from pathlib import Path

from tests.games.perft_files import read_perft_files


def golden_positions(game, folder: Path):
    """A function giving the position of a golden case by its id: ``file/id``, or ``id``
    alone where no other file has it."""
    cases = {case["id"]: case["position"] for case in read_perft_files(folder)}

    def golden(case_id):
        found = [data for full, data in cases.items()
                 if full == case_id or full.endswith(f"/{case_id}")]
        if len(found) != 1:
            raise SystemExit(f"no single golden case {case_id!r} in {folder}")
        return game.read_position(found[0])

    return golden


def median_ms(call, positions):
    """(median, max) milliseconds of ``call(position)`` over ``positions``."""
    times = []
    for position in positions:
        start = time.perf_counter()
        call(position)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), max(times)


def timed_leaves(count_leaves, cases, repeat=1):
    """Leaves counted over ``cases`` (position, depth), ``repeat`` times each, and the time."""
    leaves, took = 0, 0.0
    for position, depth in cases:
        start = time.perf_counter()
        for _ in range(repeat):
            leaves += count_leaves(position, depth)
        took += time.perf_counter() - start
    return leaves, took


def compare_perft(game, naive_perft, golden, shared, deep, repeat=3):
    """Print the engine's and the naive reference's leaves a second on ``shared`` (golden
    case, depth) pairs and their ratio, then the engine alone on ``deep`` ones."""
    cases = [(golden(case_id), depth) for case_id, depth in shared]
    engine_leaves, engine_time = timed_leaves(game.perft, cases, repeat=repeat)
    naive_leaves, naive_time = timed_leaves(
        naive_perft, [(position.to_json(), depth) for position, depth in cases])
    assert engine_leaves == repeat * naive_leaves
    engine_rate, naive_rate = engine_leaves / engine_time, naive_leaves / naive_time
    print(f"perft, same {len(shared)} positions and depths ({naive_leaves:,} leaves): engine "
          f"{engine_rate:,.0f} leaves/s, naive reference {naive_rate:,.0f} leaves/s, "
          f"ratio {engine_rate / naive_rate:,.1f}x")
    leaves, took = timed_leaves(game.perft, [(golden(case_id), depth) for case_id, depth in deep])
    print(f"perft, engine alone on deeper trees ({leaves:,} leaves): "
          f"{leaves / took:,.0f} leaves/s ({took:.2f} s)")
