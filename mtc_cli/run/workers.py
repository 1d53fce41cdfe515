"""How many worker processes a run starts: ``-j`` as asked, but never more than the cores,
the tasks to compute, or the workers whose estimated memory fits in the memory available,
and one line on stderr whenever that is fewer than asked."""

from __future__ import annotations

import os
import sys

#: what a worker holds before its first task: an interpreter with numpy, scipy,
#: scikit-learn, pandas and numba imported (≈ 330 MiB peak RSS measured on importing what a
#: ``select`` worker imports; shared pages make the real cost lower)
WORKER_BASE = 256 * 2**20


def cores() -> int:
    """The cores this process may run on (its CPU affinity, else the machine's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def available_memory() -> int:
    """Bytes of memory available to new processes (``MemAvailable`` of /proc/meminfo, else
    the machine's physical memory)."""
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def count(requested: int, n_tasks: int, task_bytes: float = 0.0) -> tuple[int, str]:
    """(workers, why fewer than ``requested``, or ""): at most the cores, the ``n_tasks``
    to compute, and the workers of :data:`WORKER_BASE` + ``task_bytes`` each that fit in
    :func:`available_memory` (at least one)."""
    per_worker = WORKER_BASE + max(float(task_bytes), 0.0)
    limits = [(cores(), f"this machine has {cores()} cores"),
              (n_tasks, f"the run has {n_tasks} task{'s' if n_tasks != 1 else ''} to compute"),
              (int(available_memory() // per_worker),
               f"at about {per_worker / 2**30:.1f} GiB per worker, "
               f"{available_memory() / 2**30:.1f} GiB of memory is available")]
    n, why = requested, ""
    for limit, reason in limits:
        if max(limit, 1) < n:
            n, why = max(limit, 1), reason
    return n, why


def settle(requested: int, n_tasks: int, task_bytes: float = 0.0) -> int:
    """:func:`count`, saying on stderr when it is fewer than ``requested``."""
    n, why = count(requested, n_tasks, task_bytes)
    if n < requested and n_tasks > 0:
        print(f"mtc: -j {requested}: {n} worker{'s' if n != 1 else ''}, as {why}",
              file=sys.stderr, flush=True)
    return n
