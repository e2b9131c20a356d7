"""Processor time of reading a camera frame on the Jokers and Coins ring and Shakala's pits,
and a check that a faster reader reads exactly the same (printed, not asserted).

Frames of three kinds are rendered once and saved (``--frames`` of each):

* ``jokers-4`` and ``jokers-6``: a random Jokers and Coins position of 4 and 6 seats
  (:mod:`bench.bench_ring_read`), with a pile of one to three cards on every seat's discard
  spot (drawn faces; the top card at any turn);
* ``shakala``: Shakala frames with crowded pits (:mod:`vision.synth.shakala_frames`: the
  seeds whose frames have a pit topped up to 8 to 12 coins);
* ``coin-grid``: Coin Grid positions of random play (:mod:`bench.bench_coin_grid_read`).

Each frame is read with :func:`vision.read.read_frame` by the code of this tree and, with
``--baseline TREE``, by the code of another tree (``/work/main`` before a speed-up), each in
its own process over the same saved frames, in one run, the two taking turns frame by frame
(so that both see the same load of the machine; each first reads one frame to warm up). It
prints, per kind, the median processor milliseconds per frame of each, their ratio (of the
medians, and of the total processor time over the kind's frames), and how many frames'
observations (their JSON, the timings left out) differ between the two trees: a speed-up
must read the same.

    PYTHONPATH=. .venv/bin/python bench/bench_read_speed.py [--frames 3] [--baseline /work/main]
        [--heldout]
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
from dataclasses import replace
from pathlib import Path

import numpy as np

if "--worker" not in sys.argv:  # a worker reads with the code of its PYTHONPATH
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

#: The first held-out seed (frames never looked at while making the reader faster).
HELDOUT_FIRST = 100_000
#: The kinds of frames, in the order printed.
KINDS = ("jokers-4", "jokers-6", "shakala", "coin-grid")


def jokers_frame(seed: int, players: int) -> tuple[np.ndarray, str]:
    """A Jokers and Coins frame of ``players`` seats with cards on every discard spot, and
    its mat's name."""
    from bench.bench_ring_read import random_position, table_scene
    from calibration.geometry import mat_for_game
    from companion.games.jokers_and_coins import GAME
    from vision.synth import render
    from vision.synth.card_sets import TUNING_FACES, random_card

    geometry = mat_for_game(GAME.info.mat, players=players)
    scene = table_scene(seed, random_position(seed, players), geometry, (1920, 1080))
    rng = np.random.default_rng([seed, 83])
    cards = []
    for seat in range(1, players + 1):
        centre = geometry.region(f"discard-{seat}").centre
        for _ in range(int(rng.integers(1, 4))):
            cards.append(random_card(rng, str(rng.choice(TUNING_FACES)), centre, spread_mm=4.0))
    frame = render(replace(scene, cards=tuple(cards)), seed)
    return frame.image, f"jokers:{players}"


def crowded_seeds(first: int, count: int) -> list[int]:
    """The first ``count`` Shakala seeds from ``first`` on whose frames have a pit of 8
    coins or more."""
    from vision.synth.shakala_frames import random_position, table_coins

    seeds: list[int] = []
    seed = first
    while len(seeds) < count:
        held = table_coins(random_position(seed), seed)
        if max(map(len, held.values()), default=0) >= 8:
            seeds.append(seed)
        seed += 1
    return seeds


def shakala_frame(seed: int) -> tuple[np.ndarray, str]:
    """The Shakala frame of ``seed``, and its mat's name."""
    from vision.synth import render
    from vision.synth.shakala_frames import shakala_scene

    return render(shakala_scene(seed), seed).image, "shakala"


def coin_grid_frame(seed: int) -> tuple[np.ndarray, str]:
    """The Coin Grid frame of ``seed`` (:mod:`bench.bench_coin_grid_read`), and its mat's
    name."""
    from bench.bench_coin_grid_read import random_position, scene
    from vision.synth import render

    return render(scene(seed, random_position(seed)), seed).image, "coin-grid"


def make_frames(folder: Path, frames: int, first: int) -> list[Path]:
    """Render ``frames`` frames of every kind into ``folder``; their files."""
    paths = []
    for kind in KINDS:
        seeds = crowded_seeds(first, frames) if kind == "shakala" else \
            list(range(first, first + frames))
        for seed in seeds:
            if kind == "shakala":
                image, mat = shakala_frame(seed)
            elif kind == "coin-grid":
                image, mat = coin_grid_frame(seed)
            else:
                image, mat = jokers_frame(seed, int(kind.split("-")[1]))
            path = folder / f"{kind}-{seed}.npz"
            np.savez(path, image=image, mat=mat, kind=kind)
            paths.append(path)
    return paths


