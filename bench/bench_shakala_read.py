"""Reading Shakala's pits and cups on the synthetic table: accuracy, doubt and speed (printed).

Frames come from :mod:`vision.synth.shakala_frames`: positions of random games, half the frames
with a few pits crowded up to 12 coins, coins lying as hands drop them (touching, overlapping
by up to a third of a width), tilts up to 35 degrees, varied light; one frame in four by the
plain camera. Each is read with :func:`vision.read.read_frame_details` and the default profile.
Per region kind it prints the share read exactly right (the count of every coin kind), and of
the misreadings how many were flagged doubtful (confidence under the referee's
``UNSURE_CONFIDENCE``) against those read confidently wrong; then, by crowding, exactness and
the misreadings flagged; milliseconds per frame (reading only, rendering not timed) and the
processor time of reading a crowded frame (one with a pit of 8 coins or more; wall times
suffer from other load).

Seeds ``0..N-1`` are the tuning range; ``--heldout`` reads seeds from 100000 on, with a dimmer
light the tuning frames never have (never tuned on: report them separately). ``--start S``
begins S seeds into the range, to split a long run over processes.

    PYTHONPATH=. .venv/bin/python bench/bench_shakala_read.py [--frames 20] [--heldout]
        [--start 0] [--every 100]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calibration.profile import VisionProfile
from calibration.shakala_mat import shakala_mat
from companion.judging import UNSURE_CONFIDENCE
from vision.read import VisionConfig, read_frame_details
from vision.synth import render
from vision.synth.shakala_frames import HELDOUT_FIRST, shakala_scene

#: Crowding buckets by the number of coins a region holds.
BUCKETS = ((0, 0), (1, 3), (4, 7), (8, 12), (13, 99))
#: A frame is crowded when a region holds this many coins or more.
CROWDED = 8


def bucket(count: int) -> str:
    """The crowding bucket of a region holding ``count`` coins."""
    low, high = next((low, high) for low, high in BUCKETS if low <= count <= high)
    return f"{low}-{high}" if low != high else str(low)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=20, help="frames per run")
    parser.add_argument("--heldout", action="store_true",
                        help=f"read the held-out seeds ({HELDOUT_FIRST} on)")
    parser.add_argument("--show", type=int, default=12, help="misreadings to list")
    parser.add_argument("--every", type=int, default=100, help="frames between progress lines")
    parser.add_argument("--start", type=int, default=0,
                        help="first seed, counted from the range's first (to split a run)")
    args = parser.parse_args()
    first = (HELDOUT_FIRST if args.heldout else 0) + args.start
    seeds = range(first, first + args.frames)
    geometry, config, profile = shakala_mat(), VisionConfig(), VisionProfile.default()
    tally: Counter[str] = Counter()
    by_crowd: Counter[tuple[str, bool | str]] = Counter()
    times: list[float] = []
    crowded_cpu: list[float] = []
    shown: list[str] = []
    for seed in seeds:
        frame = render(shakala_scene(seed), seed)
        start, start_cpu = time.perf_counter(), time.process_time()
        reading = read_frame_details(config, frame.image, geometry, profile)
        times.append((time.perf_counter() - start) * 1000)
        if any(len(truth.coins) >= CROWDED for truth in frame.truth.values()):
            crowded_cpu.append((time.process_time() - start_cpu) * 1000)
        for name, truth in frame.truth.items():
            kind = geometry.region(name).kind
            got = reading.observation.regions[name]
            right = (got.count, tuple(got.kinds)) == (len(truth.coins), tuple(sorted(truth.coins)))
            tally[f"{kind}"] += 1
            by_crowd[(bucket(len(truth.coins)), right)] += 1
            if not right:
                by_crowd[(bucket(len(truth.coins)), "flagged")] += int(
                    got.confidence < UNSURE_CONFIDENCE)
            if right:
                tally[f"{kind} right"] += 1
                tally[f"{kind} right but flagged"] += int(got.confidence < UNSURE_CONFIDENCE)
                continue
            flagged = bool(got.confidence < UNSURE_CONFIDENCE)
            tally[f"{kind} wrong flagged" if flagged else f"{kind} wrong sure"] += 1
            if not flagged or len(shown) < args.show // 2:
                shown.append(f"seed {seed} {name}: {''.join(sorted(truth.coins)) or '-'} read "
                             f"{''.join(got.kinds) or '-'} ({got.confidence:.2f})")
        if (seed - first + 1) % args.every == 0 and seed + 1 < seeds.stop:
            print(f"  after {seed - first + 1} frames: " + "; ".join(
                f"{kind}s exactly right {tally[f'{kind} right']}/{tally[kind]}, misreadings "
                f"flagged {tally[f'{kind} wrong flagged']}/"
                f"{tally[f'{kind} wrong flagged'] + tally[f'{kind} wrong sure']}, right but "
                f"flagged {tally[f'{kind} right but flagged']}" for kind in ("pit", "cup")),
                flush=True)
    label = "held-out" if args.heldout else "tuning"
    print(f"[shakala pits {label}, seeds {seeds.start}..{seeds.stop - 1}] {len(seeds)} frames")
    summary(tally, by_crowd, times, shown[:args.show])
    if crowded_cpu:
        print(f"  processor ms per crowded frame (a pit of {CROWDED} coins or more): median "
              f"{statistics.median(crowded_cpu):.0f} over {len(crowded_cpu)} frames")


def summary(tally: Counter[str], by_crowd: Counter[tuple[str, bool | str]], times: list[float],
            shown: list[str]) -> None:
    """Print the figures: per region kind, exactness and misreadings flagged; by crowding
    (pits and cups together), exactness and misreadings flagged; the time per frame; some
    misreadings."""
    for kind in ("pit", "cup"):
        total, exact = tally[kind], tally[f"{kind} right"]
        doubted, sure = tally[f"{kind} wrong flagged"], tally[f"{kind} wrong sure"]
        print(f"  {kind}s exactly right (count of every kind): {exact} of {total} "
              f"({100 * exact / max(total, 1):.2f}%); right but flagged doubtful: "
              f"{tally[f'{kind} right but flagged']}")
        print(f"  {kind} misreadings: {doubted + sure}, flagged doubtful (confidence < "
              f"{UNSURE_CONFIDENCE}) {doubted}, read confidently wrong {sure}")
    crowds = sorted({name for name, _ in by_crowd}, key=lambda text: int(text.split("-")[0]))
    print("  exactly right by coins in the region: " + ", ".join(
        f"{name}: {by_crowd[(name, True)]}/{by_crowd[(name, True)] + by_crowd[(name, False)]}"
        for name in crowds))
    print("  misreadings flagged doubtful by coins in the region: " + ", ".join(
        f"{name}: {by_crowd[(name, 'flagged')]}/{by_crowd[(name, False)]}" for name in crowds))
    print(f"  ms per frame (reading): median {statistics.median(times):.0f}, "
          f"max {max(times):.0f}")
    for line in shown:
        print("   ", line)


if __name__ == "__main__":
    main()
