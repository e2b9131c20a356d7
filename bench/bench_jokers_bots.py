"""How long Jokers and Coins games last under the demo's bots, engine only (printed, not
asserted).

Each game is dealt and played as ``companion demo`` plays it (:mod:`companion.demo_cards`: the
shuffled decks, a card drawn, a play from the hand or a discard, forced passes applied), without
camera or referee, so hundreds of games take seconds. Per bot line-up it prints the plies of
each game, their median and maximum, and how many games ran past the demo's ply cap for that
many seats (``GameInfo.demo_plies``). A whole demo game's time is about its plies times the
time of a ply (bench/bench_demo_turns.py), so this is the part of the demo's length the bots
decide.

    PYTHONPATH=. .venv/bin/python bench/bench_jokers_bots.py [--players 4] [--seeds 60]
        [--first 1] [--bots greedy --bots greedy,random] [--rival-weight 0.5]

Seeds 1 to 20 are the ones the bots were tuned on; report seeds 100 to 119 (``--first 100
--seeds 20``) as the held-out figures.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion import demo_cards
from companion.demo_cards import play_dealt_game
from companion.games.jokers_and_coins import GAME

#: Plies after which a game is given up as endless (well past every demo cap).
MOST_PLIES = 3000


def game_plies(players: int, seed: int, bots: Sequence[str]) -> int:
    """Plies of one engine-only game of ``players`` seats, bots by seat in turn, played as the
    demo plays it (:func:`companion.demo_cards.play_dealt_game`), passes included."""
    return play_dealt_game(GAME, players, seed, bots, MOST_PLIES)[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, choices=range(2, 7), default=4)
    parser.add_argument("--seeds", type=int, default=60, help="how many seeds")
    parser.add_argument("--first", type=int, default=1,
                        help="the first seed (1: the seeds tuned on; 100: held out)")
    parser.add_argument("--bots", action="append", default=None,
                        help="a line-up, bots by seat in turn (repeat to compare; default: "
                        "the demo's own line-up and the old greedy,random)")
    parser.add_argument("--rival-weight", type=float, default=None,
                        help="the greedy bot's weight of a rival team's progress "
                        f"(default {demo_cards.RIVAL_WEIGHT})")
    args = parser.parse_args(argv)
    if args.rival_weight is not None:
        demo_cards.RIVAL_WEIGHT = args.rival_weight
    lineups = args.bots or [",".join(GAME.demo_bots), "greedy,random"]
    cap = GAME.info.demo_plies.get(args.players)
    seeds = range(args.first, args.first + args.seeds)
    print(f"{args.players} seats, seeds {seeds[0]}..{seeds[-1]}, greedy's rival weight "
          f"{demo_cards.RIVAL_WEIGHT:g}, demo cap {cap}:")
    for lineup in lineups:
        bots = tuple(name.strip() for name in lineup.split(","))
        start = time.process_time()
        plies = [game_plies(args.players, seed, bots) for seed in seeds]
        seconds = time.process_time() - start
        over = sum(count > cap for count in plies) if cap else 0
        print(f"  {lineup}: median {statistics.median(plies):g} plies, max {max(plies)}, "
              f"{over} of {len(plies)} past the cap; first seeds {plies[:6]} "
              f"({seconds:.1f} s processor)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
