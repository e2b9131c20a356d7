"""Reading the Jokers and Coins ring on the synthetic table: accuracy and speed (printed, not
asserted).

Each frame shows a position of a random game (``companion.games.jokers_and_coins`` played
with uniformly random legal moves for a random number of turns) for 2 to 6 seats: seats 1 to 4
as pennies, nickels, dimes and quarters, seats 5 and 6 as flat blue and yellow tokens the size
of a quarter; the coins of seats 1 to 4 not on the ring lie in their supply cups. Every third
frame is seen by the plain camera (straight down, even light), the others by a random camera
tilted up to 35 degrees under random light, glare included (``vision.synth.random_variation``,
framed for the mat). Frames are read with :func:`vision.read.read_frame_details` and the
default profile's coins and the two token colours, and scored as the referee judges them
(``GAME.judged_observation``: supplies by their count, readings the ring cannot hold made
doubts; since 2026-11-28), twice: the whole mat (every region, as
the table read it before), and the regions the table reads now
(:func:`companion.judged_regions.judged_geometry`: of the discard spots only the mover's).
Per way of reading it prints: track and HOME spaces read wrong (coin kind or token colour),
frames whose every space is right, spaces read wrong with confidence 0.5 or more, token
spaces read wrong (a token missed, mistaken or seen where none lies) and milliseconds per frame;
and the ratio of the two ways' processor times in this run. The two reads of a frame take turns
going first, frames are read grouped by seats, and each frame is read once untimed first (a
frame's first read costs more), with each mat new to the run (its printed rendering is made
once per mat, as at the table).

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
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calibration.geometry import MatGeometry, mat_for_game
from calibration.profile import VisionProfile
from companion.games.jokers_and_coins import GAME, JokersPosition
from companion.games.jokers_and_coins.ring import SUPPLY
from companion.games.jokers_and_coins.table import SEAT_COINS, layout
from companion.judged_regions import judged_geometry
from contract.observation import Observation, RegionReading
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


def reading_profile(players: int | None = None) -> VisionProfile:
    """The default profile's US coins (those ``players`` seats play, as the table reads them;
    all four where not given), and the two token colours as its pawns."""
    kinds = GAME.info.coin_kinds if players is None else GAME.info.coin_kinds_for(players)
    profile = VisionProfile.default().only_kinds(kinds)
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
    milliseconds: list[float] = field(default_factory=list)

    def report(self, title: str) -> None:
        """Print this tally's figures under ``title``."""
        share = 100 * self.wrong / max(self.spaces, 1)
        print(f" {title}:")
        print(f"  spaces wrong: {self.wrong} of {self.spaces} ({share:.3f} %), "
              f"{self.sure_wrong} of them at confidence >= 0.5; {self.held} spaces held a coin "
              "or a token")
        print(f"  frames entirely right: {self.frames_right} of {self.frames}")
        print(f"  token spaces: {self.token_spaces}, tokens wrong (missed, mistaken or seen "
              f"where none lies): {self.tokens_wrong}")
        if self.cups:
            print(f"  supply cups wrong (count or kinds): {self.cups_wrong} of {self.cups}")
        print(f"  ms per frame (processor): median {statistics.median(self.milliseconds):.0f}, "
              f"max {max(self.milliseconds):.0f}")


def score(frame: SynthFrame, observation_regions: Mapping[str, RegionReading],
          geometry: MatGeometry, tally: Tally) -> list[str]:
    """Add one frame's spaces and cups to ``tally``; the wrong spaces as text."""
    wrong = []
    for region in geometry.regions:
        truth, reading = frame.truth[region.name], observation_regions.get(region.name)
        if reading is None:
            continue  # not read (another seat's discard spot)
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


def _reader(config: VisionConfig, frame: SynthFrame, profile: VisionProfile,
            mat: MatGeometry) -> Callable[[], Observation]:
    """Reads ``frame`` on ``mat`` (the board found in it each time, as the bench always did)
    as the referee judges it (:meth:`GAME.judged_observation`: supplies by their count, the
    ring's impossible readings made doubts)."""
    return lambda: GAME.judged_observation(
        read_frame_details(config, frame.image, mat, profile).observation)


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
    config = VisionConfig()
    tallies = {"whole mat": Tally(), "judged regions": Tally()}
    warmed: set[MatGeometry] = set()
    seeds = range(first, first + args.frames)
    by_seats = sorted(seeds, key=lambda seed: (args.players or 2 + seed % 5, seed))
    for seed in by_seats:
        players = args.players or 2 + seed % 5
        geometry = mat_for_game(GAME.info.mat, players=players)
        profile = reading_profile(players)
        position = random_position(seed, players)
        frame = render(table_scene(seed, position, geometry, (width, height)), seed)
        ways = {"whole mat": geometry, "judged regions": judged_geometry(geometry, GAME, position)}
        order = list(ways.items()) if seed % 2 == 0 else list(reversed(ways.items()))
        new = [mat for mat in ways.values() if mat not in warmed]
        for mat in new or [geometry]:  # untimed: a frame's first read costs more
            _reader(config, frame, profile, mat)()
        warmed.update(new)
        for name, mat in order:
            start = time.process_time()
            observation = _reader(config, frame, profile, mat)()
            tally = tallies[name]
            tally.milliseconds.append((time.process_time() - start) * 1000)
            wrong = score(frame, observation.regions, geometry, tally)
            tally.frames += 1
            tally.frames_right += not wrong
            if args.verbose and wrong:
                print(f"seed {seed} ({players} seats, {name}): " + "; ".join(wrong))
    print(f"{'held-out' if args.heldout else 'tuning'} seeds {first}..{first + args.frames - 1}"
          f", {args.players or '2-6'} seats, {width}x{height}:")
    for name, tally in tallies.items():
        tally.report(name)
    whole, judged = (sum(tally.milliseconds) for tally in tallies.values())
    print(f" judged regions' processor time / whole mat's, this run: {judged / whole:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
