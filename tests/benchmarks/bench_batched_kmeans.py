"""Benchmark: k-means for k = 1..12 with 3 restarts each on one data set, three ways —
:func:`mtc_cli.core.models.batched_kmeans.fit_all` (one compiled call for every k), a loop
over k of :func:`mtc_cli.core.models.sklearn_kmeans.fit` (scikit-learn's kernels called
directly: what ``mtc select`` calls today) and a loop of scikit-learn's ``KMeans(k,
n_init=3, random_state=k).fit(X)``. CPU seconds of this process (``time.process_time``)
with one BLAS/OpenMP thread; the three alternate call by call (the order rotated every
round, the same seeds every round), the best of ``ROUNDS`` rounds kept; the compile is
done (or its cache loaded) before.

Inputs: ``make_blobs(n, d, centers=5, cluster_std=1.5, random_state=0)`` for n in ``NS``
and d in ``DS`` (2, 10, 20; and 50, 100 to find where scikit-learn takes over:
``batched_kmeans.SKLEARN_ABOVE``). Columns: the three times, ``speedup_vs_direct`` /
``speedup_vs_kmeans`` = their time / ours (above 1: ours faster), ``mean_inertia_ratio`` =
the mean over k of our inertia / ``KMeans``' (other draws of the restarts, so not 1; their
numbers of iterations differ too, a part of the times' differences). Writes
``results/benchmarks/batched_kmeans.csv`` (atomically); takes a few minutes.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.cluster import KMeans
from sklearn.datasets import make_blobs
from threadpoolctl import threadpool_limits

from mtc_cli.core.files import write_csv
from mtc_cli.core.models import batched_kmeans, sklearn_kmeans

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "results" / "benchmarks" / "batched_kmeans.csv"
NS = (100, 250, 500, 1_000, 2_000, 5_000, 10_000, 20_000)
DS = (2, 10, 20, 50, 100)
KS, N_INIT, ROUNDS = range(1, 13), 3, 3


def ours(X):
    fits = batched_kmeans.fit_all(X, KS, N_INIT, np.random.default_rng(0))
    return [fits[k][2] for k in KS]


def direct(X):
    return [sklearn_kmeans.fit(X, k, N_INIT, k)[2] for k in KS]


def kmeans(X):
    return [KMeans(n_clusters=k, n_init=N_INIT, random_state=k).fit(X).inertia_ for k in KS]


def row(n: int, d: int) -> dict:
    X = make_blobs(n, d, centers=5, cluster_std=1.5, random_state=0)[0]
    calls = [ours, direct, kmeans]
    best = dict.fromkeys(calls, np.inf)
    inertia = {}
    for r in range(ROUNDS):
        for call in calls[r % 3:] + calls[:r % 3]:
            start = time.process_time()
            inertia[call] = call(X)
            best[call] = min(best[call], time.process_time() - start)
    assert inertia[direct] == inertia[kmeans]
    return {"n": n, "d": d, "ours_cpu_s": round(best[ours], 5),
            "direct_cpu_s": round(best[direct], 5), "kmeans_cpu_s": round(best[kmeans], 5),
            "speedup_vs_direct": round(best[direct] / best[ours], 2),
            "speedup_vs_kmeans": round(best[kmeans] / best[ours], 2),
            "mean_inertia_ratio": round(float(np.mean(np.divide(inertia[ours],
                                                                inertia[kmeans]))), 4)}


def main() -> None:
    ours(np.random.default_rng(0).normal(size=(20, 2)))  # compile, or load the cache
    rows = []
    with threadpool_limits(limits=1):
        for d in DS:
            for n in NS:
                rows.append(row(n, d))
                print(rows[-1], flush=True)
    table = pd.DataFrame(rows)
    write_csv(table, OUT)
    print(table.to_string(index=False))


if __name__ == "__main__":
    main()
