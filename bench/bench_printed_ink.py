"""A lone coin beside the mat's printed ink: how often it is read wrong (printed, not asserted).

Printed lines close to a coin's rim are what the light normalisation leaves behind when it
divides the frame by the mat's rendering: a trace that stands out of the paper where the camera
saw the line a little blurred, a little off. A coin's outline rays can end on that trace
instead of the coin's edge, so the coin is measured too large (a dime as a nickel) or not fitted
at all. Each frame of this bench lays single coins (P, N, D, Q in turn) on regions of one
printed feature of one mat:

- ``circle``: the test-cards mat's two track spaces, each inside a printed circle about 3 mm
  outside a quarter's rim (``calibration.geometry.test_card_mat``);
- ``ring-ticks``: the Jokers and Coins ring's corner, START and IN spaces, with a dark or a
  seat-coloured tick 3 mm outside the space (``calibration.ring_mat``);
- ``ring-spaces``: the ring's other spaces, with the grey ticks 0.4 mm outside the space;
- ``squares``: Coin Isolation's squares, the coin pushed towards the square's printed lines;
- ``pits``: Shakala's pits, a lone coin somewhere inside the pit's printed rim.

Each frame is seen by a random camera (``vision.synth.random_variation``: tilt, turn, lens,
light and glare, noise, JPEG) tilted up to 0, 20 or 35 degrees (drawn), its blur from
0 to 1.6 pixels (beyond that Shakala's markers are lost) and its coins pushed 0.6 to 1 of
the way towards their region's edge. It prints, per feature and in all: regions read wrong
(a track space or square's coin, a pit's count and kinds) and those read wrong with
confidence 0.5 or more.

Seeds ``0..N-1`` per feature are the tuning range; ``--heldout`` reads seeds from 100000 on,
never looked at while tuning (report them separately).

    PYTHONPATH=. .venv/bin/python bench/bench_printed_ink.py [--frames 6] [--heldout]
        [--features circle,ring-ticks] [--verbose]
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calibration.geometry import MatGeometry, Region, coin_isolation_mat, mat_for_game
from calibration.geometry import test_card_mat as card_mat
from calibration.profile import VisionProfile
from vision.read import VisionConfig, read_frame_details
from vision.synth import SynthScene, random_variation, render

#: The first held-out seed.
HELDOUT_FIRST = 100_000
#: Coins laid in turn.
KINDS = "PNDQ"
#: A tick counts as beside a space within this distance of its middle (mm).
TICK_REACH_MM = 25.0
#: Regions laid with a coin per frame, at most.
MOST_REGIONS = 8


def _ring() -> MatGeometry:
    return mat_for_game("jokers-and-coins", players=4)


def _ticked(geometry: MatGeometry) -> set[str]:
    """Track spaces with a corner or seat tick beside them."""
    ticks = [mark.rect.centre for mark in geometry.marks if mark.kind in ("corner", "seat")]
    return {region.name for region in geometry.regions if region.kind == "track"
            and any(math.dist(region.centre, tick) < TICK_REACH_MM for tick in ticks)}


def _ring_ticks(geometry: MatGeometry) -> list[Region]:
    ticked = _ticked(geometry)
    return [region for region in geometry.regions if region.name in ticked]


def _ring_spaces(geometry: MatGeometry) -> list[Region]:
    ticked = _ticked(geometry)
    return [region for region in geometry.regions
            if region.kind == "track" and region.name not in ticked]


def _of_kind(kind: str) -> Callable[[MatGeometry], list[Region]]:
    return lambda geometry: [region for region in geometry.regions if region.kind == kind]


@dataclass(frozen=True)
class Feature:
    """A printed feature: its mat, the regions beside it, and how many frames it reads for each
    frame asked (a mat with few such regions reads more, so each feature lays about as many
    coins)."""

    mat: Callable[[], MatGeometry]
    regions: Callable[[MatGeometry], list[Region]]
    frames_per_frame: int = 1


FEATURES = {
    "circle": Feature(card_mat, _of_kind("track"), 4),
    "ring-ticks": Feature(_ring, _ring_ticks),
    "ring-spaces": Feature(_ring, _ring_spaces),
    "squares": Feature(coin_isolation_mat, _of_kind("square")),
    "pits": Feature(lambda: mat_for_game("shakala"), _of_kind("pit")),
}


def frame_scene(feature: Feature, seed: int) -> SynthScene:
    """The frame of ``seed``: lone coins on up to :data:`MOST_REGIONS` of the feature's
    regions, under a random camera whose tilt, blur and placement this bench draws."""
    geometry = feature.mat()
    rng = random.Random(seed)
    regions = feature.regions(geometry)
    chosen = rng.sample(regions, min(MOST_REGIONS, len(regions)))
    coins = {region.name: KINDS[(seed + index) % len(KINDS)]
             for index, region in enumerate(chosen)}
    variation = random_variation(seed, rng.choice((0.0, 20.0, 35.0)), geometry)
    variation = replace(variation, blur=rng.uniform(0.0, 1.6),
                        placement=rng.uniform(0.6, 1.0))
    return SynthScene.build(coins, {}, geometry, variation, layout_seed=seed)


@dataclass
class Tally:
    """Regions read and read wrong."""

    regions: int = 0
    wrong: int = 0
    sure_wrong: int = 0

    def line(self) -> str:
        share = 100 * self.wrong / max(self.regions, 1)
        return (f"{self.wrong} of {self.regions} wrong ({share:.1f} %), "
                f"{self.sure_wrong} at confidence >= 0.5")


def read_feature(name: str, feature: Feature, seeds: range, profile: VisionProfile,
                 verbose: bool) -> Tally:
    """Read every seed's frame of ``feature``; its tally."""
    tally, config = Tally(), VisionConfig()
    for seed in seeds:
        scene = frame_scene(feature, seed)
        frame = render(scene, seed)
        reading = read_frame_details(config, frame.image, scene.geometry, profile)
        for region_name, _ in scene.coins:
            truth, got = frame.truth[region_name], reading.observation.regions[region_name]
            tally.regions += 1
            expected: tuple[object, ...] = (truth.top,)
            read: tuple[object, ...] = (got.coin,)
            if scene.geometry.region(region_name).kind == "pit":
                expected = (len(truth.coins), tuple(sorted(truth.coins)))
                read = (got.count, tuple(sorted(got.kinds)))
            if expected != read:
                tally.wrong += 1
                tally.sure_wrong += got.confidence >= 0.5
                if verbose:
                    print(f"  {name} seed {seed} {region_name}: {expected} read {read} "
                          f"({got.confidence:.2f}), tilt {scene.variation.pose.tilt_deg:.0f}, "
                          f"blur {scene.variation.blur:.1f}")
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=6, help="frames per feature")
    parser.add_argument("--heldout", action="store_true")
    parser.add_argument("--features", default=",".join(FEATURES),
                        help=f"comma-separated, of {', '.join(FEATURES)}")
    parser.add_argument("--verbose", action="store_true", help="print every wrong region")
    args = parser.parse_args(argv)
    names = [name for name in args.features.split(",") if name]
    unknown = [name for name in names if name not in FEATURES]
    if unknown:
        print(f"unknown features {', '.join(unknown)}; known: {', '.join(FEATURES)}")
        return 2
    first = HELDOUT_FIRST if args.heldout else 0
    profile = VisionProfile.default().only_kinds(KINDS)
    total = Tally()
    start = time.perf_counter()
    print(f"{'held-out' if args.heldout else 'tuning'} seeds from {first}, {args.frames} frames "
          "per feature (circle: 4 times as many):")
    for name in names:
        feature = FEATURES[name]
        count = args.frames * feature.frames_per_frame
        tally = read_feature(name, feature, range(first, first + count), profile, args.verbose)
        print(f" {name}: {tally.line()}")
        total.regions += tally.regions
        total.wrong += tally.wrong
        total.sure_wrong += tally.sure_wrong
    print(f" all: {total.line()}; {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
