"""Render dice tray frames once, then read them in seconds with any checkout's dice reader.

``bench/bench_dice.py`` renders every frame it reads, which takes most of its time; to compare
two versions of :mod:`vision.dice` (for speed, or to show that a change leaves every reading
alone) the same frames are read again and again. ``render`` renders the frames of
``bench/bench_dice.py`` (the same families, scenes and seeds: ``--frames`` still frames and
``--cocked-frames`` frames with cocked dice a family), finds the mat in each as the bench does,
and keeps the part of the frame the tray's warp can touch (its box in the frame and a margin),
the mat's location, the focal length the bench gives the reader and the truth; ``--check N``
reads the first ``N`` frames both whole and rebuilt from the cache and stops if any reading
differs. ``read`` reads the cached frames with this checkout's reader (or ``--tree``'s), and
with ``--against DIR`` also with that checkout's, each frame by both in turn (the first to go
alternates), after one warm-up read each; it prints every reading (value, confidence, colour,
centre in mat mm) and the processor ms of each tray, then per family the share read right,
the readings that differ between the two trees and the ratio of their processor times (a
ratio measured in one run holds on a machine busy with other work, which inflates both alike).
``--out FILE`` writes every tray's readings (every family, at full precision) to ``FILE``:
read one tree alone a process and compare two trees' files (two readers in one process share
some state a reading depends on, so ``--against`` is for timing, not for readings).
``count`` counts the instructions a tray's read takes (valgrind's callgrind, one OpenCV
thread; ``--limit`` trays spread over the cache, after a warm-up read), a measure the
machine's load leaves alone. ``functions`` splits those instructions by step (:data:`STEPS`,
marked on entry and exit as ``bench/bench_vision_work_functions.py`` does): per step and the
step it was called from, million instructions a tray, calls and million a call.

    .venv/bin/python bench/dice_cache.py render --out /tmp/dice-cache [--frames 120]
        [--cocked-frames 30] [--families tuning,heldout] [--check 4]
    .venv/bin/python bench/dice_cache.py read /tmp/dice-cache [--tree DIR] [--against DIR]
        [--quiet] [--show-heldout] [--out FILE]
    .venv/bin/python bench/dice_cache.py count /tmp/dice-cache [--tree DIR] [--against DIR]
        [--limit 40]
    .venv/bin/python bench/dice_cache.py functions /tmp/dice-cache [--limit 12]
        [--family tuning]

The held-out family's trays are printed one by one only with ``--show-heldout``: they are
never tuned on.
"""

from __future__ import annotations

import argparse
import math
import pickle
import shutil
import sys
import tempfile
import time
import zlib
from collections import Counter
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TypeVar

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_dice import FAMILIES, MATCH_MM, TrayReader, focal_for, reader_of
from bench.bench_vision_work import marker_counts
from bench.bench_vision_work_functions import inclusive_work, mark_entry_and_exit
from contract.observation import DieReading
from vision.markers import BoardLocation, find_board
from vision.parallax import camera_over_mat
from vision.read import VisionConfig
from vision.synth import render

