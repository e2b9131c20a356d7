"""How many plies a Shakala demo game lasts under given bots, engine only (no camera).

Plays whole games as the demo's director does: each seat's bot decides from a generator
seeded by (seed, plies played), and a purposeful bot is told the positions the game has
already stood in, so it leaves a move that circles back when another is as good. A game that
has not ended after ``--cap`` plies is stopped there (the rulings set no move limit, and bots
can circle in an endgame of stones for ever). Prints each seed's plies (``+`` when stopped at
the cap), the ply where the endgame began (no gem left in a pit), the winner and the points;
then the median, the mean, the longest and how many were stopped, beside the processor seconds.
The demo's whole-game time is about these plies times its cost a ply (``bench_coin_grid_demo``
gives that cost for Coin Grid; ``companion demo --game shakala --headless --speed 1000``).

Seeds 1-20 were looked at while the purposeful bots were written; 100-119 (the default) are
held out.

    .venv/bin/python bench/bench_shakala_lengths.py [--bots purposeful,purposeful]
        [--first 100] [--seeds 20] [--cap 1000]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.analysis.bots import bot_move, parse_bot
from companion.games.shakala import GAME, ShakalaPosition


@dataclass(frozen=True)
class Length:
    """One game: its plies, whether it ended, the ply the endgame began, the final position."""

    plies: int
    ended: bool
    endgame: int | None
    final: ShakalaPosition

    def text(self) -> str:
        """``83 plies (endgame from 47), North wins 12-28`` or ``1000+ plies ...``."""
        endgame = "no endgame" if self.endgame is None else f"endgame from {self.endgame}"
        scores = GAME.scores(self.final)
        points = f"{scores[1]}-{scores[2]}"
        if not self.ended:
            return f"{self.plies}+ plies ({endgame}), stopped at {points}"
        winner = GAME.result(self.final).winners[0]
        return f"{self.plies} plies ({endgame}), {('South', 'North')[winner - 1]} wins {points}"


def play(seed: int, bots: tuple[str, ...], cap: int) -> Length:
    """One whole engine game between ``bots`` (at most ``cap`` plies)."""
    position = GAME.new_position(2)
    seen = {position}
    plies, endgame = 0, None
    while not GAME.is_over(position) and plies < cap:
        bot = parse_bot(bots[(GAME.to_move(position) - 1) % len(bots)])
        move = bot_move(GAME, position, bot, random.Random(f"{seed}/{plies}"), seen=seen)
        position = GAME.apply(position, move)
        seen.add(position)
        plies += 1
        if endgame is None and not position.gems_in_pits:
            endgame = plies
    return Length(plies, GAME.is_over(position), endgame, position)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", default=",".join(GAME.demo_bots))
    parser.add_argument("--first", type=int, default=100, help="the first seed")
    parser.add_argument("--seeds", type=int, default=20, help="how many seeds")
    parser.add_argument("--cap", type=int, default=1000, help="plies before a game is stopped")
    args = parser.parse_args()
    bots = tuple(name.strip() for name in args.bots.split(","))
    start = time.process_time()
    lengths = []
    for seed in range(args.first, args.first + args.seeds):
        length = play(seed, bots, args.cap)
        lengths.append(length)
        print(f"seed {seed}: {length.text()}", flush=True)
    plies = [length.plies for length in lengths]
    stopped = sum(not length.ended for length in lengths)
    print(f"bots {','.join(bots)}, seeds {args.first}-{args.first + args.seeds - 1}: median "
          f"{statistics.median(plies):g} plies, mean {statistics.mean(plies):.0f}, longest "
          f"{max(plies)}; {stopped} of {len(plies)} stopped at the {args.cap}-ply cap; "
          f"{time.process_time() - start:.1f} s of processor time")


if __name__ == "__main__":
    main()
