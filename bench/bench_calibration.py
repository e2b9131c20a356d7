"""How much a calibration profile helps the reader, on frames of the physically based renderer.

For each scene (a seed of the ``tuning`` or ``heldout`` family of :mod:`vision.synth.physical`) it
renders the same table (camera, lights, paper, table, sensor, loose coins off the mat) three
ways: the empty mat, the calibration layout (:func:`vision.calibrate.calibration_layout`, each
object at its square's centre as calibration asks) and the scene's own board in play. It
calibrates from two empty-mat and two layout frames (different sensor noise), then reads each
game frame with the uncalibrated profile and with the learned one, and counts both in the form
of ``bench/bench_vision.py`` (:class:`bench.vision_tally.Tally`). A refused calibration is
reported with its message and its scene's frames are read uncalibrated in the "with" column
too (a player who cannot calibrate plays uncalibrated); the figures over accepted scenes only
are printed beside them when some scene was refused.

    .venv/bin/python bench/bench_calibration.py [--family tuning|heldout] [--scenes 10]
        [--seed 2000] [--games 1] [--via api|cli] [--workers 1] [--report]

``--via api`` (the default) learns with :func:`vision.calibrate.learn_profile` in this
process; ``--via cli`` writes the frames (the webcam's JPEG bytes) into a temporary folder in
name order (``1-empty.jpg``, ``2-empty.jpg``, ``3-layout.jpg``, ``4-layout.jpg``) and runs
``companion calibrate --camera file://FOLDER --headless`` in this process, the steady-frame
gate included, loading the profile it saves. Nothing is cached; rendering is not timed,
calibration (wall time, rendering excluded) and reading are. Prints figures; asserts nothing.

The reader remembers a still camera's lens between frames (:mod:`vision.lens_memory`), so
what it finds depends on the frames read before. As in ``companion calibrate`` (a process of
its own) each calibration starts with no memory: the empty-mat frames fit the lens and the
layout frames reuse it. Each game frame is read from no memory too, both times, as the first
frame of a game would be, so the two readings differ by the profile alone.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import multiprocessing
import os
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from numpy.typing import NDArray

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.vision_tally import Tally
from calibration.profile import VisionProfile
from contract.observation import Observation
from vision.calibrate import (
    CalibrationConfig,
    CalibrationLayout,
    calibration_layout,
    learn_profile,
)
from vision.errors import VisionError
from vision.markers import forget_lens
from vision.read import VisionConfig, read_frame
from vision.synth import RegionTruth
from vision.synth.physical import TableFrame, TableScene, random_table_scene, render_table

#: The coin kinds of the Coin Isolation mat, as bench_vision reads them.
KINDS = "PNDQ"
#: Sensor-noise seeds of the calibration frames; game frames take the seeds after them.
EMPTY_SEEDS = (1, 2)
LAYOUT_SEEDS = (3, 4)
GAME_SEED = 5


@dataclass(frozen=True)
class Reading:
    """One game frame read with one profile: the observation, or why it was not read."""

    observation: Observation | None
    error: str
    milliseconds: float


@dataclass(frozen=True)
class GameFrame:
    """One game frame's truth and its readings without and with the learned profile."""

    name: str
    truth: Mapping[str, RegionTruth]
    without: Reading
    with_profile: Reading


@dataclass(frozen=True)
class SceneResult:
    """What one scene gave: the calibration's outcome and its game frames."""

    seed: int
    accepted: bool
    message: str
    calibrate_s: float
    render_s: float
    warnings: tuple[str, ...] = ()
    report: tuple[str, ...] = ()
    games: tuple[GameFrame, ...] = field(default_factory=tuple)


def scene_views(scene: TableScene, layout: CalibrationLayout) -> tuple[TableScene, TableScene]:
    """The empty mat and the calibration layout on the very table of ``scene``: same
    variation (camera, light, style, sensor), layout seed (the loose coins off the mat) and
    image size; the layout's objects stand at their squares' centres."""
    empty = replace(scene, coins=(), pawns=(), positions=(), variants=())
    coins = layout.squares()
    pawns = layout.pawns_by_square()
    centres = {name: scene.geometry.region(name).centre for name in set(coins) | set(pawns)}
    laid_out = replace(
        scene,
        coins=tuple(sorted(coins.items())),
        pawns=tuple(sorted(pawns.items())),
        positions=tuple(sorted((name, (float(x), float(y))) for name, (x, y) in centres.items())),
        variants=(),
    )
    return empty, laid_out


