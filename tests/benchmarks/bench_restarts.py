"""Benchmark: how many restarts should every k-means and GMM fit of ``mtc select`` make?
League hits against time for ``n_init`` ∈ {1, 3, 5, 10}, per model.

The data sets: 16 Milligan–Cooper designs of the league of families
(:func:`mtc_cli.core.datasets.families.designs`, seed 2027) and iris and wine z-scored
(:mod:`mtc_cli.core.datasets.real_sets`) — 18 data sets. Each (data set, model, n_init) is
one selection of every criterion (k = 1..12, mtc select's other defaults, seed 0), timed in
CPU seconds on one core with one BLAS thread; the runs share two worker processes, so the
times of the n_init values are measured in one run under the same load. (The committed
``restarts.csv`` of 2026-11-26 was measured on the criteria league's suite before that
league was replaced: 16 Milligan–Cooper designs, an elongated and an unequal-variance one,
iris and wine.)

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

from mtc_cli.core.datasets import families, real_sets
from mtc_cli.selection import choice, engine
from mtc_cli.selection.settings import make_settings

ROOT = Path(__file__).resolve().parents[2]
N_INITS = (1, 3, 5, 10)
MODELS = ("kmeans", "gmm")


def designs() -> list[dict]:
    return (families.designs("milligan_cooper", 16, 2027)
            + [d for d in real_sets.designs() if d["name"] in ("iris", "wine")
               and d["standardize"]])


def one(design: dict, model: str, n_init: int) -> list[dict]:
    X, _, true_k = (real_sets.make(design) if design["family"] == "real"
                    else families.make(design))
    start = time.process_time()
    with threadpool_limits(limits=1):
        s = make_settings(model, (1, 12), None, n=len(X), d=X.shape[1], n_init=n_init)
        summary, _ = choice.summarize(engine.run(X, s, 0), s.criteria, k_lo=1, k_hi=12,
                                      model=model)
    seconds = time.process_time() - start
    return [{"dataset": design["id"], "family": design["family"], "model": model,
             "n_init": n_init, "criterion": c, "k": k, "true_k": true_k,
             "abs_error": abs(k - true_k) if np.isfinite(k) else np.nan, "seconds": seconds}
            for c, k in zip(summary["criterion"], summary["selected_k"], strict=True)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("-j", "--jobs", type=int, default=2)
    args = parser.parse_args()
    work = [(d, m, n) for d in designs() for m in MODELS for n in N_INITS]
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
