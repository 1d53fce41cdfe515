"""Benchmark: how many restarts should every k-means and GMM fit of ``mtc select`` make?
League hits against time for ``n_init`` ∈ {1, 3, 5, 10}, per model.

The data sets are a stratified part of the criteria league's suite (its generators and
scikit-learn's data; ``configs/criteria_league.yaml``): Milligan–Cooper designs with 3 and
5 clusters in 4 and 8 dimensions, equal sizes or one cluster of 10 %, error-free or with
20 % outliers (one replication: 16 data sets), the elongated and the unequal-variance
design with 3 clusters in 4 dimensions, iris and wine — 20 data sets. Each (data set,
model, n_init) is one selection of the league (k = 1..12, every criterion, mtc select's
other defaults, ``select_seed`` 0), timed in CPU seconds on one core with one BLAS
thread; the runs share two worker processes, so the times of the n_init values are
measured in one run under the same load.

Writes ``results/benchmarks/restarts.csv`` (per model × n_init × criterion: data sets,
hits, mean |k̂ − k|, summed selection time in seconds) and ``restarts_runs.csv`` (every
choice). ``python tests/benchmarks/bench_restarts.py [-j 2]``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from threadpoolctl import threadpool_limits

import experiments.criteria_league as league
from experiments.criteria_league import Suite

ROOT = Path(__file__).resolve().parents[2]
N_INITS = (1, 3, 5, 10)
MODELS = ("kmeans", "gmm")
SUITE = Suite(families=["milligan_cooper", "elongated", "unequal_variance"], reps=1,
              n_clusters=[3, 5], n_dims=[4, 8], sizes=["equal", "one_10pct"],
              errors=["none", "outliers"], real=["iris", "wine"])


def one(design: dict, model: str, n_init: int) -> list[dict]:
    task = {"design": design, "model": model, "k_max": 12, "splits": 10, "references": 10,
            "clest_references": 5, "clest_splits": 5, "n_init": n_init,
            "covariance_type": "full", "select_seed": 0}
    start = time.process_time()
    with threadpool_limits(limits=1):
        rows = league.experiment.run_task(task, np.random.default_rng(0))
    seconds = time.process_time() - start
    return [{"dataset": r["dataset"], "family": r["family"], "model": model,
             "n_init": n_init, "criterion": r["criterion"], "k": r["k"],
             "true_k": r["true_k"], "abs_error": r["score"], "seconds": seconds}
            for r in rows]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("-j", "--jobs", type=int, default=2)
    args = parser.parse_args()
    designs = [d for d in league.datasets(SUITE)
               if d["family"] not in ("elongated", "unequal_variance") or "-k3-d4-" in d["id"]]
    work = [(d, m, n) for d in designs for m in MODELS for n in N_INITS]
    # heaviest first (many restarts, GMMs), so that no core idles at the end
    work.sort(key=lambda w: (-w[2] * (5 if w[1] == "gmm" else 1)))
    parts = Parallel(n_jobs=args.jobs, batch_size=1, verbose=5)(
        delayed(one)(*w) for w in work)
    runs = pd.DataFrame([r for p in parts for r in p])
    out = ROOT / "results" / "benchmarks"
    runs.sort_values(["model", "n_init", "dataset", "criterion"]).to_csv(
        out / "restarts_runs.csv", index=False, lineterminator="\n")
    per_task = runs.drop_duplicates(["dataset", "model", "n_init"])
    seconds = per_task.groupby(["model", "n_init"])["seconds"].sum().rename("seconds")
    table = (runs.assign(hit=runs["abs_error"] == 0)
             .groupby(["model", "n_init", "criterion"])
             .agg(datasets=("hit", "size"), hits=("hit", "sum"),
                  mean_abs_error=("abs_error", "mean"))
             .reset_index().join(seconds, on=["model", "n_init"]))
    table["seconds"] = table["seconds"].round(1)
    table["mean_abs_error"] = table["mean_abs_error"].round(3)
    table.to_csv(out / "restarts.csv", index=False, lineterminator="\n")
    wide = table.pivot_table(index=["model", "criterion"], columns="n_init", values="hits")
    print(wide.to_string())
    print(seconds.to_string())
    print(f"{len(designs)} data sets; wrote {out / 'restarts.csv'}")


if __name__ == "__main__":
    main()