def calibrate_api(scene: TableScene, empty: Sequence[TableFrame], layout_frames:
                  Sequence[TableFrame], layout: CalibrationLayout
                  ) -> tuple[VisionProfile | None, str, tuple[str, ...], tuple[str, ...]]:
    """Learn in process: (profile or None, refusal message, warnings, report lines)."""
    try:
        calibration = learn_profile(CalibrationConfig(), scene.geometry,
                                    [frame.image for frame in empty],
                                    [frame.image for frame in layout_frames], layout)
    except VisionError as error:
        return None, f"{type(error).__name__}: {error}", (), ()
    return calibration.profile, "", calibration.warnings, calibration.report()


def calibrate_cli(empty: Sequence[TableFrame], layout_frames: Sequence[TableFrame]
                  ) -> tuple[VisionProfile | None, str, tuple[str, ...], tuple[str, ...]]:
    """Learn through ``companion calibrate`` on a folder of the frames' JPEG bytes."""
    from companion.cli import main as companion_main

    with tempfile.TemporaryDirectory(prefix="bench-calibration-") as folder:
        path = Path(folder)
        named = [("empty", frame) for frame in empty] + [("layout", f) for f in layout_frames]
        for number, (what, frame) in enumerate(named, start=1):
            (path / f"{number}-{what}.jpg").write_bytes(frame.jpeg)
        out = path / "profile.json"
        stdout, stderr = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            code = companion_main([
                "calibrate", "--camera", f"file://{path}", "--mat", "coin-isolation",
                "--out", str(out), "--headless",
                "--frames", str(max(len(empty), len(layout_frames)))])
        if code != 0:
            lines = stderr.getvalue().strip().splitlines() or [f"exit code {code}"]
            return None, f"exit {code}: {lines[-1]}", (), ()
        printed = stdout.getvalue().splitlines()
        warnings = tuple(line.removeprefix("Warning: ") for line in printed
                         if line.startswith("Warning: "))
        learned = printed[printed.index("Learned:") + 1:] if "Learned:" in printed else []
        report = tuple(line.strip() for line in learned if line.startswith("  "))
        return VisionProfile.load(out), "", warnings, report


def read(image: NDArray[Any], scene: TableScene, profile: VisionProfile) -> Reading:
    """Read ``image`` with ``profile`` from no lens memory; a frame the reader cannot read
    keeps its message."""
    forget_lens()
    start = time.perf_counter()
    try:
        observation = read_frame(VisionConfig(), image, scene.geometry, profile)
    except VisionError as error:
        return Reading(None, str(error), (time.perf_counter() - start) * 1000)
    return Reading(observation, "", (time.perf_counter() - start) * 1000)


def run_scene(job: tuple[str, int, int, str]) -> SceneResult:
    """Render, calibrate and read one scene (``(family, seed, games, via)``)."""
    family, seed, games, via = job
    scene = random_table_scene(seed, family=family)
    layout = calibration_layout(scene.geometry, KINDS, ("red", "blue"))
    empty_scene, layout_scene = scene_views(scene, layout)
    start = time.perf_counter()
    empty = [render_table(empty_scene, noise) for noise in EMPTY_SEEDS]
    laid_out = [render_table(layout_scene, noise) for noise in LAYOUT_SEEDS]
    render_s = time.perf_counter() - start
    forget_lens()
    start = time.perf_counter()
    if via == "cli":
        learned, message, warnings, report = calibrate_cli(empty, laid_out)
    else:
        learned, message, warnings, report = calibrate_api(scene, empty, laid_out, layout)
    calibrate_s = time.perf_counter() - start
    default = VisionProfile.default().only_kinds(KINDS)
    profile = learned.only_kinds(KINDS) if learned is not None else None
    frames = []
    for noise in range(GAME_SEED, GAME_SEED + games):
        start = time.perf_counter()
        frame = render_table(scene, noise)
        render_s += time.perf_counter() - start
        without = read(frame.image, scene, default)
        with_profile = read(frame.image, scene, profile) if profile is not None else without
        frames.append(GameFrame(f"{family}-{seed}/noise-{noise}", frame.truth, without,
                                with_profile))
    return SceneResult(seed, learned is not None, message, calibrate_s, render_s, warnings,
                       report, tuple(frames))


def count(tally: Tally, frame: GameFrame, reading: Reading, keep: int) -> None:
    """Add one frame's reading to ``tally`` as bench_vision does."""
    if reading.observation is None:
        tally.add_unread(frame.name, len(frame.truth), reading.error)
    else:
        tally.add(frame.name, reading.observation, frame.truth, reading.milliseconds, keep)


