"""Shakala's pit bench on frames rendered once: read the same cached frames with two trees.

``bench/bench_shakala_read.py`` renders every frame before it reads it; on a shared machine a
full run of both a branch and its baseline takes most of an hour. Here ``render`` draws the
frames of a seed range once into a folder (one pickle a seed: the image, what each region
holds and where every coin lies), and ``read`` reads them with the tree on ``PYTHONPATH``,
prints the bench's figures (pits and cups exact, misreadings flagged, right regions flagged,
crowded pits exact) and writes every region's reading to a JSON file. Given ``--against``
(another run's JSON, e.g. /work/main's on the same frames), it lists the regions whose reading
or flag differs. Figures equal ``bench_shakala_read.py``'s over the same seeds (checked on
tuning seeds 0-99 and held-out 100000-100099: 1,575 and 1,586 of 1,600 pits exact).

    PYTHONPATH=. .venv/bin/python bench/shakala_read_cache.py render --folder F --frames 100
        [--heldout] [--start 0]
    PYTHONPATH=. .venv/bin/python bench/shakala_read_cache.py read --folder F --frames 100
        [--heldout] [--start 0] --out readings.json [--against baseline.json]
"""

from __future__ import annotations

import json
import pickle
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.cached_readings import (
    cache_bench_parser,
    changed_readings,
    seeds_to_render,
    store_frame,
)
from calibration.profile import VisionProfile
from calibration.shakala_mat import shakala_mat
from companion.judging import UNSURE_CONFIDENCE
from vision.read import VisionConfig, read_frame_details
from vision.synth import render
from vision.synth.shakala_frames import HELDOUT_FIRST, shakala_scene

#: A region holding this many coins or more is crowded (as in bench_shakala_read).
CROWDED = 8


def render_frames(folder: Path, seeds: range) -> None:
    """Draw every frame of ``seeds`` not yet in ``folder``."""
    for seed, path in seeds_to_render(folder, seeds):
        scene = shakala_scene(seed)
        frame = render(scene, seed)
        placed = [(coin.region, coin.centre_mm, coin.letter, coin.level)
                  for coin in scene.placements()[0]]
        truth = {name: "".join(sorted(real.coins)) for name, real in frame.truth.items()}
        store_frame(path, {"image": frame.image, "truth": truth, "placed": placed})


def read_frames(folder: Path, seeds: range) -> list[dict[str, Any]]:
    """Every region of every cached frame of ``seeds`` as read by this tree."""
    geometry, config, profile = shakala_mat(), VisionConfig(), VisionProfile.default()
    rows: list[dict[str, Any]] = []
    for seed in seeds:
        with (folder / f"{seed}.pkl").open("rb") as handle:
            data = pickle.load(handle)
        reading = read_frame_details(config, data["image"], geometry, profile)
        for name, held in data["truth"].items():
            truth = "".join(held)
            got = reading.observation.regions[name]
            read = "".join(got.kinds)
            rows.append({"seed": seed, "region": name, "kind": geometry.region(name).kind,
                         "coins": len(truth), "truth": truth, "read": read,
                         "right": (got.count, read) == (len(truth), truth),
                         "flagged": bool(got.confidence < UNSURE_CONFIDENCE),
                         "confidence": round(float(got.confidence), 3)})
    return rows


def figures(rows: list[dict[str, Any]]) -> list[str]:
    """The bench's figures per region kind."""
    lines = []
    for kind in ("pit", "cup"):
        tally = Counter((row["right"], row["flagged"]) for row in rows if row["kind"] == kind)
        crowded = [row["right"] for row in rows if row["kind"] == kind
                   and row["coins"] >= CROWDED]
        exact = tally[(True, True)] + tally[(True, False)]
        wrong = tally[(False, True)] + tally[(False, False)]
        total = exact + wrong
        lines.append(f"{kind}s exact {exact} of {total} ({100 * exact / max(total, 1):.2f}%); "
                     f"misreadings flagged {tally[(False, True)]} of {wrong}; right but "
                     f"flagged {tally[(True, True)]}; crowded exact {sum(crowded)} of "
                     f"{len(crowded)}")
    return lines


def differences(rows: list[dict[str, Any]], baseline: list[dict[str, Any]]) -> list[str]:
    """The regions read or flagged otherwise than in ``baseline``."""
    return [f"seed {row['seed']} {row['region']} holds {row['truth'] or '-'}: "
            f"{old['read'] or '-'} ({old['confidence']:.2f}) -> {row['read'] or '-'} "
            f"({row['confidence']:.2f})"
            for old, row in changed_readings(rows, baseline, ("seed", "region"),
                                             ("read", "flagged"))]


def main() -> None:
    parser = cache_bench_parser(__doc__.splitlines()[0], frames=100, unit="region")
    args = parser.parse_args()
    first = (HELDOUT_FIRST if args.heldout else 0) + args.start
    seeds = range(first, first + args.frames)
    if args.action == "render":
        render_frames(args.folder, seeds)
        return
    rows = read_frames(args.folder, seeds)
    if args.out is not None:
        args.out.write_text(json.dumps(rows))
    print(f"[shakala pits, cached, seeds {seeds.start}..{seeds.stop - 1}]")
    for line in figures(rows):
        print("  " + line)
    if args.against is not None:
        for line in differences(rows, json.loads(args.against.read_text())):
            print("    " + line)


if __name__ == "__main__":
    main()
