"""The review kept beside the journal (``review.json``), so that ``companion export`` writes
its comments into ``game.txt`` whenever a review exists.

Each comment is stored with its journal event's number and the state hash after it; the
export uses only the comments whose event still replays to that state, so a review of a game
that went on afterwards (or a journal changed since) never comments the wrong move.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path

from companion.record.errors import RecordError
from companion.record.replay import GameTimeline

REVIEW_NAME = "review.json"
FORMAT_VERSION = 1


def review_path(folder: str | os.PathLike[str]) -> Path:
    """Where a game folder's review comments are kept."""
    return Path(folder) / REVIEW_NAME


def save_comments(folder: str | os.PathLike[str], comments: Mapping[int, str],
                  hashes: Mapping[int, str], settings: str) -> Path:
    """Write the comments (by event number) with the state hash after each event."""
    target = review_path(folder)
    data = {"format": FORMAT_VERSION, "settings": settings,
            "comments": [{"event": number, "state_hash": hashes[number], "text": text}
                         for number, text in sorted(comments.items())]}
    try:
        target.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    except OSError as error:
        raise RecordError(f"cannot write the review to {target}: {error.strerror}.") from None
    return target


def load_comments(folder: str | os.PathLike[str], timeline: GameTimeline) -> dict[int, str]:
    """The stored comments that still fit the journal, by event number; empty when there is
    no review, or it cannot be read (the export then goes on without it)."""
    try:
        data = json.loads(review_path(folder).read_text(encoding="utf-8"))
        entries = data["comments"] if data.get("format") == FORMAT_VERSION else []
        stored = {int(entry["event"]): (str(entry["state_hash"]), str(entry["text"]))
                  for entry in entries}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}
    hashes = {step.event.number: str(step.position.state_hash()) for step in timeline.steps}
    return {number: text for number, (state_hash, text) in stored.items()
            if hashes.get(number) == state_hash}
