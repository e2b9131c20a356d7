"""The work of reading a frame, in CPU instructions: a measure the machine's drift leaves alone.

On a shared virtual machine the wall time of the same code drifts by half from hour to hour,
so two versions timed an hour apart cannot be compared. The instructions a frame takes are the
same at any hour: this renders ``--frames`` synthetic frames (not counted), then reads them under
valgrind's callgrind in one OpenCV thread, once reading only the first (warm-up: imports, caches,
first-frame set-up) and once reading them all, and prints the difference per frame, for the
whole pipeline (find, rectify, read). With ``--stages`` it also prints each stage's own count:
one more callgrind run reads the frames with a marker call (``zlib.adler32``) before each stage,
callgrind dumps its counts at every marker, and each dump is the stage just run.

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


#: The pipeline's stages in order.
STAGES = ("find", "rectify", "read")


def _read(folder: Path, seeds: range, marked: bool = False) -> None:
    """Read the saved frames in order (what callgrind counts); ``marked``: the first as a
    warm-up, the others with a marker call before each stage and one at the end."""
    import zlib

    import cv2

    cv2.setNumThreads(1)  # one thread: instructions the same from run to run
    from calibration.profile import VisionProfile
    from vision.markers import find_board
    from vision.parallax import camera_over_mat
    from vision.read import VisionConfig, read_frame, read_view
    from vision.rectify import rectify
    from vision.synth import random_scene, random_variation

    config, profile = VisionConfig(), VisionProfile.default().only_kinds("PNDQ")
    # Every synthetic scene lies on the same mat; one object, as a camera session holds.
    geometry = random_scene(seeds[0], random_variation(seeds[0], 35.0)).geometry
    for number, seed in enumerate(seeds):
        image = np.load(folder / f"{seed}.npy")
        if not marked or number == 0:
            read_frame(config, image, geometry, profile)
            continue
        # read_frame's own steps, a marker before each.
        zlib.adler32(b"find")
        location = find_board(config.markers, image, geometry)
        zlib.adler32(b"rectify")
        view = rectify(config.rectify, image, location, geometry)
        zlib.adler32(b"read")
        camera = camera_over_mat(location.homography, location.image_size)
        read_view(config.read, view, geometry, profile, camera, (image, location))
    if marked:
        zlib.adler32(b"end")


def marker_counts(arguments: list[str], what: str) -> list[int]:
    """Run ``python arguments...`` under valgrind's callgrind in one OpenCV thread, dumping the
    counts at every call of ``zlib.adler32`` (the markers the read puts between its steps):
    the instructions of each dump, in order (each holds what ran since the one before).
    ``what`` names the work in the error when valgrind fails."""
    with tempfile.TemporaryDirectory() as name:
        output = Path(name) / "counts"
        command = ["valgrind", "--tool=callgrind", "--dump-before=adler32",
                   f"--callgrind-out-file={output}", sys.executable, *arguments]
        environment = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
        result = subprocess.run(command, capture_output=True, text=True, env=environment,
                                check=False)
        if result.returncode != 0:
            tail = result.stderr.strip().splitlines()[-3:]
            raise SystemExit(f"valgrind could not count {what}: " + " | ".join(tail))
        dumps = sorted(Path(name).glob("counts.*"), key=lambda path: int(path.suffix[1:]))
        return [int(found.group(1)) for path in dumps
                if (found := re.search(r"^summary: (\d+)", path.read_text(), re.M))]


def _stage_instructions(folder: Path, first: int, last: int) -> dict[str, float]:
    """Per stage, the instructions a frame takes (frames ``first + 1`` to ``last - 1``), from
    one callgrind run that dumps its counts at every marker of :func:`_read`."""
    frames = last - first - 1
    counts = marker_counts([__file__, "--read", str(folder), "--seed", str(first), "--frames",
                            str(last - first), "--marked"], "the stages")
    # The dump at a marker holds what ran since the one before: the last 3 per frame and
    # the end's are the stages (anything before them is start-up and the warm-up frame).
    stages = counts[-3 * frames:]
    if len(stages) < 3 * frames:
        raise SystemExit("callgrind dumped fewer counts than the stages read")
    return {stage: sum(stages[index::3]) / frames for index, stage in enumerate(STAGES)}


def _instructions(folder: Path, first: int, last: int) -> int:
    """Instructions callgrind counts for a process reading frames ``first`` to ``last - 1``."""
    command = [
        "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
        __file__, "--read", str(folder), "--seed", str(first), "--frames", str(last - first),
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
                        help="also count each stage's own instructions (one more run)")
    parser.add_argument("--read", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--marked", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    seeds = range(args.seed, args.seed + args.frames)
    if args.read is not None:
        _read(args.read, seeds, args.marked)
        return
    if args.frames < 2:
        raise SystemExit("--frames must be 2 or more: the first one is the warm-up")
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed; install it (apt-get install valgrind)")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        _render(folder, seeds)
        warm_up = _instructions(folder, args.seed, args.seed + 1)
        every = _instructions(folder, args.seed, args.seed + args.frames)
        stages = (_stage_instructions(folder, args.seed, args.seed + args.frames)
                  if args.stages else {})
    per_frame = (every - warm_up) / (args.frames - 1)
    print(f"{per_frame / 1e6:.1f} million instructions per 1920x1080 frame "
          f"(find + rectify + read, one thread; frames {args.seed + 1}-{seeds[-1]})")
    for stage, count in stages.items():
        print(f"  {stage:8s}{count / 1e6:7.1f} million ({count / sum(stages.values()):.0%})")


if __name__ == "__main__":
    main()
