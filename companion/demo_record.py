"""What a demo keeps in its game record and reads back from it: its settings (to resume with
the same bots and seed), the moves that stand, the positions played, and its summary."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.games.base import Position
from companion.record.replay import load_timeline

if TYPE_CHECKING:
    from companion.demo import DemoOptions, DemoReport

#: Header option under which a demo game keeps its settings, so ``--resume`` plays on the same.
HEADER_KEY = "demo"


def write_summary(path: Path, report: DemoReport, extra: Mapping[str, Any]) -> None:
    """Write the demo's summary JSON."""
    path.write_text(json.dumps({**report.to_json(), **extra}, indent=2) + "\n")


def accepted_moves(record: Path) -> list[str]:
    """The line of play standing in a game record, as ``player: move`` (passes included)."""
    timeline = load_timeline(record)
    return [f"{step.event.player}: {step.event.move}" for step in timeline.standing_steps()]


def standing_positions(record: Path) -> set[Position]:
    """The positions a recorded game has stood in: its start and the position after each
    standing move and pass."""
    timeline = load_timeline(record)
    return {timeline.start_of_play(), *(step.position for step in timeline.standing_steps())}


def resumed_options(record: Path, options: DemoOptions) -> tuple[DemoOptions, int]:
    """The demo settings kept in a record's header (bots, seed, sloppiness) over ``options``,
    with the number of players."""
    header = load_timeline(record).header
    kept = header.options.get(HEADER_KEY, {})
    if isinstance(kept, dict):
        options = replace(
            options,
            bots=tuple(kept.get("bots", options.bots)),
            seed=int(kept.get("seed", options.seed)),
            sloppy_rate=float(kept.get("sloppy_rate", options.sloppy_rate)),
            plain_camera=bool(kept.get("plain_camera", options.plain_camera)),
            camera_size=_size(kept.get("camera_size", options.camera_size)),
        )
    return options, header.players


def _size(value: Any) -> tuple[int, int] | None:
    if value is None:
        return None  # the camera advised for the mat
    width, height = value
    return int(width), int(height)