T = TypeVar("T")
#: The steps of reading a tray whose instructions ``functions`` counts, in the order they run:
#: the whole read, the camera's pose, the lens's stand-in homography, the warps (the whole tray
#: at the segments' detail in ``explain_tray_in_frame``, each die's window at the pips' in
#: ``_read_face``), the dice found in the warped tray (``explain_dice``): its blur, the bodies
#: (and their log lookup), the felt's median (``median_colour`` in ``explain_dice``), the top
#: faces, then reading a face: pips spot by spot (the face's contrast, the peaks, the checks of
#: their layout) and the layout fitted as a whole.
STEPS = (
    "vision.dice.explain_tray_in_frame", "vision.camera_pose.camera_pose",
    "vision.rectify._lens_homography", "cv2.warpPerspective", "vision.dice.explain_dice",
    "cv2.GaussianBlur",
    "vision.dice_bodies.find_bodies", "cv2.LUT", "vision.dice_pips.median_colour",
    "vision.dice_faces.top_faces", "vision.dice._read_face", "vision.dice_pips.read_pips",
    "vision.dice_pips._face_contrast", "vision.dice_pips._strongest_spots",
    "vision.dice_pips._untrue_to_layout", "vision.dice_layout.fit_layout",
    "vision.dice_seam.read_own_part", "vision.dice_recentre.read_about_pips",
    "vision.dice_pips.spots_middle", "vision.dice_beside.read_beside",
    "vision.dice_beside.other_die", "vision.dice_side.telling_body",
    "vision.dice_side.cocked_by_side", "vision.dice_recentre.flat_about_pips",
    "vision.dice_layout.read_face_pips_placed",
)
#: Frame pixels kept around the tray's box in the frame: the warp's interpolation reaches a
#: pixel past it, the coarse warp's blocks a few more.
MARGIN_PX = 24


@dataclass(frozen=True)
class CachedTray:
    """One rendered frame's tray: the frame's ``part`` (the rest of the frame is black), its
    top-left corner ``corner`` (x, y) and the frame's ``size`` (width, height); the mat's
    location as found (its fields), the tray's ``bounds`` (mat mm), the ``focal`` length the
    reader is told and the ``truth`` (value or None for a cocked die, colour, centre mm)."""

    family: str
    seed: int
    cocked: bool
    part: np.ndarray
    corner: tuple[int, int]
    size: tuple[int, int]
    location: dict[str, object]
    bounds: tuple[float, float, float, float]
    focal: float | None
    truth: tuple[tuple[int | None, str, tuple[float, float]], ...]

    @property
    def name(self) -> str:
        """The tray's name, as the bench would list it."""
        return f"{self.family}-{'cocked' if self.cocked else 'still'}-{self.seed}"

    def frame(self) -> np.ndarray:
        """The frame rebuilt: the kept part in place, black elsewhere."""
        image = np.zeros((self.size[1], self.size[0], 3), np.uint8)
        x, y = self.corner
        image[y:y + self.part.shape[0], x:x + self.part.shape[1]] = self.part
        return image

    def board(self) -> BoardLocation:
        """The mat's location in the frame."""
        return BoardLocation(**self.location)  # type: ignore[arg-type]


def render_tray(family: str, seed: int, cocked: bool, camera: str = "calibrated"
                ) -> tuple[CachedTray, np.ndarray]:
    """The tray of the frame ``bench/bench_dice.py`` renders for ``family``'s ``seed`` (still or
    cocked), and the whole frame."""
    make = FAMILIES[family][0]
    scene = make(seed + (100_000 if cocked else 0), cocked)
    image = render(scene, seed).image
    location = find_board(VisionConfig().markers, image, scene.geometry)
    tray = next(region for region in scene.geometry.regions if region.kind == "tray")
    left, top, right, bottom = tray.shape.bounds()
    corners = location.to_image([(left, top), (right, top), (right, bottom), (left, bottom)])
    height, width = image.shape[:2]
    x0 = max(0, math.floor(corners[:, 0].min()) - MARGIN_PX)
    y0 = max(0, math.floor(corners[:, 1].min()) - MARGIN_PX)
    x1 = min(width, math.ceil(corners[:, 0].max()) + MARGIN_PX + 1)
    y1 = min(height, math.ceil(corners[:, 1].max()) + MARGIN_PX + 1)
    truth = tuple((die.value, die.colour, die.centre_mm) for die in scene.truth()["tray"].dice)
    cached = CachedTray(
        family, seed, cocked, np.ascontiguousarray(image[y0:y1, x0:x1]), (x0, y0),
        (width, height), {field.name: getattr(location, field.name)
                          for field in fields(location)},
        (left, top, right, bottom), focal_for(scene, camera), truth)
    return cached, image


