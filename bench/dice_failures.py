"""The dice :mod:`vision.dice` gets wrong, grouped by cause, as contact sheets to look at:
``bench/dice_failures.py --family tuning --frames 200 --out /tmp/dicefail``.

Every still die read as None is grouped by the test that refused it (no top face, the sweep
leaning, the top no square, pips faint, fitting no layout, the count doubtful, ...), every
die read as a wrong value by "wrong value", every die not found by "missed"; with
``--cocked``, the cocked dice read as a value. Each group is printed with its count, and
written as one contact sheet (``<group>.png``: crops of the tray warped from the frame at
8 px/mm, the readings' centres marked, each captioned with seed, truth and reading) and as
single crops under ``<group>/``."""

from __future__ import annotations

import argparse
import math
import sys
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_dice import FAMILIES, MATCH_MM
from contract.observation import DieReading
from vision.arrays import Image
from vision.dice import DiceConfig, explain_tray_in_frame
from vision.markers import find_board
from vision.parallax import camera_over_mat
from vision.read import VisionConfig
from vision.rectify import rectify_window
from vision.synth import render

#: Pixels per mm of the crops, and their side (px).
CROP_SCALE = 8.0
CROP_SIDE = 240


def _group(truth: int | None, read: tuple[DieReading, str] | None, cocked: bool) -> str | None:
    """The failure group of one die (None when it was read as it should be)."""
    if read is None:
        return "missed"
    value, why = read[0].value, read[1]
    if truth is None:
        return "cocked read as a value" if value is not None else None
    if value == truth:
        return None
    return "wrong value" if value is not None else (why or "None")


def _crop(view: Image, bounds: tuple[float, float, float, float], centre: tuple[float, float],
          readings: list[tuple[DieReading, str]], caption: str) -> Image:
    """The crop around ``centre`` (mat mm) with every reading's centre marked, captioned."""
    x = (centre[0] - bounds[0]) * CROP_SCALE
    y = (centre[1] - bounds[1]) * CROP_SCALE
    x0, y0 = max(0, round(x) - CROP_SIDE // 2), max(0, round(y) - CROP_SIDE // 2)
    crop = np.zeros((CROP_SIDE, CROP_SIDE, 3), np.uint8)
    part = view[y0:y0 + CROP_SIDE, x0:x0 + CROP_SIDE]
    crop[:part.shape[0], :part.shape[1]] = part
    for die, _ in readings:
        ox = (die.centre_mm[0] - bounds[0]) * CROP_SCALE - x0
        oy = (die.centre_mm[1] - bounds[1]) * CROP_SCALE - y0
        cv2.circle(crop, (round(ox), round(oy)), 3, (0, 0, 255), -1)
    cv2.rectangle(crop, (0, CROP_SIDE - 16), (CROP_SIDE, CROP_SIDE), (0, 0, 0), -1)
    cv2.putText(crop, caption, (3, CROP_SIDE - 4), cv2.FONT_HERSHEY_SIMPLEX, 0.4,
                (255, 255, 255), 1, cv2.LINE_AA)
    return crop


def _sheet(crops: list[Image], columns: int = 6) -> Image:
    """``crops`` tiled ``columns`` to a row."""
    rows = math.ceil(len(crops) / columns)
    sheet = np.zeros((rows * CROP_SIDE, columns * CROP_SIDE, 3), np.uint8)
    for index, crop in enumerate(crops):
        row, column = divmod(index, columns)
        sheet[row * CROP_SIDE:(row + 1) * CROP_SIDE,
              column * CROP_SIDE:(column + 1) * CROP_SIDE] = crop
    return sheet


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--family", default="tuning", choices=sorted(FAMILIES))
    parser.add_argument("--frames", type=int, default=100)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--cocked", action="store_true")
    parser.add_argument("--out", default="/tmp/dicefail")
    parser.add_argument("--most", type=int, default=48, help="crops per contact sheet")
    options = parser.parse_args()
    out = Path(options.out)
    out.mkdir(parents=True, exist_ok=True)
    make, _ = FAMILIES[options.family]
    config = VisionConfig()
    groups: dict[str, list[Image]] = defaultdict(list)
    counted = 0
    for seed in range(options.first, options.first + options.frames):
        scene = make(seed + (100_000 if options.cocked else 0), options.cocked)
        image = render(scene, seed).image
        location = find_board(config.markers, image, scene.geometry)
        camera = camera_over_mat(location.homography, location.image_size)
        bounds = next(region for region in scene.geometry.regions
                      if region.kind == "tray").shape.bounds()
        calibrated = replace(DiceConfig(), focal_px=scene.intrinsics()[0])
        readings = list(explain_tray_in_frame(calibrated, image, location, bounds, camera))
        view = rectify_window(image, location, bounds, CROP_SCALE).image
        for number, die in enumerate(scene.truth()["tray"].dice):
            counted += 1
            near = [(math.dist(item[0].centre_mm, die.centre_mm), index)
                    for index, item in enumerate(readings)]
            near = [item for item in near if item[0] < MATCH_MM]
            read = readings[min(near)[1]] if near else None
            group = _group(die.value, read, options.cocked)
            if group is None:
                continue
            got = "missed" if read is None else f"{read[0].value} c{read[0].confidence:.2f}"
            crop = _crop(view, bounds, die.centre_mm, readings,
                         f"s{seed} d{number} {die.colour} {die.value}->{got}")
            groups[group].append(crop)
            folder = out / group.replace(" ", "_").replace(":", "")
            folder.mkdir(exist_ok=True)
            cv2.imwrite(str(folder / f"s{seed}_d{number}.png"), crop)
    print(f"{options.family}{' cocked' if options.cocked else ''}: {counted} dice in "
          f"{options.frames} frames")
    for group, crops in sorted(groups.items(), key=lambda item: -len(item[1])):
        name = group.replace(" ", "_").replace(":", "")
        cv2.imwrite(str(out / f"{name}.png"), _sheet(crops[:options.most]))
        print(f"  {len(crops):4d}  {group}  ({out / name}.png)")


if __name__ == "__main__":
    main()
