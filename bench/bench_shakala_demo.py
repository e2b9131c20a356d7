"""How long a whole Shakala demo game takes on the simulated table.

Plays ``companion demo --game shakala --headless --speed 1000`` games (the command line's
defaults: the game's purposeful bots on both seats, 15% sloppy sowings, a tilted 1920x1080
camera whose clock runs at 10 frames a second) through :func:`companion.demo.run_demo`, and
prints per seed: the turns played, whether the game ended (or stopped at the cap, or why the
director gave up), the misreadings straightened, the candidates asked, the sloppy sowings
refused; wall-clock and processor seconds (all threads; a busy machine inflates the first far
more), frames rendered and the rendering's share of the processor time.

Target (issue 20): a whole demo game under 3 minutes.

    .venv/bin/python bench/bench_shakala_demo.py [--seeds 1,2,3] [--max-turns N] [--fps 10]
        [--camera-size 1920x1080] [--plain]
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_coin_grid_demo import demo_options, play, setting
from companion.demo import DemoReport


def ending(report: DemoReport) -> str:
    """``finished: player 1 wins ...``, ``stopped at the cap`` or why the director gave up."""
    if report.gave_up:
        return f"gave up: {report.gave_up}"
    if report.finished:
        return f"finished: {report.result}"
    return f"stopped at the {report.capped_at}-turn cap" if report.capped_at else "not finished"


def main() -> None:
    options = demo_options(__doc__.split("\n\n")[0])
    print(setting("Shakala", options), flush=True)
    for seed in (int(text) for text in options.seeds.split(",")):
        report, wall, processor, tally = play(seed, options, game="shakala")
        turns = max(1, report.turns)
        print(f"seed {seed}: {report.turns} turns, {ending(report)}; misreadings straightened "
              f"{report.misreads} (taken back {report.takebacks}), candidates asked "
              f"{report.asks}, sloppy sowings refused {report.rejects}")
        print(f"  wall {wall:.1f} s, processor {processor:.1f} s "
              f"({processor / max(wall, 1e-9):.2f} cores busy); {tally.frames} frames rendered, "
              f"rendering {tally.seconds / max(processor, 1e-9):.0%} of the processor time; "
              f"{1000 * processor / turns:.0f} ms of processor time a turn; load "
              f"{os.getloadavg()[0]:.1f}", flush=True)


if __name__ == "__main__":
    main()
