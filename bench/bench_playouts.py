"""Random playouts through the game interface (legal_moves, chance_outcomes, apply): plies per
processor second for each game, the path the search and the demo's bots take.

Perft's own fast paths (bulk counting, remembered subtrees) do not show here, so this bench
catches a change that speeds perft but slows play. With ``--baseline OTHER_CHECKOUT`` the same
playouts run in that checkout too, interleaved, and the ratio of medians is printed.

    PYTHONPATH=. python bench/bench_playouts.py [--seconds 4] [--repeat 3] [--baseline DIR]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

GAMES = ("coin-isolation", "coin-grid", "jokers-and-coins", "shakala")
#: Plies after which a playout stops (Coin Grid and Shakala games can run long).
PLAYOUT_PLIES = 300


def plies_per_second(name: str, seconds: float, seed: int = 7) -> float:
    """Random playouts of ``name`` for about ``seconds`` of processor time: plies a second."""
    from companion.games import get_game

    game = get_game(name)
    players = 4 if name == "jokers-and-coins" else 2
    rng = random.Random(seed)
    plies = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        position = game.new_position(players, seed=games)
        games += 1
        for _ in range(PLAYOUT_PLIES):
            if game.is_over(position):
                break
            if game.is_chance(position):
                outcomes = game.chance_outcomes(position)
                moves, weights = zip(*outcomes, strict=True)
                move = rng.choices(moves, [float(weight) for weight in weights])[0]
            else:
                move = rng.choice(game.legal_moves(position))
            position = game.apply(position, move)
            plies += 1
    return plies / (time.process_time() - start)


def measured_in(checkout: Path, name: str, seconds: float) -> float:
    """:func:`plies_per_second` run by ``checkout``'s own code, in a fresh process."""
    code = (f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); "
            f"from bench_playouts import plies_per_second; "
            f"print(plies_per_second({name!r}, {seconds}))")
    environment = {**os.environ, "PYTHONPATH": str(checkout)}
    output = subprocess.run([sys.executable, "-c", code], env=environment, cwd=checkout,
                            capture_output=True, text=True, check=True).stdout
    return float(output.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="processor seconds a run")
    parser.add_argument("--repeat", type=int, default=3, help="runs per game (median)")
    parser.add_argument("--baseline", type=Path, help="another checkout to compare with")
    parser.add_argument("--only", choices=GAMES, help="one game")
    options = parser.parse_args()
    here = Path(__file__).resolve().parent.parent
    for name in (options.only,) if options.only else GAMES:
        ours, theirs = [], []
        for _ in range(options.repeat):
            ours.append(measured_in(here, name, options.seconds))
            if options.baseline:
                theirs.append(measured_in(options.baseline.resolve(), name, options.seconds))
        line = f"{name}: {statistics.median(ours):,.0f} plies/s"
        if theirs:
            ratio = statistics.median(ours) / statistics.median(theirs)
            line += f"; baseline {statistics.median(theirs):,.0f} plies/s; ratio {ratio:.2f}x"
        print(line, flush=True)


if __name__ == "__main__":
    main()