def read_cached(reader: TrayReader, tray: CachedTray, image: np.ndarray | None = None
                ) -> tuple[tuple[DieReading, ...], float]:
    """``reader``'s dice in ``tray`` (its frame rebuilt, or ``image``) and the processor ms
    of the read (the camera placed over the mat included, as the bench times it)."""
    frame = tray.frame() if image is None else image
    location = tray.board()
    start = time.process_time()
    camera = camera_over_mat(location.homography, location.image_size)
    dice = reader(tray.focal, frame, location, tray.bounds, camera)
    return dice, (time.process_time() - start) * 1000


def render_all(folder: Path, families: list[str], frames: int, cocked_frames: int,
               check: int) -> None:
    """Render and keep every tray, each in its own pickle; read the first ``check`` of a
    family whole and rebuilt, and stop where they differ."""
    folder.mkdir(parents=True, exist_ok=True)
    reader = reader_of(None)
    for family in families:
        for index in range(frames + cocked_frames):
            cocked = index >= frames
            seed = index - frames if cocked else index
            tray, image = render_tray(family, seed, cocked)
            if index < check:
                whole, _ = read_cached(reader, tray, image)
                rebuilt, _ = read_cached(reader, tray)
                if whole != rebuilt:
                    raise SystemExit(f"{tray.name}: the cached part reads otherwise than the "
                                     f"whole frame: {whole} against {rebuilt}")
            with open(folder / f"{tray.name}.pickle", "wb") as file:
                # Plain fields, so that any script (not only this one as ``__main__``) loads it.
                pickle.dump({field.name: getattr(tray, field.name) for field in fields(tray)},
                            file, protocol=pickle.HIGHEST_PROTOCOL)
        print(f"{family}: {frames} still and {cocked_frames} cocked trays in {folder}",
              flush=True)


def load_all(folder: Path) -> list[CachedTray]:
    """The cached trays of ``folder``, by family, still before cocked, by seed."""
    trays = []
    for path in folder.glob("*.pickle"):
        with open(path, "rb") as file:
            trays.append(CachedTray(**pickle.load(file)))
    return sorted(trays, key=lambda tray: (tray.family, tray.cocked, tray.seed))


def reading_text(dice: tuple[DieReading, ...]) -> str:
    """Every reading of a tray, exactly (confidences and centres at full precision)."""
    return "; ".join(f"{die.value} {die.confidence!r} {die.colour} "
                     f"({die.centre_mm[0]!r}, {die.centre_mm[1]!r})" for die in dice) or "-"


def score(tray: CachedTray, dice: tuple[DieReading, ...], counts: Counter[str]) -> None:
    """Add ``dice`` read from ``tray`` to ``counts`` as ``bench/bench_dice.py`` does."""
    used: set[int] = set()
    for value, _, centre in tray.truth:
        near = [(math.dist(read.centre_mm, centre), number)
                for number, read in enumerate(dice) if number not in used]
        near = [item for item in near if item[0] < MATCH_MM]
        read = dice[min(near)[1]] if near else None
        if near:
            used.add(min(near)[1])
        kind = "cocked" if value is None else "still"
        counts[f"{kind} dice"] += 1
        if read is None:
            counts[f"{kind} missed"] += 1
        elif kind == "cocked":
            counts["cocked read as a value" if read.value is not None else "cocked None"] += 1
        elif read.value == value:
            counts["still right"] += 1
        elif read.value is None:
            counts["still None"] += 1
        else:
            counts["still wrong"] += 1


