"""How the reader's coin sizes drift, per coin and per frame (printed): what makes a square's
coin come out a size class off.

For every coin the reader takes on a square of the physically rendered frames, it prints the
measured outline and top-circle diameters against the true top coin's size, the frame's fitted
size offset, the coin's distance from the camera's foot and its tilt, the stack's height in
coins, how faint its edge was, and what was read. Then it sums up how the size error (measured
less true, less the frame's offset) goes with each of those, and how far the camera pose found
from the homography lies from the renderer's own.

    PYTHONPATH=. .venv/bin/python bench/diagnose_coin_sizes.py [--sets tuning] [--frames 24]
        [--wrong-only]
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import read_capture
from bench.read_capture import SEEN
from bench.vision_sets import frames
from calibration.geometry import coin_isolation_mat
from calibration.profile import VisionProfile
from contract.observation import COIN_KINDS
from vision.parallax import camera_over_mat
from vision.read import VisionConfig, read_frame_details


def _rows(frame: Any, profile: VisionProfile, config: VisionConfig) -> list[dict[str, Any]]:
    """One row per coin read on a square of ``frame``."""
    geometry = coin_isolation_mat()
    details = read_frame_details(config, frame.image, geometry, profile)
    camera = camera_over_mat(details.location.homography, details.location.image_size)
    candidates, chosen, fit = SEEN["candidates"], SEEN["chosen"], SEEN["frame"]
    kinds, probabilities = fit.best()
    true_camera = frame.meta.get("camera", {})
    rows = []
    for position, index in enumerate(chosen):
        centre = (float(candidates.centres_mm[index, 0]), float(candidates.centres_mm[index, 1]))
        region = geometry.region_at(centre)
        if region is None or region.kind != "square" or region.name not in frame.truth:
            continue
        truth = frame.truth[region.name]
        reading = details.observation.regions[region.name]
        distance = math.dist(centre, camera.foot_mm)
        rows.append({
            "frame": frame.name, "square": region.name, "coins": truth.coins,
            "top": truth.top, "pawn": truth.pawn, "read": kinds[position],
            "square_read": reading.coin, "confidence": reading.confidence,
            "probability": float(probabilities[position]),
            "diameter": float(candidates.diameters_mm[index]),
            "inner": float(candidates.inner_mm[index]),
            "contrast": float(candidates.contrast[index]),
            "clipped": float(candidates.clipped[index]),
            "under_pawn": bool(candidates.under_pawn[index]),
            "lean": distance / camera.height_mm,
            "offset": fit.offset_mm, "distance": distance,
            "tilt": math.degrees(math.atan2(distance, camera.height_mm)),
            "height": camera.height_mm,
            "true_height": float(true_camera.get("height_mm", float("nan"))),
            "foot": camera.foot_mm,
            "true_foot": tuple(true_camera.get("position_mm", (math.nan, math.nan))[:2]),
        })
    return rows


def _summary(rows: list[dict[str, Any]]) -> list[str]:
    """How the size error of the coins whose top is known goes with each cause."""
    known = [row for row in rows if row["top"] in COIN_KINDS]
    if not known:
        return ["no coins"]
    error = np.array([row["diameter"] - COIN_KINDS[row["top"]][1] - row["offset"]
                      for row in known])
    raw = np.array([row["diameter"] - COIN_KINDS[row["top"]][1] for row in known])
    lines = [f"{len(known)} coins; measured less true: median {np.median(raw):+.2f} mm, "
             f"less the frame's offset: median {np.median(error):+.2f}, spread "
             f"{1.4826 * np.median(np.abs(error - np.median(error))):.2f}"]
    groups = {
        "stack height": lambda row: str(min(len(row["coins"]), 4)),
        "distance from foot (mm)": lambda row: f"{int(row['distance'] // 150) * 150:>4}",
        "edge contrast": lambda row: f"{min(int(row['contrast'] * 10) / 10, 0.6):.1f}",
        "kind": lambda row: row["top"],
        "under pawn": lambda row: str(bool(row["pawn"])),
    }
    singles = [index for index, row in enumerate(known) if len(row["coins"]) == 1]
    for title, test in (("glinting", lambda row: row["clipped"] >= 0.5),
                        ("not glinting", lambda row: row["clipped"] < 0.5)):
        rows_here = [index for index in singles if test(known[index])]
        if not rows_here:
            continue
        inner = np.array([known[index]["inner"] - COIN_KINDS[known[index]["top"]][1]
                          for index in rows_here])
        inner = inner[np.isfinite(inner)]
        outline = error[rows_here]
        lines.append(
            f"  single coins {title} (n {len(rows_here)}): outline less offset median "
            f"{np.median(outline):+.2f} spread {_spread(outline):.2f}; top circle less true "
            f"median {np.median(inner) if len(inner) else math.nan:+.2f} spread "
            f"{_spread(inner):.2f} (n {len(inner)})")
    for title, key in groups.items():
        buckets: dict[str, list[float]] = {}
        for row, value in zip(known, error, strict=True):
            buckets.setdefault(key(row), []).append(value)
        lines.append(f"  by {title}: " + ", ".join(
            f"{name} {np.median(values):+.2f} (n {len(values)})"
            for name, values in sorted(buckets.items())))
    return lines + _by_case_and_lean(known, error)


#: Upper ends of the lean bands (mm a raised point moves per mm of height) the cases are
#: split by: a coin's side and a stack's height show more the further the camera leans.
LEAN_BANDS = (0.2, 0.4, 0.55, math.inf)


def _case(row: dict[str, Any]) -> str | None:
    """The case a coin's square is, for :func:`_by_case_and_lean` (None: a pawn's)."""
    if row["pawn"]:
        return None
    coins = row["coins"]
    if len(coins) == 1:
        return "single, glinting" if row["clipped"] >= 0.5 else "single"
    if len(set(coins)) > 1:
        return "mixed stack"
    return f"one-kind stack of {min(len(coins), 3)}{'+' if len(coins) >= 3 else ''}"


def _by_case_and_lean(known: list[dict[str, Any]], error: np.ndarray) -> list[str]:
    """Per case and lean band: the squares read wrong, the outline's size error less the
    frame's offset and the top circle less the top coin's true size (medians): whether a
    case reads a size up because of the camera's lean (a coin's side, a stack's height) or
    whatever the lean (a stack's offsets)."""
    lines = ["  by case and lean (wrong/coins, outline less offset, top circle less true):"]
    cells: dict[tuple[str, int], list[int]] = {}
    for index, row in enumerate(known):
        case = _case(row)
        if case is not None:
            band = next(band for band, top in enumerate(LEAN_BANDS) if row["lean"] < top)
            cells.setdefault((case, band), []).append(index)
    for case in sorted({case for case, _ in cells}):
        parts = []
        for band in range(len(LEAN_BANDS)):
            members = cells.get((case, band), [])
            if not members:
                continue
            wrong = sum(known[index]["square_read"] != known[index]["top"] for index in members)
            top = np.array([known[index]["inner"] - COIN_KINDS[known[index]["top"]][1]
                            for index in members])
            top = top[np.isfinite(top)]
            low = 0.0 if band == 0 else LEAN_BANDS[band - 1]
            parts.append(f"lean {low:.2f}+ {wrong}/{len(members)} "
                         f"{np.median(error[members]):+.2f} "
                         f"{np.median(top) if len(top) else math.nan:+.2f}")
        lines.append(f"    {case}: " + "; ".join(parts))
    return lines


def _spread(values: np.ndarray) -> float:
    """1.4826 times the median absolute deviation (NaN for none)."""
    if not len(values):
        return math.nan
    return float(1.4826 * np.median(np.abs(values - np.median(values))))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sets", default="tuning")
    parser.add_argument("--frames", type=int, default=24)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--wrong-only", action="store_true")
    args = parser.parse_args()
    read_capture.install()
    config = VisionConfig()
    profile = VisionProfile.default().only_kinds("PNDQ")
    every: list[dict[str, Any]] = []
    for set_name in args.sets.split(","):
        for frame in frames(set_name, args.frames, args.seed, 1):
            rows = _rows(frame, profile, config)
            every.extend(rows)
            if rows:
                first = rows[0]
                print(f"{frame.name}: offset {first['offset']:+.2f} mm, camera height "
                      f"{first['height']:.0f} (true {first['true_height']:.0f}), foot "
                      f"({first['foot'][0]:.0f}, {first['foot'][1]:.0f}) (true "
                      f"({first['true_foot'][0]:.0f}, {first['true_foot'][1]:.0f}))")
            for row in rows:
                wrong = row["square_read"] != row["top"]
                if args.wrong_only and not wrong:
                    continue
                true_size = COIN_KINDS[row["top"]][1] if row["top"] in COIN_KINDS else math.nan
                print(f"  {'WRONG' if wrong else 'ok   '} {row['square']:>3} "
                      f"{row['coins'] or '-':>5}"
                      f"{' pawn' if row['pawn'] else '     '} read {row['square_read']} "
                      f"{row['confidence']:.2f}  d {row['diameter']:5.2f} (true {true_size:5.2f},"
                      f" less offset {row['diameter'] - row['offset'] - true_size:+.2f}) inner "
                      f"{row['inner']:5.2f} contrast {row['contrast']:.2f} clip "
                      f"{row['clipped']:.2f} from foot {row['distance']:4.0f} tilt "
                      f"{row['tilt']:4.1f} lean {row['lean']:.2f}")
    print("\n".join(_summary(every)))


if __name__ == "__main__":
    main()
