"""Do two searches with different seeds agree on the move? Coin Grid positions after a roll,
taken from a purposeful bots' game, each searched twice (seeds 1 and 2) with the same playouts;
prints each position's moves and both searches' choices with their visits, then the count that
agree. A search whose visits are spread by noise chooses differently from seed to seed.
Run: PYTHONPATH=. .venv/bin/python bench/bench_search_agreement.py --playouts 768 --positions 6

``--rate`` instead prints the search's playouts a processor second at those positions (300
playouts each, the median): bench_search's ``--rate`` measures in the opening, where no piece
is within a roll of an enemy and the threat term costs nothing.
"""

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.analysis import SearchLimits, search
from companion.analysis.bots import Bot, bot_move
from companion.games import get_game


def positions(count):
    """``count`` Coin Grid positions after a roll, from ply 20 of a purposeful game on."""
    game = get_game("coin-grid")
    rng = random.Random(5)
    position = game.new_position(2, (), seed=3)
    found, plies = [], 0
    while not game.is_over(position) and plies < 300 and len(found) < count:
        if game.is_chance(position):
            outcomes = game.chance_outcomes(position)
            move = rng.choices([move for move, _ in outcomes],
                               [float(weight) for _, weight in outcomes])[0]
        else:
            if plies >= 20 and plies % 12 < 3 and position.phase == "rolled":
                found.append(position)
            move = bot_move(game, position, Bot("purposeful"), rng)
        position = game.apply(position, move)
        plies += 1
    return game, found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--playouts", type=int, default=768)
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--rate", action="store_true")
    args = parser.parse_args()
    game, found = positions(args.positions)
    if args.rate:
        rates = []
        for position in found:
            began = time.process_time()
            done = search(game, position, SearchLimits(playouts=300, seed=1)).playouts
            rates.append(done / (time.process_time() - began))
        rates.sort()
        print(f"{rates[len(rates) // 2]:.0f} playouts a processor second (median of "
              f"{len(rates)} positions: {', '.join(f'{rate:.0f}' for rate in rates)})")
        return
    agree = 0
    began = time.process_time()
    for position in found:
        first = search(game, position, SearchLimits(playouts=args.playouts, seed=1))
        second = search(game, position, SearchLimits(playouts=args.playouts, seed=2))
        agree += first.best == second.best
        print(f"{len(game.legal_moves(position))} moves: {first.best.text()} "
              f"({first.estimates[0].visits} visits), {second.best.text()} "
              f"({second.estimates[0].visits} visits)", flush=True)
    print(f"{agree} of {len(found)} positions: both seeds chose the same move at {args.playouts} "
          f"playouts; {time.process_time() - began:.0f} s processor")


if __name__ == "__main__":
    main()