@dataclass
class Tally:
    """One family's figures: the bench's counts, this reader's processor ms a tray, the other
    reader's, and how many trays the two read differently."""

    counts: Counter[str]
    ms: list[float]
    other_ms: list[float]
    differ: int = 0

    def print(self, family: str, against: bool) -> None:
        """Print the figures."""
        counts = self.counts
        still = max(1, counts["still dice"])
        print(f"== {family}: {len(self.ms)} trays; still dice {counts['still dice']}: right "
              f"{counts['still right'] / still:.2%}, None {counts['still None']}, "
              f"wrong {counts['still wrong']}, missed {counts['still missed']}; "
              f"cocked dice {counts['cocked dice']}: read as a value "
              f"{counts['cocked read as a value']}")
        print(f"  processor ms a tray: median {np.median(self.ms):.2f}, p95 "
              f"{np.percentile(self.ms, 95):.2f}, total {sum(self.ms):.0f}")
        if against:
            print(f"  other tree: median {np.median(self.other_ms):.2f}, total "
                  f"{sum(self.other_ms):.0f}; ratio other/this "
                  f"{sum(self.other_ms) / max(1e-9, sum(self.ms)):.3f}; trays read "
                  f"differently {self.differ} of {len(self.ms)}")


def read_both(ours: TrayReader, theirs: TrayReader | None, tray: CachedTray, first: bool
              ) -> tuple[tuple[DieReading, ...], float, tuple[DieReading, ...] | None, float]:
    """``tray`` read by ``ours`` and ``theirs`` (when given; ours ``first`` or second): each
    reader's dice and processor ms."""
    other: tuple[DieReading, ...] | None = None
    other_ms = 0.0
    if theirs is not None and not first:
        other, other_ms = read_cached(theirs, tray)
    dice, ms = read_cached(ours, tray)
    if theirs is not None and first:
        other, other_ms = read_cached(theirs, tray)
    return dice, ms, other, other_ms


def read_all(folder: Path, tree: str | None, against: str | None, quiet: bool,
             show_heldout: bool, out: Path | None = None) -> None:
    """Read every cached tray with ``tree``'s reader (and ``against``'s) and print as the
    module's text says; given ``out``, write every tray's readings there too (one line a
    tray, every value, confidence, colour and centre exactly: two trees' files compared)."""
    trays = load_all(folder)
    if not trays:
        raise SystemExit(f"no cached trays in {folder}")
    ours = reader_of(tree)
    theirs = reader_of(against) if against else None
    # One warm-up read each: imports, caches and first-call set-up are not a tray's work.
    read_both(ours, theirs, trays[0], True)
    tallies: dict[str, Tally] = {}
    lines = []
    for number, tray in enumerate(trays):
        dice, ms, other, other_ms = read_both(ours, theirs, tray, number % 2 == 0)
        tally = tallies.setdefault(tray.family, Tally(Counter(), [], []))
        tally.ms.append(ms)
        tally.other_ms.append(other_ms)
        score(tray, dice, tally.counts)
        lines.append(f"{tray.name}: {reading_text(dice)}\n")
        same = other is None or other == dice
        tally.differ += not same
        if quiet or (tray.family == "heldout" and not show_heldout):
            continue
        timing = f"{ms:.2f} ms" + (f" (other {other_ms:.2f} ms)" if other is not None else "")
        print(f"{tray.name}: {timing}: {reading_text(dice)}")
        if other is not None and not same:
            print(f"  other reads: {reading_text(other)}")
    for family, tally in tallies.items():
        tally.print(family, theirs is not None)
    if out is not None:
        out.write_text("".join(lines))


def spread(items: list[T], limit: int) -> list[T]:
    """At most ``limit`` of ``items``, evenly spread over them (every family alike)."""
    return items[::max(1, math.ceil(len(items) / max(1, limit)))]


def read_marked(folder: Path, tree: str | None, limit: int) -> None:
    """Read ``limit`` cached trays (spread over them all) with ``tree``'s reader, after one
    warm-up read, each read between two marker calls (``zlib.adler32``) at which callgrind
    dumps its counts: what :func:`count_instructions` runs under valgrind."""
    import cv2

    cv2.setNumThreads(1)  # one thread: the same instructions from run to run
    trays = spread(load_all(folder), limit)
    reader = reader_of(tree)
    read_cached(reader, trays[0])
    for tray in trays:
        frame = tray.frame()
        zlib.adler32(b"start")
        read_cached(reader, tray, frame)
        zlib.adler32(b"stop")


