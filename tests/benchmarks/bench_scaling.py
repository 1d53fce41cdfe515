"""Scaling benchmark: wall time of one config's full profile with loky -j 1, loky -j 2 and a
dask LocalCluster of 2 workers, measured in one run (fresh run directories, no cache);
plus the recorded wall and task times of every committed full-profile run.

    python tests/benchmarks/bench_scaling.py [CONFIG ...]  (default: the heaviest committed run)

Writes results/benchmarks/scaling.csv (one row per config; a re-measured config replaces its
row) and results/benchmarks/full_profiles.csv.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

from mtc_cli.core.files import write_csv
from mtc_cli.run import pipeline
from mtc_cli.run.config import load_config
from mtc_cli.run.params import PROJECT_ROOT

OUT = PROJECT_ROOT / "results" / "benchmarks"


def committed_runs() -> pd.DataFrame:
    rows = []
    for meta_path in sorted((PROJECT_ROOT / "results").glob("*/run.json")):
        meta = json.loads(meta_path.read_text())
        rows.append({"run": meta_path.parent.name, "config": meta["config_file"],
                     "n_tasks": meta["n_tasks"], "jobs": meta.get("jobs"),
                     "backend": meta.get("backend"), "wall_time_s": meta["wall_time_s"],
                     "task_time_s": meta.get("task_time_s")})
    return pd.DataFrame(rows)


def timed(cfg, **kw) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        pipeline.run(cfg, out=Path(tmp) / "run", **kw)
        return time.perf_counter() - start


def main() -> None:
    runs = committed_runs()
    write_csv(runs, OUT / "full_profiles.csv")
    print(runs.to_string(index=False))
    if len(sys.argv) > 1:
        configs = [Path(a) for a in sys.argv[1:]]
    else:
        heaviest = runs.sort_values("task_time_s").iloc[-1]
        configs = [PROJECT_ROOT / "configs" / f"{heaviest['run']}.yaml"]
    measured = pd.DataFrame([scaling(c) for c in configs])
    path = OUT / "scaling.csv"
    if path.exists():  # keep earlier configs' rows; a re-measured config replaces its own
        earlier = pd.read_csv(path)
        measured = pd.concat([earlier[~earlier["config"].isin(measured["config"])], measured])
    write_csv(measured, path)


def scaling(config: Path) -> dict:
    """Fresh full-profile runs of ``config`` in the three modes, timed in one process."""
    cfg = load_config(config)
    modes = {"loky -j 1": {"jobs": 1}, "loky -j 2": {"jobs": 2},
             "dask LocalCluster 2 workers": {"jobs": 2, "backend": "dask"}}
    times, load = {}, os.getloadavg()[0]
    for name, kw in modes.items():
        times[name] = timed(cfg, **kw)
        print(f"{config.name}: {name}: {times[name]:.1f} s", flush=True)
    one, two, dask = times["loky -j 1"], times["loky -j 2"], times["dask LocalCluster 2 workers"]
    print(f"{config.name}: speed-up -j 2 / -j 1: {one / two:.2f}x; dask LocalCluster vs "
          f"loky -j 2: {100 * (dask / two - 1):+.1f} %", flush=True)
    return {"config": config.name, "n_tasks": len(cfg_tasks(cfg)),
            **{f"{k} (s)": round(v, 2) for k, v in times.items()},
            "speedup_j2_over_j1": round(one / two, 3),
            "dask_overhead_vs_loky_j2": round(dask / two - 1, 3),
            "load_average_before": round(load, 2), "cores": os.cpu_count()}


def cfg_tasks(cfg) -> list:
    from mtc_cli.run.registry import get_experiment

    return get_experiment(cfg.experiment).tasks(cfg.params)


if __name__ == "__main__":
    main()
