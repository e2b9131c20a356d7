"""Look at and time the synthetic table from a shell: ``python -m vision.synth.tool``.

``--out frame.png`` writes one frame (``--seed``, ``--hand`` to add a hand, ``--plain`` for a
straight-down camera in even light); ``--time N`` prints the time per 1920x1080 frame in four
cases: a still board as ``sim://`` serves it, the same with a hand, a changed board under the same
camera (after a move), and a new board and variation every frame (a benchmark sweep).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial

from vision.synth import (
    Variation,
    random_hand,
    random_scene,
    random_variation,
    render,
    with_hands,
)
from vision.synth.feed import SynthCamera


def _median_ms(actions: Sequence[Callable[[], object]]) -> tuple[float, float]:
    """Median and maximum wall time of each action, in milliseconds."""
    times = []
    for action in actions:
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), max(times)


def _render_new(seed: int, variation: Variation | None) -> object:
    return render(random_scene(seed, variation), seed)


def time_rendering(count: int) -> list[tuple[str, float, float]]:
    """(case, median ms, max ms) for the four cases of the module text, ``count`` frames each."""
    scene = random_scene(0)
    camera = SynthCamera(scene, seed=1)
    camera.read()
    hand_scene = with_hands(scene, random_hand(1))
    render(hand_scene, 0)
    variation = random_variation(3)
    render(random_scene(300, variation), 0)
    render(random_scene(400), 0)
    cases: list[tuple[str, Sequence[Callable[[], object]]]] = [
        ("still board (SynthCamera.read)", [camera.read] * count),
        ("still board with a hand", [partial(render, hand_scene, i) for i in range(count)]),
        ("changed board, same camera",
         [partial(_render_new, 301 + i, variation) for i in range(count)]),
        ("new board and variation", [partial(_render_new, 401 + i, None) for i in range(count)]),
    ]
    return [(name, *_median_ms(actions)) for name, actions in cases]


def main(argv: Sequence[str] | None = None) -> int:
    """Write a frame and/or print timings; see the module text."""
    parser = argparse.ArgumentParser(prog="python -m vision.synth.tool", description=__doc__)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--hand", action="store_true", help="add a hand over the play area")
    parser.add_argument("--plain", action="store_true", help="straight-down camera, even light")
    parser.add_argument("--out", help="write the frame to this image file")
    parser.add_argument("--time", type=int, default=0, metavar="N",
                        help="time N frames of each case")
    args = parser.parse_args(argv)
    if args.out:
        import cv2

        scene = random_scene(args.seed, Variation() if args.plain else None)
        if args.hand:
            scene = with_hands(scene, random_hand(args.seed))
        frame = render(scene, args.seed)
        if not cv2.imwrite(args.out, frame.image):
            print(f"cannot write {args.out!r}", file=sys.stderr)
            return 2
        print(f"wrote {args.out}: markers covered {list(frame.markers_covered)}, "
              f"hand over play area {frame.hand_over_play_area}")
    if args.time > 0:
        for name, median, worst in time_rendering(args.time):
            print(f"{name}: median {median:.1f} ms, max {worst:.1f} ms per 1920x1080 frame")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
