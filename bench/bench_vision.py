"""Accuracy and speed of reading synthetic frames: per-square errors, whole frames, timings.

Renders N synthetic Coin Isolation frames (default 500) spread over every variation the
synthetic table makes (tilt up to 35 degrees, rotation, lens, warm/cold/uneven light, shadows,
glare, noise, blur, JPEG, tarnish, off-centre coins, stacks, pawns), reads each with
:func:`vision.read.read_frame` and prints the per-square error rate, the share of frames read
entirely right, the confusion matrix of top coins, pawn errors, and the time per 1920x1080 frame
split into find, rectify and read (median and 95th percentile). Rendering is not timed.

Besides plain errors it reports the wrong squares read with confidence 0.5 or more and the
frames free of them: the referee sets doubtful squares aside, so those are what can mislead it.

Boards follow the game's physics (:func:`vision.synth.random_scene`): same-kind stacks, and in
about a third of the frames (played under ``mixed-change``) mixed stacks smallest on top. The
hard case of those, a smaller silver coin on a larger silver one, is reported on its own.

    .venv/bin/python bench/bench_vision.py [--frames 500] [--seed 0] [--max-tilt 35] [--still K]

Every frame comes from a new camera pose by default, the worst case for finding the board. A
companion's camera stands still over the table, and the finder reuses its lens fit and searches
near the markers while they stay put: ``--still K`` reads each scene K times (fresh sensor noise)
to measure that case.
"""

from __future__ import annotations

import argparse
import os
import time
from collections import Counter

import numpy as np

from vision.profile import VisionProfile
from vision.read import VisionConfig, read_frame
from vision.synth import random_scene, render

