"""How a task runs: its key, its random generator, its execution — the part of the runner
that every experiment's code version holds (:mod:`mtc_cli.run.codeversion`).

Each task's key is a hash of its own parameters (and the seed), and its random generator
is ``default_rng(SeedSequence(seed, spawn_key=key))``: results depend neither on ``-j``,
nor on task order, nor on which other sweep points exist.
"""

from __future__ import annotations

import hashlib
import json
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


def compute(experiment, task: dict, key: str, seed: int) -> dict:
    """Run one task with one BLAS/OpenMP thread, joblib's sequential backend for any
    parallel call inside it and the allocator tuned for large temporaries
    (:mod:`mtc_cli.run.allocator`); return its rows and compute time.

    joblib's dask backend hands a task its own backend with all workers as the default for
    nested calls (loky's workers get the sequential one): scikit-learn's pairwise distances
    inside a silhouette then split into blocks across workers, and BLAS rounds products of
    other shapes in other last bits. Sequential within a task, every backend computes alike."""
    keep_freed_memory()
    start = time.perf_counter()
    with threadpool_limits(limits=1), parallel_config(backend="sequential"), \
            warnings.catch_warnings(record=True) as caught:
        rows = experiment.run_task(task, task_rng(seed, key))
    return {"key": key, "task": task, "elapsed_s": time.perf_counter() - start, "rows": rows,
            "warnings": [(w.category, str(w.message), w.filename, w.lineno) for w in caught]}
