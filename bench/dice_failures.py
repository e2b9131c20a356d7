"""Dump the dice :mod:`vision.dice` gets wrong (None, a wrong value, missed) as PNG crops of
the tray warped from the frame, for looking at: ``bench/dice_failures.py --family tuning
--frames 100 --out /tmp/dicefail``. Each crop is named after the seed, the truth and the
reading; the reading's face rectangle is drawn on a second copy beside the plain one."""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_dice import FAMILIES, MATCH_MM
from vision.dice import DiceConfig, read_tray_in_frame
from vision.markers import find_board
from vision.parallax import camera_over_mat
from vision.read import VisionConfig
from vision.rectify import rectify_window
from vision.synth import render


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--family", default="tuning")
    parser.add_argument("--frames", type=int, default=100)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--cocked", action="store_true")
    parser.add_argument("--out", default="/tmp/dicefail")
    options = parser.parse_args()
    out = Path(options.out)
    out.mkdir(parents=True, exist_ok=True)
    make, _ = FAMILIES[options.family]
    config = VisionConfig()
    dice_config = DiceConfig()
    for seed in range(options.first, options.first + options.frames):
        scene = make(seed + (100_000 if options.cocked else 0), options.cocked)
        image = render(scene, seed).image
        location = find_board(config.markers, image, scene.geometry)
        camera = camera_over_mat(location.homography, location.image_size)
        tray = next(region for region in scene.geometry.regions if region.kind == "tray")
        bounds = tray.shape.bounds()
        calibrated = replace(dice_config, focal_px=scene.intrinsics()[0])
        dice = read_tray_in_frame(calibrated, image, location, bounds, camera)
        view = rectify_window(image, location, bounds, 8.0)
        for number, die in enumerate(scene.truth()["tray"].dice):
            near = [(math.dist(read.centre_mm, die.centre_mm), read) for read in dice]
            near = [item for item in near if item[0] < MATCH_MM]
            read = min(near, key=lambda item: item[0])[1] if near else None
            got = "missed" if read is None else str(read.value)
            if read is not None and read.value == die.value:
                continue
            x = (die.centre_mm[0] - bounds[0]) * 8.0
            y = (die.centre_mm[1] - bounds[1]) * 8.0
            x0, y0 = max(0, round(x) - 120), max(0, round(y) - 120)
            crop = view.image[y0:y0 + 240, x0:x0 + 240].copy()
            marked = crop.copy()
            for other in dice:
                ox = (other.centre_mm[0] - bounds[0]) * 8.0 - x0
                oy = (other.centre_mm[1] - bounds[1]) * 8.0 - y0
                cv2.circle(marked, (round(ox), round(oy)), 4, (0, 0, 255), -1)
            conf = "" if read is None else f"_c{read.confidence:.2f}"
            name = f"s{seed}_d{number}_{die.colour}_true{die.value}_read{got}{conf}.png"
            cv2.imwrite(str(out / name), np.hstack([crop, marked]))


if __name__ == "__main__":
    main()
