"""Whole Jokers and Coins demo games on the synthetic table (printed, not asserted).

Run: .venv/bin/python bench/bench_jokers_demo.py [--players 4] [--seeds 1,2] [--plies N]
[--camera-size 1920x1080] [--plain-camera] [--fps 10] [--bots greedy,random] [--keep DIR]

Target (issue 21): a whole 4-seat demo game under 3 minutes at ``--speed 1000``. Each game is
played headless by the real referee, vision and journal (the bots' pauses shortened as with
``companion demo --speed 1000``, the demo's own bots unless ``--bots`` names others); it prints
the wall and processor time (every thread of the process), the plies played, the time per ply,
the referee's verdicts (rejected sloppy moves, misreadings, questions) and how each card was
known, and whether the game ended or met the demo's ply cap.
"""

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.demo import DemoOptions, run_demo
from companion.games import get_game
from companion.launch import GameOptions


def card_sources(record: Path) -> Counter[str]:
    """How the cards of the moves in ``record`` were known."""
    sources: Counter[str] = Counter()
    for line in (record / "journal.jsonl").read_text().splitlines()[1:]:
        event = json.loads(line)
        if event["kind"] == "move" and "card_source" in event:
            sources[event["card_source"]] += 1
    return sources


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seeds", default="1")
    parser.add_argument("--plies", type=int, default=None,
                        help="ply cap (default: the demo's own cap for these seats)")
    parser.add_argument("--camera-size", default=None,
                        help="WxH (default: the camera advised for the mat, 4K for 5 and 6 seats)")
    parser.add_argument("--plain-camera", action="store_true",
                        help="a straight, evenly lit camera instead of a tilted one")
    parser.add_argument("--fps", type=float, default=10.0, help="the synthetic camera's clock")
    parser.add_argument("--bots", default=None,
                        help="bots by seat in turn (default: the demo's own for the game)")
    parser.add_argument("--keep", type=Path, default=None,
                        help="keep each game's record and frames under KEEP/seed-N")
    args = parser.parse_args()
    width, _, height = (args.camera_size or "").partition("x")
    camera_size = (int(width), int(height)) if args.camera_size else None
    cap = args.plies or get_game("jokers-and-coins").info.demo_plies[args.players]
    for seed in (int(text) for text in args.seeds.split(",")):
        bots = tuple(args.bots.split(",")) if args.bots else ()
        options = DemoOptions(bots=bots, seed=seed, speed=1000.0,
                              camera_size=camera_size, max_turns=cap,
                              plain_camera=args.plain_camera)
        with tempfile.TemporaryDirectory() as folder:
            out = args.keep / f"seed-{seed}" if args.keep else Path(folder)
            start, processor = time.perf_counter(), time.process_time()
            report = run_demo(GameOptions("jokers-and-coins", args.players, (), seed), options,
                              out, headless=True, frames_per_second=args.fps)
            seconds = time.perf_counter() - start
            processor = time.process_time() - processor
            sources = card_sources(out / "record") if (out / "record").exists() else Counter()
        per_ply = seconds / report.turns if report.turns else float("nan")
        ending = ("ended: " + (report.result or "")) if report.finished else (
            f"gave up: {report.gave_up}" if report.gave_up else f"ply cap {cap} reached")
        camera = ("plain" if args.plain_camera else "tilted") + " " + (
            args.camera_size or "advised camera")
        print(f"{args.players} seats, seed {seed}, {camera} at {args.fps:g} fps: "
              f"{seconds:.1f} s for "
              f"{report.turns} plies ({per_ply:.2f} s a ply), processor {processor:.1f} s "
              f"({processor / max(report.turns, 1):.2f} s a ply); {report.rejects} sloppy moves "
              f"rejected, {report.misreads} misreadings, {report.asks} asked; cards known by "
              f"{dict(sources)}; {ending}", flush=True)


if __name__ == "__main__":
    main()
