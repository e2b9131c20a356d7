"""Accuracy and speed of reading frames: per set, errors, confident errors, whole frames.

Reads frames of each set with :func:`vision.read.read_frame` and prints, per set, the
per-square error rate, the frames read entirely right, the wrong squares read with confidence
0.5 or more (what can mislead the referee) and how often a sure reading is right, errors by
case (single coins, stacks, coins under pawns, empty squares), the confusion of top coins and
the time per 1920x1080 frame. Sets (see ``bench/vision_sets.py``):

* ``synth``: the sprite renderer of the demo's ``sim://`` camera (in distribution);
* ``tuning``: the physically based renderer, the family the reader may be tuned on;
* ``heldout``: the physically based renderer's held-out family, never tuned on: the figures
  that count;
* ``cold``: the tuning family's boards under a warm lamp and a cold window that flat coins
  mirror, white balance off or set on the lamp-lit paper (a tuning set);
* ``stress``: tuning frames each with one condition pushed to a real table's extreme (colour
  temperature, coarse pixels, tilt, vignetting, motion blur, JPEG, dim exposure, glints, a
  bright window, pennies, dull silver, sloppy coins, noise), with a line per factor;
* any folder of ``NAME.jpg`` + ``NAME.json`` truth, e.g. ``../shared/vision-samples``.

    .venv/bin/python bench/bench_vision.py [--sets synth,tuning,heldout] [--frames 100]
        [--seed 0] [--workers 2] [--profile PROFILE.json]

Physical frames are rendered once into ``bench/.cache`` (a few seconds each, in parallel) and
read from there afterwards. Rendering is never timed; reading is, in this process.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.vision_sets import frames
from bench.vision_tally import Tally
from calibration.geometry import coin_isolation_mat
from calibration.profile import VisionProfile
from vision.errors import VisionError
from vision.read import VisionConfig, read_frame


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sets", default="synth,tuning,heldout",
                        help="comma-separated: synth, tuning, heldout, cold, stress or folders")
    parser.add_argument("--frames", type=int, default=100, help="frames per named set")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="processes that render physical frames")
    parser.add_argument("--max-tilt", type=float, default=35.0, help="synth set only")
    parser.add_argument("--profile", type=Path, help="a vision profile to read with")
    parser.add_argument("--show-errors", type=int, default=12)
    args = parser.parse_args()

    config = VisionConfig()
    profile = (VisionProfile.load(args.profile) if args.profile
               else VisionProfile.default()).only_kinds("PNDQ")
    geometry = coin_isolation_mat()
    tallies = []
    for set_name in args.sets.split(","):
        tally = Tally(set_name)
        factors: dict[str, Tally] = {}
        for frame in frames(set_name, args.frames, args.seed, args.workers, args.max_tilt):
            family = str(frame.meta.get("family", set_name))
            counted = [tally] + ([factors.setdefault(family, Tally(family))]
                                 if family != set_name else [])
            start = time.perf_counter()
            try:
                observation = read_frame(config, frame.image, geometry, profile)
            except VisionError as error:
                for each in counted:
                    each.add_unread(frame.name, len(frame.truth), str(error))
                continue
            for each in counted:
                each.add(frame.name, observation, frame.truth,
                         (time.perf_counter() - start) * 1000, args.show_errors)
        print("\n".join(tally.summary() + tally.details()), flush=True)
        if factors:
            print("  by family (squares wrong, wrong at >= 0.5, coins read as empty, right "
                  "at >= 0.5):")
            print("\n".join("  " + factors[name].brief() for name in sorted(factors)))
        print()
        tallies.append(tally)
    print("summary")
    for tally in tallies:
        print("\n".join(tally.summary()))
        print("  " + tally.brief())
    print(f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
