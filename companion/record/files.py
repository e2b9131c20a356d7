"""The journal's file operations: an exclusive append lock, durable side files, folder fsyncs.

Kept apart from :mod:`companion.record.journal` so the writer reads as what it records; every
function here works on paths and descriptors only.
"""

from __future__ import annotations

import os
from pathlib import Path

from companion.record.entries import utc_now
from companion.record.errors import JournalLockedError, RecordError


def open_locked(path: Path) -> int:
    """Open the journal for appending and take an exclusive, non-blocking lock on it."""
    descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on POSIX: no lock, one writer by convention
        return descriptor
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(descriptor)
        raise JournalLockedError(
            f"{path} is being written by another running companion; stop it first."
        ) from None
    return descriptor


def set_aside_tail(path: Path, descriptor: int, intact_length: int) -> Path | None:
    """Copy the bytes after ``intact_length`` into a new side file, make it durable, then cut
    them from the journal. Returns the side file, or None when there is no tail.

    The copy is fsynced before the journal is cut, so a crash in between leaves the tail in both
    places (a later resume copies it again) and never in neither.
    """
    size = os.fstat(descriptor).st_size
    if size <= intact_length:
        return None
    with path.open("rb") as journal:
        journal.seek(intact_length)
        tail = journal.read()
    side = write_side_file(path, tail)
    os.ftruncate(descriptor, intact_length)
    os.fsync(descriptor)
    return side


def write_side_file(path: Path, data: bytes) -> Path:
    """Write ``data`` to ``journal.jsonl.damaged-<UTC time>`` (a new name) and fsync it."""
    stamp = utc_now().replace("-", "").replace(":", "").replace(".", "")[:15] + "Z"
    for attempt in range(1000):
        side = path.with_name(f"{path.name}.damaged-{stamp}" + (f"-{attempt}" if attempt else ""))
        try:
            descriptor = os.open(side, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            continue
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(descriptor, view) :]
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
        fsync_folder(path.parent)
        return side
    raise RecordError(f"cannot find a free name beside {path} for its damaged tail.")


def fsync_folder(folder: Path) -> None:
    """Make a new file's directory entry durable too (POSIX; a no-op where unsupported)."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - e.g. Windows cannot open folders
        return
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
