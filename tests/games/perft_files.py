"""Reading the golden perft files every game keeps under tests/data/<game>/*.perft: an ``id``
line, a ``position`` line of JSON, then ``perft DEPTH COUNT`` lines."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def read_perft_files(folder: Path) -> list[dict[str, Any]]:
    """Every case in ``folder``: its id (file stem / id), position and (depth, count) pairs."""
    cases: list[dict[str, Any]] = []
    for path in sorted(folder.glob("*.perft")):
        case: dict[str, Any] = {}
        for line in path.read_text().splitlines():
            if line.startswith("id "):
                case = {"id": f"{path.stem}/{line[3:]}", "counts": []}
                cases.append(case)
            elif line.startswith("position "):
                case["position"] = json.loads(line[len("position "):])
            elif line.startswith("perft "):
                _, depth, count = line.split()
                case["counts"].append((int(depth), int(count)))
    return cases


def write_perft_files(folder: Path, cases: dict[str, list[tuple[str, Any, int]]], game: Any,
                      naive_perft: Any, naive_limit: int, heading: str,
                      names: list[str]) -> None:
    """Write ``folder/<name>.perft`` for each named group of (id, position, depth) cases (all
    groups when ``names`` is empty): the engine's counts at every depth, each count up to
    ``naive_limit`` checked against ``naive_perft`` first. ``heading`` is the comment line,
    with ``{name}`` in it."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, group in cases.items():
        if names and name not in names:
            continue
        lines = [f"# {heading.format(name=name)}"]
        for case_id, position, depth in group:
            lines += ["", f"id {case_id}", f"position {position.canonical_json()}"]
            for level in range(1, depth + 1):
                count = game.perft(position, level)
                if count <= naive_limit:
                    assert naive_perft(position.to_json(), level) == count, (case_id, level)
                lines.append(f"perft {level} {count}")
                print(case_id, level, count, flush=True)
        (folder / f"{name}.perft").write_text("\n".join(lines) + "\n")
