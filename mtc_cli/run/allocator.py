"""glibc's allocator, tuned for the tasks' large short-lived arrays.

By default glibc serves blocks above a sliding threshold (128 KiB at start) with fresh
``mmap`` pages and returns freed memory at the heap's top to the system, so the model fits,
which allocate and free arrays of several MB per iteration, pay a page fault for every
4 KiB of every new temporary. Raising both thresholds keeps the freed memory for reuse:
the same arithmetic on the same values (results are unchanged bit for bit), fewer system
calls. A worker then keeps its peak heap until it exits.
"""

from __future__ import annotations

import ctypes
import functools
import sys

#: mallopt parameters of glibc's malloc.h
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
#: blocks up to this size come from the heap: glibc's upper limit on 64-bit systems
MMAP_THRESHOLD = 32 * 2**20
#: free memory at the heap's top kept for reuse instead of returned to the system
TRIM_THRESHOLD = 1024 * 2**20


@functools.cache
def keep_freed_memory() -> bool:
    """Set both thresholds in this process (once); False where the C library has no
    ``mallopt`` or refuses (not glibc), which leaves the allocator as it was."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)
                and mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))
