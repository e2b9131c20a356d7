"""The work of reading a frame, in CPU instructions: a measure the machine's drift leaves alone.

On a shared virtual machine the wall time of the same code drifts by half from hour to hour,
so two versions timed an hour apart cannot be compared. The instructions a frame takes are the
same at any hour: this renders ``--frames`` synthetic frames (not counted), then reads them under
valgrind's callgrind in one OpenCV thread, once reading only the first (warm-up: imports, caches,
first-frame set-up) and once reading them all, and prints the difference per frame, for the
whole pipeline (find, rectify, read). With ``--stages`` it also counts the pipeline stopped
after finding the mat and after rectifying it, and prints each stage's share.

    .venv/bin/python bench/bench_vision_work.py [--frames 11] [--seed 1000] [--stages]

Needs valgrind (``apt-get install valgrind``); takes about a minute for the default 11 frames.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np


def _render(folder: Path, seeds: range) -> None:
    from vision.synth import random_scene, random_variation, render

    for seed in seeds:
        np.save(folder / f"{seed}.npy", render(random_scene(seed, random_variation(seed, 35.0)),
                                               seed).image)


#: The pipeline's stages in order; a count up to one stage includes those before it.
STAGES = ("find", "rectify", "read")


def _read(folder: Path, seeds: range, stage: str = "read") -> None:
    """Read the saved frames in order, up to and including ``stage`` (what callgrind counts)."""
    import cv2

    cv2.setNumThreads(1)  # one thread: instructions the same from run to run
    from calibration.profile import VisionProfile
    from vision.markers import find_board
    from vision.read import VisionConfig, read_frame
    from vision.rectify import rectify
    from vision.synth import random_scene, random_variation

    config, profile = VisionConfig(), VisionProfile.default().only_kinds("PNDQ")
    # Every synthetic scene lies on the same mat; one object, as a camera session holds.
    geometry = random_scene(seeds[0], random_variation(seeds[0], 35.0)).geometry
    for seed in seeds:
        image = np.load(folder / f"{seed}.npy")
        if stage == "read":
            read_frame(config, image, geometry, profile)
            continue
        location = find_board(config.markers, image, geometry)
        if stage == "rectify":
            rectify(config.rectify, image, location, geometry)


def _instructions(folder: Path, first: int, last: int, stage: str = "read") -> int:
    """Instructions callgrind counts for a process reading frames ``first`` to ``last - 1``
    up to ``stage``."""
    command = [
        "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
        __file__, "--read", str(folder), "--seed", str(first), "--frames", str(last - first),
        "--stage", stage,
    ]
    environment = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    result = subprocess.run(command, capture_output=True, text=True, env=environment,
                            check=False)
    found = re.search(r"refs:\s+([\d,]+)", result.stderr)
    if result.returncode != 0 or found is None:
        tail = result.stderr.strip().splitlines()[-3:]
        raise SystemExit("valgrind could not count the reading: " + " | ".join(tail))
    return int(found.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=11)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--stages", action="store_true",
                        help="also count each stage (three times as long)")
    parser.add_argument("--read", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--stage", choices=STAGES, default="read", help=argparse.SUPPRESS)
    args = parser.parse_args()
    seeds = range(args.seed, args.seed + args.frames)
    if args.read is not None:
        _read(args.read, seeds, args.stage)
        return
    if args.frames < 2:
        raise SystemExit("--frames must be 2 or more: the first one is the warm-up")
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed; install it (apt-get install valgrind)")
    stages = STAGES if args.stages else ("read",)
    totals: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        _render(folder, seeds)
        for stage in stages:
            warm_up = _instructions(folder, args.seed, args.seed + 1, stage)
            every = _instructions(folder, args.seed, args.seed + args.frames, stage)
            totals[stage] = (every - warm_up) / (args.frames - 1)
    print(f"{totals['read'] / 1e6:.1f} million instructions per 1920x1080 frame "
          f"(find + rectify + read, one thread; frames {args.seed + 1}-{seeds[-1]})")
    if args.stages:
        before = 0.0
        for stage in STAGES:
            own = totals[stage] - before
            before = totals[stage]
            print(f"  {stage:8s}{own / 1e6:7.1f} million ({own / totals['read']:.0%})")


if __name__ == "__main__":
    main()
