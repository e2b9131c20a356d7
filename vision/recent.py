"""The last few results worked out for one image object, so that a step asked twice for the
same image and the same question (a dice face read, then read again about another middle in
the same window) is worked out once.

Each result is kept with the image itself (held, so that no other array can take its place
at its address) and the question's key (compared with ``==``, each item first by identity,
as tuples compare), newest first; a result is only found again for that very object, so an
image changed in place after a result was kept would be answered wrongly: the dice reader's
windows are never changed in place.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

Result = TypeVar("Result")


class RecentResults(Generic[Result]):
    """The ``kept`` newest results, each for an image object and a key."""

    def __init__(self, kept: int) -> None:
        self.kept = kept
        self._entries: list[tuple[object, object, Result]] = []

    def get(self, image: object, key: object, work: Callable[[], Result]) -> Result:
        """The result kept for ``image`` (that very object) and ``key``; else ``work()``,
        kept as the newest."""
        for seen, seen_key, result in self._entries:
            if seen is image and seen_key == key:
                return result
        result = work()
        self._entries.insert(0, (image, key, result))
        del self._entries[self.kept:]
        return result


__all__ = ["RecentResults"]
