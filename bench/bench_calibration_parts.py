"""Which learned parts of a calibration profile reduce reading errors: each alone, and all.

For each scene of a family of the physically based renderer (as ``bench/bench_calibration.py``
renders it: the empty mat, the calibration layout and game frames of the same table), it
learns a profile and reads every game frame with the reader's frame model given one part of
what was learned at a time, from no lens memory:

- ``none``: nothing (the uncalibrated reader);
- ``offset``: the common size offset (the median of the kinds' measured offsets), its spread
  narrowed as for a calibrated profile;
- ``kinds``: each kind's own offset beyond the common one (one coin each);
- ``silver``: the silver colour; ``tints``: the tinted metals' tints against it (spread
  narrowed); ``colours``: both;
- ``pawns``: the learned pawn colours;
- ``all``: everything above; ``as read``: the learned profile as :func:`vision.read.model_for`
  uses it today.

Prints wrong squares (and those wrong at confidence >= 0.5) per part, and in how many scenes
each part read better or worse than ``none``. Asserts nothing.

    .venv/bin/python bench/bench_calibration_parts.py [--family tuning] [--scenes 30]
        [--seed 2010] [--games 2]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_calibration import EMPTY_SEEDS, GAME_SEED, KINDS, LAYOUT_SEEDS, scene_views
from calibration.profile import VisionProfile
from contract.observation import COIN_KINDS, RegionReading
from vision.calibrate import CalibrationConfig, calibration_layout, learn_profile
from vision.errors import VisionError
from vision.frame_priors import FrameModelConfig
from vision.markers import forget_lens
from vision.read import VisionConfig, read_frame
from vision.synth import RegionTruth
from vision.synth.physical import random_table_scene, render_table

#: The parts, each a set of what is taken from the learned profile ("as read": the reader's
#: own use of it).
PARTS: dict[str, frozenset[str]] = {
    "none": frozenset(),
    "offset": frozenset({"offset"}),
    "kinds": frozenset({"kinds"}),
    "silver": frozenset({"silver"}),
    "tints": frozenset({"tints"}),
    "colours": frozenset({"silver", "tints"}),
    "pawns": frozenset({"pawns"}),
    "all": frozenset({"offset", "kinds", "silver", "tints", "pawns"}),
    "as read": frozenset({"as read"}),
}


def model_with(config: FrameModelConfig, profile: VisionProfile,
               parts: frozenset[str]) -> FrameModelConfig:
    """The frame model's priors with ``parts`` of the calibrated ``profile`` in them."""
    offsets = {look.kind: look.diameter_mm - COIN_KINDS[look.kind][1] for look in profile.coins}
    common = float(np.median(list(offsets.values())))
    by_metal = {COIN_KINDS[look.kind][2]: look.colour for look in profile.coins}
    silver = by_metal.get("silver", config.silver_colour)
    narrow = config.calibrated_spread
    changes: dict[str, object] = {}
    if "offset" in parts:
        changes.update(offset_mm=common, offset_spread_mm=narrow * config.offset_spread_mm)
    if "kinds" in parts:
        changes["kind_offsets_mm"] = tuple((kind, value - common)
                                           for kind, value in offsets.items())
    if "silver" in parts:
        changes["silver_colour"] = silver
    if "tints" in parts:
        tints = tuple((metal, (colour[0] - silver[0], colour[1] - silver[1]))
                      for metal, colour in by_metal.items() if metal != "silver")
        changes.update(tints=tints or config.tints,
                       tint_spread=(narrow * config.tint_spread[0], narrow * config.tint_spread[1]))
    return replace(config, **changes)  # type: ignore[arg-type]


def wrong_squares(readings: Mapping[str, RegionReading],
                  truth: Mapping[str, RegionTruth]) -> tuple[int, int]:
    """(wrong squares, those wrong at confidence >= 0.5) of one reading."""
    wrong = sure = 0
    for name, region in truth.items():
        reading = readings[name]
        right = (reading.coin, reading.pawn) == (region.top, region.pawn)
        wrong += not right
        sure += (not right) and reading.confidence >= 0.5
    return wrong, sure


def scene_parts(family: str, seed: int, games: int) -> dict[str, tuple[int, int]] | str:
    """Per part: (wrong, sure wrong) over the scene's game frames; the refusal when
    calibration refused."""
    scene = random_table_scene(seed, family=family)
    layout = calibration_layout(scene.geometry, KINDS, ("red", "blue"))
    empty_scene, layout_scene = scene_views(scene, layout)
    forget_lens()
    try:
        calibration = learn_profile(
            CalibrationConfig(), scene.geometry,
            [render_table(empty_scene, noise).image for noise in EMPTY_SEEDS],
            [render_table(layout_scene, noise).image for noise in LAYOUT_SEEDS], layout)
    except VisionError as error:
        return str(error)
    learned = calibration.profile.only_kinds(KINDS)
    default = VisionProfile.default().only_kinds(KINDS)
    frames = [render_table(scene, noise) for noise in range(GAME_SEED, GAME_SEED + games)]
    counts: dict[str, tuple[int, int]] = {}
    for name, parts in PARTS.items():
        config, profile = VisionConfig(), learned
        if "as read" not in parts:
            model = (model_with(config.read.model, learned, parts) if learned.calibrated
                     else config.read.model)
            config = replace(config, read=replace(config.read, model=model))
            pawns = learned.pawns if "pawns" in parts else default.pawns
            profile = replace(default, pawns=pawns)
        wrong = sure = 0
        for frame in frames:
            forget_lens()
            try:
                observation = read_frame(config, frame.image, scene.geometry, profile)
            except VisionError:
                wrong += len(frame.truth)
                continue
            here = wrong_squares(observation.regions, frame.truth)
            wrong, sure = wrong + here[0], sure + here[1]
        counts[name] = (wrong, sure)
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--family", choices=("tuning", "heldout"), default="tuning")
    parser.add_argument("--scenes", type=int, default=30)
    parser.add_argument("--seed", type=int, default=2010)
    parser.add_argument("--games", type=int, default=2, help="game frames per scene")
    args = parser.parse_args()
    if args.scenes < 1 or args.games < 1:
        parser.error("--scenes and --games must be at least 1")
    results: list[dict[str, tuple[int, int]]] = []
    for seed in range(args.seed, args.seed + args.scenes):
        outcome = scene_parts(args.family, seed, args.games)
        if isinstance(outcome, str):
            print(f"seed {seed}: calibration refused ({outcome})", flush=True)
            continue
        results.append(outcome)
        print(f"seed {seed}: " + ", ".join(f"{name} {wrong}" for name, (wrong, _) in
                                           outcome.items()), flush=True)
    squares = 64 * args.games * len(results)
    print(f"\n{args.family} scenes {args.seed}..{args.seed + args.scenes - 1}: {len(results)} "
          f"calibrated, {squares} squares read with each part")
    for name in PARTS:
        wrong = sum(result[name][0] for result in results)
        sure = sum(result[name][1] for result in results)
        better = sum(result[name][0] < result["none"][0] for result in results)
        worse = sum(result[name][0] > result["none"][0] for result in results)
        print(f"  {name:8} {wrong:5} wrong ({100 * wrong / max(squares, 1):.2f}%), {sure:4} at "
              f"confidence >= 0.5; scenes better than none {better}, worse {worse}")


if __name__ == "__main__":
    main()
