"""One run end to end: config → tasks → rows → summary, tables, targets, figures, run.json.

The figures are always drawn from the CSVs read back from disk, so ``mtc render`` (which
has nothing else) draws exactly what ``mtc run`` drew. A sharded run (``--shard I/N``)
only fills the task cache; ``mtc merge`` (or any plain run that finds every task cached)
assembles the outputs.
"""

from __future__ import annotations

import contextlib
import functools
import json
import re
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from mtc_cli.core.errors import MtcError
from mtc_cli.core.files import read_csv, write_csv, write_json
from mtc_cli.run import agreement, runlock
from mtc_cli.run.config import Config, config_from_mapping
from mtc_cli.run.registry import get_experiment
from mtc_cli.run.runner import (
    experiment_version,
    git_commit,
    load_rows,
    plan_tasks,
    provenance,
    run_pooled,
    run_tasks,
    task_key,
)
from mtc_cli.show.targets import check_targets


@dataclass
class Outcome:
    run_dir: Path
    stats: dict
    summary: pd.DataFrame | None = None
    targets: pd.DataFrame | None = None
    figures: list | None = None
    config: Config | None = None
    experiment: object = None


def start_workers(jobs: int, modules: tuple[str, ...]) -> None:
    """Start the ``jobs`` loky workers of a run in a background thread, each importing
    ``modules``, while this process reads the data and plans the tasks. The run's
    ``Parallel`` in :func:`mtc_cli.run.runner.run_tasks` has the same configuration (backend,
    initializer, workers), so loky hands it these workers instead of starting its own; if
    it ever differs, the workers are merely started twice. For small selections, where
    starting workers and importing scikit-learn in them is a large part of the time."""
    import os
    import threading

    from joblib import Parallel, delayed, parallel_config

    from mtc_cli.run.runner import quiet_tracker, watch_parent

    def warm() -> None:
        quiet_tracker()
        with contextlib.suppress(Exception), parallel_config(
                backend="loky", initializer=watch_parent, initargs=(os.getpid(),)):
            Parallel(n_jobs=jobs, batch_size=1)(delayed(_import)(modules)
                                                for _ in range(max(jobs, 1)))

    serialise_parse()
    threading.Thread(target=warm, daemon=True, name="mtc-start-workers").start()


def serialise_parse() -> None:
    """Make ``ast.parse`` take a lock, for good, in this process (once; before a background
    thread starts). CPython 3.11's AST constructor keeps its recursion depth in state shared
    by all threads (python/cpython#106905), so two threads parsing at once fail with
    "SystemError: AST constructor recursion depth mismatch"; and parsing is everywhere:
    importing matplotlib parses its style sheets, joblib's ``Parallel`` parses its
    ``pre_dispatch``, a config names its experiment through our own parser."""
    import ast
    import threading

    if getattr(ast.parse, "mtc_serial", False):
        return
    parse, lock = ast.parse, threading.RLock()

    def serial(*args, **kwargs):
        with lock:
            return parse(*args, **kwargs)

    serial.mtc_serial = True
    ast.parse = functools.wraps(parse)(serial)


def preload(modules: tuple[str, ...]):
    """Import ``modules`` in a background thread of this process, returned started: what
    the summary and the figures need (an experiment's ``summary_modules``), imported while
    the workers compute the tasks rather than after them; ``module:function`` also calls
    the module's function (e.g. one that sets a backend up). The caller joins it."""
    import threading

    def load() -> None:
        with contextlib.suppress(Exception):
            _import(modules)

    serialise_parse()
    thread = threading.Thread(target=load, daemon=True, name="mtc-preload")
    thread.start()
    return thread


def summary_modules(exp, params) -> tuple[str, ...]:
    """What :func:`preload` imports for a run of ``exp`` with ``params``: the experiment's
    ``summary_modules_of(params)`` where it has one, else its ``summary_modules``."""
    of = getattr(exp, "summary_modules_of", None)
    return tuple(of(params)) if of is not None else tuple(getattr(exp, "summary_modules", ()))


def _import(modules: tuple[str, ...]) -> None:
    import importlib

    for name in modules:
        module, _, function = name.partition(":")
        loaded = importlib.import_module(module)
        if function:
            getattr(loaded, function)()


