"""Benchmark: Lange et al.'s stability curve on the Golub matrix (72 samples × 100 genes,
the preprocessing of ``configs/stability_leukemia.yaml``), k = 2..10, r = 20 splits,
20 random labellings per baseline, k-means with 20 restarts and the nearest-centroid rule:

- ``mtc``: :func:`mtc_cli.core.criteria.stability_resampling.instability_curve` with the
  batched k-means of :mod:`mtc_cli.core.models.clusterers`;
- ``reval``: the ``reval`` package (``FindBestClustCV``: scikit-learn ``KMeans(n_init=20)``,
  ``NearestCentroid``, 2-fold CV repeated 10 times = 20 train/validation pairs, nrand = 20).

Measured in one run, one BLAS / OpenMP thread for both (scikit-learn and reval are
imported before the limit is set, so that it reaches their OpenMP runtime too), best of
``REPEATS``; prints the ratio and the chosen k of each and writes
``results/benchmarks/stability.csv``. reval is not a dependency of mtc (its package requires
umap-learn and matplotlib, which its ``best_nclust_cv`` module does not import): install it
apart without its dependencies, ``pip install --no-deps --target /tmp/reval_pkgs reval``, and
run this script with ``PYTHONPATH=/tmp/reval_pkgs``. Without reval the script says so and
times ours only.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.cluster import KMeans
from sklearn.neighbors import NearestCentroid
from threadpoolctl import threadpool_limits

from mtc_cli.core.criteria import stability
from mtc_cli.core.criteria.stability_resampling import instability_curve
from mtc_cli.core.datasets import golub
from mtc_cli.core.models import clusterers

ROOT = Path(__file__).resolve().parents[2]
REPEATS = 2
KS = list(range(2, 11))


def golub_matrix() -> np.ndarray:
    g = golub.load(ROOT / "data" / "golub_leukemia")
    X = golub.standardise_samples(golub.dudoit_filter(g.X)[0])
    return X[:, golub.top_variance(X, 100)]


def run_mtc(X, seed):
    rng = np.random.default_rng(seed)
    inst = instability_curve(X, KS, clusterers.kmeans_cluster,
                             clusterers.nearest_centroid_predict, rng, n_resamples=20,
                             n_draws=20)
    return stability.select_k(KS, [i.score for i in inst], ties="largest")


def run_reval(X, seed):
    from reval.best_nclust_cv import FindBestClustCV

    finder = FindBestClustCV(s=NearestCentroid(), c=KMeans(n_init=20, random_state=seed),
                             nrand=20, nfold=2, nclust_range=KS)
    return int(finder.best_nclust(X, iter_cv=10)[1])


def best_time(fn, X):
    times, chosen = [], None
    for seed in range(REPEATS):
        t = time.perf_counter()
        chosen = fn(X, seed)
        times.append(time.perf_counter() - t)
    return min(times), chosen


def main():
    X = golub_matrix()
    try:
        import reval.best_nclust_cv  # noqa: F401
    except ImportError:
        have_reval = False
        print("reval is not importable: skipping the reval timing (pip install --no-deps "
              "--target DIR reval, PYTHONPATH=DIR; see the docstring)")
    else:
        have_reval = True
    logging.disable(logging.INFO)
    rows = []
    with threadpool_limits(1):
        t, k = best_time(run_mtc, X)
        rows.append({"implementation": "mtc", "seconds": t, "selected_k": k})
        if have_reval:
            t, k = best_time(run_reval, X)
            rows.append({"implementation": "reval", "seconds": t, "selected_k": k})
    df = pd.DataFrame(rows)
    df["ratio_to_mtc"] = df["seconds"] / df.loc[0, "seconds"]
    df.insert(0, "matrix", f"golub {X.shape[0]}x{X.shape[1]}, k=2..10, r=20")
    print(df.to_string(index=False))
    out = ROOT / "results" / "benchmarks" / "stability.csv"
    out.parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(out, index=False)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
