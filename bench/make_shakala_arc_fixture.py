"""One hemmed-in coin of a rendered Shakala frame, saved as a small fixture for test_arcs.

The fixture is the smoothed grey the arc sizing reads (:mod:`vision.arcs`) round one coin the
reader could not measure against paper, the circles found in its pit (in the crop's pixels),
the mat's print near them, the radii tried and the scale. Default: tuning seed 38's pit D, the
nickel lying 2 mm from the truth's centre (a pale face: its lettering ring and the lit wall of
its raised rim are rings inside its outline, its outline's shadow lies beyond).

    PYTHONPATH=. .venv/bin/python bench/make_shakala_arc_fixture.py [--seed 38] [--region D]
        [--coin 7] [--out tests/data/shakala/hemmed-nickel.npz]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import vision.loose as loose
from calibration.profile import VisionProfile
from calibration.shakala_mat import shakala_mat
from vision.read import VisionConfig, read_frame_details
from vision.synth import render
from vision.synth.shakala_frames import shakala_scene

#: Half the crop's side in mm: the largest radius tried, the step's reach beyond it and the
#: centre's moves all fit inside.
HALF_MM = 22.0


def capture(seed: int) -> list[dict[str, Any]]:
    """Every call of the arc sizing while the frame of ``seed`` is read."""
    calls: list[dict[str, Any]] = []
    original = loose._sized_by_arcs

    def spy(config: Any, edges: Any, found: list[Any], measured: Any,
            radii_mm: tuple[float, float], pixels_per_mm: float, ink: Any = None) -> Any:
        calls.append({"grey": edges.grey.copy(), "found": list(found),
                      "measured": measured.copy(), "radii_mm": radii_mm, "ppm": pixels_per_mm,
                      "ink": ink})
        return original(config, edges, found, measured, radii_mm, pixels_per_mm, ink)

    loose._sized_by_arcs = spy
    try:
        read_frame_details(VisionConfig(), render(shakala_scene(seed), seed).image, shakala_mat(),
                           VisionProfile.default())
    finally:
        loose._sized_by_arcs = original
    return calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=38)
    parser.add_argument("--call", type=int, default=None, help="which pit's call (default: "
                        "the one whose coin --coin lies at --near)")
    parser.add_argument("--coin", type=int, default=7)
    parser.add_argument("--near", type=float, nargs=2, default=(116.8, 224.4))
    parser.add_argument("--out", type=Path, default=Path("tests/data/shakala/hemmed-nickel.npz"))
    args = parser.parse_args()
    calls = capture(args.seed)
    near = np.array(args.near)
    call = calls[args.call] if args.call is not None else min(
        (call for call in calls if len(call["found"]) > args.coin),
        key=lambda call: float(np.hypot(*(call["found"][args.coin][0] - near))))
    centre = call["found"][args.coin][0]
    half = round(HALF_MM * call["ppm"])
    x0, y0 = round(centre[0]) - half, round(centre[1]) - half
    grey = call["grey"][y0:y0 + 2 * half, x0:x0 + 2 * half]
    ink = call["ink"][y0:y0 + 2 * half, x0:x0 + 2 * half]
    circles = np.array([(c[0] - x0, c[1] - y0, radius) for c, radius in call["found"]])
    np.savez_compressed(args.out, grey=grey.astype(np.float32), ink=np.packbits(ink),
                        ink_shape=np.array(ink.shape), circles=circles, coin=args.coin,
                        radii_mm=np.array(call["radii_mm"]), ppm=call["ppm"])
    print(f"{args.out}: crop at ({x0}, {y0}), {len(circles)} circles, coin {args.coin} at "
          f"{np.round(circles[args.coin], 1)}")


if __name__ == "__main__":
    main()