def default_run_dir(cfg: Config) -> Path:
    """``results/<config stem>/``; the quick profile goes to ``results/quick/<stem>/``; a
    ``select`` config saved outside the project's ``configs/`` (``mtc select
    --save-config``) to ``results/select/<stem>/``, beside ``mtc select``'s own runs."""
    from mtc_cli.run.params import PROJECT_ROOT

    stem = cfg.path.stem
    if cfg.quick:
        return Path("results") / "quick" / stem
    if cfg.experiment == "select" and cfg.path.resolve().parent != PROJECT_ROOT / "configs":
        return Path("results") / "select" / stem
    return Path("results") / stem


def run(cfg: Config, *, out: Path | None = None, jobs: int = 1, force: bool = False,
        backend: str = "loky", scheduler: str | None = None, cluster=None,
        shard: tuple[int, int] | None = None, options: str | None = None) -> Outcome:
    """Compute the missing tasks of ``cfg`` and, unless sharded, write every output.

    Everything that can be checked is checked before anything is written: the experiment's
    ``check``, its tasks, the dask scheduler (connected first), the run directory (writable;
    not a run of another config, or of other ``options`` when given, unless ``force``; not
    in use by another run)."""
    exp = get_experiment(cfg.experiment)
    check = getattr(exp, "check", None)
    if check is not None:
        check(cfg.params)
    tasks = exp.tasks(cfg.params)
    if not tasks:
        raise MtcError(f"{cfg.path}: the config expands to no tasks")
    run_dir = Path(out) if out is not None else default_run_dir(cfg)
    start = time.perf_counter()
    label = f"{cfg.path.stem}{' (quick)' if cfg.quick else ''}"
    if shard is not None:
        label += f" shard {shard[0]}/{shard[1]}"
    if backend == "dask":
        from mtc_cli.run.dask_backend import dask_client

        spec = cluster if cluster is not None else cfg.cluster
        client_cm = dask_client(scheduler=scheduler, spec=spec, jobs=jobs)
    else:
        client_cm = contextlib.nullcontext()
    threads = backend == "loky" and shard is None and exp.small(cfg.params)
    with client_cm, prepared(run_dir, cfg, force=force, shard=shard,
                             options=options) as fresh:
        loading = None
        if jobs > 1 and shard is None:
            loading = preload(summary_modules(exp, cfg.params))
        try:
            stats = run_tasks(exp, tasks, cfg.seed, run_dir, jobs=jobs, force=force,
                              label=label, backend=backend, shard=shard,
                              task_bytes=exp.task_bytes(cfg.params), threads=threads)
        except BaseException:
            fresh.discard_if_empty()
            raise
        finally:
            if loading is not None:
                loading.join()
        jobs = stats["jobs"]
        stats.update(backend=backend if backend == "dask" else "threads" if threads and jobs > 1
                     else "loky" if jobs > 1 else "sequential", wall=time.perf_counter() - start)
        if shard is not None:
            return Outcome(run_dir, stats)
        return finish(cfg, exp, run_dir, stats, tasks)


def run_many(cfgs: list[Config], *, jobs: int, force: bool = False, on_outcome=None) -> list:
    """Run several configs, each into its default run directory, in one pool of ``jobs``
    loky workers (:func:`mtc_cli.run.runner.run_pooled`: the longest tasks first, no worker idle
    between configs). Every config is checked and its run directory prepared before any
    task runs; each config is finished (tables, targets, figures, run.json) in this process
    as soon as its last task is cached, while the workers go on with the others, and handed
    to ``on_outcome``. The ``wall_time_s`` of a config is the time from the start of the
    pool to its finish."""
    start = time.perf_counter()
    runs = []
    for cfg in cfgs:
        exp = get_experiment(cfg.experiment)
        check = getattr(exp, "check", None)
        if check is not None:
            check(cfg.params)
        tasks = exp.tasks(cfg.params)
        if not tasks:
            raise MtcError(f"{cfg.path}: the config expands to no tasks")
        runs.append((cfg, exp, tasks, default_run_dir(cfg)))
    outcomes = [None] * len(runs)
    with contextlib.ExitStack() as stack:
        fresh = [stack.enter_context(prepared(run_dir, cfg, force=force))
                 for cfg, _, _, run_dir in runs]
        plans = [plan_tasks(exp, tasks, cfg.seed, run_dir, force=force)
                 for cfg, exp, tasks, run_dir in runs]
        loading = preload(tuple(dict.fromkeys(
            m for cfg, exp, _, _ in runs for m in summary_modules(exp, cfg.params))))

        def done(i: int) -> None:
            loading.join()
            cfg, exp, tasks, run_dir = runs[i]
            stats = plans[i].stats()
            stats.update(backend="loky", jobs=jobs, wall=time.perf_counter() - start)
            outcomes[i] = finish(cfg, exp, run_dir, stats, tasks)
            if on_outcome is not None:
                on_outcome(outcomes[i])

        quick = " (quick)" if any(cfg.quick for cfg in cfgs) else ""
        try:
            run_pooled(plans, jobs, f"{len(runs)} configs{quick}", done)
        except BaseException:
            for f in fresh:
                f.discard_if_empty()
            raise
        finally:
            loading.join()
    return outcomes


