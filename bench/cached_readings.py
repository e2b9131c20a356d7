"""What the cache benches share: pairing one tree's readings of cached frames with another's."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
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
