"""Processor time of reading the card on a discard spot (:func:`vision.cards.read_discard`),
this tree's code against another tree's (``--baseline``, ``/work/main`` before a change), on
the same saved spots in one run.

Spots of tuning seeds are rendered as ``bench/bench_cards.py`` renders them and warped from
the frame at the reader's scale, then saved; each tree reads them in its own worker process
(:func:`bench.bench_read_speed.read_all`: the trees take turns spot by spot, so both see the
same load of the machine), each spot :data:`REPEAT` times, the least processor time kept. It
prints each tree's median processor ms per spot, the ratio of the medians and of the totals,
and how many spots the two trees read differently (rank or confidence).

    PYTHONPATH=. .venv/bin/python bench/bench_card_speed.py [--spots 60] [--first 0]
        [--baseline /work/main]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

if "--worker" not in sys.argv:  # a worker reads with the code of its PYTHONPATH
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

#: Reads of each spot by each tree; the least processor time is kept.
REPEAT = 3


def save_spots(folder: Path, spots: int, first: int) -> list[Path]:
    """Render ``spots`` tuning piles from seed ``first`` and save each spot's warp."""
    import cv2

    from vision.cards import CardConfig
    from vision.markers import MarkerConfig, find_board
    from vision.rectify import rectify_window
    from vision.synth import render
    from vision.synth.card_sets import SPOT, discard_scene

    config = CardConfig()
    paths = []
    for seed in range(first, first + spots):
        scene = discard_scene(seed)
        frame = render(scene, seed)
        left, top, right, bottom = scene.geometry.region(SPOT).shape.bounds()
        margin = config.margin_mm
        location = find_board(MarkerConfig(), frame.image, scene.geometry)
        view = rectify_window(frame.image, location, (left - margin, top - margin,
                                                      right + margin, bottom + margin),
                              config.pixels_per_mm, interpolation=cv2.INTER_LINEAR)
        path = folder / f"spot-{seed}.npy"
        np.save(path, np.ascontiguousarray(view.image))
        paths.append(path)
    return paths


def worker() -> None:
    """Read the saved spot of every path given on standard input, one a line; print one
    JSON line each: the least processor ms of :data:`REPEAT` reads, the rank and
    confidence."""
    from vision.cards import CardConfig, read_discard

    config = CardConfig()
    for line in sys.stdin:
        crop = np.load(line.strip())
        spent = []
        for _ in range(REPEAT):
            start = time.process_time()
            card = read_discard(config, crop, config.pixels_per_mm)
            spent.append((time.process_time() - start) * 1000)
        print(json.dumps({"processor_ms": min(spent),
                          "rank": None if card is None else card.rank,
                          "confidence": None if card is None else round(card.confidence, 4)}),
              flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spots", type=int, default=60)
    parser.add_argument("--first", type=int, default=0, help="first tuning seed")
    parser.add_argument("--baseline", type=Path, default=None,
                        help="another tree to read the same spots with")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker()
        return 0
    from bench.bench_read_speed import read_all

    tree = Path(__file__).resolve().parents[1]
    script = Path(__file__).resolve()
    with tempfile.TemporaryDirectory() as folder:
        paths = save_spots(Path(folder), args.spots, args.first)
        answers = read_all([tree, *([args.baseline] if args.baseline else [])], paths,
                           script=script)
    ours = [float(str(line["processor_ms"])) for line in answers[0]]
    text = (f"{args.spots} tuning spots from seed {args.first}, least of {REPEAT} reads "
            f"each: processor ms per spot, median {statistics.median(ours):.1f}")
    if args.baseline:
        theirs = [float(str(line["processor_ms"])) for line in answers[1]]
        differ = sum((mine["rank"], mine["confidence"]) != (other["rank"], other["confidence"])
                     for mine, other in zip(answers[0], answers[1], strict=True))
        text += (f"; baseline {statistics.median(theirs):.1f}; ratio (baseline over this) "
                 f"of medians {statistics.median(theirs) / statistics.median(ours):.2f}x, of "
                 f"totals {sum(theirs) / sum(ours):.2f}x; read differently: {differ} of "
                 f"{args.spots}")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
