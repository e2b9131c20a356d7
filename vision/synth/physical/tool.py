"""Command line: render frames of the table with their truth and parameters.

``python -m vision.synth.physical.tool --family tuning --seed 7 --out frame.jpg --json truth.json``
writes one frame (the webcam's JPEG bytes; a ``.png`` name gets the decoded image instead) and
a JSON of ``{"truth": {square: {"coins", "top", "pawn"}}, "meta": {...}}`` (the shape of
``../shared/vision-samples/frame_N.json``). ``--count N --out-dir DIR`` writes ``N`` frames
``frame_SEED.jpg`` with ``frame_SEED.json`` for seeds ``--seed`` onward.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2

from vision.synth.physical.renderer import TableFrame, render_table
from vision.synth.physical.scene import FAMILIES, random_table_scene


def frame_json(frame: TableFrame, players: int, render_s: float) -> dict[str, Any]:
    """The frame's truth and every parameter, JSON-ready."""
    meta = frame.meta()
    meta.update({"players": players, "render_s": round(render_s, 3)})
    return {"truth": frame.truth_json(), "meta": meta}


def write_frame(frame: TableFrame, image_path: Path, json_path: Path | None, players: int,
                render_s: float) -> None:
    """Write ``frame``'s image (JPEG bytes as sent, or PNG) and optionally its JSON."""
    image_path.parent.mkdir(parents=True, exist_ok=True)
    if image_path.suffix.lower() in (".jpg", ".jpeg") and frame.jpeg:
        image_path.write_bytes(frame.jpeg)
    elif not cv2.imwrite(str(image_path), frame.image):
        raise OSError(f"could not write {image_path}")
    if json_path is not None:
        json_path.parent.mkdir(parents=True, exist_ok=True)
        json_path.write_text(json.dumps(frame_json(frame, players, render_s), indent=1))


def _render(family: str, seed: int, players: int, noise_seed: int) -> tuple[TableFrame, float]:
    start = time.perf_counter()
    frame = render_table(random_table_scene(seed, family=family, players=players), noise_seed)
    return frame, time.perf_counter() - start


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m vision.synth.physical.tool",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--family", choices=FAMILIES, default="tuning")
    parser.add_argument("--seed", type=int, default=0, help="scene seed (the first, with --count)")
    parser.add_argument("--players", type=int, default=2, choices=(1, 2, 3, 4))
    parser.add_argument("--noise-seed", type=int, default=0, help="sensor noise of the frame")
    parser.add_argument("--out", type=Path, help="image file for one frame (.jpg or .png)")
    parser.add_argument("--json", type=Path, help="truth and parameters of that frame")
    parser.add_argument("--count", type=int, help="write this many frames to --out-dir")
    parser.add_argument("--out-dir", type=Path, help="folder for --count frames")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.count is not None:
        if args.out_dir is None or args.count < 1:
            print("--count needs a positive count and --out-dir", file=sys.stderr)
            return 2
        for seed in range(args.seed, args.seed + args.count):
            frame, took = _render(args.family, seed, args.players, args.noise_seed)
            write_frame(frame, args.out_dir / f"frame_{seed}.jpg",
                        args.out_dir / f"frame_{seed}.json", args.players, took)
            print(f"{args.out_dir / f'frame_{seed}.jpg'}  {took:.2f} s")
        return 0
    if args.out is None:
        print("give --out FILE (one frame) or --count N --out-dir DIR", file=sys.stderr)
        return 2
    frame, took = _render(args.family, args.seed, args.players, args.noise_seed)
    write_frame(frame, args.out, args.json, args.players, took)
    print(f"{args.out}  {took:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
