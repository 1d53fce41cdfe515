"""How a task runs: its key, its random generator, its execution — the part of the runner
that every experiment's code version holds (:mod:`mtc_cli.run.codeversion`).

Each task's key is a hash of its own parameters (and the seed), and its random generator
is ``default_rng(SeedSequence(seed, spawn_key=key))``: results depend neither on ``-j``,
nor on task order, nor on which other sweep points exist.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import threading
import time
import warnings

import numpy as np
from joblib import parallel_config
from threadpoolctl import threadpool_limits

from mtc_cli.run.allocator import keep_freed_memory

ROW_COLUMNS = ("rep", "criterion", "k", "score")


#: the entry of a task that says where its input files are, not what they hold (their
#: digests do): left out of the task's key, so a moved file gives the same results
LOCATION = "location"


def task_key(experiment: str, seed: int, task: dict) -> str:
    """Stable hex key of a task: sha256 of its canonical JSON with experiment and seed
    (without its ``location``)."""
    blob = json.dumps({"experiment": experiment, "seed": seed, "task": identity(task)},
                      sort_keys=True, default=plain, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:24]


def identity(task: dict) -> dict:
    return {k: v for k, v in task.items() if k != LOCATION}


def task_rng(seed: int, key: str) -> np.random.Generator:
    """The task's own generator, spawned from the run seed by the task key."""
    words = tuple(int(key[i:i + 8], 16) for i in range(0, len(key), 8))
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=words))


def plain(obj):
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.floating):
        return float(obj)
    if isinstance(obj, np.bool_):
        return bool(obj)
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    return str(obj)


def compute(experiment, task: dict, key: str, seed: int, *, threaded: bool = False) -> dict:
    """Run one task with one BLAS/OpenMP thread, joblib's sequential backend for any
    parallel call inside it and the allocator tuned for large temporaries
    (:mod:`mtc_cli.run.allocator`); return its rows and compute time.

    joblib's dask backend hands a task its own backend with all workers as the default for
    nested calls (loky's workers get the sequential one): scikit-learn's pairwise distances
    inside a silhouette then split into blocks across workers, and BLAS rounds products of
    other shapes in other last bits. Sequential within a task, every backend computes alike.

    ``threaded``: one of several threads of this process (inside
    :func:`thread_warnings`, which holds BLAS at one thread for all of them): its warnings
    are those its own thread issued, as ``catch_warnings`` cannot tell threads apart."""
    keep_freed_memory()
    start = time.perf_counter()
    if threaded:
        with parallel_config(backend="sequential"), _THREADS.recording() as caught:
            rows = experiment.run_task(task, task_rng(seed, key))
    else:
        with threadpool_limits(limits=1), parallel_config(backend="sequential"), \
                warnings.catch_warnings(record=True) as caught:
            rows = experiment.run_task(task, task_rng(seed, key))
    return {"key": key, "task": task, "elapsed_s": time.perf_counter() - start, "rows": rows,
            "warnings": [(w.category, str(w.message), w.filename, w.lineno) for w in caught]}


class _ThreadLogs:
    """Warnings filed by the thread that issued them: while :meth:`active`, one
    process-wide ``catch_warnings`` whose ``showwarning`` appends each warning to the log of
    its thread's running task (:meth:`recording`); a warning of another thread is shown as
    before."""

    def __init__(self):
        self.logs: dict[int, list] = {}

    @contextlib.contextmanager
    def active(self):
        with warnings.catch_warnings(), threadpool_limits(limits=1):
            shown = warnings.showwarning

            def show(message, category, filename, lineno, file=None, line=None):
                log = self.logs.get(threading.get_ident())
                if log is None:
                    return shown(message, category, filename, lineno, file, line)
                log.append(warnings.WarningMessage(message, category, filename, lineno,
                                                   file, line))

            warnings.showwarning = show
            yield

    @contextlib.contextmanager
    def recording(self):
        log = self.logs[threading.get_ident()] = []
        try:
            yield log
        finally:
            del self.logs[threading.get_ident()]


_THREADS = _ThreadLogs()


def thread_warnings():
    """The context of tasks computed on threads of this process (``compute(…,
    threaded=True)``): one BLAS thread, and each warning filed under its task."""
    return _THREADS.active()
