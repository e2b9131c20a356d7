"""The Jokers and Coins ring bench on frames rendered once: read the same cached frames with two
trees.

``bench/bench_ring_read.py`` renders every frame before it reads it; on a shared machine a run
of both a branch and its baseline takes most of an hour. Here ``render`` draws the frames of a
seed range once into a folder (one pickle a seed: the image and what each region holds, drawn
exactly as the bench draws them), and ``read`` reads them with the tree on ``PYTHONPATH`` the
bench's two ways (the whole mat, and the regions the table judges; scored as the referee
judges them, ``GAME.judged_observation``, as the bench does), prints the bench's accuracy
figures per way and writes every track space's reading to a JSON file. Given ``--against``
(another run's JSON, e.g. the baseline's on the same frames), it lists the spaces whose reading
differs. Figures equal ``bench_ring_read.py``'s over the same seeds (checked on tuning seeds
0-9 at 0bbad0e: the same 1 of 952 spaces wrong both ways, 3 of 40 supply cups wrong).

    PYTHONPATH=. .venv/bin/python bench/ring_read_cache.py render --folder F --frames 80
        [--heldout] [--start 0]
    PYTHONPATH=. .venv/bin/python bench/ring_read_cache.py read --folder F --frames 80
        [--heldout] [--start 0] [--way judged] [--out readings.json] [--against baseline.json]
"""

from __future__ import annotations

import json
import pickle
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.append(str(Path(__file__).resolve().parents[1]))  # after PYTHONPATH: its tree reads

from bench.bench_ring_read import (
    HELDOUT_FIRST,
    Tally,
    random_position,
    reading_profile,
    score,
    table_scene,
)
from bench.cached_readings import (
    cache_bench_parser,
    changed_readings,
    seeds_to_render,
    store_frame,
)
from calibration.geometry import MatGeometry, mat_for_game
from companion.games.jokers_and_coins import GAME
from companion.judged_regions import judged_geometry
from companion.judging import UNSURE_CONFIDENCE
from vision.read import VisionConfig, read_frame_details
from vision.synth import render

#: The camera frame the bench draws (its default ``--size``).
IMAGE_SIZE = (1920, 1080)
#: The bench's two ways of reading a frame.
WAYS = ("whole mat", "judged regions")


def seats(seed: int) -> int:
    """How many seats the bench's frame of ``seed`` has (2 to 6 in turn)."""
    return 2 + seed % 5


def render_frames(folder: Path, seeds: range) -> None:
    """Draw every frame of ``seeds`` not yet in ``folder``."""
    for seed, path in seeds_to_render(folder, seeds):
        players = seats(seed)
        geometry = mat_for_game(GAME.info.mat, players=players)
        position = random_position(seed, players)
        frame = render(table_scene(seed, position, geometry, IMAGE_SIZE), seed)
        truth = {name: (real.coins, real.pawn, real.top) for name, real in frame.truth.items()}
        store_frame(path, {"image": frame.image, "truth": truth})


def _truth_frame(truth: dict[str, tuple[str, str | None, str | None]]) -> SimpleNamespace:
    """An object with the ``truth`` the bench's scoring reads (each region's coins, pawn, top)."""
    regions = {name: SimpleNamespace(coins=coins, pawn=pawn, top=top)
               for name, (coins, pawn, top) in truth.items()}
    return SimpleNamespace(truth=regions)


def _ways(seed: int, geometry: MatGeometry, names: tuple[str, ...]) -> dict[str, MatGeometry]:
    """The mats of the ways of reading ``names`` for the frame of ``seed``."""
    mats = {"whole mat": geometry}
    if "judged regions" in names:
        position = random_position(seed, seats(seed))
        mats["judged regions"] = judged_geometry(geometry, GAME, position)
    return {name: mats[name] for name in names}