def count_instructions(folder: Path, tree: str | None, limit: int) -> list[int]:
    """The instructions each of ``limit`` cached trays (spread over them all) takes to read with
    ``tree``'s reader, counted by valgrind's callgrind in one OpenCV thread."""
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed; install it (apt-get install valgrind)")
    counts = marker_counts([__file__, "marked", str(folder), "--limit", str(limit)]
                           + (["--tree", tree] if tree else []), "the reading")
    # A dump at each marker holds what ran since the one before: the start's the loading,
    # the stop's the read; the last two a tray are the markers' (anything before them is
    # start-up, where other code may call adler32 too).
    trays = len(spread(list(folder.glob("*.pickle")), limit))
    if len(counts) < 2 * trays:
        raise SystemExit(f"callgrind dumped {len(counts)} counts for {trays} trays")
    return counts[-2 * trays:][1::2]


def print_counts(folder: Path, tree: str | None, against: str | None, limit: int) -> None:
    """Print the instructions a tray takes with ``tree``'s reader (and ``against``'s)."""
    ours = count_instructions(folder, tree, limit)
    print(f"{tree or 'this checkout'}: {sum(ours) / len(ours) / 1e6:.2f} million instructions "
          f"a tray (mean of {len(ours)}; median {np.median(ours) / 1e6:.2f})")
    if against:
        theirs = count_instructions(folder, against, limit)
        print(f"{against}: {sum(theirs) / len(theirs) / 1e6:.2f} million instructions a tray "
              f"(median {np.median(theirs) / 1e6:.2f}); ratio {sum(theirs) / sum(ours):.3f}")


def read_steps(folder: Path, limit: int, family: str, names: Path) -> None:
    """Read ``limit`` cached trays of ``family`` (spread over them) after a warm-up read, with
    every function of :data:`STEPS` marked on entry and exit, each marker named by the function
    and the marked one it was called from; the names go to ``names`` in order (what
    :func:`print_steps` runs under valgrind)."""
    import cv2

    cv2.setNumThreads(1)  # one thread: the same instructions from run to run
    trays = spread([tray for tray in load_all(folder) if tray.family == family], limit)
    reader = reader_of(None)
    called: list[str] = []
    open_steps: list[str] = []
    active = False

    def mark(name: str) -> None:
        if name.startswith(">"):
            parent = open_steps[-1].rsplit(".", 1)[-1] if open_steps else ""
            open_steps.append(name[1:])
            name = f"{name} (in {parent})" if parent else name
        else:
            open_steps.pop()
        if active:
            called.append(name)
            zlib.adler32(name.encode())

    for path in STEPS:
        mark_entry_and_exit(path, mark)
    read_cached(reader, trays[0])
    frames = [tray.frame() for tray in trays]
    active = True
    zlib.adler32(b"start")
    for tray, frame in zip(trays, frames, strict=True):
        called.append(">tray")
        zlib.adler32(b">tray")
        read_cached(reader, tray, frame)
        called.append("<tray")
        zlib.adler32(b"<tray")
    names.write_text("\n".join(called))


