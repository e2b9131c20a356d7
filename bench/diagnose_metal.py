"""Colour and presence misreadings of squares, with what the reader measured (printed).

For every wrong square of the frames read: the truth, the reading, and the coin candidates
the reader measured there: diameter, face colour against the frame's silver field (and the
tint of the frame's copper), the share of the face the camera clipped, the edge colour, the
rim's agreement and contrast, and the kind probabilities. Also, per frame, the fitted
metals. Only colour and presence errors are printed unless ``--all``: a coin missed or seen
where none lies, a metal confused, a pawn read where none stands.

    PYTHONPATH=. .venv/bin/python bench/diagnose_metal.py [--sets tuning] [--frames 24]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import vision.read as read_module
from bench.vision_sets import frames
from calibration.geometry import coin_isolation_mat
from calibration.profile import VisionProfile
from contract.observation import COIN_KINDS
from vision.read import VisionConfig, read_frame_details

CAPTURED: dict[str, Any] = {}
_ORIGINAL = read_module._coins_and_frame


def _capture(config: Any, candidates: Any, presence: Any, priors: Any, camera: Any = None,
             alone: Any = None, printed: Any = None) -> Any:
    chosen, frame = _ORIGINAL(config, candidates, presence, priors, camera, alone, printed)
    CAPTURED.update(candidates=candidates, presence=presence, chosen=chosen, frame=frame)
    return chosen, frame


read_module._coins_and_frame = _capture


def metal(kind: str | None) -> str:
    """The metal of a coin kind, or "none"."""
    return "none" if kind is None else COIN_KINDS[kind][2]


def is_colour_error(true_top: str | None, read_top: str | None, true_pawn: Any,
                    read_pawn: Any) -> bool:
    """Whether a misreading is of metal or presence (not of size within a metal)."""
    return metal(true_top) != metal(read_top) or true_pawn != read_pawn


def describe(index: int) -> str:
    """One candidate's measurements."""
    candidates, presence = CAPTURED["candidates"], CAPTURED["presence"]
    chosen, frame = CAPTURED["chosen"], CAPTURED["frame"]
    colour = candidates.colours[index]
    where = np.flatnonzero(chosen == index)
    text = (f"    cand d={candidates.diameters_mm[index]:.1f}"
            f" inner={candidates.inner_mm[index]:.1f}"
            f" col=({colour[0]:+.3f},{colour[1]:+.3f})"
            f" edge=({candidates.edge_colours[index, 0]:+.3f},"
            f"{candidates.edge_colours[index, 1]:+.3f})"
            f" clip={candidates.clipped[index]:.2f} agree={candidates.agreement[index]:.2f}"
            f" contrast={candidates.contrast[index]:.2f} pres={presence[index]:.2f}"
            f" str={candidates.strength[index]:.1f}")
    if len(where):
        position = int(where[0])
        field = frame.silver_field[position]
        probabilities = " ".join(f"{kind}{value:.2f}" for kind, value in
                                 zip(frame.kinds, frame.probabilities[position], strict=True))
        text += (f"\n      CHOSEN field=({field[0]:+.3f},{field[1]:+.3f}) "
                 f"resid=({colour[0] - field[0]:+.3f},{colour[1] - field[1]:+.3f}) "
                 f"probs {probabilities}")
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sets", default="tuning")
    parser.add_argument("--frames", type=int, default=24)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--all", action="store_true", help="size errors too")
    args = parser.parse_args()
    config = VisionConfig()
    profile = VisionProfile.default().only_kinds("PNDQ")
    geometry = coin_isolation_mat()
    for set_name in args.sets.split(","):
        for frame in frames(set_name, args.frames, args.seed, 2):
            reading = read_frame_details(config, frame.image, geometry, profile)
            fit = CAPTURED["frame"]
            header = (f"{frame.name}: tints " + ", ".join(
                f"{name} ({value[0]:+.3f},{value[1]:+.3f})" for name, value in fit.tints.items())
                + f" offset {fit.offset_mm:+.2f} {frame.meta.get('light', '')}")
            printed = False
            candidates = CAPTURED["candidates"]
            for name, truth in frame.truth.items():
                got = reading.observation.regions[name]
                if (got.coin, got.pawn) == (truth.top, truth.pawn):
                    continue
                if not args.all and not is_colour_error(truth.top, got.coin, truth.pawn,
                                                        got.pawn):
                    continue
                if not printed:
                    print(header)
                    printed = True
                print(f"  {name}: true {truth.coins or '-'} pawn {truth.pawn}; read {got.coin}"
                      f" pawn {got.pawn} conf {got.confidence:.2f}")
                for index in np.flatnonzero(region_of(candidates, name)):
                    print(describe(int(index)))


def region_of(candidates: Any, name: str) -> Any:
    """Which candidates lie in the region ``name`` (by their seed's region or their own)."""
    windows = CAPTURED.get("windows")
    if windows is None:
        return np.zeros(len(candidates.region), bool)
    index = [window.name for window in windows].index(name)
    return (candidates.region == index) | (candidates.seed_region == index)


_ORIGINAL_WINDOWS = read_module.region_windows


def _windows(*arguments: Any) -> Any:
    every = _ORIGINAL_WINDOWS(*arguments)
    CAPTURED["windows"] = tuple(window for window in every if window.kind != "discard")
    return every


read_module.region_windows = _windows  # type: ignore[assignment]


if __name__ == "__main__":
    main()
