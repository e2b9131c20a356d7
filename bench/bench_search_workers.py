"""What root-parallel workers gain (printed, not asserted). Run: PYTHONPATH=. .venv/bin/python
bench/bench_search_workers.py [--game G] [--seconds S] [--rounds N]

Searches the same positions for S seconds of wall time with 1 worker (in this process) and
with 2 (in a reused pool of processes), alternating, and prints the playouts each made, the
ratio, and how often both chose the same move. On an idle 2-core machine the ratio approaches
2; on a shared one it is what the other processes leave.

Then what a search does to the threads beside it (the table's, when a demo bot searches): a
thread that does 2 ms of Python work every 10 ms, timed while nothing else runs, while a search
runs in the same process (one interpreter lock), and while it runs in a worker process (what
the demo's search bot does).
"""

import argparse
import random
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.analysis import SearchLimits, search
from companion.analysis.search import worker_pool
from companion.games import get_game


def positions(game, count, seed=3):
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        position = game.new_position(2, (), seed=len(found))
        for _ in range(rng.randrange(0, 10)):
            if game.is_over(position):
                break
            position = game.apply(position, rng.choice(game.children(position)))
        if not game.is_over(position) and not game.is_chance(position):
            found.append(position)
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="coin-isolation")
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()
    game = get_game(args.game)
    one, two, same = 0, 0, 0
    with worker_pool(2) as pool:
        search(game, positions(game, 1)[0], SearchLimits(playouts=2, workers=2), pool=pool)
        for index, position in enumerate(positions(game, args.rounds)):
            single = search(game, position, SearchLimits(seconds=args.seconds, seed=index))
            double = search(game, position, SearchLimits(seconds=args.seconds, seed=index,
                                                         workers=2), pool=pool)
            one += single.playouts
            two += double.playouts
            same += single.best == double.best
    print(f"{args.game}: {args.rounds} searches of {args.seconds:g} s: 1 worker {one} playouts, "
          f"2 workers {two} playouts ({two / max(one, 1):.2f}x); the same best move in "
          f"{same} of {args.rounds}")
    responsiveness(game, args.seconds * 2)


def busy(rounds=20_000):
    """A fixed piece of Python work (about 2 ms on an idle core)."""
    total = 0
    for index in range(rounds):
        total += index * index % 7
    return total


def beside(work, seconds):
    """Wall milliseconds of the ticker's 2 ms tasks while ``work`` runs (or for ``seconds``)."""
    stop, taken = threading.Event(), []

    def tick():
        while not stop.is_set():
            began = time.perf_counter()
            busy()
            taken.append((time.perf_counter() - began) * 1000)
            time.sleep(0.01)

    ticker = threading.Thread(target=tick)
    ticker.start()
    if work is None:
        time.sleep(seconds)
    else:
        work()
    stop.set()
    ticker.join()
    return taken


def responsiveness(game, seconds):
    position = positions(game, 1)[0]
    limits = SearchLimits(seconds=seconds, seed=1)
    with worker_pool(1) as pool:
        search(game, position, SearchLimits(playouts=1), pool=pool)
        runs = {"nothing": beside(None, seconds),
                "a search in this process": beside(lambda: search(game, position, limits),
                                                   seconds),
                "a search in a worker process": beside(
                    lambda: search(game, position, limits, pool=pool), seconds)}
    for name, taken in runs.items():
        print(f"  a fixed task beside {name}: median {statistics.median(taken):.1f} ms, "
              f"max {max(taken):.1f} ms wall ({len(taken)} tasks)")


if __name__ == "__main__":
    main()
