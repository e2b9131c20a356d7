"""`companion rules perft` as a user runs it, a whole process each (start-up, reading and
checking the position file, the time estimate, the count): leaves, processor seconds of the
child process (from ``os.wait4``) and leaves per processor second, for this checkout and, with
``--baseline DIR``, another one on the same positions in the same run, interleaved, with the
ratio. Wall times are printed too, but on a shared machine processor time is the fairer figure.

Run: PYTHONPATH=. .venv/bin/python bench/bench_perft_process.py [--baseline DIR] [--repeat N]
    [--only GAME]

The child processes may write bytecode caches (``__pycache__``), as an installed package has
them: otherwise every run would compile the sources again. A first untimed run per checkout
and case warms them. Leaves must agree between the checkouts, else the bench stops.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.games.perft_files import read_perft_files  # noqa: E402


class Case(NamedTuple):
    """One perft: a label, its game, the position's JSON object and the depth."""

    label: str
    game: str
    position: dict[str, object]
    depth: int


class Run(NamedTuple):
    """One child process: its printed count, processor and wall seconds."""

    leaves: int
    processor: float
    wall: float


def golden(game: str, case_id: str) -> dict[str, object]:
    """The position of a golden perft case of ``game`` (``file/id``)."""
    for case in read_perft_files(ROOT / "tests" / "data" / game):
        if case["id"] == case_id:
            position: dict[str, object] = case["position"]
            return position
    raise SystemExit(f"no golden case {case_id!r} for {game}")


def cases() -> list[Case]:
    """Coin Isolation's orthogonal starts at depth 4 (the issue's target), a diagonal start,
    and a golden start of every other game at a depth of about a second or more."""
    from companion.games.coin_isolation import GAME

    found = [Case(f"coin-isolation orthogonal start seed {seed}, depth 4", "coin-isolation",
                  GAME.new_position(2, seed=seed).to_json(), 4) for seed in (1, 2, 3)]
    found.append(Case("coin-isolation diagonal start seed 2, depth 2", "coin-isolation",
                      GAME.new_position(2, ["diagonal"], seed=2).to_json(), 2))
    found.append(Case("coin-isolation 4 players seed 3 (golden), depth 3", "coin-isolation",
                      golden("coin-isolation", "standard/start-4p-seed3"), 3))
    found.append(Case("coin-grid start (golden), depth 5", "coin-grid",
                      golden("coin-grid", "start/start"), 5))
    found.append(Case("jokers-and-coins four players (golden), depth 5", "jokers-and-coins",
                      golden("jokers-and-coins", "start/four-players"), 5))
    found.append(Case("shakala start (golden), depth 4", "shakala",
                      golden("shakala", "start/start"), 4))
    return found


def timed(root: Path, position_file: Path, depth: int) -> Run:
    """One child process, reaped here so that its own resource usage is read."""
    environment = {**os.environ, "PYTHONPATH": str(root)}
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryFile() as output:
        start = time.perf_counter()
        process = subprocess.Popen(
            [sys.executable, "-m", "companion", "rules", "perft", str(position_file),
             str(depth)], cwd=root, env=environment, stdout=output, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        output.seek(0)
        text = output.read().decode()
    if process.returncode != 0:
        raise SystemExit(f"companion rules perft failed in {root}")
    return Run(int(text.split()[-1]), usage.ru_utime + usage.ru_stime, wall)


#: Run in a child process of each checkout: read the position, then time perft alone.
ENGINE_ONLY = """
import sys, time
from companion.games.position_file import read_position_file
game, position = read_position_file(sys.argv[1])
start = time.process_time()
leaves = game.perft(position, int(sys.argv[2]))
print(leaves, time.process_time() - start)
"""


def engine_only(root: Path, position_file: Path, depth: int) -> tuple[int, float]:
    """Leaves and processor seconds of ``game.perft`` alone (no start-up) in ``root``."""
    environment = {**os.environ, "PYTHONPATH": str(root)}
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    output = subprocess.run([sys.executable, "-c", ENGINE_ONLY, str(position_file), str(depth)],
                            cwd=root, env=environment, capture_output=True, text=True,
                            check=True).stdout.split()
    return int(output[0]), float(output[1])


def median_run(runs: list[Run]) -> Run:
    """The median processor and wall time of some runs of one case."""
    return Run(runs[0].leaves, statistics.median(run.processor for run in runs),
               statistics.median(run.wall for run in runs))


def line(name: str, figures: Run) -> str:
    return (f"  {name}: {figures.leaves:,} leaves, {figures.processor:.3f} s processor "
            f"({figures.leaves / figures.processor:,.0f} leaves/s), {figures.wall:.3f} s wall "
            f"({figures.leaves / figures.wall:,.0f} leaves/s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, help="another checkout to compare with")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per case (median)")
    parser.add_argument("--only", help="only the cases of this game")
    options = parser.parse_args()
    roots = {"this checkout": ROOT}
    if options.baseline:
        roots["baseline"] = options.baseline.resolve()
    with tempfile.TemporaryDirectory() as folder:
        for number, case in enumerate(cases()):
            if options.only and case.game != options.only:
                continue
            position_file = Path(folder) / f"case{number}.json"
            position_file.write_text(json.dumps(case.position))
            for root in roots.values():
                timed(root, position_file, 0)  # warms the bytecode caches
            runs: dict[str, list[Run]] = {name: [] for name in roots}
            for _ in range(options.repeat):
                for name, root in roots.items():
                    runs[name].append(timed(root, position_file, case.depth))
            figures = {name: median_run(found) for name, found in runs.items()}
            if len({figure.leaves for figure in figures.values()}) != 1:
                raise SystemExit(f"{case.label}: the checkouts count differently: {figures}")
            print(case.label, flush=True)
            for name, figure in figures.items():
                print(line(name, figure), flush=True)
            engine = {name: engine_only(root, position_file, case.depth)
                      for name, root in roots.items()}
            for name, (leaves, seconds) in engine.items():
                print(f"  {name}, perft alone: {seconds:.3f} s processor "
                      f"({leaves / seconds:,.0f} leaves/s)", flush=True)
            if "baseline" in figures:
                ours, theirs = figures["this checkout"], figures["baseline"]
                print(f"  ratio: {theirs.processor / ours.processor:.2f}x processor, "
                      f"{theirs.wall / ours.wall:.2f}x wall as a whole process; "
                      f"{engine['baseline'][1] / engine['this checkout'][1]:.2f}x perft alone",
                      flush=True)


if __name__ == "__main__":
    main()
