"""What the reader measured on every square it read wrongly with confidence (printed), and
every coin's evidence as JSON lines (``--dump``) to weigh confidence rules against.

For each square of the frames read: the truth, the reading and its confidence, and for the
coin the reader took there its outline's and top circle's diameters against the frame's
expected sizes of the two nearest kinds (mm), the share of its face clipped by a glint, its
colour's metal probabilities, its rim's agreement and contrast, whether a pawn stands on it,
the camera's pixels per millimetre and lean there, and its kind probabilities. Then a tally of
the sure-wrong squares by truth/read pair. The JSON lines also hold the top face's and the top
circle's centres (where a smaller top coin would lie swept further along the lean), the share
of rays that show the top circle and the seed's strength.

    PYTHONPATH=. .venv/bin/python bench/confidence_evidence.py [--sets tuning,FOLDER]
        [--frames 40] [--dump rows.jsonl]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import Counter
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

SURE = 0.5


def _coin_row(position: int, index: int, fit: Any, camera: Any) -> dict[str, Any]:
    """One chosen coin's evidence."""
    candidates = SEEN["candidates"]
    centre = candidates.centres_mm[index]
    expected = {kind: COIN_KINDS[kind][1] + fit.offset_mm + fit.kind_offsets_mm.get(kind, 0.0)
                for kind in fit.kinds}
    return {
        "centre": [float(centre[0]), float(centre[1])],
        "top_centre": [float(value) for value in candidates.tops_mm[index]],
        "inner_centre": [float(value) for value in candidates.inner_centres_mm[index]],
        "diameter": float(candidates.diameters_mm[index]),
        "inner": float(candidates.inner_mm[index]),
        "expected": expected,
        "offset": float(fit.offset_mm),
        "probabilities": dict(zip(fit.kinds, map(float, fit.probabilities[position]),
                                  strict=True)),
        "by_colour": dict(zip(fit.metals, map(float, fit.by_colour[position]), strict=True)),
        "single": float(fit.single[position]),
        "clipped": float(candidates.clipped[index]),
        "contrast": float(candidates.contrast[index]),
        "agreement": float(candidates.agreement[index]),
        "inner_agreement": float(candidates.inner_agreement[index]),
        "strength": float(candidates.strength[index]),
        "under_pawn": bool(candidates.under_pawn[index]),
        "sized": bool(candidates.sized[index]),
        "presence": float(SEEN["presence"][index]),
        "colour": [float(value) for value in candidates.colours[index]],
        "camera_ppm": float(camera.pixels_per_mm(np.array([centre], np.float64))[0]),
        "lean": float(math.dist(tuple(centre), camera.foot_mm) / camera.height_mm),
    }


def frame_rows(frame: Any, profile: VisionProfile, config: VisionConfig) -> list[dict[str, Any]]:
    """One row per square of ``frame``: truth, reading, and the coins the reader took there."""
    geometry = coin_isolation_mat()
    details = read_frame_details(config, frame.image, geometry, profile)
    camera = camera_over_mat(details.location.homography, details.location.image_size)
    fit = SEEN["frame"]
    coins_at: dict[str, list[dict[str, Any]]] = {}
    for position, index in enumerate(SEEN["chosen"]):
        centre = tuple(SEEN["candidates"].centres_mm[index])
        region = geometry.region_at(centre)
        if region is not None:
            coins_at.setdefault(region.name, []).append(_coin_row(position, index, fit, camera))
    rows = []
    for name, truth in frame.truth.items():
        reading = details.observation.regions[name]
        rows.append({
            "frame": frame.name, "square": name, "coins": truth.coins, "top": truth.top,
            "pawn": truth.pawn, "read": reading.coin, "read_pawn": reading.pawn,
            "confidence": reading.confidence,
            "right": (reading.coin, reading.pawn) == (truth.top, truth.pawn),
            "found": coins_at.get(name, []),
        })
    return rows


def describe(row: dict[str, Any]) -> str:
    """One line: the square, truth, reading and its coins' evidence."""
    text = (f"{row['frame']} {row['square']:>3} true {row['coins'] or '-'}"
            f"{' +' + row['pawn'] if row['pawn'] else ''} read {row['read'] or '-'}"
            f"{' +' + row['read_pawn'] if row['read_pawn'] else ''} {row['confidence']:.2f}")
    for coin in row["found"]:
        expected = coin["expected"]
        near = sorted(expected, key=lambda kind: abs(coin["diameter"] - expected[kind]))[:2]
        text += (f"\n      d {coin['diameter']:5.2f} ("
                 + ", ".join(f"{kind} {coin['diameter'] - expected[kind]:+.2f}" for kind in near)
                 + f") inner {coin['inner']:5.2f} clip {coin['clipped']:.2f} contrast "
                 f"{coin['contrast']:.2f} agree {coin['agreement']:.2f} pawn "
                 f"{int(coin['under_pawn'])} ppm {coin['camera_ppm']:.2f} lean {coin['lean']:.2f}"
                 f" single {coin['single']:.2f} p "
                 + " ".join(f"{k}{v:.2f}" for k, v in coin["probabilities"].items())
                 + " metal " + " ".join(f"{k[:2]}{v:.2f}" for k, v in coin["by_colour"].items()))
    return text


def tally(rows: list[dict[str, Any]]) -> list[str]:
    """Sure-wrong squares by truth/read pair and case."""
    wrong = [row for row in rows if not row["right"] and row["confidence"] >= SURE]
    pairs = Counter(f"{row['top'] or '-'}->{row['read'] or '-'}"
                    + (" pawn" if row["pawn"] or row["read_pawn"] else "")
                    + (" stack" if len(row["coins"]) > 1 else "") for row in wrong)
    right = [row for row in rows if row["right"]]
    sure_right = sum(row["confidence"] >= SURE for row in right)
    return [f"{len(rows)} squares, {sum(not row['right'] for row in rows)} wrong, {len(wrong)} "
            f"wrong at >= {SURE}; right read sure: {sure_right}/{len(right)}",
            "  " + ", ".join(f"{pair} {count}" for pair, count in pairs.most_common())]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sets", default="tuning")
    parser.add_argument("--frames", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--dump", type=Path, help="write every square's row as JSON lines")
    args = parser.parse_args()
    read_capture.install()
    config = VisionConfig()
    profile = VisionProfile.default().only_kinds("PNDQ")
    every: list[dict[str, Any]] = []
    for set_name in args.sets.split(","):
        rows: list[dict[str, Any]] = []
        for frame in frames(set_name, args.frames, args.seed, 1):
            rows.extend(frame_rows(frame, profile, config))
        for row in rows:
            if not row["right"] and row["confidence"] >= SURE:
                print(describe(row))
        print(f"[{set_name}]", "\n".join(tally(rows)))
        every.extend(rows)
    if args.dump:
        with args.dump.open("w") as out:
            for row in every:
                out.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
