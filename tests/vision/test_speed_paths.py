"""The shortcuts taken for speed give what the plain computations give."""

from __future__ import annotations

import sys

from vision.allocator import keep_freed_memory


def test_allocator_tuning_is_applied_once_and_harmless() -> None:
    first = keep_freed_memory()
    assert keep_freed_memory() is first
    if sys.platform.startswith("linux") and first:
        assert isinstance(bytearray(40 << 20), bytearray)  # large allocations still work
