"""Reading the Jokers and Coins supplies on the synthetic table: how many coins each seat's
supply cup holds, per supply (printed, not asserted).

Each frame shows a position of a random game (as ``bench/bench_ring_read.py`` draws it, 2 to
6 seats by seed) with every coin of seats 1 to 4 that is not on the ring lying in its seat's
supply cup (``supply-S``) as a hand drops them: touching and partly covering each other by up
to a third of a width (:func:`vision.synth.layout.scattered_coins`, whatever the mat says of
its cups), and with ``--tokens`` the blue and yellow tokens of seats 5 and 6 in theirs. Every
third frame is seen by the plain camera, the others by a random tilted camera under random
light. The frame is read as the table reads it (:func:`companion.judged_regions.judged_geometry`
of the mat as printed, with the ring bench's profile), and every supply is scored:

- exact count, and exact count and kinds (seats 1 to 4: every coin of the seat's kind); a
  token seat's supply is right when its token's colour is read while it holds any and nothing
  while it holds none (the synthetic table draws one token a region, however many);
- misreads (count wrong), and how many of those the reading flags as doubtful (confidence under
  ``companion.judging.UNSURE_CONFIDENCE``, the referee's line), the rest sure and wrong;
- right counts flagged doubtful (a note on the screen for nothing);
- by the seat's kind of coin, and the processor time per frame.

Seeds ``0..N-1`` are the tuning range; ``--heldout`` reads seeds from 300000 on instead, never
looked at while tuning (report them separately).

    PYTHONPATH=. .venv/bin/python bench/bench_supply_read.py [--frames 20] [--heldout]
        [--start S] [--players N] [--tokens] [--verbose]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_ring_read import TOKEN_COLOURS, random_position, reading_profile
from calibration.geometry import MatGeometry, mat_for_game
from companion.games.jokers_and_coins import GAME, JokersPosition
from companion.games.jokers_and_coins.ring import SUPPLY
from companion.games.jokers_and_coins.table import SEAT_COINS, layout
from companion.judged_regions import judged_geometry
from companion.judging import UNSURE_CONFIDENCE
from contract.observation import RegionReading
from contract.table_state import TableState
from vision.read import VisionConfig, read_frame_details
from vision.synth import SynthScene, Variation, random_variation, render

#: The first held-out seed (the ring bench's held-out seeds start at 100000).
HELDOUT_FIRST = 300_000
#: What a seat's supply is scored under: its coin, or its token's colour.
SEAT_KIND = {1: "P", 2: "N", 3: "D", 4: "Q", 5: "blue", 6: "yellow"}


def piled_supplies(geometry: MatGeometry) -> MatGeometry:
    """``geometry`` with its supply cups piled: the synthetic table drops coins there as a
    hand does, touching and overlapping."""
    regions = tuple(replace(region, piled=True) if region.name.startswith("supply-") else region
                    for region in geometry.regions)
    return replace(geometry, regions=regions, printed_regions=geometry.printed)


def supply_scene(seed: int, position: JokersPosition, geometry: MatGeometry,
                 tokens: bool) -> SynthScene:
    """The frame of ``seed``: the ring's coins and tokens, and the supplies in their cups
    (seats 5 and 6's tokens only with ``tokens``)."""
    variation = Variation() if seed % 3 == 0 else random_variation(seed, geometry=geometry)
    ring = {name: contents for name, contents in layout(position).items()
            if not name.startswith("supply-")}
    scene = SynthScene.from_table(TableState(ring), TOKEN_COLOURS, flat_tokens=True,
                                  geometry=piled_supplies(geometry), variation=variation,
                                  layout_seed=seed, image_size=(1920, 1080))
    coins = dict(scene.coins_by_region())
    tokens_by_region = dict(scene.tokens)
    for seat in range(1, position.players + 1):
        held = position.coins[seat - 1].count(SUPPLY)
        if seat in SEAT_COINS and held:
            coins[supply_name(seat)] = SEAT_COINS[seat] * held
        elif tokens and held:
            tokens_by_region[supply_name(seat)] = TOKEN_COLOURS[str(seat)]
    return replace(scene, coins=tuple(sorted(coins.items())),
                   tokens=tuple(sorted(tokens_by_region.items())))


def supply_name(seat: int) -> str:
    """Seat ``seat``'s supply cup on the mat."""
    return f"supply-{seat}"


@dataclass
class Tally:
    """Counts over the supplies read."""

    supplies: int = 0
    count_right: int = 0
    all_right: int = 0
    misreads: int = 0
    flagged: int = 0
    false_doubts: int = 0
    by_kind: Counter[str] = field(default_factory=Counter)
    by_kind_right: Counter[str] = field(default_factory=Counter)
    by_kind_sure_wrong: Counter[str] = field(default_factory=Counter)
    milliseconds: list[float] = field(default_factory=list)

    def add(self, kind: str, held: int, reading: RegionReading | None) -> bool:
        """Score one supply holding ``held`` coins of ``kind``; whether its count was right."""
        reading = reading or RegionReading()
        count = reading.count or 0
        if len(kind) > 1:  # a token seat's supply shows its token while it holds any
            count = held if reading.pawn == kind and held else 0 if reading.pawn is None else -1
        doubtful = reading.confidence < UNSURE_CONFIDENCE
        self.supplies += 1
        self.by_kind[kind] += 1
        right = count == held
        kinds_right = len(kind) > 1 or tuple(reading.kinds) == (kind,) * held
        if right:
            self.count_right += 1
            self.by_kind_right[kind] += 1
            self.all_right += kinds_right
            self.false_doubts += doubtful
        else:
            self.misreads += 1
            self.flagged += doubtful
            self.by_kind_sure_wrong[kind] += not doubtful
        return right

    def report(self) -> None:
        """Print the figures."""
        share = 100 * self.count_right / max(self.supplies, 1)
        print(f"  supplies: {self.supplies}; count exact {self.count_right} ({share:.1f} %), "
              f"count and kinds exact {self.all_right}")
        print(f"  misread counts: {self.misreads}, flagged doubtful {self.flagged}, "
              f"sure and wrong {self.misreads - self.flagged}; right counts flagged doubtful "
              f"{self.false_doubts}")
        kinds = ", ".join(f"{kind} {self.by_kind_right[kind]}/{self.by_kind[kind]} "
                          f"({self.by_kind_sure_wrong[kind]} sure wrong)"
                          for kind in SEAT_KIND.values() if self.by_kind[kind])
        print(f"  exact count by kind: {kinds}")
        print(f"  ms per frame (processor, reading only): median "
              f"{statistics.median(self.milliseconds):.0f}, max {max(self.milliseconds):.0f}")


def read_seed(seed: int, players: int, tokens: bool, tally: Tally, verbose: bool) -> None:
    """Render and read the frame of ``seed`` and score its supplies into ``tally``."""
    geometry = mat_for_game(GAME.info.mat, players=players)
    position = random_position(seed, players)
    frame = render(supply_scene(seed, position, geometry, tokens), seed)
    mat = judged_geometry(geometry, GAME, position)
    profile, config = reading_profile(players), VisionConfig()
    start = time.process_time()
    observation = read_frame_details(config, frame.image, mat, profile).observation
    tally.milliseconds.append((time.process_time() - start) * 1000)
    for seat in range(1, players + 1):
        if seat > 4 and not tokens:
            continue
        held = position.coins[seat - 1].count(SUPPLY)
        reading = observation.regions.get(supply_name(seat))
        right = tally.add(SEAT_KIND[seat], held, reading)
        if verbose and not right:
            print(f"seed {seed} ({players} seats): {supply_name(seat)} holds {held}, read "
                  f"{reading}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=20)
    parser.add_argument("--heldout", action="store_true")
    parser.add_argument("--start", type=int, default=0, help="begin this many seeds in")
    parser.add_argument("--players", type=int, choices=range(2, 7), default=None,
                        help="seats (default: 2 to 6 in turn)")
    parser.add_argument("--tokens", action="store_true",
                        help="seats 5 and 6's tokens lie in their supplies too")
    parser.add_argument("--verbose", action="store_true", help="print every misread supply")
    args = parser.parse_args(argv)
    first = (HELDOUT_FIRST if args.heldout else 0) + args.start
    tally = Tally()
    for seed in range(first, first + args.frames):
        read_seed(seed, args.players or 2 + seed % 5, args.tokens, tally, args.verbose)
    print(f"{'held-out' if args.heldout else 'tuning'} seeds {first}..{first + args.frames - 1}"
          f", {args.players or '2-6'} seats, 1920x1080, tokens "
          f"{'in' if args.tokens else 'not in'} their supplies:")
    tally.report()
    return 0


if __name__ == "__main__":
    sys.exit(main())
