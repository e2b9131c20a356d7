"""What a turn of a demo game costs on the simulated table, stage by stage (printed, not asserted).

Plays ``companion demo --game GAME --headless --speed 1000`` games through
:func:`companion.demo.run_demo` with the command line's defaults (a tilted 1920x1080 camera whose
clock runs at 10 frames a second) and prints, per seed:

* plies played and how the game ended; the whole game's wall and processor seconds apart from
  the processor milliseconds a ply (wall time is inflated by whatever else runs);
* per ply: frames the synthetic camera rendered, frames the table looked at (the steady gate),
  frames read in full by the real reader, and screens saved;
* per stage, processor milliseconds each and a ply: rendering (in whichever thread renders), the
  gate, the camera preview, the full read, the screen saved.

``--code DIR`` plays with another checkout's code (say a worktree of main), so that two runs
started together compare before and after on the same machine load:

    .venv/bin/python bench/bench_demo_turns.py --game coin-grid --seeds 2 --plies 40
        [--players 4] [--code ../wt-main]

Targets (issues 19, 20, 21): whole demo games of Coin Grid under 2 minutes, of Shakala and of
4-seat Jokers and Coins under 3 minutes.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

STAGES = ("render", "gate", "preview", "read", "screen")


class StageTally:
    """Counts calls of the demo's stages and the processor time of the threads making them, by
    wrapping the module attributes the table, camera and director call (nothing else changes)."""

    def __init__(self) -> None:
        self.calls = dict.fromkeys(STAGES, 0)
        self.seconds = dict.fromkeys(STAGES, 0.0)
        self._lock = threading.Lock()
        self._undo: list[Callable[[], None]] = []

    def wrap(self, owner: Any, name: str, stage: str) -> None:
        original = getattr(owner, name)

        def counted(*args: Any, **kwargs: Any) -> Any:
            start = time.thread_time()
            try:
                return original(*args, **kwargs)
            finally:
                with self._lock:
                    self.calls[stage] += 1
                    self.seconds[stage] += time.thread_time() - start

        setattr(owner, name, counted)
        self._undo.append(lambda: setattr(owner, name, original))

    def restore(self) -> None:
        for undo in reversed(self._undo):
            undo()


def tally_stages() -> StageTally:
    import companion.demo as demo
    import companion.launch as launch
    import companion.table as table
    import vision.gate as gate
    import vision.synth.feed as feed

    tally = StageTally()
    tally.wrap(feed, "render", "render")
    tally.wrap(gate.SteadyGate, "look", "gate")
    tally.wrap(table, "camera_preview", "preview")
    tally.wrap(table, "read_frame_details", "read")
    if hasattr(demo, "save_screenshot"):
        tally.wrap(demo, "save_screenshot", "screen")
    else:  # a checkout that saves screens through the sink
        tally.wrap(launch.HeadlessSink, "save", "screen")
    return tally


def play(game: str, players: int, seed: int, plies: int | None) -> None:
    from companion.demo import DemoOptions, run_demo
    from companion.launch import GameOptions

    tally = tally_stages()
    options = DemoOptions(seed=seed, speed=1000.0, max_turns=plies)
    try:
        with tempfile.TemporaryDirectory() as folder:
            wall, processor = time.perf_counter(), time.process_time()
            report = run_demo(GameOptions(game=game, seed=seed, players=players), options,
                              Path(folder), headless=True, frames_per_second=10.0)
            wall, processor = time.perf_counter() - wall, time.process_time() - processor
    finally:
        tally.restore()
    turns = max(1, report.turns)
    ending = ("finished" if report.finished else f"gave up: {report.gave_up}" if report.gave_up
              else f"stopped at {report.turns} plies")
    print(f"{game}, {players} seats, seed {seed}: {report.turns} plies, {ending}; "
          f"{report.rejects} sloppy moves refused, {report.misreads} misreadings "
          f"({report.rethrows} dice thrown again, {report.dice_wrong} recorded wrong, "
          f"{report.takebacks} wrong moves taken back), {report.asks} asked")
    print(f"  whole game: wall {wall:.1f} s, processor {processor:.1f} s; "
          f"processor {1000 * processor / turns:.0f} ms a ply")
    calls = tally.calls
    print(f"  a ply: {calls['render'] / turns:.1f} frames rendered, {calls['gate'] / turns:.1f} "
          f"looked at by the gate, {calls['read'] / turns:.2f} read in full, "
          f"{calls['screen'] / turns:.2f} screens saved")
    for stage in STAGES:
        each = 1000 * tally.seconds[stage] / max(1, calls[stage])
        print(f"  {stage:8s} {each:7.1f} ms each, {1000 * tally.seconds[stage] / turns:6.0f} ms "
              "a ply")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="coin-grid")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seeds", default="1")
    parser.add_argument("--plies", type=int, default=None, help="stop after this many plies")
    parser.add_argument("--code", type=Path, default=Path(__file__).resolve().parents[1],
                        help="the checkout whose code plays (this one by default)")
    args = parser.parse_args()
    sys.path.insert(0, str(args.code.resolve()))
    print(f"code from {args.code}; {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f} at "
          "the start", flush=True)
    for seed in (int(text) for text in args.seeds.split(",")):
        play(args.game, args.players, seed, args.plies)


if __name__ == "__main__":
    main()
