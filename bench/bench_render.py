"""Render time of the physically based table renderer, per 1920x1080 frame, on one core.

For each family it renders ``--frames`` boards in play (seeds ``--seed`` onward, a new scene each
time, so nothing is cached) and prints each frame's time and the median, split into the scene's
radiance (placing, tracing, shading) and the webcam (lens, noise, JPEG). OpenCV is held to one
thread; run under ``taskset -c 0`` to hold numpy to one core too. The first frame (imports,
the mat texture) is rendered once before timing. Prints figures; asserts nothing.

    taskset -c 0 .venv/bin/python bench/bench_render.py [--frames 5] [--seed 1000]
"""

from __future__ import annotations

import argparse
import statistics
import time

import cv2

from vision.synth.physical import FAMILIES, random_table_scene, render_table, scene_radiance


def _time_family(family: str, seeds: range) -> list[tuple[int, float, float]]:
    """(seed, total seconds, radiance seconds) of each frame."""
    timings = []
    for seed in seeds:
        start = time.perf_counter()
        scene = random_table_scene(seed, family=family)
        scene_radiance(scene)
        traced = time.perf_counter()
        render_table(scene, seed)
        timings.append((seed, time.perf_counter() - start, traced - start))
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--frames", type=int, default=5, help="frames per family")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--threads", type=int, default=1, help="OpenCV threads")
    args = parser.parse_args()
    cv2.setNumThreads(args.threads)
    render_table(random_table_scene(args.seed - 1))
    medians = {}
    for family in FAMILIES:
        timings = _time_family(family, range(args.seed, args.seed + args.frames))
        for seed, total, traced in timings:
            print(f"{family:8s} seed {seed}: {total:.2f} s (radiance {traced:.2f} s, "
                  f"webcam {total - traced:.2f} s)")
        medians[family] = statistics.median(total for _, total, _ in timings)
    for family, median in medians.items():
        print(f"{family}: median {median:.2f} s per frame over {args.frames} frames")


if __name__ == "__main__":
    main()
