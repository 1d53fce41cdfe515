"""Tasks → joblib workers → one cached file per finished task → merged rows.

Each task's key is a hash of its own parameters (and the seed), and its random generator
is ``default_rng(SeedSequence(seed, spawn_key=key))``: results depend neither on
``-j``, nor on task order, nor on which other sweep points exist. Each finished task is
written atomically to ``<run>/tasks/<key>.json`` by the process that computed it, so an
interrupted run loses nothing and a rerun computes only what is missing.
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from joblib import Parallel, delayed, parallel_config
from threadpoolctl import threadpool_limits

from mtc_cli.results import atomic_write_text

ROW_COLUMNS = ("rep", "criterion", "k", "score")


def task_key(experiment: str, seed: int, task: dict) -> str:
    """Stable hex key of a task: sha256 of its canonical JSON with experiment and seed."""
    blob = json.dumps({"experiment": experiment, "seed": seed, "task": task},
                      sort_keys=True, default=_plain, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:24]


def task_rng(seed: int, key: str) -> np.random.Generator:
    """The task's own generator, spawned from the run seed by the task key."""
    words = tuple(int(key[i:i + 8], 16) for i in range(0, len(key), 8))
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=words))


def _plain(obj):
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.floating):
        return float(obj)
    if isinstance(obj, np.bool_):
        return bool(obj)
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    return str(obj)


def _compute(experiment, task: dict, key: str, seed: int) -> dict:
    """Run one task with one BLAS/OpenMP thread; return its cache record."""
    start = time.perf_counter()
    with threadpool_limits(limits=1):
        rows = experiment.run_task(task, task_rng(seed, key))
    return {"key": key, "task": task, "elapsed_s": time.perf_counter() - start, "rows": rows}


def _store(record: dict, cache: Path) -> None:
    """Write a finished task's record atomically (the cache entry of its key)."""
    atomic_write_text(cache / f"{record['key']}.json",
                      json.dumps(record, default=_plain, allow_nan=True))


class Progress:
    """A tqdm bar on a terminal; plain lines every few seconds otherwise."""

    def __init__(self, total: int, done: int, label: str, stream=None):
        self.total, self.done, self.label = total, done, label
        self.stream = stream or sys.stderr
        self.start = self.last = time.monotonic()
        self.first = done
        self.bar = None
        if self.stream.isatty():
            from tqdm import tqdm

            self.bar = tqdm(total=total, initial=done, desc=label, unit="task",
                            file=self.stream, dynamic_ncols=True)
        else:
            self._line()

    def update(self) -> None:
        self.done += 1
        if self.bar is not None:
            self.bar.update(1)
        elif time.monotonic() - self.last >= 5 or self.done == self.total:
            self._line()

    def _line(self) -> None:
        self.last = now = time.monotonic()
        elapsed = now - self.start
        fresh = self.done - self.first
        eta = elapsed / fresh * (self.total - self.done) if fresh else math.nan
        pct = 100 * self.done / self.total if self.total else 100
        eta_s = "?" if math.isnan(eta) else _clock(eta)
        print(f"{self.label}: {self.done}/{self.total} tasks ({pct:.0f}%), "
              f"elapsed {_clock(elapsed)}, ETA {eta_s}", file=self.stream, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _clock(seconds: float) -> str:
    m, s = divmod(int(round(seconds)), 60)
    h, m = divmod(m, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def run_tasks(experiment, tasks: list[dict], seed: int, run_dir: Path, *, jobs: int = 1,
              force: bool = False, label: str = "mtc", backend: str = "loky",
              shard: tuple[int, int] | None = None) -> dict:
    """Compute every task not yet cached in ``run_dir/tasks``; return run statistics.

    ``backend`` is ``"loky"`` (local processes; sequential in-process for ``jobs=1``) or
    ``"dask"`` (joblib's dask backend: the caller has opened a ``distributed.Client``).
    ``shard=(i, n)`` computes only the tasks whose index is ``i`` modulo ``n``. Each
    finished task is written to the cache as soon as its result arrives.
    """
    cache = Path(run_dir) / "tasks"
    cache.mkdir(parents=True, exist_ok=True)
    keys = [task_key(experiment.name, seed, t) for t in tasks]
    if len(set(keys)) != len(keys):
        raise ValueError(f"experiment {experiment.name} produced duplicate tasks")
    mine = [i for i in range(len(tasks)) if shard is None or i % shard[1] == shard[0]]
    todo = [i for i in mine if force or not (cache / f"{keys[i]}.json").exists()]
    progress = Progress(len(mine), len(mine) - len(todo), label)
    try:
        if backend == "loky" and (jobs == 1 or len(todo) <= 1):
            for i in todo:
                _store(_compute(experiment, tasks[i], keys[i], seed), cache)
                progress.update()
        else:
            calls = (delayed(_compute)(experiment, tasks[i], keys[i], seed) for i in todo)
            n_jobs = jobs if backend == "loky" else -1
            with parallel_config(backend=backend):
                # one task per batch: tasks are coarse, and batching would serialise a
                # sweep of few long tasks on one worker
                parallel = Parallel(n_jobs=n_jobs, batch_size=1, return_as="generator_unordered")
                for record in parallel(calls):
                    _store(record, cache)
                    progress.update()
    finally:
        progress.close()
    return {"n_tasks": len(tasks), "n_shard": len(mine), "n_computed": len(todo),
            "n_cached": len(mine) - len(todo), "keys": keys,
            "missing": sum(not (cache / f"{k}.json").exists() for k in keys)}


def load_rows(run_dir: Path, keys: list[str], condition: tuple[str, ...]):
    """Concatenate the cached rows of ``keys`` in task order into the tidy table;
    also return the summed compute time of those tasks (seconds, one thread each)."""
    cache = Path(run_dir) / "tasks"
    rows, task_time = [], 0.0
    for k in keys:
        record = json.loads((cache / f"{k}.json").read_text())
        rows.extend(record["rows"])
        task_time += record.get("elapsed_s", 0.0)
    df = pd.DataFrame(rows)
    front = [c for c in (*condition, *ROW_COLUMNS) if c in df.columns]
    return df[front + [c for c in df.columns if c not in front]], task_time


def provenance(cfg, stats: dict) -> dict:
    """What ``run.json`` records: the config as run, versions, commit, timing.

    ``wall_time_s`` is the wall time of the invocation that computed the tasks;
    ``task_time_s`` the summed compute time of all tasks (one thread each).
    """
    import platform
    from importlib.metadata import PackageNotFoundError, version

    from mtc_cli import __version__

    versions = {"mtc": __version__, "python": platform.python_version()}
    for pkg in ("numpy", "scipy", "scikit-learn", "pandas", "joblib", "matplotlib", "dask"):
        try:
            versions[pkg] = version(pkg)
        except PackageNotFoundError:
            pass
    return {
        "config_file": str(cfg.path),
        "config": cfg.resolved(),
        "seed": cfg.seed,
        "versions": versions,
        "git_commit": _git_commit(),
        "wall_time_s": round(stats["wall"], 3),
        "task_time_s": round(stats["task_time_s"], 3),
        "jobs": stats["jobs"],
        "backend": stats["backend"],
        "n_tasks": stats["n_tasks"],
        "n_computed": stats["n_computed"],
        "n_cached": stats["n_cached"],
    }


def _git_commit() -> str | None:
    import subprocess

    from mtc_cli.config import PROJECT_ROOT

    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=PROJECT_ROOT, capture_output=True,
                             text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    if out.returncode != 0:
        return None
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                           cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=10)
    return out.stdout.strip() + ("-dirty" if dirty.stdout.strip() else "")
