"""How long a Coin Grid demo game takes on the simulated table, and where the time goes.

Plays ``companion demo --game coin-grid --headless --speed 1000`` games (the command line's
defaults: the game's purposeful bots on both seats, 15% sloppy moves, a tilted 1920x1080
camera whose clock runs at 10 frames a second) through :func:`companion.demo.run_demo`, and
prints per seed:

* turns played, whether the game finished (or why the director gave up), the misreadings
  (correct moves refused or dice recorded wrong) and the director's own sloppy moves refused;
* wall-clock seconds and the process's processor seconds (all threads), which a busy machine
  inflates less;
* frames the synthetic camera rendered, frames per turn, and the processor ms the rendering
  thread spent per frame (the synthetic camera's share; the rest is the real vision, referee,
  screen and record).

Target (issue 19): a whole game under 2 minutes with every move judged correctly.

    .venv/bin/python bench/bench_coin_grid_demo.py [--seeds 1,2,3] [--max-turns N]
        [--fps 10] [--camera-size 1920x1080] [--plain]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import vision.synth.feed as feed
from companion.demo import DemoOptions, DemoReport, run_demo
from companion.launch import GameOptions
from vision.synth import SynthFrame, SynthScene


class RenderTally:
    """Counts the synthetic camera's frames and the processor time its thread spends on them
    (wrapping the ``render`` the camera calls; nothing else changes)."""

    def __init__(self) -> None:
        self.frames = 0
        self.seconds = 0.0
        self._lock = threading.Lock()
        self._render = feed.render

    def __enter__(self) -> RenderTally:
        def counted(scene: SynthScene, seed: int = 0) -> SynthFrame:
            start = time.thread_time()
            frame = self._render(scene, seed)
            with self._lock:
                self.frames += 1
                self.seconds += time.thread_time() - start
            return frame

        feed.render = counted
        return self

    def __exit__(self, *_: object) -> None:
        feed.render = self._render


def play(seed: int, options: argparse.Namespace, game: str = "coin-grid"
         ) -> tuple[DemoReport, float, float, RenderTally]:
    """One demo game of ``game``: its report, wall and processor seconds, and the rendering
    tally."""
    demo = DemoOptions(seed=seed, speed=1000.0, max_turns=options.max_turns,
                       plain_camera=options.plain, camera_size=options.camera_size)
    with tempfile.TemporaryDirectory() as folder, RenderTally() as tally:
        wall, processor = time.perf_counter(), time.process_time()
        report = run_demo(GameOptions(game=game, seed=seed), demo, Path(folder),
                          headless=True, frames_per_second=options.fps)
        wall, processor = time.perf_counter() - wall, time.process_time() - processor
    return report, wall, processor, tally


def size(text: str) -> tuple[int, int]:
    width, height = text.lower().split("x")
    return int(width), int(height)


def demo_options(description: str) -> argparse.Namespace:
    """The command line of a whole-demo bench: seeds, a turn cap, the camera's pace and size."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--seeds", default="1,2,3")
    parser.add_argument("--max-turns", type=int, default=None)
    parser.add_argument("--fps", type=float, default=10.0)
    parser.add_argument("--camera-size", type=size, default=(1920, 1080))
    parser.add_argument("--plain", action="store_true")
    return parser.parse_args()


def setting(title: str, options: argparse.Namespace) -> str:
    """The first line a whole-demo bench prints: the game, the camera and the machine."""
    return (f"{title} demo, speed 1000, {options.camera_size[0]}x{options.camera_size[1]} "
            f"{'plain' if options.plain else 'tilted'} camera at {options.fps:g} fps, "
            f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f} at the start")


def main() -> None:
    options = demo_options(__doc__.split("\n\n")[0])
    print(setting("Coin Grid", options))
    for seed in (int(text) for text in options.seeds.split(",")):
        report, wall, processor, tally = play(seed, options)
        turns = max(1, report.turns)
        ending = "finished" if report.finished else f"gave up: {report.gave_up}" \
            if report.gave_up else "not finished"
        print(f"seed {seed}: {report.turns} turns, {ending}; misreadings {report.misreads} "
              f"(dice recorded wrong {report.dice_wrong}, thrown again {report.rethrows}), "
              f"sloppy moves refused {report.rejects}")
        per_frame = 1000 * tally.seconds / max(1, tally.frames)
        print(f"  wall {wall:.1f} s, processor {processor:.1f} s "
              f"({processor / max(wall, 1e-9):.2f} cores busy); {tally.frames} frames rendered, "
              f"{tally.frames / turns:.1f} a turn, rendering {per_frame:.1f} ms a frame "
              f"({tally.seconds / max(processor, 1e-9):.0%} of the processor time); "
              f"{1000 * processor / turns:.0f} ms of processor time a turn")


if __name__ == "__main__":
    main()
