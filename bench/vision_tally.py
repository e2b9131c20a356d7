"""Counting how a set of frames was read: errors, confident errors, whole frames, timings.

A square is wrong when its top coin or its pawn differs from the truth. What misleads the
referee is a wrong square read with confidence 0.5 or more (it sets doubtful squares aside),
so those are counted apart, and so is how often a confident reading is right: the reader's
promise is that a square read at 0.5 or more is right at least 999 times in 1,000.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from contract.observation import Observation
from vision.synth import RegionTruth

KINDS = ["-", "P", "N", "D", "Q"]
#: Confidence at and above which a reading counts as sure.
SURE = 0.5


def case_of(truth: RegionTruth) -> str:
    """What kind of square this is, for sorting errors."""
    coins = truth.coins
    if not coins:
        return "empty, pawn" if truth.pawn else "empty"
    if truth.pawn:
        return "under a pawn"
    if len(coins) == 1:
        return "single coin"
    if len(set(coins)) == 1:
        return "one-kind stack"
    return "mixed stack"


@dataclass
class Tally:
    """Everything counted over one set of frames."""

    name: str
    frames: int = 0
    squares: int = 0
    wrong: int = 0
    sure: int = 0
    sure_wrong: int = 0
    frames_right: int = 0
    frames_not_misled: int = 0
    confusion: Counter[tuple[str, str]] = field(default_factory=Counter)
    cases: Counter[str] = field(default_factory=Counter)
    case_wrong: Counter[str] = field(default_factory=Counter)
    case_sure_wrong: Counter[str] = field(default_factory=Counter)
    timings: dict[str, list[float]] = field(default_factory=lambda: {
        "find": [], "rectify": [], "read": [], "total": []})
    examples: list[str] = field(default_factory=list)
    unread: int = 0
    reliability: Counter[tuple[int, bool]] = field(default_factory=Counter)

    def add(self, frame_name: str, observation: Observation,
            truth: Mapping[str, RegionTruth], total_ms: float, keep: int = 15) -> None:
        """Count one frame's reading against its truth."""
        self.frames += 1
        for stage in ("find", "rectify", "read"):
            self.timings[stage].append(float(observation.meta["timings_ms"][stage]))
        self.timings["total"].append(total_ms)
        wrong_here = sure_wrong_here = 0
        for name, region in truth.items():
            reading = observation.regions[name]
            case = case_of(region)
            self.squares += 1
            self.cases[case] += 1
            self.confusion[(region.top or "-", reading.coin or "-")] += 1
            sure = reading.confidence >= SURE
            self.sure += sure
            right = (reading.coin, reading.pawn) == (region.top, region.pawn)
            self.reliability[(min(9, int(reading.confidence * 10)), right)] += 1
            if right:
                continue
            wrong_here += 1
            sure_wrong_here += sure
            self.case_wrong[case] += 1
            self.case_sure_wrong[case] += sure
            if len(self.examples) < keep:
                self.examples.append(
                    f"  {frame_name} {name}: true {region.coins or '-'} pawn {region.pawn}, "
                    f"read {reading.coin} pawn {reading.pawn} "
                    f"(confidence {reading.confidence:.2f})")
        self.wrong += wrong_here
        self.sure_wrong += sure_wrong_here
        self.frames_right += wrong_here == 0
        self.frames_not_misled += sure_wrong_here == 0

    def add_unread(self, frame_name: str, squares: int, message: str) -> None:
        """A frame the reader could not read at all: every square counts as wrong."""
        self.frames += 1
        self.unread += 1
        self.squares += squares
        self.wrong += squares
        self.examples.append(f"  {frame_name}: not read ({message})")

    def summary(self) -> list[str]:
        """The headline figures, one line each."""
        squares = max(self.squares, 1)
        frames = max(self.frames, 1)
        sure_right = 1 - self.sure_wrong / max(self.sure, 1)
        lines = [
            f"[{self.name}] {self.frames} frames, {self.squares} squares"
            + (f", {self.unread} frames not read" if self.unread else ""),
            f"  per-square error: {self.wrong / squares:.3%} ({self.wrong} wrong); frames "
            f"entirely right: {self.frames_right / frames:.1%}",
            f"  wrong at confidence >= {SURE}: {self.sure_wrong} ({self.sure_wrong / squares:.3%}"
            f" of squares); sure readings right: {sure_right:.3%} of {self.sure}; frames "
            f"with no sure error: {self.frames_not_misled / frames:.1%}",
            # Every right square read below 0.5 is one the referee asks about.
            f"  right squares read at >= {SURE}: {self.sure - self.sure_wrong} of "
            f"{self.squares - self.wrong} "
            f"({(self.sure - self.sure_wrong) / max(self.squares - self.wrong, 1):.1%})",
            "  by case (wrong / sure wrong / squares): " + ", ".join(
                f"{case} {self.case_wrong[case]}/{self.case_sure_wrong[case]}/{count}"
                for case, count in sorted(self.cases.items())),
        ]
        return lines

    def coins_missed(self) -> int:
        """Squares holding coins read as holding none (whole coins missed)."""
        return sum(self.confusion[(kind, "-")] for kind in KINDS[1:])

    def brief(self) -> str:
        """One line: squares wrong, wrong at >= 0.5, coins read as empty, right at >= 0.5."""
        return (f"{self.name:20} {self.frames:3} frames: wrong {self.wrong:4} "
                f"({self.wrong / max(self.squares, 1):6.2%}), sure wrong {self.sure_wrong:3}, "
                f"coins read as empty {self.coins_missed():3}, right at >= {SURE} "
                f"{self.sure - self.sure_wrong} of {self.squares - self.wrong}")

    def details(self) -> list[str]:
        """The confusion matrix, timings and the first wrong squares."""
        lines = ["  confusion of the top coin (rows: truth, columns: read)",
                 "        " + "".join(f"{kind:>7}" for kind in KINDS)]
        for true_kind in KINDS:
            row = "".join(f"{self.confusion[(true_kind, read)]:>7}" for read in KINDS)
            lines.append(f"  {true_kind:>6}{row}")
        lines.append("  readings right by confidence: " + ", ".join(
            f"{band / 10:.1f}+ {self.reliability[(band, True)]}/"
            f"{self.reliability[(band, True)] + self.reliability[(band, False)]}"
            for band in range(10)))
        lines.append("  milliseconds per frame (median / 95th percentile):")
        for stage, values in self.timings.items():
            if values:
                array = np.array(values)
                lines.append(f"    {stage:8} {np.median(array):7.2f} "
                             f"{np.percentile(array, 95):7.2f}")
        if self.examples:
            lines.append("  first wrong squares:")
            lines.extend(self.examples)
        return lines
