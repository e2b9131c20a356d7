"""A Jokers and Coins demo game with the camera's readings checked against the synthetic
table's truth (printed, not asserted): where a whole game gives up, this says why, and what
each misreading and each question of the referee came from.

Every frame the table reads is compared, region by region, with what the synthetic table
really held in it (``SynthFrame.truth``): each wrong reading of a track, HOME or discard space
is printed with its ply and confidence, and the frame is saved as ``OUT/wrong/ply-P-N.png``
beside a JSON of the differences. ``--truth-until N`` hands the referee the truth instead of a
reading for the first N plies, so a failure late in a game is reached in minutes (the bots'
moves do not depend on the readings: each turn's generator is seeded by the seed and the ply).

Each verdict the referee gives on a frame is also tallied by its cause (:mod:`bench.jokers_causes`):
an ask (several plays listed on the panel) because the card was not read or read unsure, a space
or supply read with doubt, or plays no camera can tell apart; a misreading (a right board
refused, a wrong play accepted, a bumped coin's supply or IN refused) with each region read
otherwise than the truth, its kind (ring space, HOME space, supply, discard spot), what was there
and what was read at what confidence. The tally is printed at the end and written to
``OUT/causes.json``.

    PYTHONPATH=. .venv/bin/python bench/diagnose_jokers_demo.py --seed 1 [--players 4]
        [--truth-until 100] [--plies 130] [--out /tmp/diagnosis]
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import companion.table as table_module
from bench.jokers_causes import CauseTally
from companion.demo import DemoOptions, run_demo
from companion.games import get_game
from companion.launch import GameOptions
from contract.observation import Observation, RegionReading
from vision.synth import SynthFrame

#: How many frames' truths are kept for the referee's verdicts (a frame read once may answer
#: several presses while the board stays still).
TRUTHS_KEPT = 256

#: Region kinds whose readings are compared with the truth (the supply cups are not judged).
COMPARED = ("track", "home", "discard")


class Checker:
    """Remembers the scene behind each rendered image and checks each reading against it."""

    def __init__(self, out: Path, truth_until: int) -> None:
        self.out = out
        self.truth_until = truth_until
        self.table: Any = None
        self._scenes: dict[int, SynthFrame] = {}
        self._lock = threading.Lock()
        self.wrong_frames = 0
        self.read_frames = 0
        self._real = table_module.read_frame_details
        #: id of each image read -> its truth as readings (the image is alive while read).
        self._truths: dict[int, dict[str, RegionReading]] = {}
        self.tally = CauseTally(self.truth_of, self.plies, out / "causes.jsonl")

    def attach(self, table: Any) -> None:
        """Wrap the synthetic camera's rendering so each image's scene is known."""
        self.table = table
        synth = table.parts.camera.synth
        taken = synth.read_taken

        def remembered() -> tuple[SynthFrame, float]:
            rendered, when = taken()
            with self._lock:
                self._scenes[id(rendered.image)] = rendered
                if len(self._scenes) > 64:
                    self._scenes.pop(next(iter(self._scenes)))
            return rendered, when

        synth.read_taken = remembered
        self.tally.attach(table)

    def truth_of(self, frame: str | None) -> dict[str, RegionReading] | None:
        """The truth of the frame the table answered a press with (``frame-N``), as readings."""
        shown = self.table._frames.get(frame) if self.table is not None and frame else None
        return None if shown is None else self._truths.get(id(shown.image))

    def plies(self) -> int:
        journal = self.table.parts.journal if self.table is not None else None
        return len(journal.standing) if journal is not None else 0

    def read(self, config: Any, image: Any, geometry: Any, profile: Any,
             location: Any = None) -> Any:
        """The table's reading of ``image``: the truth before ``truth_until`` plies, else the
        camera's, compared with the truth."""
        with self._lock:
            rendered = self._scenes.get(id(image))
        names = {region.name: region.kind for region in geometry.regions}
        truth = rendered.truth if rendered is not None else None
        ply = self.plies()
        if truth is not None:
            with self._lock:
                self._truths[id(image)] = {name: region.reading()
                                           for name, region in truth.items()}
                if len(self._truths) > TRUTHS_KEPT:
                    self._truths.pop(next(iter(self._truths)))
        if truth is not None and ply < self.truth_until:
            regions = {name: truth[name].reading() if name in truth else RegionReading()
                       for name in names}
            return SimpleNamespace(observation=Observation(regions=regions))
        reading = self._real(config, image, geometry, profile, location)
        self.read_frames += 1
        if truth is not None:
            self._compare(ply, image, reading.observation, truth, names)
            self._log(ply, reading.observation, truth, names)
        return reading

    def _log(self, ply: int, observation: Observation, truth: Any, names: dict[str, str]
             ) -> None:
        """One line per frame read: the coins and card truly there and as read."""
        def held(region: str) -> str:
            real = truth[region]
            return real.card.rank if real.card is not None else (real.top or "")

        real = {name: held(name) for name in names if name in truth and held(name)}
        seen = {}
        for name, reading in observation.regions.items():
            text = reading.card.rank if reading.card is not None else reading.coin
            if text:
                seen[name] = f"{text}@{float(reading.confidence):.2f}"
        self.out.mkdir(parents=True, exist_ok=True)
        with (self.out / "readings.jsonl").open("a") as log:
            log.write(json.dumps({"ply": ply, "truth": real, "read": seen}) + "\n")

    def _compare(self, ply: int, image: Any, observation: Observation, truth: Any,
                 names: dict[str, str]) -> None:
        wrong = []
        for name, kind in names.items():
            if kind not in COMPARED or name not in truth:
                continue
            real, seen = truth[name], observation.regions.get(name, RegionReading())
            if kind == "discard":
                rank = real.card.rank if real.card is not None else None
                read = seen.card.rank if seen.card is not None else None
                if rank != read:
                    confidence = seen.card.confidence if seen.card is not None else 1.0
                    wrong.append((name, rank, read, round(confidence, 3)))
                continue
            if (real.top, real.pawn) != (seen.coin, seen.pawn):
                wrong.append((name, f"{real.top}/{real.pawn}", f"{seen.coin}/{seen.pawn}",
                              round(seen.confidence, 3)))
        if not wrong:
            return
        self.wrong_frames += 1
        index = self.wrong_frames
        folder = self.out / "wrong"
        folder.mkdir(parents=True, exist_ok=True)
        stem = folder / f"ply-{ply:03d}-{index:03d}"
        cv2.imwrite(str(stem.with_suffix(".png")), image)
        stem.with_suffix(".json").write_text(json.dumps(wrong) + "\n")
        print(f"  ply {ply}: read wrong (region, truth, read, confidence): {wrong}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--truth-until", type=int, default=0)
    parser.add_argument("--plies", type=int, default=None, help="ply cap (default: the demo's)")
    parser.add_argument("--out", type=Path, default=Path("/tmp/jokers-diagnosis"))
    args = parser.parse_args()
    cap = args.plies or get_game("jokers-and-coins").info.demo_plies[args.players]
    out = args.out / f"seed-{args.seed}"
    checker = Checker(out, args.truth_until)
    table_module.read_frame_details = checker.read
    options = DemoOptions(seed=args.seed, speed=1000.0, max_turns=cap)
    start, processor = time.perf_counter(), time.process_time()
    report = run_demo(GameOptions("jokers-and-coins", args.players, (), args.seed), options,
                      out, headless=True, on_table=checker.attach)
    ending = ("ended: " + (report.result or "")) if report.finished else (
        f"gave up: {report.gave_up}" if report.gave_up else f"ply cap {cap} reached")
    print(f"seed {args.seed}: {report.turns} plies, {time.perf_counter() - start:.0f} s wall, "
          f"{time.process_time() - processor:.0f} s processor; {checker.read_frames} frames "
          f"read by the camera, {checker.wrong_frames} with a wrong region; {report.rejects} "
          f"rejected, {report.misreads} misreadings, {report.asks} asked, {report.takebacks} "
          f"taken back; {ending}", flush=True)
    print("verdicts by cause (verdict: cause: count; then regions read wrong by kind):")
    print(checker.tally.summary(), flush=True)
    out.mkdir(parents=True, exist_ok=True)
    (out / "causes.json").write_text(json.dumps(
        [cause.to_json() for cause in checker.tally.causes], indent=1) + "\n")


if __name__ == "__main__":
    main()
