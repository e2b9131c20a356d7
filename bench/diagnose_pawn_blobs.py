"""Every pawn blob the reader keeps, beside the truth (printed): which are false pawns, on which
side of the line of light colours, and whether they lie within a coin's outline.

Issue 15's silver coins mirroring a cool window read as blue pawns. Colour cannot tell a
bluish cast from blue paint (:mod:`vision.pawn_casts`), so this asks what geometry could: per
blob kept after the casts are dropped, its colour along and across the black-body line from
the paper's white, its area, its extents along and across the camera's lean and the lean per
mm of height there, ``reach`` (its farthest pixel from the centre of the coin it lies most
within, over that coin's radius: at most 1 lies wholly within a measured outline), the
darkest tenth of a 3 mm ring around it over paper (a standing pawn's shadow) and its mean
brightness over paper. Then it counts false blobs by side and real pawns within an outline.

Tuning sets only (``tuning``, ``cold``): held-out frames are never studied.

    PYTHONPATH=. .venv/bin/python bench/diagnose_pawn_blobs.py [--sets tuning,cold]
        [--frames 40] [--seed 0] [--false-only]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.vision_sets import TruthFrame, frames
from calibration.geometry import coin_isolation_mat
from calibration.profile import VisionProfile
from vision.light import PAPER
from vision.parallax import camera_over_mat
from vision.pawn_casts import ACROSS_LIGHT, WARMER, without_light_casts
from vision.pawns import pawn_labels
from vision.read import VisionConfig, _normalised, read_frame_details

#: The sets this may study.
TUNING_SETS = ("tuning", "cold")
#: How far round a blob its shadow is looked for (mm).
RING_MM = 3.0


def _rows(frame: TruthFrame, profile: VisionProfile, config: VisionConfig
          ) -> list[dict[str, Any]]:
    """One row per pawn blob of ``frame`` at least a pawn's least area."""
    geometry = coin_isolation_mat()
    details = read_frame_details(config, frame.image, geometry, profile)
    view = details.view
    camera = camera_over_mat(details.location.homography, details.location.image_size)
    image, _ = _normalised(config.read, view, geometry, camera)
    pawns = config.read.pawns
    labels = without_light_casts(pawns, pawn_labels(pawns, image, profile), image,
                                 view.pixels_per_mm)
    scale = view.pixels_per_mm / 2
    small = cv2.resize(image, labels.shape[::-1], interpolation=cv2.INTER_AREA).astype(float)
    grey = small.mean(axis=2)
    centres = np.array([fit.centre_mm for _, fit, _, _ in details.coins]).reshape(-1, 2)
    radii = np.array([fit.diameter_mm / 2 for _, fit, _, _ in details.coins])
    ring_size = 2 * round(RING_MM * scale) + 1
    ring_shape = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (ring_size, ring_size))
    rows: list[dict[str, Any]] = []
    for index, pawn in enumerate(profile.pawns):
        count, blobs, stats, _ = cv2.connectedComponentsWithStats(
            (labels == index + 1).astype(np.uint8), connectivity=8)
        for blob in range(1, count):
            if stats[blob, cv2.CC_STAT_AREA] < pawns.least_area_mm2 * scale**2:
                continue
            inside = blobs == blob
            ys, xs = np.nonzero(inside)
            points = np.column_stack([view.origin_mm[0] + (xs + 0.5) / scale,
                                      view.origin_mm[1] + (ys + 0.5) / scale])
            middle = points.mean(axis=0)
            lean, per_mm = camera.lean(middle[None, :])
            across = np.array([-lean[0, 1], lean[0, 0]])
            foot = middle + lean[0] * (float(((points - middle) @ lean[0]).min())
                                       + pawns.base_radius_mm)
            region = geometry.region_at((float(foot[0]), float(foot[1])))
            truth = frame.truth.get(region.name) if region is not None else None
            pixels = np.maximum(small[inside], 1.0)
            colour = np.log([np.mean(pixels[:, 2] / pixels[:, 1]),
                             np.mean(pixels[:, 0] / pixels[:, 1])])
            ring = cv2.dilate(inside.view(np.uint8), ring_shape).astype(bool) & ~inside
            reach = (float((np.hypot(*(points[:, None, :] - centres[None]).transpose(2, 0, 1))
                            .max(axis=0) / radii).min()) if len(radii) else float("inf"))
            rows.append({
                "frame": frame.name, "region": region.name if region is not None else "-",
                "colour": pawn.name, "true": truth.pawn if truth is not None else None,
                "coins": truth.coins if truth is not None else "",
                "warmth": float(colour @ WARMER), "off_line": float(colour @ ACROSS_LIGHT),
                "area": float(stats[blob, cv2.CC_STAT_AREA] / scale**2),
                "along": float(np.ptp(points @ lean[0])), "across": float(np.ptp(points @ across)),
                "tilt": float(per_mm[0]), "reach": reach,
                "shadow": float(np.percentile(grey[ring], 10) / PAPER),
                "brightness": float(grey[inside].mean() / PAPER),
            })
    return rows


def _line(row: dict[str, Any]) -> str:
    """One blob, printed."""
    verdict = "pawn " if row["true"] == row["colour"] else "FALSE"
    return (f"{verdict} {row['frame']:>10} {row['region']:>3} {row['colour']:>7} "
            f"(true {row['true']}, coins {row['coins'] or '-'}): warmth {row['warmth']:+.2f} "
            f"off line {row['off_line']:+.2f} area {row['area']:4.0f} mm2 along "
            f"{row['along']:4.1f} across {row['across']:4.1f} tilt {row['tilt']:.2f} reach "
            f"{row['reach']:.2f} shadow {row['shadow']:.2f} brightness {row['brightness']:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sets", default="tuning,cold")
    parser.add_argument("--frames", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--false-only", action="store_true")
    args = parser.parse_args()
    profile = VisionProfile.default().only_kinds("PNDQ")
    config = VisionConfig()
    rows: list[dict[str, Any]] = []
    for set_name in args.sets.split(","):
        if set_name not in TUNING_SETS:
            parser.error(f"{set_name}: only tuning sets ({', '.join(TUNING_SETS)}) are studied")
        for frame in frames(set_name, args.frames, args.seed):
            rows.extend(_rows(frame, profile, config))
    for row in rows:
        if not args.false_only or row["true"] != row["colour"]:
            print(_line(row))
    real = [row for row in rows if row["true"] == row["colour"]]
    false = [row for row in rows if row["true"] != row["colour"]]
    print(f"\n{len(rows)} blobs: {len(real)} real pawns ({sum(bool(r['coins']) for r in real)}"
          f" on coins, {sum(r['reach'] <= 1.0 for r in real)} within a measured coin outline); "
          f"{len(false)} false: {sum(r['warmth'] > 0 for r in false)} warm side, "
          f"{sum(r['warmth'] <= 0 for r in false)} cold side, "
          f"{sum(r['reach'] <= 1.0 for r in false)} within a measured coin outline")


if __name__ == "__main__":
    main()
