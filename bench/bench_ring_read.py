"""Reading the Jokers and Coins ring on the synthetic table: accuracy and speed (printed, not
asserted).

Each frame shows a position of a random game (``companion.games.jokers_and_coins`` played
with uniformly random legal moves for a random number of turns) for 2 to 6 seats: seats 1 to 4
as pennies, nickels, dimes and quarters, seats 5 and 6 as flat blue and yellow tokens the size
of a quarter; the coins of seats 1 to 4 not on the ring lie in their supply cups. Every third
frame is seen by the plain camera (straight down, even light), the others by a random camera
tilted up to 35 degrees under random light, glare included (``vision.synth.random_variation``,
framed for the mat). Frames are read with :func:`vision.read.read_frame_details` and the
default profile's coins and the two token colours. Per run it prints: track and HOME spaces
read wrong (coin kind or token colour), frames whose every space is right, spaces read wrong
with confidence 0.5 or more, token spaces read wrong (a token missed, mistaken or seen where
none lies) and milliseconds per frame.

Seeds ``0..N-1`` are the tuning range; ``--heldout`` reads seeds from 100000 on instead, never
looked at while tuning (report them separately).

    PYTHONPATH=. .venv/bin/python bench/bench_ring_read.py [--frames 12] [--heldout]
        [--players N] [--size 1920x1080]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calibration.geometry import MatGeometry, mat_for_game
from calibration.profile import VisionProfile
from companion.games.jokers_and_coins import GAME, JokersPosition
from companion.games.jokers_and_coins.ring import SUPPLY
from companion.games.jokers_and_coins.table import SEAT_COINS, layout
from contract.observation import RegionReading
from vision.read import VisionConfig, read_frame_details
from vision.synth import SynthFrame, SynthScene, Variation, random_variation, render

#: The first held-out seed.
HELDOUT_FIRST = 100_000
#: How many random turns a frame's game is played for, at most.
MOST_TURNS = 500
#: Seats 5 and 6 play flat tokens of these colours (``GameInfo.token_colours``).
TOKEN_COLOURS = {str(seat): GAME.info.token_colours[seat - 1] for seat in (5, 6)}


def random_position(seed: int, players: int) -> JokersPosition:
    """A position of a random game of ``players`` seats, a random number of turns in."""
    rng = random.Random(seed)
    position = GAME.new_position(players)
    for _ in range(rng.randint(0, MOST_TURNS)):
        if GAME.is_over(position):
            break
        moves = GAME.legal_moves(position)
        position = GAME.apply(position, rng.choice(moves))
    assert isinstance(position, JokersPosition)
    return position


def table_scene(seed: int, position: JokersPosition, geometry: MatGeometry,
                image_size: tuple[int, int]) -> SynthScene:
    """The frame of ``seed``: the ring's coins and tokens, supplies in their cups."""
    variation = Variation() if seed % 3 == 0 else random_variation(seed, geometry=geometry)
    scene = SynthScene.from_table(layout(position), TOKEN_COLOURS, flat_tokens=True,
                                  geometry=geometry, variation=variation, layout_seed=seed,
                                  image_size=image_size)
    supplies = {f"supply-{seat}": letter * position.coins[seat - 1].count(SUPPLY)
                for seat, letter in SEAT_COINS.items() if seat <= position.players}
    coins = {**scene.coins_by_region(), **{name: held for name, held in supplies.items() if held}}
    return replace(scene, coins=tuple(sorted(coins.items())))


def reading_profile() -> VisionProfile:
    """The default profile's US coins, and the two token colours as its pawns."""
    profile = VisionProfile.default().only_kinds("PNDQ")
    tokens = set(TOKEN_COLOURS.values())
    return replace(profile, pawns=tuple(pawn for pawn in profile.pawns if pawn.name in tokens))


@dataclass
class Tally:
    """Counts over the frames read."""

    frames: int = 0
    spaces: int = 0
    wrong: int = 0
    sure_wrong: int = 0
    frames_right: int = 0
    held: int = 0
    token_spaces: int = 0
    tokens_wrong: int = 0
    cups: int = 0
    cups_wrong: int = 0


def score(frame: SynthFrame, observation_regions: Mapping[str, RegionReading],
          geometry: MatGeometry, tally: Tally) -> list[str]:
    """Add one frame's spaces and cups to ``tally``; the wrong spaces as text."""
    wrong = []
    for region in geometry.regions:
        truth, reading = frame.truth[region.name], observation_regions[region.name]
        if region.kind == "cup":
            tally.cups += 1
            if (reading.count, tuple(reading.kinds)) != (len(truth.coins),
                                                        tuple(sorted(truth.coins))):
                tally.cups_wrong += 1
            continue
        if region.kind != "track":
            continue
        tally.spaces += 1
        expected, got = (truth.top, truth.pawn), (reading.coin, reading.pawn)
        token = truth.pawn is not None or reading.pawn is not None
        tally.token_spaces += truth.pawn is not None
        tally.held += truth.pawn is not None or bool(truth.coins)
        if expected != got:
            tally.wrong += 1
            tally.sure_wrong += reading.confidence >= 0.5
            tally.tokens_wrong += token
            wrong.append(f"{region.name}: {expected} read {got} ({reading.confidence:.2f})")
    return wrong


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=12)
    parser.add_argument("--heldout", action="store_true")
    parser.add_argument("--players", type=int, choices=range(2, 7), default=None,
                        help="seats (default: 2 to 6 in turn)")
    parser.add_argument("--size", default="1920x1080", help="camera frame, WIDTHxHEIGHT")
    parser.add_argument("--verbose", action="store_true", help="print every wrong space")
    args = parser.parse_args(argv)
    width, height = (int(part) for part in args.size.split("x"))
    first = HELDOUT_FIRST if args.heldout else 0
    profile, config = reading_profile(), VisionConfig()
    tally, times = Tally(), []
    for seed in range(first, first + args.frames):
        players = args.players or 2 + seed % 5
        geometry = mat_for_game(GAME.info.mat, players=players)
        position = random_position(seed, players)
        frame = render(table_scene(seed, position, geometry, (width, height)), seed)
        start = time.perf_counter()
        reading = read_frame_details(config, frame.image, geometry, profile)
        times.append((time.perf_counter() - start) * 1000)
        wrong = score(frame, reading.observation.regions, geometry, tally)
        tally.frames += 1
        tally.frames_right += not wrong
        if args.verbose and wrong:
            print(f"seed {seed} ({players} seats): " + "; ".join(wrong))
    share = 100 * tally.wrong / max(tally.spaces, 1)
    print(f"{'held-out' if args.heldout else 'tuning'} seeds {first}..{first + args.frames - 1}"
          f", {args.players or '2-6'} seats, {width}x{height}:")
    print(f"  spaces wrong: {tally.wrong} of {tally.spaces} ({share:.3f} %), "
          f"{tally.sure_wrong} of them at confidence >= 0.5; {tally.held} spaces held a coin "
          "or a token")
    print(f"  frames entirely right: {tally.frames_right} of {tally.frames}")
    print(f"  token spaces: {tally.token_spaces}, tokens wrong (missed, mistaken or seen where "
          f"none lies): {tally.tokens_wrong}")
    print(f"  supply cups wrong (count or kinds): {tally.cups_wrong} of {tally.cups}")
    print(f"  ms per frame: median {statistics.median(times):.0f}, max {max(times):.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