def results(jobs: list[tuple[str, int, int, str]], workers: int) -> Iterator[SceneResult]:
    """Each scene's result in seed order, from ``workers`` processes (1: this one)."""
    if workers <= 1:
        yield from map(run_scene, jobs)
        return
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        yield from pool.imap(run_scene, jobs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--family", choices=("tuning", "heldout"), default="heldout")
    parser.add_argument("--scenes", type=int, default=10)
    parser.add_argument("--seed", type=int, default=2000,
                        help="first scene seed (scenes use SEED..SEED+N-1)")
    parser.add_argument("--games", type=int, default=1, help="game frames per scene")
    parser.add_argument("--via", choices=("api", "cli"), default="api",
                        help="learn in process (api) or through `companion calibrate` (cli)")
    parser.add_argument("--workers", type=int, default=1,
                        help="processes, one scene each at a time (timings then overlap)")
    parser.add_argument("--report", action="store_true",
                        help="print what each calibration measured")
    parser.add_argument("--show-errors", type=int, default=12)
    args = parser.parse_args()
    if args.scenes < 1 or args.games < 1 or args.workers < 1:
        parser.error("--scenes, --games and --workers must be at least 1")

    print(f"calibration bench: family {args.family}, scenes {args.seed}.."
          f"{args.seed + args.scenes - 1}, {args.games} game frame(s) each, calibration via "
          f"{args.via}, {args.workers} worker(s)", flush=True)
    started = time.perf_counter()
    without, with_profile = Tally("without profile"), Tally(
        "with profile (refused scenes read uncalibrated)")
    accepted_without, accepted_with = Tally("without profile, accepted scenes only"), Tally(
        "with profile, accepted scenes only")
    refusals: list[tuple[int, str]] = []
    calibrate_times: list[float] = []
    render_s = 0.0
    jobs = [(args.family, seed, args.games, args.via)
            for seed in range(args.seed, args.seed + args.scenes)]
    for result in results(jobs, args.workers):
        render_s += result.render_s
        calibrate_times.append(result.calibrate_s)
        scene_without, scene_with = Tally("scene"), Tally("scene")
        for frame in result.games:
            count(without, frame, frame.without, args.show_errors)
            count(with_profile, frame, frame.with_profile, args.show_errors)
            count(scene_without, frame, frame.without, 0)
            count(scene_with, frame, frame.with_profile, 0)
            if result.accepted:
                count(accepted_without, frame, frame.without, args.show_errors)
                count(accepted_with, frame, frame.with_profile, args.show_errors)
        outcome = "accepted" if result.accepted else f"REFUSED ({result.message})"
        if not result.accepted:
            refusals.append((result.seed, result.message))
        print(f"seed {result.seed}: calibration {outcome} in {result.calibrate_s:.2f} s; "
              f"wrong squares without {scene_without.wrong}/{scene_without.squares} "
              f"(sure {scene_without.sure_wrong}), with {scene_with.wrong}/{scene_with.squares} "
              f"(sure {scene_with.sure_wrong})" + ("" if result.accepted else " [uncalibrated]"),
              flush=True)
        for warning in result.warnings:
            print(f"    warning: {warning}")
        if args.report:
            for line in result.report:
                print(f"    {line}")

    print()
    print("summary")
    accepted = args.scenes - len(refusals)
    print(f"calibration accepted in {accepted} of {args.scenes} scenes "
          f"({args.family}, seeds {args.seed}..{args.seed + args.scenes - 1}, via {args.via})")
    for seed, message in refusals:
        print(f"  refused, seed {seed}: {message}")
    times = sorted(calibrate_times)
    print(f"calibration wall time per scene: median {times[len(times) // 2]:.2f} s, "
          f"max {times[-1]:.2f} s (2 empty + 2 layout frames, rendering excluded)")
    for tally in (without, with_profile):
        print("\n".join(tally.summary()))
    if refusals and accepted:
        for tally in (accepted_without, accepted_with):
            print("\n".join(tally.summary()))
    if args.show_errors:
        for tally in (without, with_profile):
            if tally.examples:
                print(f"first wrong squares, {tally.name}:")
                print("\n".join(tally.examples))
    print(f"wall time {time.perf_counter() - started:.0f} s (rendering {render_s:.0f} s "
          f"summed over scenes); load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores")


if __name__ == "__main__":
    main()