class _Fresh:
    """Whether ``prepared`` made the run directory, so that a run that fails before any
    task is cached leaves nothing behind."""

    def __init__(self, run_dir: Path, made: list[Path]):
        self.run_dir, self.made = run_dir, made

    def discard_if_empty(self) -> None:
        cache = self.run_dir / "tasks"
        if not self.made or (cache.is_dir() and any(cache.glob("*.json"))):
            return
        with contextlib.suppress(OSError):
            shutil.rmtree(self.made[0])


@contextlib.contextmanager
def prepared(run_dir: Path, cfg: Config, *, force: bool, shard=None, options: str | None = None):
    """Make ``run_dir`` (and its missing parents) and hold its lock; refuse a directory that
    holds a run of another config (another experiment or config file) unless ``force``.
    With ``options`` (the digest of an ``mtc select``'s options), ``config.json`` records
    them and a directory holding a run of other options is refused instead.

    An OSError while setting up (permissions, read-only, full disk) is one MtcError line
    (exit 2), and the directories set-up made are removed: they hold nothing else yet. An
    OSError later, during the tasks or the outputs, is the run's own failure (exit 1 with
    the resume hint): it propagates as it is and every finished task stays cached."""
    run_dir = Path(run_dir)
    made = [p for p in (run_dir, *run_dir.parents) if not p.exists()][::-1]
    previous = run_dir / "config.json"
    if previous.is_file() and not force:
        _refuse_other_config(previous, cfg, run_dir, options)
    elif run_dir.is_dir() and not force:
        _refuse_foreign_files(run_dir)
        if previous.is_file():  # another shard wrote it meanwhile
            _refuse_other_config(previous, cfg, run_dir, options)
    lock = contextlib.ExitStack()
    try:
        run_dir.mkdir(parents=True, exist_ok=True)
        (run_dir / "tasks").mkdir(exist_ok=True)
        lock.enter_context(runlock.hold(run_dir, shard))
        record = {"config_file": str(cfg.path), "config": cfg.resolved()}
        write_json(record if options is None else {**record, "options": options}, previous)
    except OSError as exc:
        lock.close()
        if made:
            with contextlib.suppress(OSError):
                shutil.rmtree(made[0])
        raise MtcError(f"{run_dir}: cannot write the run directory: "
                       f"{exc.strerror or exc}") from None
    with lock:
        yield _Fresh(run_dir, made)

#: the temporary file of config.json while another shard writes it (results.new_temp_file)
_OWN_TEMP = re.compile(r"\.config\.json\.[0-9a-f]{12}\.tmp")


def _refuse_foreign_files(run_dir: Path) -> None:
    """A folder that is not a run directory (no ``config.json``) but holds files of its own
    is the user's: a run would overwrite their ``rows.csv``. What mtc itself makes there —
    the cache, the lock, ``config.json`` and its temporary files — is not foreign: shards
    of one job array set up the same folder at the same time."""
    foreign = sorted(p.name for p in run_dir.iterdir()
                     if p.name not in ("tasks", "config.json")
                     and not p.name.startswith(runlock.NAME)
                     and not _OWN_TEMP.fullmatch(p.name))
    if foreign:
        raise MtcError(f"{run_dir}: not a run directory of mtc and not empty (holds "
                       f"{foreign[0]}{' …' if len(foreign) > 1 else ''}); choose another "
                       "--out, or --force to write into it")


