"""Hint latency at the table, and the table's responsiveness while a hint is computed.

The table is bench_table's (a paced loop of pre-rendered 1920x1080 frames of the board after a
legal move, the real vision thread, referee, journal and panel twin) with hints on and the real
search engine (companion.analysis) in the table's search process, and the real Screen
(1920x1080, SDL's dummy driver unless set) drawn in the main thread. Measured in one run:

- press HINT -> the hint on the screen (its path in the snapshot), per trial;
- the screen's frames a second while idle and while a search is under way (ratio);
- press END1 -> the verdict's lights, with no search and with a search under way (ratio);
- the search's processor seconds and playouts per hint.

Targets (issue 22): the hint within 2 s of the press, the screen at 60 fps and verdicts under
150 ms while the search thinks.

    .venv/bin/python bench/bench_hints.py [--trials 5] [--seconds 1.2]
"""

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from bench.bench_table import GAME, board_frames, build_table, setting, summary
from companion.hints import HintPolicy, TableHints
from companion.referee import Phase


class Run:
    """The table, its screen and its hints, stepped from the main thread."""

    def __init__(self, seconds):
        from companion.display.screen import Screen

        self.position, move, variation = setting(4)
        images = board_frames(GAME.apply(self.position, move), variation, 6)
        self.screen = Screen((1920, 1080))
        folder = Path(tempfile.mkdtemp(prefix="bench-hints-"))
        self.table, self.panel = build_table(self.position, images, folder, self.screen)
        self.hints = TableHints(GAME, HintPolicy("on"), {1: "Player 1", 2: "Player 2"},
                                seconds=seconds)
        self.table.parts.hints = self.hints
        self.verdicts = []
        self.table.on_verdict(
            lambda verdict: self.verdicts.append((time.perf_counter(), verdict.verdict)))
        self.table.start()
        self.hints.wait_warm(60.0)  # a table is open long before its first hint

    def step_until(self, condition, timeout=30.0):
        """Draw frames until ``condition()``; returns (frames, seconds)."""
        frames, start = 0, time.perf_counter()
        while not condition():
            if time.perf_counter() - start > timeout:
                raise TimeoutError(f"timed out: {self.table.snapshot.message}")
            self.screen.step()
            frames += 1
        return frames, time.perf_counter() - start

    def idle_rate(self, seconds):
        end = time.perf_counter() + seconds
        frames, elapsed = self.step_until(lambda: time.perf_counter() > end)
        return frames / elapsed

    def hint(self):
        """Press HINT; (seconds to the hint on screen, fps meanwhile)."""
        self.step_until(lambda: self.table.gate_reason == "steady")
        shown = len(self.hints.latencies)
        self.table.press("HINT", "panel")
        frames, elapsed = self.step_until(lambda: len(self.hints.latencies) > shown)
        return self.hints.latencies[-1], frames / elapsed

    def verdict(self, during_search):
        """Press END1 (after HINT when ``during_search``); ms to the verdict's lights."""
        referee = self.table.parts.referee
        self.step_until(lambda: self.table.gate_reason == "steady"
                        and self.hints.thinking is None)
        if during_search:
            self.table.press("HINT", "panel")
            self.step_until(lambda: self.hints.thinking is not None)
            end = time.perf_counter() + 0.3
            self.step_until(lambda: time.perf_counter() > end)  # the search is under way
        count = len(self.verdicts)
        pressed = time.perf_counter()
        self.panel.twin.press("END1")
        self.step_until(lambda: len(self.verdicts) > count)
        at, kind = self.verdicts[count]
        took = (at - pressed) * 1000
        searching = self.hints.thinking is not None
        self.table.press("UNDO")
        if kind == "green":
            self.step_until(lambda: referee.phase is Phase.UNDO)
            self.table.press("CONFIRM")
        self.step_until(lambda: referee.position == self.position
                        and referee.phase is Phase.TURN)
        return took, searching

    def close(self):
        self.table.stop()
        self.panel.close()
        self.screen.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.2, help="the search's thinking time")
    args = parser.parse_args()
    print(f"command: {' '.join([os.path.basename(sys.executable), *sys.argv])}")
    print(f"Coin Isolation, fresh board (seed 11); search {args.seconds} s a hint; SDL driver "
          f"{os.environ['SDL_VIDEODRIVER']}; {os.cpu_count()} cores; load average "
          f"{os.getloadavg()[0]:.1f}")
    began = time.process_time()
    run = Run(args.seconds)
    try:
        run.step_until(lambda: run.table.gate_reason == "steady")
        idle_fps = run.idle_rate(2.0)
        latencies, busy_fps = [], []
        for _ in range(args.trials):
            latency, fps = run.hint()
            latencies.append(latency * 1000)
            busy_fps.append(fps)
        quiet = [run.verdict(False)[0] for _ in range(args.trials)]
        busy = [run.verdict(True) for _ in range(args.trials)]
    finally:
        run.close()
    overlapped = sum(1 for _, searching in busy if searching)
    print(f"press HINT -> hint on screen ({args.trials} hints): {summary(latencies)}")
    print(f"screen: {idle_fps:.1f} fps idle, {statistics.median(busy_fps):.1f} fps (median) while "
          f"a hint was computed; ratio {statistics.median(busy_fps) / idle_fps:.2f}")
    busy_ms = [took for took, _ in busy]
    print(f"press END1 -> verdict lights, no search: {summary(quiet)}")
    print(f"press END1 -> verdict lights, search under way ({overlapped} of {len(busy)} "
          f"verdicts given before the search ended): {summary(busy_ms)}; ratio of medians "
          f"{statistics.median(busy_ms) / statistics.median(quiet):.2f}")
    answers = run.hints.answers
    print(f"search per hint (median): {statistics.median(a.seconds for a in answers):.2f} "
          f"processor s in the search process, {statistics.median(a.playouts for a in answers):.0f}"
          " playouts")
    print(f"processor seconds of this process (table, screen, vision): "
          f"{time.process_time() - began:.1f}")
    print("targets: hint within 2000 ms; 60 fps and verdicts under 150 ms while it thinks")


if __name__ == "__main__":
    main()
