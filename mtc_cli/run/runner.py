"""Tasks → joblib workers → one cached file per finished task → merged rows.

Each task is keyed, seeded and run by :mod:`mtc_cli.run.tasking`. Each finished task is
written atomically to ``<run>/tasks/<key>.json`` by the process that computed it, so an
interrupted run loses nothing and a rerun computes only what is missing.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import sys
import threading
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
from joblib import Parallel, delayed, parallel_config
from threadpoolctl import threadpool_info

from mtc_cli.core.errors import MtcError
from mtc_cli.core.files import atomic_write_text, file_sha256
from mtc_cli.run import workers
from mtc_cli.run.tasking import (
    ROW_COLUMNS,
    compute,
    identity,
    plain,
    task_key,
    thread_warnings,
)


def _keep(record: dict, cache: Path, stamp: dict) -> None:
    """Show in this process the warnings a task raised (a worker's own stderr would print
    them raw, and the CLI prints each text once: see ``mtc_cli.cli``), then store it."""
    for category, text, filename, lineno in record.pop("warnings"):
        warnings.showwarning(text, category, filename, lineno)
    _store(record, cache, stamp)


def rows_digest(rows) -> str:
    """sha256 of the canonical JSON of a task's rows (the check of a cache entry)."""
    blob = json.dumps(rows, sort_keys=True, default=plain, allow_nan=True,
                      separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


def _store(record: dict, cache: Path, stamp: dict) -> None:
    """Write a finished task's cache entry atomically: its key, task, rows, the digest of
    the rows and the code version and commit that computed them (``stamp``)."""
    rows = json.loads(json.dumps(record["rows"], default=plain, allow_nan=True))
    entry = {**record, "rows": rows, "rows_sha256": rows_digest(rows), **stamp}
    atomic_write_text(cache / f"{record['key']}.json",
                      json.dumps(entry, default=plain, allow_nan=True))


ENTRY_KEYS = ("key", "task", "rows", "rows_sha256", "code_version")


def verify_entry(path: Path, key: str, task: dict, experiment: str, seed: int,
                 code_version: str) -> tuple[dict | None, str]:
    """(entry, "") if the cache file ``path`` is a valid entry of ``task`` computed by
    ``code_version``, else (None or the entry, the reason it is not)."""
    try:
        entry = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return None, f"unreadable ({type(exc).__name__})"
    if not isinstance(entry, dict) or any(k not in entry for k in ENTRY_KEYS):
        return None, "not a task entry (keys missing)"
    canonical = json.loads(json.dumps(identity(task), default=plain))
    if entry["key"] != key or not isinstance(entry["task"], dict) \
            or identity(entry["task"]) != canonical \
            or task_key(experiment, seed, entry["task"]) != key:
        return None, "its task does not match its key"
    if not isinstance(entry["rows"], list) or rows_digest(entry["rows"]) != entry["rows_sha256"]:
        return None, "its rows do not match their digest (edited or damaged)"
    if entry["code_version"] != code_version:
        return entry, "stale"
    return entry, ""


_WATCHED = []


def watch_parent(main_pid: int, interval: float = 1.0) -> None:
    """The initializer of loky workers started by the run's main process ``main_pid``: end
    the worker within ``interval`` seconds of the main process's death (its parent
    changes), so that no worker outlives a killed run — loky's own workers would wait on
    their queue for minutes. Once per process; nothing in the main process itself."""
    if _WATCHED or os.getpid() == main_pid or os.getppid() != main_pid:
        return
    _WATCHED.append(main_pid)

    def watch():
        while True:
            time.sleep(interval)
            if os.getppid() != main_pid:
                os._exit(1)

    threading.Thread(target=watch, name="mtc-parent-watch", daemon=True).start()


class Progress:
    """A tqdm bar on a terminal; plain lines every few seconds otherwise. ``delay``: nothing
    shown before that many seconds have passed (work that ends sooner shows nothing)."""

    def __init__(self, total: int, done: int, label: str, stream=None, delay: float = 0.0):
        self.total, self.done, self.label, self.delay = total, done, label, delay
        self.stream = stream or sys.stderr
        self.start = self.last = time.monotonic()
        self.first = done
        self.bar = None
        if self.stream.isatty():
            from tqdm import tqdm

            self.bar = tqdm(total=total, initial=done, desc=label, unit="task",
                            file=self.stream, dynamic_ncols=True, delay=delay)
        elif not delay:
            self._line()

    def update(self) -> None:
        self.done += 1
        now = time.monotonic()
        if self.bar is not None:
            self.bar.update(1)
        elif now - self.start >= self.delay and (now - self.last >= 5
                                                 or self.done == self.total):
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


@dataclass
class Plan:
    """The tasks of one run and which of them to compute (``todo``: indices into ``tasks``)."""

    experiment: object
    tasks: list[dict]
    seed: int
    run_dir: Path
    keys: list[str]
    version: str
    stamp: dict
    mine: list[int]
    todo: list[int]
    outputs: dict

    @property
    def cache(self) -> Path:
        return self.run_dir / "tasks"

    def calls(self, threaded: bool = False):
        if threaded:
            return [delayed(_compute_on_thread)(self.experiment, self.tasks[i], self.keys[i],
                                                self.seed) for i in self.todo]
        return [delayed(compute)(self.experiment, self.tasks[i], self.keys[i], self.seed)
                for i in self.todo]

    def stats(self) -> dict:
        todo, cache = self.todo, self.cache
        return {"n_tasks": len(self.tasks), "n_shard": len(self.mine), "n_computed": len(todo),
                "n_cached": len(self.mine) - len(todo), "keys": self.keys,
                "code_version": self.version,
                "missing": sum(not (cache / f"{k}.json").exists() for k in self.keys),
                # new timings (see Experiment.timing) make a new record, whatever the outputs
                "run_dir": self.run_dir,
                "outputs_before": None if todo and self.experiment.timing_columns
                else self.outputs}


def _compute_on_thread(experiment, task: dict, key: str, seed: int) -> dict:
    """:func:`compute` on a thread of this process. A warning already shown at its place
    is shown again, as a worker's task sees it: entering its own ``catch_warnings`` resets
    the registries of what was shown (CPython's ``warnings._filters_mutated``), which one
    process-wide ``catch_warnings`` for every thread would not."""
    reset = getattr(warnings, "_filters_mutated", None)
    if reset is not None:
        reset()
    return compute(experiment, task, key, seed, threaded=True)


def plan_tasks(experiment, tasks: list[dict], seed: int, run_dir: Path, *,
               force: bool = False, shard: tuple[int, int] | None = None, warn=None) -> Plan:
    """Which tasks of a run to compute: those (of the shard ``shard=(i, n)``: the tasks
    whose index is ``i`` modulo ``n``) without a valid cache entry in ``run_dir/tasks``. A
    cache entry that is unreadable, belongs to another task, has rows that do not match
    their digest or was computed by another code version
    (:func:`mtc_cli.run.codeversion.code_version`) is recomputed, and ``warn`` (one line each)
    says so."""
    warn = warn or _warn
    run_dir = Path(run_dir)
    outputs = output_digests(run_dir)
    cache = run_dir / "tasks"
    cache.mkdir(parents=True, exist_ok=True)
    keys = [task_key(experiment.name, seed, t) for t in tasks]
    if len(set(keys)) != len(keys):
        raise ValueError(f"experiment {experiment.name} produced duplicate tasks")
    version = experiment_version(experiment)
    stamp = {"code_version": version, "git_commit": git_commit()}
    mine = [i for i in range(len(tasks)) if shard is None or i % shard[1] == shard[0]]
    todo, stale = [], 0
    for i in mine:
        path = cache / f"{keys[i]}.json"
        if force or not path.exists():
            todo.append(i)
            continue
        _, problem = verify_entry(path, keys[i], tasks[i], experiment.name, seed, version)
        if problem == "stale":
            stale += 1
        elif problem:
            warn(f"cache entry {path} is {problem}: recomputing it"
                 if problem.startswith("unreadable") or problem.startswith("not")
                 else f"cache entry {path}: {problem}; recomputing it")
        if problem:
            todo.append(i)
    if stale:
        warn(f"{stale} cached task{'s were' if stale > 1 else ' was'} computed by another "
             f"version of the code of {experiment.name}: recomputing "
             f"{'them' if stale > 1 else 'it'}")
    return Plan(experiment, tasks, seed, run_dir, keys, version, stamp, mine, todo, outputs)


def run_tasks(experiment, tasks: list[dict], seed: int, run_dir: Path, *, jobs: int = 1,
              force: bool = False, label: str = "mtc", backend: str = "loky",
              shard: tuple[int, int] | None = None, warn=None, task_bytes: float = 0.0,
              threads: bool = False) -> dict:
    """Compute every task without a valid cache entry in ``run_dir/tasks``
    (:func:`plan_tasks`); return run statistics.

    ``backend`` is ``"loky"`` (local processes, ``jobs`` of them at most as
    :func:`mtc_cli.run.workers.settle` allows for tasks of about ``task_bytes`` each;
    sequential in-process for one; with ``threads``, threads of this process instead of
    processes: no worker to start, for small tasks whose compiled kernels release the GIL)
    or ``"dask"`` (joblib's dask backend: the caller has opened a ``distributed.Client``).
    Each finished task is written to the cache as soon as its result arrives.
    """
    plan = plan_tasks(experiment, tasks, seed, run_dir, force=force, shard=shard, warn=warn)
    if backend == "loky" and jobs > 1:
        jobs = workers.settle(jobs, len(plan.todo), 0.0 if threads else task_bytes)
    progress = Progress(len(plan.mine), len(plan.mine) - len(plan.todo), label)
    try:
        if backend == "loky" and (jobs == 1 or len(plan.todo) <= 1):
            for i in plan.todo:
                _keep(compute(experiment, tasks[i], plan.keys[i], seed), plan.cache, plan.stamp)
                progress.update()
        elif backend == "loky" and threads:
            with thread_warnings():
                for record in _parallel(plan.calls(threaded=True), jobs, "threading"):
                    _keep(record, plan.cache, plan.stamp)
                    progress.update()
        else:
            for record in _parallel(plan.calls(), jobs if backend == "loky" else -1, backend):
                _keep(record, plan.cache, plan.stamp)
                progress.update()
    finally:
        progress.close()
    return {**plan.stats(), "jobs": jobs}


def _parallel(calls, n_jobs: int, backend: str):
    """The results of ``calls`` as they finish, one task per batch: tasks are coarse, and
    batching would serialise a sweep of few long tasks on one worker."""
    # loky workers watch this process from their start (see watch_parent)
    extra = ({"initializer": watch_parent, "initargs": (os.getpid(),)}
             if backend == "loky" else {})
    if backend == "loky":
        quiet_tracker()
    with parallel_config(backend=backend, **extra):
        yield from Parallel(n_jobs=n_jobs, batch_size=1, return_as="generator_unordered")(calls)


def run_pooled(plans: list[Plan], jobs: int, label: str, on_done) -> None:
    """Compute the tasks of several runs in one pool of ``jobs`` loky workers, the longest
    first as far as earlier cache entries tell (:func:`recorded_seconds`; tasks without one
    first, in the runs' order), so that no worker idles between runs; call ``on_done(i)``
    in this process as soon as every task of ``plans[i]`` is cached (run ``i`` can then be
    finished while the workers go on with the others)."""
    order = sorted(((p, i) for p, plan in enumerate(plans) for i in plan.todo),
                   key=lambda pi: -recorded_seconds(plans[pi[0]], pi[1]))
    jobs = workers.settle(jobs, len(order))
    left = [len(plan.todo) for plan in plans]
    for p, n in enumerate(left):
        if n == 0:
            on_done(p)
    if not order:
        return
    calls = [delayed(_tagged)(p, plans[p].experiment, plans[p].tasks[i], plans[p].keys[i],
                              plans[p].seed) for p, i in order]
    total = sum(len(plan.mine) for plan in plans)
    progress = Progress(total, total - len(order), label)
    try:
        for p, record in _parallel(calls, jobs, "loky"):
            _keep(record, plans[p].cache, plans[p].stamp)
            progress.update()
            left[p] -= 1
            if left[p] == 0:
                on_done(p)
    finally:
        progress.close()


def _tagged(tag: int, experiment, task: dict, key: str, seed: int) -> tuple[int, dict]:
    return tag, compute(experiment, task, key, seed)


def recorded_seconds(plan: Plan, i: int) -> float:
    """The compute time an earlier cache entry of task ``i`` records (one computed by
    another code version, or about to be recomputed by ``--force``), else infinity."""
    try:
        return float(json.loads((plan.cache / f"{plan.keys[i]}.json").read_text())["elapsed_s"])
    except (OSError, ValueError, KeyError, TypeError):
        return math.inf


def output_digests(run_dir: Path) -> dict[str, str]:
    """sha256 of each file of ``run_dir`` that a run writes, but run.json (not the task
    cache, the lock, temporary files or the staging directory of a run's tables)."""
    run_dir = Path(run_dir)
    out = {}
    for top, dirs, files in os.walk(run_dir):
        dirs[:] = [d for d in dirs if not d.startswith(".")
                   and not (Path(top) == run_dir and d == "tasks")]
        for name in files:
            path = Path(top) / name
            if not name.startswith(".") and path != run_dir / "run.json":
                out[str(path.relative_to(run_dir))] = file_sha256(path)
    return out


#: the warning filter given to loky's resource tracker: when a run is killed (SIGKILL), the
#: tracker unlinks the run's semaphores and folders, as it should, and would say so in raw
#: multi-line warnings after the run has gone
TRACKER_WARNINGS = "ignore:resource_tracker:UserWarning"


def quiet_tracker() -> None:
    """Keep loky's resource tracker from printing into a run's stderr. It is started with
    :data:`TRACKER_WARNINGS`. If it dies during a run, loky starts a new one, which does not
    know the resources of the old and prints a KeyError traceback for every resource it is
    later told to forget (on a run that succeeds): the relaunched tracker gets /dev/null as
    its stderr; loky still warns once, in this process, that it relaunched the tracker.
    Patches loky's ``ResourceTracker`` (a workaround of that behaviour; skipped if loky's
    internals change)."""
    try:
        from joblib.externals.loky.backend.resource_tracker import ResourceTracker as cls
        teardown, launch = cls._teardown_dead_process, cls._launch
    except (ImportError, AttributeError):
        return
    if getattr(cls, "_mtc_quiet", False):
        return

    def _teardown(self):
        teardown(self)
        self._mtc_relaunch = True

    def _launch(self):
        sys.warnoptions.append(TRACKER_WARNINGS)  # loky passes them on as -W options
        null, saved = os.open(os.devnull, os.O_WRONLY), os.dup(2)
        try:
            if getattr(self, "_mtc_relaunch", False):
                os.dup2(null, 2)
            return launch(self)
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            os.close(null)
            sys.warnoptions.remove(TRACKER_WARNINGS)

    cls._teardown_dead_process, cls._launch, cls._mtc_quiet = _teardown, _launch, True


def experiment_version(experiment) -> str:
    """The code version of an experiment object (:mod:`mtc_cli.run.codeversion`): that of
    :func:`protocol_module`, so that an edit of the tables or figures assembled onto its
    protocol moves no version."""
    from mtc_cli.run import codeversion

    return codeversion.cached_code_version(protocol_module(experiment))


def protocol_module(experiment) -> str:
    """The module that defines the experiment's protocol: that of the first class of its
    type's method resolution order whose own body defines ``run_task`` (a shipped
    experiment's ``experiments.<name>.protocol``; a plugin's one module), else the module
    of its type."""
    for cls in type(experiment).__mro__:
        if "run_task" in vars(cls):
            return cls.__module__
    return type(experiment).__module__


def _warn(message: str) -> None:
    print(f"mtc: warning: {message}", file=sys.stderr, flush=True)


def load_rows(run_dir: Path, keys: list[str], tasks: list[dict], condition: tuple[str, ...],
              experiment: str, seed: int, code_version: str):
    """Concatenate the cached rows of ``keys`` in task order into the tidy table; also
    return the summed compute time of those tasks (seconds, one thread each) and the
    commits that computed them. Every entry is verified again (:func:`verify_entry`)."""
    cache = Path(run_dir) / "tasks"
    rows, task_time, commits = [], 0.0, set()
    for k, t in zip(keys, tasks, strict=True):
        path = cache / f"{k}.json"
        entry, problem = verify_entry(path, k, t, experiment, seed, code_version)
        if problem:
            what = ("was computed by another code version" if problem == "stale"
                    else f"is {problem}" if problem.startswith(("unreadable", "not"))
                    else problem)
            raise MtcError(f"{path} {what}: run the experiment again to recompute it")
        rows.extend(entry["rows"])
        task_time += entry.get("elapsed_s", 0.0)
        commits.add(entry.get("git_commit"))
    df = pd.DataFrame(rows)
    front = [c for c in (*condition, *ROW_COLUMNS) if c in df.columns]
    return df[front + [c for c in df.columns if c not in front]], task_time, commits


def provenance(cfg, stats: dict) -> dict:
    """What ``run.json`` records: the config as run, versions, commit, timing.

    ``wall_time_s`` is the wall time of the invocation that computed the tasks;
    ``task_time_s`` the summed compute time of all tasks (one thread each);
    ``code_version`` the version of the experiment's code that computed every row and
    ``git_commits`` the commits recorded by the cache entries of those rows (``git_commit``
    when they are one) — never the commit of a later invocation that only read them.

    A run that reproduced its directory byte for byte (same config file, config and code
    version; every output file as it was before the run, see :func:`output_digests`) keeps
    the previous record, that of the run that produced these outputs, and sets
    ``stats["record_kept"]``: rerunning a committed result dirties nothing.
    """
    import platform
    from importlib.metadata import PackageNotFoundError, version

    from mtc_cli.run.versions import mtc_version

    versions = {"mtc": mtc_version(), "python": platform.python_version()}
    for pkg in ("numpy", "scipy", "scikit-learn", "pandas", "joblib", "matplotlib", "dask"):
        try:
            versions[pkg] = version(pkg)
        except PackageNotFoundError:
            pass
    commits = sorted(c for c in stats.get("commits", ()) if c)
    meta = {
        "config_file": str(cfg.path),
        "config": cfg.resolved(),
        "seed": cfg.seed,
        "versions": versions,
        "machine": machine(),
        "code_version": stats.get("code_version"),
        "git_commit": commits[0] if len(commits) == 1 else None,
        "git_commits": commits,
        "wall_time_s": round(stats["wall"], 3),
        "task_time_s": round(stats["task_time_s"], 3),
        "jobs": stats["jobs"],
        "backend": stats["backend"],
        "n_tasks": stats["n_tasks"],
        "n_computed": stats["n_computed"],
        "n_cached": stats["n_cached"],
    }
    previous = _reproduced(meta, stats)
    stats["record_kept"] = previous is not None
    return meta if previous is None else previous


def machine() -> dict:
    """The CPU, its core count and the BLAS libraries loaded (threadpoolctl): BLAS/LAPACK
    kernels differ between CPUs and builds in the last bits of their results, so CSVs are
    byte-identical on one machine but may differ in last digits on another."""
    import platform

    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            cpu = next((line.split(":", 1)[1].strip() for line in fh
                        if line.startswith("model name")), cpu)
    except OSError:
        pass
    blas = sorted({" ".join(str(info.get(k)) for k in ("internal_api", "version", "architecture"))
                   for info in threadpool_info() if info.get("user_api") == "blas"})
    return {"cpu": cpu, "cores": os.cpu_count(), "blas": blas}


def _reproduced(meta: dict, stats: dict) -> dict | None:
    """The run directory's previous run.json if this run reproduced it (see
    :func:`provenance`), else None."""
    if stats.get("outputs_before") is None:
        return None
    try:
        old = json.loads((stats["run_dir"] / "run.json").read_text())
    except (OSError, ValueError):
        return None
    same = json.loads(json.dumps({k: meta[k] for k in ("config_file", "config", "code_version")},
                                 default=str))
    if not isinstance(old, dict) or any(old.get(k) != v for k, v in same.items()):
        return None
    return old if output_digests(stats["run_dir"]) == stats["outputs_before"] else None


def git_commit() -> str | None:
    import subprocess

    from mtc_cli.run.params import PROJECT_ROOT

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
