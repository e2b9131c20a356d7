"""How many steps a Coin Grid demo game lasts under given bots, engine only (no camera).

Plays whole games as the demo's director does: each seat's bot decides (at a turn start with
a double stack to make, the bot chooses, and a roll it chooses is thrown), and chance (the
die's face, a battle's outcome) is drawn by its exact odds. Prints each seed's steps (what the
journal would hold: rolls, moves, battle outcomes, rewards), the median and the mean, beside
the processor seconds. The demo's whole-game time is about these steps times its cost a step
(`bench/bench_coin_grid_demo.py`).

    .venv/bin/python bench/bench_coin_grid_lengths.py [--bots purposeful,purposeful]
        [--first 100] [--seeds 20]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.analysis.bots import bot_move, parse_bot
from companion.games.coin_grid import GAME


def steps(seed: int, bots: tuple[str, ...], cap: int = 5000) -> int:
    """Steps of one whole game (at most ``cap``)."""
    position, dice, count = GAME.new_position(2, (), seed), random.Random(f"{seed}/dice"), 0
    while not GAME.is_over(position) and count < cap:
        if GAME.is_chance(position):
            outcomes = GAME.chance_outcomes(position)
            move = dice.choices([move for move, _ in outcomes],
                                [float(chance) for _, chance in outcomes])[0]
        else:
            bot = parse_bot(bots[(GAME.to_move(position) - 1) % len(bots)])
            move = bot_move(GAME, position, bot, random.Random(f"{seed}/{count}"))
            if move.text().startswith("roll:"):
                move = dice.choice([roll for roll, _ in GAME.chance_outcomes(position)])
        position = GAME.apply(position, move)
        count += 1
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", default=",".join(GAME.demo_bots))
    parser.add_argument("--first", type=int, default=100, help="the first seed")
    parser.add_argument("--seeds", type=int, default=20, help="how many seeds")
    args = parser.parse_args()
    bots = tuple(name.strip() for name in args.bots.split(","))
    start = time.process_time()
    lengths = [steps(seed, bots) for seed in range(args.first, args.first + args.seeds)]
    print(f"bots {','.join(bots)}, seeds {args.first}-{args.first + args.seeds - 1}: steps "
          f"{lengths}")
    print(f"  median {statistics.median(lengths):g}, mean {statistics.mean(lengths):.0f}, "
          f"longest {max(lengths)}; {time.process_time() - start:.1f} s of processor time")


if __name__ == "__main__":
    main()
