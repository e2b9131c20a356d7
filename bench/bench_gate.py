"""The steady-frame gate on synthetic frames: false rejects, hands caught, time per frame.

For each of N random boards (every variation of the synthetic table, tilt up to 35 degrees) it
shows the gate three still frames 0.2 s apart (the third is past the default 0.4 s settle time
and must count as steady), then one frame with a hand or arm reaching over the play area (must
be refused). It prints how many still boards were refused (and why), how many hands got through,
and the milliseconds per ``SteadyGate.look`` (finding the markers plus the gate) and per
``SteadyGate.update`` (the gate alone, given a board location found elsewhere). Prints figures;
asserts nothing. Rendering is not timed.

    .venv/bin/python bench/bench_gate.py [--boards 100] [--seed 0]
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

import numpy as np

from calibration.geometry import coin_isolation_mat
from vision import synth
from vision.gate import SteadyGate
from vision.markers import MarkerConfig, find_board


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--boards", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    geometry = coin_isolation_mat()
    refused: Counter[str] = Counter()
    hands_through = hands_shown = 0
    look_ms: list[float] = []
    update_ms: list[float] = []
    for index in range(args.boards):
        seed = args.seed + index
        scene = synth.random_scene(seed, synth.random_variation(seed, 35.0))
        gate = SteadyGate(geometry)
        verdict = None
        for step in range(3):
            image = synth.render_frame(scene, step)
            start = time.perf_counter()
            verdict, _ = gate.look(0.2 * step, image)
            look_ms.append((time.perf_counter() - start) * 1000)
        if verdict is not None and not verdict.steady:
            refused[verdict.code] += 1
        location = find_board(MarkerConfig(), image, geometry)
        start = time.perf_counter()
        gate.update(0.8, image, location)
        update_ms.append((time.perf_counter() - start) * 1000)
        frame = synth.render(synth.with_hands(scene, synth.random_hand(seed)), 9)
        if not frame.hand_over_play_area:
            continue
        hands_shown += 1
        verdict, _ = gate.look(1.0, frame.image)
        hands_through += verdict.steady
    print(f"still boards refused after settling: {sum(refused.values())} of {args.boards} "
          f"{dict(refused) if refused else ''}")
    print(f"hands over the play area let through: {hands_through} of {hands_shown}")
    for name, values in (("look (find + gate)", look_ms), ("update (gate alone)", update_ms)):
        array = np.array(values)
        print(f"ms per {name}: median {np.median(array):.1f}, "
              f"95th percentile {np.percentile(array, 95):.1f}, max {array.max():.1f}")


if __name__ == "__main__":
    main()
