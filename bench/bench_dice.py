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

With ``--against DIR`` (another checkout, e.g. /work/main), the same frames are also read by
that checkout's reader, each frame by both in turn, and the ratio of their processor times is
printed: a ratio measured in one run holds on a machine busy with other work, which inflates
both alike.

    .venv/bin/python bench/bench_dice.py [--frames 1000] [--cocked-frames 250]
        [--families tuning,heldout] [--camera calibrated|assumed|middle] [--against DIR]
"""

from __future__ import annotations

import argparse
import importlib
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


#: A reader of the tray: (dice config's focal length, frame, location, tray bounds, camera
#: placed with the frame's middle as principal point) -> the dice, as
#: :func:`vision.dice.read_tray_in_frame` gives them.
TrayReader = Callable[[float | None, np.ndarray, object, tuple[float, float, float, float],
                       object], tuple[DieReading, ...]]


def reader_of(root: str | None) -> TrayReader:
    """This checkout's tray reader, or (given ``root``) the one of the checkout at ``root``,
    imported beside this one: its ``vision`` modules are loaded afresh and set aside again, so
    each reader keeps its own."""
    def reader(module: object) -> TrayReader:
        config_type = module.DiceConfig  # type: ignore[attr-defined]
        read = module.read_tray_in_frame  # type: ignore[attr-defined]

        def read_tray(focal: float | None, image: np.ndarray, location: object,
                      bounds: tuple[float, float, float, float], camera: object
                      ) -> tuple[DieReading, ...]:
            return tuple(read(config_type(focal_px=focal), image, location, bounds, camera))
        return read_tray
    if root is None:
        return reader(importlib.import_module("vision.dice"))
    if not (Path(root) / "vision" / "dice.py").is_file():
        # Else the import below would quietly find this checkout's reader and compare it
        # with itself.
        raise SystemExit(f"{root} holds no checkout with vision/dice.py: give another "
                         "checkout's folder to compare with")
    ours = {name: module for name, module in sys.modules.items()
            if name == "vision" or name.startswith("vision.")}
    for name in ours:
        del sys.modules[name]
    sys.path.insert(0, str(Path(root).resolve()))
    try:
        theirs = importlib.import_module("vision.dice")
    finally:
        sys.path.pop(0)
        for name in [name for name in sys.modules
                     if name == "vision" or name.startswith("vision.")]:
            del sys.modules[name]
        sys.modules.update(ours)
    return reader(theirs)


def focal_for(scene: SynthScene, camera: str) -> float | None:
    """The focal length (px) the reader is given for ``scene`` under ``camera``."""
    if camera == "calibrated":
        return scene.intrinsics()[0]
    if camera == "assumed":
        return DEFAULT_FOCAL_SHARE * scene.image_size[0]
    return None


def read_scene(config: VisionConfig, scene: SynthScene, seed: int, camera: str = "calibrated",
               other: TrayReader | None = None
               ) -> tuple[tuple[DieReading, ...], float, float, float]:
    """The tray's dice as read from a rendered frame of ``scene``, the read's wall-clock and
    processor ms (the processor's time is what a busy machine does not inflate), and the
    processor ms of the ``other`` reader on the same frame (0 without one)."""
    geometry = scene.geometry
    image = render(scene, seed).image
    location = find_board(config.markers, image, geometry)
    dice_config = replace(config.read.dice, focal_px=focal_for(scene, camera))
    tray = next(region for region in geometry.regions if region.kind == "tray")
    start, processor = time.perf_counter(), time.process_time()
    centred = camera_over_mat(location.homography, location.image_size)
    dice = read_tray_in_frame(dice_config, image, location, tray.shape.bounds(), centred)
    wall, cpu = (time.perf_counter() - start) * 1000, (time.process_time() - processor) * 1000
    other_cpu = 0.0
    if other is not None:
        processor = time.process_time()
        centred = camera_over_mat(location.homography, location.image_size)
        other(dice_config.focal_px, image, location, tray.shape.bounds(), centred)
        other_cpu = (time.process_time() - processor) * 1000
    return dice, wall, cpu, other_cpu


def tally(family: str, frames: int, cocked_frames: int, dice_config: DiceConfig,
          camera: str = "calibrated", other: TrayReader | None = None) -> None:
    """Read ``frames`` still frames and ``cocked_frames`` frames with cocked dice of ``family``
    and print the figures."""
    make, source = FAMILIES[family]
    config = VisionConfig()
    config = replace(config, read=replace(config.read, dice=dice_config))
    counts: Counter[str] = Counter()
    times: list[float] = []
    cpu_times: list[float] = []
    other_times: list[float] = []
    wrong: list[str] = []
    for index in range(frames + cocked_frames):
        cocked = index >= frames
        seed = index - frames if cocked else index
        scene = make(seed + (100_000 if cocked else 0), cocked)
        truth = scene.truth()["tray"].dice
        dice, ms, cpu_ms, other_ms = read_scene(config, scene, seed, camera, other)
        times.append(ms)
        cpu_times.append(cpu_ms)
        other_times.append(other_ms)
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
    if other is not None:
        print(f"  the other reader on the same frames: processor time median "
              f"{np.median(other_times):.2f} ms, total {sum(other_times):.0f} ms; this reader's "
              f"total {sum(cpu_times):.0f} ms, "
              f"ratio {sum(cpu_times) / max(1e-9, sum(other_times)):.2f}")
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
    parser.add_argument("--against", default=None,
                        help="another checkout whose reader is timed on the same frames")
    options = parser.parse_args()
    other = reader_of(options.against) if options.against else None
    for family in options.families.split(","):
        tally(family, options.frames, options.cocked_frames, DiceConfig(), options.camera, other)


if __name__ == "__main__":
    main()