def geometry_and_profile(mat: str) -> tuple[object, object]:
    """The mat and the reading profile of a saved frame's ``mat`` name."""
    from bench.bench_ring_read import reading_profile
    from calibration.geometry import mat_for_game
    from calibration.profile import VisionProfile
    from calibration.shakala_mat import shakala_mat

    if mat == "shakala":
        return shakala_mat(), VisionProfile.default()
    if mat == "coin-grid":
        from calibration.geometry import coin_grid_mat

        return coin_grid_mat(), VisionProfile.default()
    from companion.games.jokers_and_coins import GAME

    return mat_for_game(GAME.info.mat, players=int(mat.split(":")[1])), reading_profile()


def worker() -> None:
    """Read the saved frame of every path given on standard input, one a line; print one
    JSON line each: its kind, processor ms, wall ms and the observation (timings left out)."""
    from vision.read import VisionConfig, read_frame

    config = VisionConfig()
    for line in sys.stdin:
        data = np.load(line.strip())
        geometry, profile = geometry_and_profile(str(data["mat"]))
        image = data["image"]
        wall, processor = time.perf_counter(), time.process_time()
        observation = read_frame(config, image, geometry, profile)  # type: ignore[arg-type]
        processor = (time.process_time() - processor) * 1000
        wall = (time.perf_counter() - wall) * 1000
        reading = observation.to_json()
        reading.pop("milliseconds", None)
        reading.get("meta", {}).pop("timings_ms", None)
        print(json.dumps({"kind": str(data["kind"]), "processor_ms": processor,
                          "wall_ms": wall, "observation": reading}, sort_keys=True),
              flush=True)


class Reader:
    """A worker process reading frames with the code of one tree."""

    def __init__(self, tree: Path, script: Path | None = None) -> None:
        environment = {**os.environ, "PYTHONPATH": str(tree)}
        script = script or Path(__file__).resolve()
        self.process = subprocess.Popen(
            [sys.executable, str(script), "--worker"], env=environment, cwd=tree,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def read(self, path: Path) -> dict[str, object]:
        """The worker's line for the frame saved at ``path``."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"{path}\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        while line and not line.startswith("{"):  # anything else a library printed
            line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"the reader stopped without an answer for {path}")
        answer: dict[str, object] = json.loads(line)
        return answer

    def close(self) -> None:
        """End the worker."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=60)


def read_all(trees: list[Path], paths: list[Path], script: Path | None = None
             ) -> list[list[dict[str, object]]]:
    """Every frame read by every tree, the trees taking turns frame by frame (in turn first,
    so that both see the same load of the machine), after one frame each to warm up; the
    workers are ``script --worker`` (this bench's by default)."""
    readers = [Reader(tree, script) for tree in trees]
    answers: list[list[dict[str, object]]] = [[] for _ in trees]
    try:
        for reader in readers:
            reader.read(paths[0])
        for number, path in enumerate(paths):
            order = list(range(len(readers)))
            if number % 2:
                order.reverse()
            for index in order:
                answers[index].append(readers[index].read(path))
    finally:
        for reader in readers:
            reader.close()
    return answers


def summary(lines: list[dict[str, object]], kind: str, key: str) -> float:
    """The median of ``key`` over the frames of ``kind``."""
    return statistics.median(float(line[key]) for line in lines  # type: ignore[arg-type]
                             if line["kind"] == kind)


def summed(lines: list[dict[str, object]], kind: str) -> float:
    """The processor milliseconds of all the frames of ``kind``."""
    return float(sum(float(str(line["processor_ms"])) for line in lines
                     if line["kind"] == kind))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=3, help="frames of each kind")
    parser.add_argument("--baseline", type=Path, default=None,
                        help="another tree to read the same frames with (before a speed-up)")
    parser.add_argument("--heldout", action="store_true",
                        help=f"frames of the held-out seeds ({HELDOUT_FIRST} on)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker()
        return 0
    first = HELDOUT_FIRST if args.heldout else 0
    tree = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory() as folder:
        paths = make_frames(Path(folder), args.frames, first)
        answers = read_all([tree, *([args.baseline] if args.baseline else [])], paths)
    ours, theirs = answers[0], (answers[1] if args.baseline else None)
    print(f"{'held-out' if args.heldout else 'tuning'} seeds from {first}, {args.frames} "
          "frame(s) of each kind, 1920x1080 (Jokers) and the synthetic camera (Shakala):")
    for kind in KINDS:
        now = summary(ours, kind, "processor_ms")
        text = (f"  {kind:9} processor ms per frame: {now:7.0f} "
                f"(wall {summary(ours, kind, 'wall_ms'):.0f})")
        if theirs is not None:
            before = summary(theirs, kind, "processor_ms")
            differ = sum(mine["observation"] != other["observation"]
                         for mine, other in zip(ours, theirs, strict=True)
                         if mine["kind"] == kind)
            total = summed(theirs, kind) / summed(ours, kind)
            text += (f"; baseline {before:7.0f} (wall {summary(theirs, kind, 'wall_ms'):.0f})"
                     f", ratio of medians {before / now:.2f}x, of totals {total:.2f}x; "
                     f"observations differing: {differ} of {args.frames}")
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
