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
