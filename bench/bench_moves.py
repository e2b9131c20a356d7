"""`companion rules moves` and `perft 1` on transplant positions with about 16 empty squares
(issue 18, item 10): wall time, time to the first move, moves printed and the child process's
peak memory. Figures are printed, not asserted.

Run: .venv/bin/python bench/bench_moves.py [--root DIR] [--timeout S]
``--root`` runs another checkout's ``companion`` (e.g. an unpacked older commit) on the same
positions, for a before/after comparison.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import NamedTuple

#: A first turn under transplant, 17 empty squares (18 coins taken): the open penny and nickel
#: regions give 792,664 distinct moves from only 21 distinct paths.
OPEN_BOARD = {
    "game": "coin-isolation", "variants": ["transplant"], "players": 2,
    "sides": {"1": "south", "2": "north"}, "to_move": 1,
    "squares": {
        "a1": "D", "b1": "N", "c1": "N", "d1": "P", "e1": "N", "f1": "N", "h1": "N", "c2": "D",
        "f2": "N", "g2": "D", "h2": "N", "a3": "P", "b3": "D", "d3": "P", "f3": "P", "g3": "N",
        "h3": "N", "b4": "N", "d4": "P", "f4": "Q", "g4": "N", "b5": "D", "c5": "Q", "d5": "P",
        "e5": "P", "f5": "N", "g5": "N", "h5": "D", "b6": "P", "c6": "Q", "d6": "P", "e6": "P",
        "f6": "P", "g6": "N", "h6": "N", "c7": "D", "e7": "N", "g7": "P", "h7": "P", "a8": "P",
        "b8": "P", "c8": "Q", "d8": "N", "e8": "N", "f8": "P", "g8": "P",
    },
    "pawns": {"1": None, "2": "a4"},
    "taken": {"1": "DDDNNNPPP", "2": "DDNNNPPPP"},
    "passes": 0, "last_taker": 2, "take_order": [2, 1],
}  # fmt: skip
#: The same board under transplant-variant-variant with diagonal adjacency.
DIAGONAL_TVV = {**OPEN_BOARD, "variants": ["diagonal", "transplant-variant-variant"]}
POSITIONS = {"transplant, 17 empty": OPEN_BOARD, "diagonal tvv, 17 empty": DIAGONAL_TVV}


class Run(NamedTuple):
    """One command's figures."""

    seconds: float
    first: float
    lines: int
    size: int
    peak_mb: float
    status: str


def run(root: Path, args: list[str], timeout: float) -> Run:
    """Run ``companion ARGS`` from ``root``: wall time, first-output time, output size and the
    child's peak resident memory (from ``os.wait4``)."""
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "companion", *args], cwd=root,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert process.stdout is not None
    timer = threading.Timer(timeout, process.kill)  # also when nothing is printed until the end
    timer.start()
    first = None
    lines = size = 0
    for line in process.stdout:
        if first is None:
            first = time.perf_counter() - start
        lines += 1
        size += len(line)
    timer.cancel()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return Run(time.perf_counter() - start, first or 0.0, lines, size, usage.ru_maxrss / 1024,
               "ok" if process.returncode == 0 else "stopped")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="seconds before a command is stopped (default 60)")
    options = parser.parse_args()
    floor = run(options.root, ["--version"], options.timeout)
    print(f"companion --version: peak RSS {floor.peak_mb:.0f} MB (the floor of the figures "
          "below: a child's ru_maxrss starts at its parent's size when it was forked)")
    with tempfile.TemporaryDirectory() as folder:
        for name, position in POSITIONS.items():
            path = Path(folder) / "position.json"
            path.write_text(json.dumps(position))
            moves = run(options.root, ["rules", "moves", str(path)], options.timeout)
            print(f"{name}: rules moves {moves.seconds:.1f} s, first output after "
                  f"{moves.first:.2f} s, {moves.lines} lines, {moves.size / 1e6:.0f} MB printed, "
                  f"peak RSS {moves.peak_mb:.0f} MB ({moves.status})")
            perft = run(options.root, ["rules", "perft", str(path), "1"], options.timeout)
            print(f"{name}: rules perft 1 {perft.seconds:.1f} s, peak RSS {perft.peak_mb:.0f} MB "
                  f"({perft.status})")


if __name__ == "__main__":
    main()