def read_frames(folder: Path, seeds: range,
                names: tuple[str, ...]) -> tuple[dict[str, Tally], list[dict[str, Any]]]:
    """Each way's tally over the cached frames of ``seeds``, and every track space as read."""
    config = VisionConfig()
    tallies = {name: Tally() for name in names}
    rows: list[dict[str, Any]] = []
    for seed in seeds:
        with (folder / f"{seed}.pkl").open("rb") as handle:
            data = pickle.load(handle)
        geometry = mat_for_game(GAME.info.mat, players=seats(seed))
        profile = reading_profile(seats(seed))
        frame = _truth_frame(data["truth"])
        for name, mat in _ways(seed, geometry, names).items():
            observation = GAME.judged_observation(
                read_frame_details(config, data["image"], mat, profile).observation)
            tally = tallies[name]
            tally.frames += 1
            wrong = score(frame, observation.regions, geometry, tally)  # type: ignore[arg-type]
            tally.frames_right += not wrong
            for region in geometry.regions:
                got = observation.regions.get(region.name)
                if region.kind != "track" or got is None:
                    continue
                truth = frame.truth[region.name]
                rows.append({"seed": seed, "seats": seats(seed), "way": name,
                             "region": region.name, "truth": [truth.top, truth.pawn],
                             "read": [got.coin, got.pawn],
                             "confidence": round(float(got.confidence), 3)})
    return tallies, rows


def report(name: str, tally: Tally) -> None:
    """The bench's accuracy figures of one way (no timings: the frames are read untimed)."""
    share = 100 * tally.wrong / max(tally.spaces, 1)
    print(f" {name}:")
    print(f"  spaces wrong: {tally.wrong} of {tally.spaces} ({share:.3f} %), {tally.sure_wrong} "
          f"of them at confidence >= {UNSURE_CONFIDENCE}; {tally.held} spaces held a coin or "
          "a token")
    print(f"  frames entirely right: {tally.frames_right} of {tally.frames}")
    print(f"  token spaces: {tally.token_spaces}, tokens wrong: {tally.tokens_wrong}")
    if tally.cups:
        print(f"  supply cups wrong (count or kinds): {tally.cups_wrong} of {tally.cups}")


def differences(rows: list[dict[str, Any]], baseline: list[dict[str, Any]]) -> list[str]:
    """The spaces read otherwise (coin, token or confidence) than in ``baseline``."""
    return [f"seed {row['seed']} ({row['way']}) {row['region']} holds {row['truth']}: "
            f"{old['read']} ({old['confidence']:.2f}) -> {row['read']} "
            f"({row['confidence']:.2f})"
            for old, row in changed_readings(rows, baseline, ("seed", "way", "region"),
                                             ("read", "confidence"))]


def main() -> None:
    parser = cache_bench_parser(__doc__.splitlines()[0], frames=80, unit="space")
    parser.add_argument("--way", choices=("both", "whole", "judged"), default="both",
                        help="read the whole mat, the judged regions, or both")
    parser.add_argument("--verbose", action="store_true", help="print every wrong space")
    args = parser.parse_args()
    first = (HELDOUT_FIRST if args.heldout else 0) + args.start
    seeds = range(first, first + args.frames)
    if args.action == "render":
        render_frames(args.folder, seeds)
        return
    names = WAYS if args.way == "both" else {"whole": WAYS[:1], "judged": WAYS[1:]}[args.way]
    tallies, rows = read_frames(args.folder, seeds, names)
    if args.out is not None:
        args.out.write_text(json.dumps(rows))
    print(f"[ring spaces, cached, {'held-out' if args.heldout else 'tuning'} seeds "
          f"{seeds.start}..{seeds.stop - 1}, 2-6 seats, {IMAGE_SIZE[0]}x{IMAGE_SIZE[1]}]")
    for name, tally in tallies.items():
        report(name, tally)
    if args.verbose:
        for row in rows:
            if row["truth"] != row["read"]:
                print(f"    seed {row['seed']} ({row['seats']} seats, {row['way']}) "
                      f"{row['region']}: {row['truth']} read {row['read']} "
                      f"({row['confidence']:.2f})")
    if args.against is not None:
        for line in differences(rows, json.loads(args.against.read_text())):
            print("    " + line)


if __name__ == "__main__":
    main()
