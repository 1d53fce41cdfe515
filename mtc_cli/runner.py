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
from joblib import Parallel, delayed
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


def _execute(experiment, task: dict, key: str, seed: int, path: Path) -> int:
    """Run one task with one BLAS/OpenMP thread and write its rows atomically."""
    start = time.perf_counter()
    with threadpool_limits(limits=1):
        rows = experiment.run_task(task, task_rng(seed, key))
    elapsed = time.perf_counter() - start
    atomic_write_text(path, json.dumps({"key": key, "task": task, "elapsed_s": elapsed,
                                        "rows": rows}, default=_plain, allow_nan=True))
    return len(rows)


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
              force: bool = False, label: str = "mtc") -> dict:
    """Compute every task not yet cached in ``run_dir/tasks``; return run statistics."""
    cache = Path(run_dir) / "tasks"
    cache.mkdir(parents=True, exist_ok=True)
    keys = [task_key(experiment.name, seed, t) for t in tasks]
    if len(set(keys)) != len(keys):
        raise ValueError(f"experiment {experiment.name} produced duplicate tasks")
    todo = [(t, k) for t, k in zip(tasks, keys, strict=True)
            if force or not (cache / f"{k}.json").exists()]
    progress = Progress(len(tasks), len(tasks) - len(todo), label)
    try:
        if jobs == 1 or len(todo) <= 1:
            for t, k in todo:
                _execute(experiment, t, k, seed, cache / f"{k}.json")
                progress.update()
        else:
            parallel = Parallel(n_jobs=jobs, backend="loky", return_as="generator_unordered")
            for _ in parallel(delayed(_execute)(experiment, t, k, seed, cache / f"{k}.json")
                              for t, k in todo):
                progress.update()
    finally:
        progress.close()
    return {"n_tasks": len(tasks), "n_computed": len(todo), "n_cached": len(tasks) - len(todo),
            "keys": keys}


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


def provenance(cfg, jobs: int, wall: float, stats: dict) -> dict:
    """What ``run.json`` records: the config as run, versions, commit, timing."""
    import platform
    from importlib.metadata import PackageNotFoundError, version

    from mtc_cli import __version__

    versions = {"mtc": __version__, "python": platform.python_version()}
    for pkg in ("numpy", "scipy", "scikit-learn", "pandas", "joblib", "matplotlib"):
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
        "wall_time_s": round(wall, 3),
        "task_time_s": round(stats["task_time_s"], 3),
        "jobs": jobs,
        "backend": "loky" if jobs > 1 else "sequential",
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