def print_steps(folder: Path, limit: int, family: str) -> None:
    """Print per step of :data:`STEPS` (and the step it was called from) the million
    instructions a tray, its calls and the million a call, over ``limit`` trays of ``family``."""
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed; install it (apt-get install valgrind)")
    with tempfile.TemporaryDirectory() as name:
        names_path = Path(name) / "names"
        counts = marker_counts([__file__, "marked-steps", str(folder), "--limit", str(limit),
                                "--family", family, "--names", str(names_path)], "the steps")
        names = names_path.read_text().splitlines()
    # The last dumps are the markers' (the one at "start" holds all before it), in order.
    work, calls = inclusive_work(names, counts[-len(names):])
    trays = calls["tray"]
    if not trays:
        raise SystemExit(f"no {family} trays in {folder}")
    print(f"{trays} {family} trays of {folder}: {work['tray'] / trays / 1e6:.2f} million "
          "instructions a tray (markers included)")
    print("   M a tray  calls  M a call  step (in the step it was called from)")
    for step in ["tray", *STEPS]:
        rows = [(count, function) for function, count in work.items()
                if function == step or function.startswith(step + " (")]
        for count, function in sorted(rows, reverse=True):
            print(f"{count / trays / 1e6:11.2f} {calls[function]:6d} "
                  f"{count / calls[function] / 1e6:9.2f}  {function}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("render", help="render and keep the trays")
    make.add_argument("--out", type=Path, required=True)
    make.add_argument("--frames", type=int, default=120, help="still frames a family")
    make.add_argument("--cocked-frames", type=int, default=30,
                      help="frames with cocked dice a family")
    make.add_argument("--families", default="tuning,heldout")
    make.add_argument("--check", type=int, default=4,
                      help="frames a family read both whole and rebuilt")
    read = commands.add_parser("read", help="read the kept trays")
    read.add_argument("folder", type=Path)
    read.add_argument("--tree", default=None, help="the checkout whose reader reads "
                      "(this one by default)")
    read.add_argument("--against", default=None, help="another checkout read in turn")
    read.add_argument("--quiet", action="store_true", help="figures only, no tray by tray")
    read.add_argument("--show-heldout", action="store_true",
                      help="list held-out trays one by one too (never to tune on)")
    read.add_argument("--out", type=Path, default=None,
                      help="write every tray's readings (all families) to this file")
    count = commands.add_parser("count", help="count the instructions of reading the trays")
    count.add_argument("folder", type=Path)
    count.add_argument("--tree", default=None, help="the checkout whose reader is counted")
    count.add_argument("--against", default=None, help="another checkout counted too")
    count.add_argument("--limit", type=int, default=40,
                       help="trays counted (spread over them all)")
    steps = commands.add_parser(
        "functions", help="count the instructions of each step of reading the trays",
        description="Per step of reading a tray (camera pose, lens homography, warps, blur, "
        "bodies, log lookup, felt median, top faces, reading a face and its parts), and the "
        "step it was called from: million instructions a tray, calls and million "
        "instructions a call, counted by callgrind with a marker on entry to and exit from "
        "each step, over --limit trays of --family spread over the cache.")
    steps.add_argument("folder", type=Path)
    steps.add_argument("--limit", type=int, default=12,
                       help="trays counted (spread over the family's)")
    steps.add_argument("--family", default="tuning", help="the family whose trays are read")
    marked_steps = commands.add_parser("marked-steps")
    marked_steps.add_argument("folder", type=Path)
    marked_steps.add_argument("--limit", type=int, default=12)
    marked_steps.add_argument("--family", default="tuning")
    marked_steps.add_argument("--names", type=Path, required=True)
    marked = commands.add_parser("marked")
    marked.add_argument("folder", type=Path)
    marked.add_argument("--tree", default=None)
    marked.add_argument("--limit", type=int, default=40)
    options = parser.parse_args()
    if options.command == "count":
        print_counts(options.folder, options.tree, options.against, options.limit)
    elif options.command == "functions":
        print_steps(options.folder, options.limit, options.family)
    elif options.command == "marked-steps":
        read_steps(options.folder, options.limit, options.family, options.names)
    elif options.command == "marked":
        read_marked(options.folder, options.tree, options.limit)
    elif options.command == "render":
        render_all(options.out, options.families.split(","), options.frames,
                   options.cocked_frames, options.check)
    else:
        read_all(options.folder, options.tree, options.against, options.quiet,
                 options.show_heldout, options.out)


if __name__ == "__main__":
    main()
