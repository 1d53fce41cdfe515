"""Why the dask LocalCluster was slower than loky on heavy tasks: the same 4 heavy
pac_mdl_text tasks (cmu-newsgroup-clean-1000, FSKMeans, k = 10) on 2 workers with loky, with
a LocalCluster in dask's default worker environment (MALLOC_TRIM_THRESHOLD_=65536), and with
mtc's LocalCluster (that variable unset), measured in one run.

    python tests/benchmarks/bench_dask_environment.py

Writes results/benchmarks/dask_environment.csv. Needs the 20 Newsgroups cache (built on
first use) and the ``cluster`` extra.
"""

from __future__ import annotations

import os
import time

import pandas as pd
from joblib import Parallel, delayed, parallel_config
from threadpoolctl import threadpool_limits

from mtc_cli.core.files import write_csv
from mtc_cli.run.config import load_config
from mtc_cli.run.dask_backend import TRIM
from mtc_cli.run.params import PROJECT_ROOT
from mtc_cli.run.registry import get_experiment
from mtc_cli.run.tasking import task_key, task_rng

TASK = {"dataset": "cmu-newsgroup-clean-1000", "algorithm": "FSKMeans", "k": 10}
COPIES = 4


def one_task() -> tuple[float, str | None]:
    """Seconds of one run of the task (after a warm-up run that loads the corpus) and the
    worker's MALLOC_TRIM_THRESHOLD_."""
    os.chdir(PROJECT_ROOT)
    cfg = load_config(PROJECT_ROOT / "configs" / "pac_mdl_text.yaml")
    exp = get_experiment(cfg.experiment)
    task = next(t for t in exp.tasks(cfg.params)
                if all(t[key] == value for key, value in TASK.items()))
    key = task_key(exp.name, cfg.seed, task)
    with threadpool_limits(1):
        exp.run_task(task, task_rng(cfg.seed, key))
        start = time.perf_counter()
        exp.run_task(task, task_rng(cfg.seed, key))
    return time.perf_counter() - start, os.environ.get(TRIM)


def measure(mode: str) -> dict:
    start = time.perf_counter()
    out = Parallel(n_jobs=2, batch_size=1)(delayed(one_task)() for _ in range(COPIES))
    wall = time.perf_counter() - start
    times = [t for t, _ in out]
    row = {"mode": mode, "wall_s": round(wall, 2), "mean_task_s": round(sum(times) / len(times), 2),
           "malloc_trim_threshold": out[0][1] or "unset"}
    print(row, flush=True)
    return row


def main() -> None:
    import dask
    from distributed import Client, LocalCluster

    from mtc_cli.run.dask_backend import dask_client

    rows = []
    with parallel_config(backend="loky"):
        rows.append(measure("loky -j 2"))
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster):
        assert dask.config.get("distributed.nanny.pre-spawn-environ")[TRIM]
        with parallel_config(backend="dask"):
            rows.append(measure("dask LocalCluster, dask's default environment"))
    with dask_client(jobs=2), parallel_config(backend="dask"):
        rows.append(measure("dask LocalCluster as mtc starts it"))
    df = pd.DataFrame(rows)
    df["ratio_to_loky"] = (df["wall_s"] / df["wall_s"].iloc[0]).round(3)
    write_csv(df, PROJECT_ROOT / "results" / "benchmarks" / "dask_environment.csv")


if __name__ == "__main__":
    main()
