"""Shakala's pit misreadings tallied by cause (printed): which kinds are confused, how crowded
the pit was, what the reader measured, and whether the pit was flagged doubtful.

Every coin read in a pit is matched to the nearest coin really lying there (within half the
smaller width); a coin left unmatched on the truth's side was missed, one on the reader's
side is an extra circle, and a matched pair of different kinds is a confusion (printed with
the diameter read against the true one). Tuning seeds only unless ``--heldout``.

    PYTHONPATH=. .venv/bin/python bench/diagnose_shakala_read.py [--frames 50] [--start 0]
        [--folder F]

With ``--folder`` the frames are read from the pickles ``bench/shakala_read_cache.py render``
drew there, instead of rendered again.
"""

from __future__ import annotations

import argparse
import math
import pickle
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calibration.profile import VisionProfile
from calibration.shakala_mat import shakala_mat
from companion.judging import UNSURE_CONFIDENCE
from contract.observation import COIN_KINDS
from vision.arrays import Image
from vision.read import VisionConfig, read_frame_details
from vision.synth import render
from vision.synth.shakala_frames import HELDOUT_FIRST, shakala_scene


def crowd(count: int) -> str:
    """The crowding bucket of a pit of ``count`` coins."""
    return "1-3" if count <= 3 else "4-7" if count <= 7 else "8-12"


def causes(read: list[tuple[tuple[float, float], float, str, float]],
           truth: list[tuple[tuple[float, float], str, int]]) -> list[str]:
    """The causes of one pit's misreading: missed, extra and confused coins."""
    pairs = sorted(((math.dist(got[0], real[0]), got_index, real_index)
                    for got_index, got in enumerate(read)
                    for real_index, real in enumerate(truth)))
    taken_read: set[int] = set()
    taken_truth: set[int] = set()
    found: list[str] = []
    for distance, got_index, real_index in pairs:
        if got_index in taken_read or real_index in taken_truth:
            continue
        (_, diameter, kind, confidence), (_, letter, level) = read[got_index], truth[real_index]
        if distance > COIN_KINDS[letter][1] / 2:
            continue
        taken_read.add(got_index)
        taken_truth.add(real_index)
        if kind != letter:
            found.append(f"confused {letter}->{kind} level {level} "
                         f"d {diameter - COIN_KINDS[letter][1]:+.1f}mm conf {confidence:.2f}")
    found += [f"missed {truth[index][1]} level {truth[index][2]}"
              for index in range(len(truth)) if index not in taken_truth]
    found += [f"extra {read[index][2]} d {read[index][1]:.1f}mm conf {read[index][3]:.2f}"
              for index in range(len(read)) if index not in taken_read]
    return found


Placed = list[tuple[str, tuple[float, float], str, int]]


def frame_of(seed: int, folder: Path | None) -> tuple[Image, dict[str, str], Placed]:
    """Seed ``seed``'s frame, what each region holds (its kinds' letters sorted) and where
    every coin lies (region, centre in mm, kind, level): from ``folder``'s pickle where
    given, else rendered."""
    if folder is not None:
        with (folder / f"{seed}.pkl").open("rb") as handle:
            data = pickle.load(handle)
        return data["image"], {name: "".join(held) for name, held in data["truth"].items()}, \
            [tuple(coin) for coin in data["placed"]]
    scene = shakala_scene(seed)
    frame = render(scene, seed)
    return frame.image, {name: "".join(sorted(real.coins)) for name, real in frame.truth.items()}, \
        [(coin.region, coin.centre_mm, coin.letter, coin.level) for coin in scene.placements()[0]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=50)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--heldout", action="store_true")
    parser.add_argument("--folder", type=Path, help="cached frames (shakala_read_cache.py)")
    args = parser.parse_args()
    first = (HELDOUT_FIRST if args.heldout else 0) + args.start
    geometry, config, profile = shakala_mat(), VisionConfig(), VisionProfile.default()
    tally: Counter[str] = Counter()
    for seed in range(first, first + args.frames):
        image, held, placed = frame_of(seed, args.folder)
        reading = read_frame_details(config, image, geometry, profile)
        for name, coins in held.items():
            got = reading.observation.regions[name]
            if (got.count, "".join(got.kinds)) == (len(coins), coins):
                continue
            flagged = "flagged" if got.confidence < UNSURE_CONFIDENCE else "SURE"
            read = [(fit.centre_mm, fit.diameter_mm, kind, confidence)
                    for region, fit, kind, confidence in reading.coins if region == name]
            truth = [(centre, letter, level) for region, centre, letter, level in placed
                     if region == name]
            found = causes(read, truth)
            for cause in found:
                tally[f"{cause.split(' level')[0].split(' d ')[0]} {flagged}"] += 1
            tally[f"pits {crowd(len(coins))} {flagged}"] += 1
            print(f"seed {seed} {name} ({len(coins)}, {flagged} {got.confidence:.2f}): "
                  + "; ".join(found), flush=True)
    for cause, count in tally.most_common():
        print(f"  {count:4d}  {cause}")


if __name__ == "__main__":
    main()
