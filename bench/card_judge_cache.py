"""Render a family of discard frames once, keep what the card reader saw on each, and re-judge
it in seconds: for trying rules of :mod:`vision.card_judge` (when a rank is sure) without
rendering and reading 1,000 frames again each time.

``record`` renders frames as ``bench/bench_cards.py`` does, reads each with
:func:`vision.cards.read_discard_in_frame`, and pickles, per frame, the truth and every input
the reader gave :func:`vision.card_judge.judge` (the middle, both corners' index, the pips; a
spot whose outline is whole but for blank white is read at several places, each kept).
``judge`` re-judges those inputs with the judge of the code checked out, as the reader would
(the surest place of several, held at ``unseen_confidence``), and prints per file: read right
(at ``UNSURE_CONFIDENCE``), wrong, wrong at ``SURE_CARD`` (what the table takes without
asking), right below ``SURE_CARD`` (the panel asks), unsure, missed, and how many readings
differ from the recorded ones. The held-out and unseen families' frames are never listed one
by one.

    .venv/bin/python bench/card_judge_cache.py record --family tuning --frames 1000 \\
        --out /tmp/tuning.pkl
    .venv/bin/python bench/card_judge_cache.py judge /tmp/tuning.pkl [--show]
"""

from __future__ import annotations

import argparse
import pickle
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import vision.cards as cards
from bench.bench_cards import OTHER_THEMES, UNSEEN_THEMES
from companion.judging import UNSURE_CONFIDENCE
from companion.referee_cards import SURE_CARD
from vision.card_judge import Verdict, judge
from vision.card_pips import PipCount
from vision.card_ranks import CentreRead, IndexRead
from vision.markers import MarkerConfig, find_board
from vision.synth import render
from vision.synth.card_sets import HELD_OUT_FACES, SPOT, TUNING_FACES, discard_scene

FAMILIES: dict[str, tuple[str, ...]] = {
    "tuning": TUNING_FACES,
    "heldout": HELD_OUT_FACES,
    "other": tuple(f"theme:{name}" for name in OTHER_THEMES),
    "unseen": tuple(f"theme:{name}" for name in UNSEEN_THEMES),
}
#: What the reader gave the judge once: the middle, the corners joined, the pips.
JudgeInputs = tuple[CentreRead, IndexRead, PipCount | None]


@dataclass(frozen=True)
class Seen:
    """One frame: its seed, family, the top card's rank and face, what the judge was given
    (each place read), whether no outline was whole (so the places were read at
    ``unseen_confidence`` at most), and the reading then made."""

    seed: int
    family: str
    truth: str | None
    face: str
    inputs: tuple[JudgeInputs, ...]
    unseen: bool
    reading: Verdict | None


def record(family: str, frames: int, first: int) -> list[Seen]:
    """Render and read ``frames`` frames of ``family`` from seed ``first``."""
    config = cards.CardConfig()
    inputs: list[JudgeInputs] = []
    unseen: list[bool] = []

    def recording_judge(config: cards.CardConfig, centre: CentreRead, index: IndexRead,
                        pips: PipCount | None = None) -> Verdict:
        inputs.append((centre, index, pips))
        return judge(config, centre, index, pips)

    original_unseen = cards._read_unseen_sides

    def recording_unseen(*arguments: object) -> object:
        unseen.append(True)
        return original_unseen(*arguments)  # type: ignore[arg-type]

    seen = []
    with mock.patch.object(cards, "judge", recording_judge), \
            mock.patch.object(cards, "_read_unseen_sides", recording_unseen):
        for seed in range(first, first + frames):
            inputs.clear()
            unseen.clear()
            scene = discard_scene(seed, FAMILIES[family])
            frame = render(scene, seed)
            location = find_board(MarkerConfig(), frame.image, scene.geometry)
            card = cards.read_discard_in_frame(config, frame.image, location,
                                               scene.geometry.region(SPOT).shape.bounds())
            truth = frame.truth[SPOT].card
            assert truth is not None
            seen.append(Seen(seed, family, truth.rank, scene.cards[-1].face, tuple(inputs),
                             bool(unseen),
                             None if card is None else (card.rank, card.confidence)))
    return seen


def rejudge(config: cards.CardConfig, frame: Seen) -> Verdict | None:
    """The reading the judge checked out makes of ``frame`` (None: no card found)."""
    verdicts = [judge(config, *inputs) for inputs in frame.inputs]
    if not verdicts:
        return None
    if not frame.unseen:
        return verdicts[0]
    rank, confidence = max(verdicts, key=lambda verdict: verdict[1])
    return rank, min(confidence, config.unseen_confidence)


def outcome(frame: Seen, reading: Verdict | None) -> str:
    """``right`` / ``wrong`` (each ``sure`` at ``SURE_CARD`` or more), ``unsure``, or
    ``missed``."""
    if reading is None:
        return "missed"
    rank, confidence = reading
    if rank is None or confidence < UNSURE_CONFIDENCE:
        return "unsure"
    kind = "right" if rank == frame.truth else "wrong"
    return f"sure {kind}" if confidence >= SURE_CARD else kind


def tally(frames: list[Seen], show: bool) -> None:
    """Print the figures of ``frames`` re-judged (and, with ``show``, each frame of a family
    not held out whose reading changed or is not surely right)."""
    config = cards.CardConfig()
    counts: Counter[str] = Counter()
    for frame in frames:
        reading = rejudge(config, frame)
        kind = outcome(frame, reading)
        counts[kind] += 1
        changed = reading != frame.reading
        counts["changed"] += changed
        if show and frame.family not in ("heldout", "unseen") and \
                (changed or kind != "sure right"):
            print(f"  seed {frame.seed}: {frame.truth} of {frame.face} -> {reading} "
                  f"({kind}; recorded {frame.reading})")
    total = len(frames)
    right = counts["right"] + counts["sure right"]
    wrong = counts["wrong"] + counts["sure wrong"]
    print(f"{frames[0].family if frames else '-'}: {total} frames; right {right} "
          f"({100 * right / max(total, 1):.1f}%), of them below {SURE_CARD} "
          f"{counts['right']}; wrong {wrong}, at {SURE_CARD} or more {counts['sure wrong']}; "
          f"unsure {counts['unsure']}, missed {counts['missed']}; readings changed "
          f"{counts['changed']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    recording = commands.add_parser("record", help="render, read and keep a family's frames")
    recording.add_argument("--family", choices=sorted(FAMILIES), default="tuning")
    recording.add_argument("--frames", type=int, default=1000)
    recording.add_argument("--first", type=int, default=0)
    recording.add_argument("--out", type=Path, required=True)
    judging = commands.add_parser("judge", help="re-judge kept frames with this judge")
    judging.add_argument("files", type=Path, nargs="+")
    judging.add_argument("--show", action="store_true",
                         help="list the frames not surely right (never the held-out or "
                         "unseen ones)")
    options = parser.parse_args()
    if options.command == "record":
        with options.out.open("wb") as file:
            pickle.dump(record(options.family, options.frames, options.first), file)
        return
    for path in options.files:
        with path.open("rb") as file:
            tally(pickle.load(file), options.show)


if __name__ == "__main__":
    main()
