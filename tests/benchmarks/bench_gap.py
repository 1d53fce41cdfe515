"""Benchmark: the Gap statistic (Tibshirani, Walther & Hastie 2001) of mtc against the
``gap-stat`` package (module ``gap_statistic``, class ``OptimalK``) on 2 000 points in 10
dimensions (5 Gaussian clusters), k = 1..10, B = 10 reference sets, at equal restarts:

- 1 restart: ours with one k-means++ seeding (Lloyd until no label changes) against
  gap-stat's default clusterer (scipy's ``kmeans2``, one seeding from data points, 10
  iterations);
- 10 restarts: ours with 10 seedings (:func:`mtc_cli.core.models.clusterers.kmeans_cluster`)
  against gap-stat with scikit-learn's ``KMeans(n_init=10)`` as its clusterer.

Measured in one run, one process, one BLAS thread, best of ``REPEATS``; prints the times,
the ratio ours / gap-stat and each one's k (ours by the one-standard-error rule, gap-stat
by the largest gap, its rule), and writes ``results/benchmarks/gap.csv``.

gap-stat is not a dependency of mtc. It is pure Python on numpy, pandas and scipy (its Rust
backend is an optional extra, not used here), but its source package pins a 2018 ``wheel``
for the build, which current setuptools cannot use; install it into mtc's environment
without build isolation and without touching mtc's dependencies:
``pip install wheel && pip install --no-build-isolation --no-deps gap-stat``. Without it
the script says so and times ours only.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.cluster import KMeans  # loaded before threadpool_limits, so limited too
from threadpoolctl import threadpool_limits

from mtc_cli.core.criteria import gap_statistic
from mtc_cli.core.models import clusterers

ROOT = Path(__file__).resolve().parents[2]
REPEATS = 2
KS = list(range(1, 11))
N_REFERENCES = 10


def blobs(seed: int = 0, n: int = 2000, d: int = 10, k: int = 5) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = rng.normal(scale=4.0, size=(k, d))
    return centres[rng.integers(k, size=n)] + rng.standard_normal((n, d))


def run_mtc(X, seed, restarts):
    def cluster(data, ks, rng):
        return clusterers.kmeans_cluster(data, ks, rng, n_init=restarts)

    g = gap_statistic.gap_statistic(X, KS, cluster, gap_statistic.within_sum_of_squares,
                                    np.random.default_rng(seed), n_references=N_REFERENCES)
    return g["selected"]


def run_gap_stat(X, seed, restarts):
    from gap_statistic import OptimalK

    if restarts == 1:  # gap-stat's own default: scipy's kmeans2
        finder = OptimalK(parallel_backend=None, random_state=seed)
    else:
        def sklearn_kmeans(data, k):
            fit = KMeans(k, n_init=restarts, random_state=seed).fit(data)
            return fit.cluster_centers_, fit.labels_

        finder = OptimalK(parallel_backend=None, clusterer=sklearn_kmeans, random_state=seed)
    np.random.seed(seed)  # kmeans2 draws from numpy's global generator
    return int(finder(X, n_refs=N_REFERENCES, cluster_array=KS))


def best_time(fn, X, restarts):
    times, chosen = [], None
    for seed in range(REPEATS):
        t = time.perf_counter()
        chosen = fn(X, seed, restarts)
        times.append(time.perf_counter() - t)
    return min(times), chosen


def main():
    X = blobs()
    try:
        import gap_statistic as _  # noqa: F401
    except ImportError:
        have_gap_stat = False
        print("gap-stat is not importable: timing ours only (pip install wheel && pip "
              "install --no-build-isolation --no-deps gap-stat, see the docstring)")
    else:
        have_gap_stat = True
    rows = []
    with threadpool_limits(1):
        for restarts in (1, 10):
            t, k = best_time(run_mtc, X, restarts)
            row = {"restarts": restarts, "mtc_seconds": t, "mtc_k": k}
            if have_gap_stat:
                t, k = best_time(run_gap_stat, X, restarts)
                row.update(gap_stat_seconds=t, gap_stat_k=k,
                           ratio_mtc_to_gap_stat=row["mtc_seconds"] / t)
            rows.append(row)
    df = pd.DataFrame(rows)
    df.insert(0, "data", f"{X.shape[0]}x{X.shape[1]}, 5 clusters, k=1..10, B={N_REFERENCES}")
    print(df.to_string(index=False))
    out = ROOT / "results" / "benchmarks" / "gap.csv"
    out.parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(out, index=False)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