def _refuse_other_config(path: Path, cfg: Config, run_dir: Path, options: str | None) -> None:
    """Refuse ``run_dir`` unless its record ``path`` is of the same config file and
    experiment — or, with ``options``, of the same options."""
    try:
        old = json.loads(path.read_text())
        same = (old["config"]["experiment"] == cfg.experiment
                and Path(old["config_file"]).resolve() == Path(cfg.path).resolve())
        theirs = old.get("options")
    except (OSError, ValueError, KeyError, TypeError):
        same, theirs = False, None
    if options is not None:
        same = theirs == options
    if not same:
        what = "other options" if options and theirs else "another config"
        raise MtcError(f"{run_dir}: holds a run of {what} ({path}); choose another --out, or "
                       "--force to replace it")


def finish(cfg: Config, exp, run_dir: Path, stats: dict, tasks: list[dict]) -> Outcome:
    """Merge the cached rows and write rows, summary, tables, targets, figures, run.json."""
    if stats["missing"]:
        raise MtcError(f"{run_dir}: {stats['missing']} of {stats['n_tasks']} tasks are not "
                       "cached yet (unfinished shards?)")
    rows, stats["task_time_s"], stats["commits"] = load_rows(
        run_dir, stats["keys"], tasks, exp.condition, exp.name, cfg.seed,
        stats["code_version"])
    timing = exp.timing(rows)
    stage = Path(tempfile.mkdtemp(prefix=".stage-", dir=run_dir))
    try:
        write_csv(rows.drop(columns=list(exp.timing_columns), errors="ignore"),
                  stage / "rows.csv")
        derive_tables(cfg, exp, stage, pd.read_csv(stage / "rows.csv"))
        stats["agreement"] = agreement.settle(stage, run_dir)
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    rows = pd.read_csv(run_dir / "rows.csv")
    summary = pd.read_csv(run_dir / "summary.csv")
    targets = (pd.read_csv(run_dir / "targets.csv", keep_default_na=False)
               if paper_targets(exp, cfg.params) else pd.DataFrame())
    figures = exp.plot(rows, summary, cfg.params, run_dir)
    meta = provenance(cfg, stats)
    if timing is not None:
        meta["timing"] = timing.to_dict(orient="records")
    previous = run_dir / "run.json"
    verdict = stats["agreement"]
    if not stats["record_kept"] and verdict.kept and not verdict.identical:
        # a new record of tables computed earlier: say by whom, and how closely this run
        # reproduced them
        meta["tables"] = {"kept": verdict.line(), "computed_by": _record(previous)}
    if stats["n_computed"] == 0 and previous.is_file():
        # nothing recomputed: keep the timing of the invocation that computed the tasks
        old = json.loads(previous.read_text())
        meta.update({k: old[k] for k in ("wall_time_s", "jobs", "backend") if k in old})
    write_json(meta, previous)
    return Outcome(run_dir, stats, summary, targets, figures, cfg, exp)


def _record(path: Path) -> dict | None:
    """The commit, code version and machine of the run record ``path`` (None if unreadable)."""
    try:
        old = json.loads(path.read_text())
        return {k: old.get(k) for k in ("git_commit", "code_version", "machine")}
    except (OSError, ValueError, AttributeError):
        return None


def derive(cfg: Config, exp, run_dir: Path, rows: pd.DataFrame):
    """Everything downstream of ``rows.csv``: summary, tables, targets and figures, each
    table written and read back before it is used (figures come from the CSVs alone)."""
    summary, targets = derive_tables(cfg, exp, run_dir, rows)
    return summary, targets, exp.plot(rows, summary, cfg.params, run_dir)


def derive_tables(cfg: Config, exp, run_dir: Path, rows: pd.DataFrame):
    """Summary, tables and targets of ``rows`` written to ``run_dir``: (summary, targets)."""
    summary = exp.summarize(rows, cfg.params)
    write_csv(summary, run_dir / "summary.csv")
    summary = pd.read_csv(run_dir / "summary.csv")
    tables = {"summary": summary, "rows": rows}
    # an experiment whose tables refit a model with a generator spawned like a task's says
    # so (``tables_read_seed = True``) and is handed the run's seed
    seed = {"seed": cfg.seed} if getattr(exp, "tables_read_seed", False) else {}
    for name, df in exp.tables(rows, summary, cfg.params, **seed).items():
        write_csv(df, run_dir / f"{name}.csv")
        tables[name] = pd.read_csv(run_dir / f"{name}.csv")
    if paper_targets(exp, cfg.params):
        targets = check_targets(cfg.targets, tables)
        write_csv(targets, run_dir / "targets.csv")
    else:  # a user's own data: the paper's claims are not about it
        targets = pd.DataFrame()
    return summary, targets


