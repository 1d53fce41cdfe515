"""One run end to end: config → tasks → rows → summary, tables, targets, figures, run.json.

The figures are always drawn from the CSVs read back from disk, so ``mtc render`` (which
has nothing else) draws exactly what ``mtc run`` drew.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from mtc_cli.config import COMMON_KEYS, Config, build
from mtc_cli.errors import MtcError
from mtc_cli.registry import get_experiment
from mtc_cli.results import check_targets, write_csv, write_json
from mtc_cli.runner import load_rows, provenance, run_tasks


@dataclass
class Outcome:
    run_dir: Path
    summary: pd.DataFrame
    targets: pd.DataFrame
    figures: list
    stats: dict


def default_run_dir(cfg: Config) -> Path:
    """``results/<config stem>/``; the quick profile goes to ``results/quick/<stem>/``."""
    stem = cfg.path.stem
    return Path("results") / "quick" / stem if cfg.quick else Path("results") / stem


def run(cfg: Config, *, out: Path | None = None, jobs: int = 1, force: bool = False) -> Outcome:
    exp = get_experiment(cfg.experiment)
    check = getattr(exp, "check", None)
    if check is not None:
        check(cfg.params)
    tasks = exp.tasks(cfg.params)
    if not tasks:
        raise MtcError(f"{cfg.path}: the config expands to no tasks")
    run_dir = Path(out) if out is not None else default_run_dir(cfg)
    start = time.perf_counter()
    stats = run_tasks(exp, tasks, cfg.seed, run_dir, jobs=jobs, force=force,
                      label=f"{cfg.path.stem}{' (quick)' if cfg.quick else ''}")
    rows, stats["task_time_s"] = load_rows(run_dir, stats["keys"], exp.condition)
    write_csv(rows, run_dir / "rows.csv")
    rows = pd.read_csv(run_dir / "rows.csv")
    summary = exp.summarize(rows, cfg.params)
    write_csv(summary, run_dir / "summary.csv")
    summary = pd.read_csv(run_dir / "summary.csv")
    tables = {"summary": summary, "rows": rows}
    for name, df in exp.tables(rows, summary, cfg.params).items():
        write_csv(df, run_dir / f"{name}.csv")
        tables[name] = pd.read_csv(run_dir / f"{name}.csv")
    targets = check_targets(cfg.targets, tables)
    write_csv(targets, run_dir / "targets.csv")
    figures = exp.plot(rows, summary, cfg.params, run_dir)
    meta = provenance(cfg, jobs, time.perf_counter() - start, stats)
    previous = run_dir / "run.json"
    if stats["n_computed"] == 0 and previous.is_file():
        # nothing recomputed: keep the timing of the invocation that computed the tasks
        old = json.loads(previous.read_text())
        meta.update({k: old[k] for k in ("wall_time_s", "jobs", "backend") if k in old})
    write_json(meta, run_dir / "run.json")
    return Outcome(run_dir, summary, targets, figures, stats)


def render(run_dir: Path) -> list:
    """Redraw a run's figures from its ``run.json``, ``rows.csv`` and ``summary.csv``."""
    run_dir = Path(run_dir)
    meta_path = run_dir / "run.json"
    for p in (meta_path, run_dir / "rows.csv", run_dir / "summary.csv"):
        if not p.is_file():
            raise MtcError(f"{run_dir}: not a finished run directory (missing {p.name})")
    meta = json.loads(meta_path.read_text())
    conf = meta["config"]
    exp = get_experiment(conf["experiment"])
    params = build(exp.Params, {k: v for k, v in conf.items() if k not in COMMON_KEYS},
                   str(meta_path), "")
    rows = pd.read_csv(run_dir / "rows.csv")
    summary = pd.read_csv(run_dir / "summary.csv")
    return exp.plot(rows, summary, params, run_dir)

