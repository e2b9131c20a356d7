"""Reading the Coin Grid mat on the synthetic table: accuracy and speed (printed, not asserted).

Each frame shows a position reached by random play from the start (``companion.games.
coin_grid``; one frame in four is played on until a battle is under way, so the attacker lies
on top of the defender), with double stacks as the layout draws them, each reserve holding
the coins its player won (of the other player's kind, or a dead coin's) and the supply its dead
coins. Every third frame is seen by the plain camera (straight down, even light), the others
by a random tilted camera (``vision.synth.random_variation``) framed for this mat. Frames are
read with :func:`vision.read.read_frame_details` and the default profile; per seed range it
prints the 72 squares read wrong, frames read entirely right (squares and cups), squares wrong
at confidence 0.5 or more, cups whose count or kinds are wrong, and milliseconds per frame.

Seeds ``0..N-1`` are the tuning range; ``--heldout`` reads seeds from 100000 on instead,
which are never looked at while tuning (report them separately).

    PYTHONPATH=. .venv/bin/python bench/bench_coin_grid_read.py [--frames 24] [--heldout]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calibration.geometry import coin_grid_mat
from calibration.profile import VisionProfile
from companion.games.coin_grid import GAME
from companion.games.coin_grid.position import DEFAULT_COIN_KINDS, CoinGridPosition
from companion.games.coin_grid.table import layout
from tests.games.coin_grid.playout import random_child
from vision.read import VisionConfig, read_frame_details
from vision.synth import SynthFrame, SynthScene, Variation, random_variation, render

#: The first held-out seed.
HELDOUT_FIRST = 100_000
#: How many random steps a frame's game is played for, at most.
MOST_STEPS = 160


def random_position(seed: int) -> CoinGridPosition:
    """A position of a random game: some steps from the start, or on to a battle."""
    rng = random.Random(seed)
    position = GAME.new_position(2, (), seed)
    want_battle = rng.random() < 0.25
    steps = rng.randint(0, MOST_STEPS)
    for step in range(MOST_STEPS):
        if GAME.is_over(position) or (step >= steps and not want_battle):
            break
        if want_battle and step >= steps and position.phase == "battle":
            break
        position = GAME.apply(position, random_child(position, rng))
    return position


def table_coins(position: CoinGridPosition, seed: int) -> dict[str, str]:
    """What lies on the mat: the squares' stacks, each reserve's won coins and the supply."""
    rng = random.Random(seed + 1)
    coins = dict(layout(position).stacks())
    for player, region in ((1, "reserve-south"), (2, "reserve-north")):
        won = DEFAULT_COIN_KINDS[1 if player == 1 else 0]
        coins[region] = "".join(DEFAULT_COIN_KINDS[2] if rng.random() < 0.25 else won
                                for _ in range(position.reserve(player)))
    coins["supply"] = DEFAULT_COIN_KINDS[2] * position.supply
    return coins


def scene(seed: int, position: CoinGridPosition) -> SynthScene:
    """The frame of ``seed`` showing ``position`` under the plain or a random camera."""
    geometry = coin_grid_mat()
    variation = (Variation() if seed % 3 == 0
                 else random_variation(seed, geometry=geometry))
    return SynthScene.build(table_coins(position, seed), {}, geometry, variation=variation,
                            layout_seed=seed)


def frames(seeds: range) -> Iterator[tuple[int, CoinGridPosition, SynthFrame]]:
    for seed in seeds:
        position = random_position(seed)
        yield seed, position, render(scene(seed, position), seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=24, help="frames per run")
    parser.add_argument("--heldout", action="store_true",
                        help=f"read the held-out seeds ({HELDOUT_FIRST} on)")
    parser.add_argument("--show", type=int, default=10, help="wrong readings to list")
    args = parser.parse_args()
    first = HELDOUT_FIRST if args.heldout else 0
    seeds = range(first, first + args.frames)
    geometry = coin_grid_mat()
    config, profile = VisionConfig(), VisionProfile.default()
    squares = wrong = sure_wrong = whole = cups = cups_wrong = 0
    stacks = stacks_wrong = battles = 0
    times: list[float] = []
    shown: list[str] = []
    for seed, position, frame in frames(seeds):
        battles += position.phase == "battle"
        start = time.perf_counter()
        reading = read_frame_details(config, frame.image, geometry, profile)
        times.append((time.perf_counter() - start) * 1000)
        right = True
        for name, truth in frame.truth.items():
            got = reading.observation.regions[name]
            region = geometry.region(name)
            if region.kind == "tray":
                continue  # dice: read elsewhere
            if truth.loose:
                cups += 1
                expected = (len(truth.coins), tuple(sorted(truth.coins)))
                if (got.count, got.kinds) != expected or got.coin is not None:
                    cups_wrong += 1
                    right = False
                    shown.append(f"seed {seed} {name}: {truth.coins or '-'} read "
                                 f"{got.count} {''.join(got.kinds) or '-'} "
                                 f"({got.confidence:.2f})")
                continue
            squares += 1
            stacks += len(truth.coins) > 1
            if got.coin != truth.top:
                wrong += 1
                stacks_wrong += len(truth.coins) > 1
                sure_wrong += got.confidence >= 0.5
                right = False
                shown.append(f"seed {seed} {name}: {truth.coins or '-'} read "
                             f"{got.coin or '-'} ({got.confidence:.2f})")
        whole += right
    label = "held-out" if args.heldout else "tuning"
    count = len(seeds)
    print(f"[coin-grid {label}, seeds {seeds.start}..{seeds.stop - 1}] {count} frames, "
          f"{squares} squares ({stacks} stacks), {battles} in a battle, {cups} cups")
    print(f"  squares wrong: {wrong} ({100 * wrong / max(squares, 1):.2f}%), "
          f"of stacks {stacks_wrong}; wrong at confidence >= 0.5: {sure_wrong}")
    print(f"  cups wrong (count or kinds): {cups_wrong} of {cups}")
    print(f"  frames entirely right: {whole} of {count} ({100 * whole / max(count, 1):.0f}%)")
    print(f"  ms per frame: median {statistics.median(times):.0f}, "
          f"max {max(times):.0f}")
    for line in shown[:args.show]:
        print("   ", line)


if __name__ == "__main__":
    main()
