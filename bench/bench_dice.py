"""Accuracy and speed of reading dice in the Coin Grid tray (:mod:`vision.dice`).

Renders Coin Grid frames with dice in the tray (1920x1080, cameras tilted up to 35° at any
azimuth, random light, blur, noise and JPEG), finds the mat and reads the tray with
:func:`vision.dice.read_tray_in_frame` (which warps the tray from the frame at the reader's
own scale), timing that warp and read. Per family of dice it prints:

* still dice read right (the share that counts, target 99.5%), read as None (unreadable),
  read as a wrong value, and missed; body colours named right;
* cocked dice (tilted 20-45°, in separate frames) read as a value: must be 0;
* ms per tray read (median and 95th percentile).

The reader is given the synthetic camera's focal length by default (``--camera``), as a
calibrated camera's would be: the camera's place over the mat follows from it and the mat's
homography (:mod:`vision.camera_pose`).

Families: ``tuning`` (:func:`vision.synth.dice_sets.tuning_tray`, the dice the reader was
developed on) and ``heldout`` (:func:`vision.synth.dice_heldout.held_out_tray`, colours,
sizes, pips, corners, blur and JPEG never used in tuning).

    .venv/bin/python bench/bench_dice.py [--frames 1000] [--cocked-frames 250]
        [--families tuning,heldout] [--camera calibrated|assumed|middle]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.referee_rolls import SURE_DIE
from contract.observation import DieReading
from vision.dice import DiceConfig, read_tray_in_frame
from vision.markers import find_board
from vision.parallax import DEFAULT_FOCAL_SHARE, camera_over_mat
from vision.read import VisionConfig
from vision.synth import SynthScene, render
from vision.synth.dice_heldout import HELD_OUT_SEED_BASE, held_out_tray
from vision.synth.dice_sets import COCKED_DEG, tuning_tray

FAMILIES: dict[str, tuple[Callable[[int, bool], SynthScene], str]] = {
    "tuning": (tuning_tray, "vision.synth.dice_sets.tuning_tray, seeds 0.."),
    "heldout": (held_out_tray, f"vision.synth.dice_heldout.held_out_tray, seeds "
                               f"{HELD_OUT_SEED_BASE}.."),
}
#: Readings at least this confident are "sure"; a sure wrong value is what misleads the referee.
SURE = 0.9
#: A reading belongs to a die when its centre lies this close to the die's top (mm).
MATCH_MM = 8.0


#: How the reader is told the camera: ``calibrated`` gives it the synthetic camera's focal
#: length (as a calibration would), ``assumed`` a focal length of
#: :data:`vision.parallax.DEFAULT_FOCAL_SHARE` of the frame's width, ``middle`` none (the
#: principal point is then taken in the frame's middle, as for an uncalibrated real camera).
CAMERAS = ("calibrated", "assumed", "middle")


def focal_for(scene: SynthScene, camera: str) -> float | None:
    """The focal length (px) the reader is given for ``scene`` under ``camera``."""
    if camera == "calibrated":
        return scene.intrinsics()[0]
    if camera == "assumed":
        return DEFAULT_FOCAL_SHARE * scene.image_size[0]
    return None


def read_scene(config: VisionConfig, scene: SynthScene, seed: int, camera: str = "calibrated"
               ) -> tuple[tuple[DieReading, ...], float, float]:
    """The tray's dice as read from a rendered frame of ``scene``, and the read's wall-clock
    and processor ms (the processor's time is what a busy machine does not inflate)."""
    geometry = scene.geometry
    image = render(scene, seed).image
    location = find_board(config.markers, image, geometry)
    dice_config = replace(config.read.dice, focal_px=focal_for(scene, camera))
    tray = next(region for region in geometry.regions if region.kind == "tray")
    start, processor = time.perf_counter(), time.process_time()
    centred = camera_over_mat(location.homography, location.image_size)
    dice = read_tray_in_frame(dice_config, image, location, tray.shape.bounds(), centred)
    return (dice, (time.perf_counter() - start) * 1000,
            (time.process_time() - processor) * 1000)


def tally(family: str, frames: int, cocked_frames: int, dice_config: DiceConfig,
          camera: str = "calibrated") -> None:
    """Read ``frames`` still frames and ``cocked_frames`` frames with cocked dice of ``family``
    and print the figures."""
    make, source = FAMILIES[family]
    config = VisionConfig()
    config = replace(config, read=replace(config.read, dice=dice_config))
    counts: Counter[str] = Counter()
    times: list[float] = []
    cpu_times: list[float] = []
    wrong: list[str] = []
    for index in range(frames + cocked_frames):
        cocked = index >= frames
        seed = index - frames if cocked else index
        scene = make(seed + (100_000 if cocked else 0), cocked)
        truth = scene.truth()["tray"].dice
        dice, ms, cpu_ms = read_scene(config, scene, seed, camera)
        times.append(ms)
        cpu_times.append(cpu_ms)
        used: set[int] = set()
        for die in truth:
            near = [(math.dist(read.centre_mm, die.centre_mm), number)
                    for number, read in enumerate(dice) if number not in used]
            near = [item for item in near if item[0] < MATCH_MM]
            read = dice[min(near)[1]] if near else None
            if near:
                used.add(min(near)[1])
            kind = "cocked" if die.value is None else "still"
            counts[f"{kind} dice"] += 1
            if read is None:
                counts[f"{kind} missed"] += 1
            elif kind == "cocked":
                counts["cocked read as a value" if read.value is not None else "cocked None"] += 1
            elif read.value == die.value:
                counts["still right"] += 1
                counts["taken right"] += read.confidence >= SURE_DIE
                counts["sure right"] += read.confidence >= SURE
                counts["colour right"] += read.colour == die.colour
            elif read.value is None:
                counts["still None"] += 1
            else:
                counts["still wrong"] += 1
                counts["taken wrong"] += read.confidence >= SURE_DIE
                counts["sure wrong"] += read.confidence >= SURE
                wrong.append(f"seed {seed}: {die.value} read {read.value} ({read.confidence:.2f})")
        counts["extra readings"] += len(dice) - len(used)
    still = max(1, counts["still dice"])
    print(f"== {family}: {frames} still frames + {cocked_frames} frames with cocked dice "
          f"({COCKED_DEG[0]:g}-{COCKED_DEG[1]:g} deg); images: {source}, rendered by "
          f"vision.synth (dice drawn in 3D by vision.synth.dice), 1920x1080; camera {camera}")
    print(f"  still dice {counts['still dice']}: right {counts['still right'] / still:.2%}, "
          f"None {counts['still None'] / still:.2%}, wrong value {counts['still wrong']}, "
          f"missed {counts['still missed']}; colour named right "
          f"{counts['colour right'] / max(1, counts['still right']):.2%} of those read right")
    print(f"  taken by the referee (confidence >= {SURE_DIE}): right "
          f"{counts['taken right'] / still:.2%} of still dice, wrong {counts['taken wrong']}")
    sure = counts["sure right"] + counts["sure wrong"]
    print(f"  sure readings (confidence >= {SURE}): {sure}, of them wrong {counts['sure wrong']}"
          f"; values read with less: {counts['still right'] + counts['still wrong'] - sure}")
    print(f"  cocked dice {counts['cocked dice']}: read as a value "
          f"{counts['cocked read as a value']}, None {counts['cocked None']}, "
          f"missed {counts['cocked missed']}")
    print(f"  readings matching no die: {counts['extra readings']}")
    print(f"  ms per tray read: median {np.median(times):.2f}, p95 "
          f"{np.percentile(times, 95):.2f} (processor time: median {np.median(cpu_times):.2f}, "
          f"p95 {np.percentile(cpu_times, 95):.2f})")
    for line in wrong[:10]:
        print(f"  wrong: {line}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=1000, help="still frames per family")
    parser.add_argument("--cocked-frames", type=int, default=250,
                        help="frames with cocked dice per family")
    parser.add_argument("--families", default="tuning,heldout")
    parser.add_argument("--camera", choices=CAMERAS, default="calibrated",
                        help="what the reader is told of the camera (see CAMERAS)")
    options = parser.parse_args()
    for family in options.families.split(","):
        tally(family, options.frames, options.cocked_frames, DiceConfig(), options.camera)


if __name__ == "__main__":
    main()