def rederive(run_dir: Path, cfg: Config) -> Outcome:
    """Re-derive summary, tables, targets and figures of a finished run from its
    ``rows.csv`` with the config ``cfg`` — for a config that changes what is derived
    (targets, tables, figures), not what is computed: its tasks must be the run's own.
    ``run.json`` keeps the provenance of the rows and records the commit that re-derived."""
    run_dir = Path(run_dir)
    for name in ("run.json", "rows.csv"):
        if not (run_dir / name).is_file():
            raise MtcError(f"{run_dir}: not a finished run directory (missing {name})")
    old = _config_of(run_dir, "run.json")
    exp = get_experiment(cfg.experiment)
    if old.experiment != cfg.experiment or old.seed != cfg.seed or \
            _task_keys(exp, old) != _task_keys(exp, cfg):
        raise MtcError(f"{cfg.path}: computes other tasks than the run in {run_dir}; run it "
                       "instead (mtc run)")
    with runlock.hold(run_dir):
        rows = pd.read_csv(run_dir / "rows.csv")
        summary, targets, figures = derive(cfg, exp, run_dir, rows)
        meta = json.loads((run_dir / "run.json").read_text())
        meta.update(config_file=str(cfg.path), config=cfg.resolved(),
                    derived_by=git_commit())
        write_json(meta, run_dir / "run.json")
    return Outcome(run_dir, {"n_computed": 0, "n_cached": 0}, summary, targets, figures,
                   cfg, exp)


def _task_keys(exp, cfg: Config) -> list[str]:
    return [task_key(exp.name, cfg.seed, t) for t in exp.tasks(cfg.params)]


def paper_targets(exp, params) -> bool:
    """Whether the config's paper targets apply: not on a user's own data (an experiment
    says so with ``paper_targets(params)``)."""
    check = getattr(exp, "paper_targets", None)
    return True if check is None else bool(check(params))


def _config_of(run_dir: Path, name: str) -> Config:
    """The Config a run directory was made with, from its ``config.json``/``run.json``,
    validated as a config file is (a planted experiment name or target is refused)."""
    path = run_dir / name
    if not path.is_file():
        raise MtcError(f"{run_dir}: not a run directory (missing {name})")
    try:
        meta = json.loads(path.read_text())
        conf = dict(meta["config"])
        source = Path(meta["config_file"])
    except (OSError, ValueError, KeyError, TypeError):
        raise MtcError(f"{path}: not a run record of mtc (unreadable or keys missing)") from None
    quick = bool(conf.pop("quick", False))
    try:
        cfg = config_from_mapping(conf, source)
    except MtcError as exc:
        raise MtcError(f"{path}: {exc}") from None
    cfg.quick = quick
    return cfg


def merge(run_dir: Path) -> Outcome:
    """Assemble the outputs of a run whose tasks were computed by shards."""
    run_dir = Path(run_dir)
    cfg = _config_of(run_dir, "config.json")
    exp = get_experiment(cfg.experiment)
    tasks = exp.tasks(cfg.params)
    keys = [task_key(exp.name, cfg.seed, t) for t in tasks]
    missing = sum(not (run_dir / "tasks" / f"{k}.json").exists() for k in keys)
    stats = {"n_tasks": len(keys), "n_shard": len(keys), "n_computed": 0,
             "n_cached": len(keys) - missing, "keys": keys, "missing": missing,
             "backend": "merged shards", "jobs": None, "wall": 0.0,
             "code_version": experiment_version(exp)}
    try:
        with runlock.hold(run_dir):
            return finish(cfg, exp, run_dir, stats, tasks)
    except OSError as exc:
        raise MtcError(f"{run_dir}: cannot write the run directory: "
                       f"{exc.strerror or exc}") from None


def render(run_dir: Path) -> list:
    """Redraw a run's figures from its ``run.json``, ``rows.csv`` and ``summary.csv``."""
    run_dir = Path(run_dir)
    for name in ("run.json", "rows.csv", "summary.csv"):
        if not (run_dir / name).is_file():
            raise MtcError(f"{run_dir}: not a finished run directory (missing {name})")
    cfg = _config_of(run_dir, "run.json")
    exp = get_experiment(cfg.experiment)
    return exp.plot(read_csv(run_dir / "rows.csv"), read_csv(run_dir / "summary.csv"),
                    cfg.params, run_dir)