KINDS = ["-", "P", "N", "D", "Q"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--frames", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-tilt", type=float, default=35.0)
    parser.add_argument("--show-errors", type=int, default=15, help="list this many wrong squares")
    parser.add_argument("--still", type=int, default=1, metavar="K",
                        help="read each scene K times from a still camera (new sensor noise)")
    args = parser.parse_args()

    from vision.synth import random_variation

    config = VisionConfig()
    profile = VisionProfile.default().only_kinds("PNDQ")
    confusion: Counter[tuple[str, str]] = Counter()
    pawn_errors = 0
    squares = wrong_squares = frames_right = frames_not_misled = 0
    timings: dict[str, list[float]] = {
        "find": [], "rectify": [], "read": [], "total": [], "cpu": []
    }
    errors: list[str] = []
    stack_errors = Counter[str]()
    hidden_silver = 0
    sure_but_wrong = 0
    hidden_wrong = hidden_sure = 0
    mixed_frames = mixed_right = mixed_wrong = mixed_squares = 0
    for index in range(args.frames):
        seed = args.seed + index // args.still
        scene = random_scene(seed, random_variation(seed, args.max_tilt))
        frame = render(scene, seed * args.still + index % args.still)
        start, cpu_start = time.perf_counter(), time.process_time()
        observation = read_frame(config, frame.image, scene.geometry, profile)
        timings["total"].append((time.perf_counter() - start) * 1000)
        for stage in ("find", "rectify", "read"):
            timings[stage].append(observation.meta["timings_ms"][stage])
        wrong_here = sure_wrong_here = 0
        timings["cpu"].append((time.process_time() - cpu_start) * 1000)
        for name, truth in frame.truth.items():
            reading = observation.regions[name]
            confusion[(truth.top or "-", reading.coin or "-")] += 1
            squares += 1
            coin_wrong = reading.coin != truth.top
            pawn_wrong = reading.pawn != truth.pawn
            pawn_errors += pawn_wrong
            if coin_wrong or pawn_wrong:
                wrong_here += 1
                sure_wrong_here += reading.confidence >= 0.5
                if coin_wrong and _hidden_silver(truth.coins):
                    stack_errors["smaller silver coin on a larger silver one"] += 1
                    hidden_wrong += 1
                    hidden_sure += reading.confidence >= 0.5
                elif coin_wrong and len(truth.coins) > 1:
                    stack_errors["other stack"] += 1
                elif coin_wrong and truth.pawn:
                    stack_errors["under a pawn"] += 1
                elif coin_wrong:
                    stack_errors["single coin"] += 1
                if len(errors) < args.show_errors:
                    errors.append(
                        f"  seed {seed} {name}: true {truth.coins or '-'} pawn {truth.pawn}, "
                        f"read {reading.coin} pawn {reading.pawn} "
                        f"(confidence {reading.confidence:.2f})"
                    )
        wrong_squares += wrong_here
        sure_but_wrong += sure_wrong_here
        frames_right += wrong_here == 0
        frames_not_misled += sure_wrong_here == 0
        if "mixed-change" in scene.variants:
            mixed_frames += 1
            mixed_right += wrong_here == 0
            mixed_wrong += wrong_here
            mixed_squares += len(frame.truth)
        hidden_silver += sum(_hidden_silver(truth.coins) for truth in frame.truth.values())
        if (index + 1) % 50 == 0:
            print(f"{index + 1} frames: {wrong_squares} wrong squares so far", flush=True)

    print(f"\nframes: {args.frames}, squares: {squares}, max tilt {args.max_tilt} deg")
    print(f"per-square error rate: {wrong_squares / squares:.4%} ({wrong_squares} wrong)")
    print(f"frames entirely right: {frames_right / args.frames:.2%}")
    print(f"pawn errors: {pawn_errors}; wrong coins by case: {dict(stack_errors)}")
    print(f"wrong squares read with confidence >= 0.5: {sure_but_wrong} of {wrong_squares} "
          f"({sure_but_wrong / squares:.4%} of squares); frames with none: "
          f"{frames_not_misled / args.frames:.2%} (the referee sets doubtful squares aside)")
    other = wrong_squares - stack_errors["smaller silver coin on a larger silver one"]
    print(f"squares holding a smaller silver coin on a larger silver one: {hidden_silver}; "
          f"error rate on all other squares: {other / max(1, squares - hidden_silver):.4%}")
    print(f"  of those {hidden_silver}: {hidden_wrong} wrong "
          f"({hidden_wrong / max(1, hidden_silver):.1%}), {hidden_sure} of them with "
          f"confidence >= 0.5")
    standard = args.frames - mixed_frames
    print(f"frames entirely right: standard {(frames_right - mixed_right)}"
          f"/{standard}, mixed-change {mixed_right}/{mixed_frames}")
    standard_wrong = (wrong_squares - mixed_wrong) / max(1, squares - mixed_squares)
    print(f"per-square error rate: standard {standard_wrong:.4%}, "
          f"mixed-change {mixed_wrong / max(1, mixed_squares):.4%}")
    print("\nconfusion of the top coin (rows: truth, columns: read)")
    print("      " + "".join(f"{kind:>7}" for kind in KINDS))
    for true_kind in KINDS:
        row = "".join(f"{confusion[(true_kind, read)]:>7}" for read in KINDS)
        print(f"{true_kind:>6}{row}")
    print("\nmilliseconds per 1920x1080 frame (median / 95th percentile / max); 'cpu' is this")
    print("process's CPU time for the whole frame, all threads (the machine's load inflates wall")
    print(f"time; load average now {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    for stage, values in timings.items():
        array = np.array(values)
        print(f"  {stage:8} {np.median(array):7.2f} {np.percentile(array, 95):7.2f} "
              f"{array.max():7.2f}")
    if errors:
        print("\nfirst wrong squares:")
        print("\n".join(errors))


def _hidden_silver(coins: str) -> bool:
    """A stack whose top silver coin is smaller than a silver coin under it."""
    sizes = {"D": 1, "N": 2, "Q": 3}
    if len(coins) < 2 or coins[-1] not in sizes:
        return False
    return any(sizes.get(coin, 0) > sizes[coins[-1]] for coin in coins[:-1])


if __name__ == "__main__":
    main()
