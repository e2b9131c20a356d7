"""Which stage of the card reader (:mod:`vision.cards`) fails on each card it reads wrong or
unsure, and a contact sheet of those cards to look at.

For each frame of a family (as ``bench/bench_cards.py`` renders them) the reader's stages are
run one by one and checked against the truth: the top card's outline (middle within 2 mm,
turn within 1.5 degrees), the corner index (both corners: which rank matches best), the pip
count (number cards and aces), the picture (courts and jokers). Each card not read right is
put down to the first stage that went wrong, and drawn upright as the reader cut it, with
the truth, the reading and the stages, on ``--out``'s contact sheets.

    .venv/bin/python bench/card_failures.py --family tuning --frames 200 --out /tmp/cardfail

Families: ``tuning`` and ``other`` (:data:`bench.bench_cards.OTHER_THEMES`); the held-out
themes are not offered (they are not looked at).
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_cards import OTHER_THEMES
from companion.judging import UNSURE_CONFIDENCE
from vision.card_ranks import both_ways
from vision.cards import CardConfig, find_card, judge, read_face, refine_pose, upright_face
from vision.markers import MarkerConfig, find_board
from vision.rectify import rectify_window
from vision.synth import render
from vision.synth.card_sets import SPOT, TUNING_FACES, discard_scene

FAMILIES: dict[str, tuple[str, ...]] = {
    "tuning": TUNING_FACES,
    "other": tuple(f"theme:{name}" for name in OTHER_THEMES),
}
NUMBERS = ("2", "3", "4", "5", "6", "7", "8", "9", "10")


def diagnose(config: CardConfig, seed: int, faces: tuple[str, ...]
             ) -> tuple[str, str, str, np.ndarray | None]:
    """One frame: its outcome (right, unsure, wrong, missed), the stage blamed, a line of
    detail, and the card cut upright (None when no card was found)."""
    scene = discard_scene(seed, faces)
    frame = render(scene, seed)
    geometry = scene.geometry
    bounds = geometry.region(SPOT).shape.bounds()
    location = find_board(MarkerConfig(), frame.image, geometry)
    margin = config.margin_mm
    scale = config.pixels_per_mm
    view = rectify_window(frame.image, location, (bounds[0] - margin, bounds[1] - margin,
                                                  bounds[2] + margin, bounds[3] + margin),
                          scale, interpolation=cv2.INTER_LINEAR)
    top = scene.cards[-1]
    true_centre = ((top.centre_mm[0] - view.origin_mm[0]) * scale - 0.5,
                   (top.centre_mm[1] - view.origin_mm[1]) * scale - 0.5)
    label = f"{seed} {top.rank} {top.suit} {top.face.split(':')[1]}"
    return diagnose_crop(config, np.ascontiguousarray(view.image), top.rank,
                         (true_centre, top.angle_deg), label)


def diagnose_crop(config: CardConfig, crop: np.ndarray, truth: str,
                  pose_truth: tuple[tuple[float, float], float], label: str
                  ) -> tuple[str, str, str, np.ndarray | None]:
    """:func:`diagnose` on a spot already warped from the frame (``crop``, at the reader's
    scale), the top card's rank ``truth`` and its middle (crop pixels) and turn."""
    scale = config.pixels_per_mm
    pose = find_card(config, crop, scale)
    if pose is None:
        return "missed", "outline", label + " no card found", None
    pose = refine_pose(config, crop, pose, scale)
    off_mm = math.dist(pose.centre, pose_truth[0]) / scale
    off_deg = abs((pose.angle_deg - pose_truth[1] + 90.0) % 180.0 - 90.0)
    seen = read_face(config, upright_face(crop, pose, scale), scale)
    centre, pips, corners = seen.centre, seen.pips, seen.corners
    index = both_ways(*corners)
    rank, confidence = judge(config, centre, index, pips)
    if rank is None or confidence < UNSURE_CONFIDENCE:
        outcome = "unsure"
    else:
        outcome = "right" if rank == truth else "wrong"
    corner_best = [corner.best() for corner in corners]
    detail = (f"{label} -> {rank} {confidence:.2f}; off {off_mm:.1f}mm {off_deg:.1f}deg; "
              f"index {[(b[0], round(b[1], 2)) for b in corner_best]} suit "
              f"{[round(c.suit_below, 2) for c in corners]} joker "
              f"{[c.joker for c in corners]}; pips {pips.count} layout {pips.layout} stray "
              f"{pips.stray} largest {pips.largest_mm2:.0f}; picture {centre.picture}")
    if off_mm > 2.0 or off_deg > 1.5:
        stage = "outline"
    elif truth == "joker":
        stage = "joker"
    elif truth in ("J", "Q", "K"):
        stage = "court index" if index.best()[0] != truth else "court picture"
    elif pips.count != (1 if truth == "A" else int(truth) if truth in NUMBERS else -1) \
            or not pips.layout or pips.stray:
        stage = "pips"
    elif index.best()[0] != truth:
        stage = "index glyph" if any(best[0] is not None for best in corner_best) else \
            "index location"
    else:
        stage = "judge"
    return outcome, stage, detail, seen.face


def contact_sheets(tiles: list[tuple[str, np.ndarray]], out: Path, name: str,
                   per_sheet: int = 24) -> None:
    """Write the cards cut upright, six a row, each with its caption."""
    for start in range(0, len(tiles), per_sheet):
        cells = []
        for caption, face in tiles[start:start + per_sheet]:
            small = cv2.resize(face, (189, 264), interpolation=cv2.INTER_AREA)
            cell = np.full((300, 200, 3), 255, np.uint8)
            cell[30:294, 5:194] = small
            for line, text in enumerate((caption[:30], caption[30:60])):
                cv2.putText(cell, text, (2, 12 + 13 * line), cv2.FONT_HERSHEY_PLAIN, 0.8,
                            (0, 0, 200), 1)
            cells.append(cell)
        while len(cells) % 6:
            cells.append(np.full((300, 200, 3), 255, np.uint8))
        rows = [np.hstack(cells[row:row + 6]) for row in range(0, len(cells), 6)]
        cv2.imwrite(str(out / f"{name}-{start // per_sheet}.png"), np.vstack(rows))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--family", default="tuning", choices=sorted(FAMILIES))
    parser.add_argument("--frames", type=int, default=200)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--out", default="/tmp/cardfail")
    options = parser.parse_args()
    out = Path(options.out)
    out.mkdir(parents=True, exist_ok=True)
    config = CardConfig()
    outcomes: Counter[str] = Counter()
    stages: Counter[str] = Counter()
    tiles = []
    for seed in range(options.first, options.first + options.frames):
        outcome, stage, detail, face = diagnose(config, seed, FAMILIES[options.family])
        outcomes[outcome] += 1
        if outcome == "right":
            continue
        stages[f"{outcome} {stage}"] += 1
        print(f"{outcome:>6} {stage:<14} {detail}")
        if face is not None:
            tiles.append((f"{outcome[0]} {stage} {detail.split(';')[0]}", face))
    print(dict(outcomes))
    for what, count in stages.most_common():
        print(f"  {what}: {count}")
    contact_sheets(tiles, out, options.family)


if __name__ == "__main__":
    main()
