"""Keeping freed memory in the process, so that each frame's images reuse pages already mapped.

Reading one 1080p frame allocates and frees a few dozen images of 0.3-6 MB (grey frame, top
view, normalised planes, masks, distance map). With glibc's default thresholds the freed top of
the heap goes back to the kernel, and the next frame's images fault fresh zeroed pages in
again: about 6 ms a frame on a 2-core machine, a fifth of the reading budget. Raising the
trim threshold (and fixing the mmap threshold, which stops glibc lowering it again) keeps that
memory in the process; it costs at most ``trim_threshold`` of idle heap.

:func:`keep_freed_memory` is called by :func:`vision.markers.find_board`, the first stage of
every frame; it acts once per process and does nothing where the C library is not glibc. The
same can be had without code through the environment (``MALLOC_MMAP_THRESHOLD_=33554432
MALLOC_TRIM_THRESHOLD_=134217728``).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
from functools import cache

#: ``mallopt`` parameters of glibc's <malloc.h>.
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3

#: Allocations below this come from the heap (glibc's largest allowed value, 32 MB).
MMAP_THRESHOLD = 32 << 20
#: Freed heap above this much is returned to the kernel.
TRIM_THRESHOLD = 128 << 20


@cache
def keep_freed_memory() -> bool:
    """Tell glibc to keep freed image memory for reuse; True when it was applied."""
    if not sys.platform.startswith("linux"):
        return False
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False  # not glibc (musl has no mallopt)
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    applied = mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1
    return bool(applied and mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD) == 1)
