"""Processor time of reading a Coin Isolation frame, against another tree in one run.

``--frames`` synthetic 1920x1080 frames of the Coin Isolation mat (the scenes
``bench_vision_work.py`` counts instructions on) and, with ``--tuning N``, the first N frames
of the physically rendered tuning set (from ``bench/.cache``, rendered by
``bench_vision.py``), with ``--heldout N`` the first N of its held-out set, and with
``--samples FOLDER`` every frame of a folder (``../shared/vision-samples``) are read with
:func:`vision.read.read_frame` by the code of this tree and, with ``--baseline TREE``, by
the code of another tree (``/work/main`` before a speed-up), each in its own process, the
two taking turns frame by frame so that both see the same load of the machine (each first
reads one frame to warm up). It prints the median processor milliseconds a frame of each,
their ratio (of the medians and of the totals), and
how many frames' observations (their JSON, timings left out) differ: a speed-up must read
the same.

    PYTHONPATH=. .venv/bin/python bench/bench_vision_speed.py [--frames 10] [--tuning 0]
        [--heldout 0] [--samples ../shared/vision-samples] [--baseline /work/main]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

if "--worker" not in sys.argv:  # a worker reads with the code of its PYTHONPATH
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

#: The first seed of the synthetic frames (as ``bench_vision_work.py``).
FIRST_SEED = 1000


def make_frames(folder: Path, frames: int, tuning: int, heldout: int = 0,
                samples: Path | None = None) -> list[Path]:
    """Save ``frames`` synthetic frames, the first ``tuning`` and ``heldout`` cached frames
    of those families, and every frame of the ``samples`` folder."""
    import cv2

    from vision.synth import random_scene, random_variation, render

    paths = []
    for seed in range(FIRST_SEED, FIRST_SEED + frames):
        path = folder / f"synth-{seed}.npy"
        np.save(path, render(random_scene(seed, random_variation(seed, 35.0)), seed).image)
        paths.append(path)
    cache = Path(__file__).resolve().parent / ".cache"
    images = [(f"{family}-{seed}", cache / family / f"{seed}.png")
              for family, count in (("tuning", tuning), ("heldout", heldout))
              for seed in range(count)]
    if samples is not None:
        images += [(f"sample-{image.stem}", image) for image in sorted(samples.iterdir())
                   if image.suffix in (".jpg", ".jpeg", ".png")]
    for name, source in images:
        image = cv2.imread(str(source), cv2.IMREAD_COLOR)
        if image is None:
            raise SystemExit(f"{source} is not rendered: run bench_vision.py --sets "
                             f"{source.parent.name} --frames N first")
        path = folder / f"{name}.npy"
        np.save(path, image)
        paths.append(path)
    return paths


def worker() -> None:
    """Read the saved frame of every path given on standard input, one a line; print one
    JSON line each: processor ms and the observation (timings left out)."""
    import cv2

    cv2.setNumThreads(1)
    from calibration.geometry import coin_isolation_mat
    from calibration.profile import VisionProfile
    from vision.read import VisionConfig, read_frame

    config, profile = VisionConfig(), VisionProfile.default().only_kinds("PNDQ")
    geometry = coin_isolation_mat()
    for line in sys.stdin:
        image = np.load(line.strip())
        processor = time.process_time()
        observation = read_frame(config, image, geometry, profile)
        processor = (time.process_time() - processor) * 1000
        reading = observation.to_json()
        reading.pop("milliseconds", None)
        reading.get("meta", {}).pop("timings_ms", None)
        print(json.dumps({"processor_ms": processor, "observation": reading}, sort_keys=True),
              flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=10, help="synthetic frames")
    parser.add_argument("--tuning", type=int, default=0, help="cached tuning frames")
    parser.add_argument("--heldout", type=int, default=0, help="cached held-out frames")
    parser.add_argument("--samples", type=Path, default=None,
                        help="a folder of frames to read too (../shared/vision-samples)")
    parser.add_argument("--baseline", type=Path, default=None,
                        help="another tree to read the same frames with (before a speed-up)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker()
        return 0
    if args.samples is not None and not args.samples.is_dir():
        raise SystemExit(f"{args.samples} is no folder of frames")
    tree = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory() as folder:
        paths = make_frames(Path(folder), args.frames, args.tuning, args.heldout, args.samples)
        if not paths:
            raise SystemExit("give --frames, --tuning, --heldout or --samples frames to read")
        answers = _read_all([tree, *([args.baseline] if args.baseline else [])], paths)
    ours = [float(str(line["processor_ms"])) for line in answers[0]]
    samples = len(paths) - args.frames - args.tuning - args.heldout
    text = (f"{len(paths)} frames ({args.frames} synthetic, {args.tuning} tuning, "
            f"{args.heldout} held-out, {samples} samples): "
            f"processor ms per frame {statistics.median(ours):.1f}")
    if args.baseline:
        theirs = [float(str(line["processor_ms"])) for line in answers[1]]
        differ = sum(mine["observation"] != other["observation"]
                     for mine, other in zip(answers[0], answers[1], strict=True))
        text += (f"; baseline {statistics.median(theirs):.1f}, ratio of medians "
                 f"{statistics.median(theirs) / statistics.median(ours):.2f}x, of totals "
                 f"{sum(theirs) / sum(ours):.2f}x; observations differing: {differ} of "
                 f"{len(paths)}")
    print(text)
    return 0


def _read_all(trees: list[Path], paths: list[Path]) -> list[list[dict[str, object]]]:
    """Every frame read by every tree (each in its own process), taking turns frame by frame
    after a warm-up frame."""
    script = Path(__file__).resolve()
    readers = [subprocess.Popen([sys.executable, str(script), "--worker"],
                                env={**os.environ, "PYTHONPATH": str(tree)}, cwd=tree,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
               for tree in trees]

    def read(process: subprocess.Popen[str], path: Path) -> dict[str, object]:
        """The worker's line for the frame saved at ``path``."""
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(f"{path}\n")
        process.stdin.flush()
        line = process.stdout.readline()
        while line and not line.startswith("{"):  # anything else a library printed
            line = process.stdout.readline()
        if not line:
            raise SystemExit(f"the reader stopped without an answer for {path}")
        answer: dict[str, object] = json.loads(line)
        return answer

    answers: list[list[dict[str, object]]] = [[] for _ in trees]
    try:
        for process in readers:
            read(process, paths[0])
        for number, path in enumerate(paths):
            order = list(range(len(readers)))
            if number % 2:
                order.reverse()
            for index in order:
                answers[index].append(read(readers[index], path))
    finally:
        for process in readers:
            assert process.stdin is not None
            process.stdin.close()
            process.wait(timeout=60)
    return answers


if __name__ == "__main__":
    sys.exit(main())
