"""What the cache benches share: pairing one tree's readings of cached frames with another's."""

from __future__ import annotations

import argparse
import pickle
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

Row = dict[str, Any]


def changed_readings(rows: Sequence[Row], baseline: Sequence[Row], key: Sequence[str],
                     compared: Sequence[str]) -> Iterator[tuple[Row, Row]]:
    """Each (baseline row, row) of the same ``key`` fields whose ``compared`` fields differ;
    rows the baseline lacks are skipped (it read fewer frames)."""
    before = {tuple(row[field] for field in key): row for row in baseline}
    for row in rows:
        old = before.get(tuple(row[field] for field in key))
        if old is not None and any(old[field] != row[field] for field in compared):
            yield old, row


def cache_bench_parser(description: str, frames: int, unit: str) -> argparse.ArgumentParser:
    """The options every cache bench takes: render frames once into a folder, or read them
    with the tree on PYTHONPATH, writing each ``unit``'s reading or comparing with another's."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("action", choices=("render", "read"),
                        help="render the bench's frames into --folder, or read them")
    parser.add_argument("--folder", type=Path, required=True, help="where the frames are kept")
    parser.add_argument("--frames", type=int, default=frames, help="how many seeds")
    parser.add_argument("--start", type=int, default=0, help="the first seed's offset")
    parser.add_argument("--heldout", action="store_true", help="the held-out seeds")
    parser.add_argument("--out", type=Path, help=f"where read writes every {unit}'s reading")
    parser.add_argument("--against", type=Path,
                        help="a file --out wrote (another tree's readings) to list changes from")
    return parser


def seeds_to_render(folder: Path, seeds: range) -> Iterator[tuple[int, Path]]:
    """Each seed of ``seeds`` with no frame in ``folder`` yet, with the file its frame goes to."""
    folder.mkdir(parents=True, exist_ok=True)
    for seed in seeds:
        path = folder / f"{seed}.pkl"
        if not path.exists():
            yield seed, path


def store_frame(path: Path, record: dict[str, Any]) -> None:
    """Pickle a rendered frame's ``record`` whole or not at all, so a stopped render leaves
    no half-written frame to be read."""
    partial = path.with_suffix(".part")
    with partial.open("wb") as handle:
        pickle.dump(record, handle)
    partial.rename(path)
