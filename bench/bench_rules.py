"""Rules-engine speed figures (printed, not asserted). Run: .venv/bin/python bench/bench_rules.py

Targets (issue 2): legal targets < 1 ms anywhere; candidates < 20 ms on the adversarial block;
full move list of a random diagonal start < 2 ms median and < 1 s worst of 2,000.
"""

import random
import statistics
import sys
import time

from companion.games.coin_isolation import GAME
from companion.games.coin_isolation.board import SQUARE_NAMES
from companion.games.coin_isolation.candidates import view
from contract.observation import Observation, RegionReading

STARTS = int(sys.argv[1]) if len(sys.argv) > 1 else 2000


def timed(function, *args):
    start = time.perf_counter()
    value = function(*args)
    return value, (time.perf_counter() - start) * 1000


def observe(position):
    seen = view(position)
    coins = {SQUARE_NAMES[i]: coin for i, (coin, _) in enumerate(seen) if coin}
    pawns = {pawn: SQUARE_NAMES[i] for i, (_, pawn) in enumerate(seen) if pawn}
    return Observation.of_board(coins, pawns)


def figures(label, milliseconds, extra=""):
    print(
        f"{label}: median {statistics.median(milliseconds):.3f} ms, "
        f"max {max(milliseconds):.3f} ms over {len(milliseconds)}{extra}"
    )


def bench_starts():
    for variants in ((), ("diagonal",)):
        move_times, target_times, counts = [], [], []
        positions = [GAME.new_position(2, variants, seed=seed) for seed in range(STARTS)]
        # Targets first, so no collection of a previous huge move list lands in their timing.
        target_times = [timed(GAME.legal_targets, position)[1] for position in positions]
        for position in positions:
            moves, took = timed(GAME.legal_moves, position)
            move_times.append(took)
            counts.append(len(moves))
            del moves
        name = "diagonal" if variants else "orthogonal"
        figures(
            f"legal moves, random {name} start", move_times,
            f" (moves: median {statistics.median(counts):.0f}, max {max(counts)})",
        )
        figures(f"legal targets, random {name} start", target_times)


def adversarial():
    squares = {f"{file}{rank}": "P" for file in "abcdef" for rank in range(2, 6)}
    return GAME.position_from_json({
        "variants": ["diagonal"], "players": 2, "squares": squares,
        "pawns": {"1": "g3", "2": "h8"}, "taken": {"1": "", "2": ""},
    })


def random_walk(rng, names):
    path = [rng.choice(["f2", "f3", "f4"])]
    while True:
        last = path[-1]
        options = [
            name for name in names if name not in path
            and max(abs(ord(name[0]) - ord(last[0])), abs(int(name[1]) - int(last[1]))) == 1
        ]
        if not options:
            return path
        path.append(rng.choice(options))


def bench_adversarial():
    position = adversarial()
    target_times = [timed(GAME.legal_targets, position)[1] for _ in range(200)]
    figures("legal targets, adversarial 4x6 diagonal penny block", target_times)
    rng = random.Random(1)
    names = [f"{file}{rank}" for file in "abcdef" for rank in range(2, 6)]
    candidate_times, lengths = [], []
    for _ in range(300):
        path = random_walk(rng, names)
        after = GAME.apply(position, GAME.parse_move("-".join(path)))
        found, took = timed(GAME.candidates, position, observe(after))
        assert len(found) == 1
        candidate_times.append(took)
        lengths.append(len(path))
    figures(
        "candidates, adversarial block (random long paths)", candidate_times,
        f" (path length median {statistics.median(lengths):.0f}, max {max(lengths)})",
    )


def bench_misread():
    """Observations no legal move explains (a square or two misread): the search fails fast."""
    position = adversarial()
    rng = random.Random(5)
    names = [f"{file}{rank}" for file in "abcdef" for rank in range(2, 6)]
    times = []
    for _ in range(200):
        after = GAME.apply(position, GAME.parse_move("-".join(random_walk(rng, names))))
        regions = dict(observe(after).regions)
        for _ in range(rng.choice([1, 2])):
            square = rng.choice(names)
            reading = regions.get(square, RegionReading())
            if reading.pawn is None:
                regions[square] = RegionReading(coin=None if reading.coin else "P")
        times.append(timed(GAME.candidates, position, Observation(regions=regions))[1])
    figures("candidates, adversarial block, misread squares", times)


def bench_perft():
    for variants, seed, depth in (((), 1, 3), ((), 1, 4), (("diagonal",), 2, 3)):
        position = GAME.new_position(2, variants, seed=seed)
        leaves, took = timed(GAME.perft, position, depth)
        name = "+".join(variants) or "orthogonal"
        print(
            f"perft {depth}, {name} start seed {seed}: {leaves} leaves in {took / 1000:.2f} s "
            f"= {leaves / (took / 1000):,.0f} leaves/s"
        )


if __name__ == "__main__":
    bench_adversarial()
    bench_misread()
    bench_starts()
    bench_perft()
