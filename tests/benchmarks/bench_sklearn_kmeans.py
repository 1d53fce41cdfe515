"""Benchmark: the k-means fits of ``mtc select`` through scikit-learn's ``KMeans(n_clusters=k,
n_init=n_init, random_state=seed).fit(X)`` (the code before) and through
``mtc_cli.core.models.sklearn_kmeans.fit`` (the same operations without the per-call validation,
array-API dispatch and thread-pool switches), CPU seconds of this process with one BLAS
thread (as every task runs), the two alternating (``bench_short_rows.compare``: the best of
its rounds kept), every centre, label and inertia compared (equal to the last bit).

Inputs: ``mtc select``'s small case (1 000 × 10 ``make_blobs`` points, 5 centres): a random
half (500 points, k = 1..12, 3 restarts: the random splits and Clest's learning sets) and
the whole set (k = 1..12, 3 restarts: the fit on all objects); the 10 000 × 20 case of
``bench_select`` (k = 1..10, 3 restarts); and the first k columns of the spectral embedding of
2 000 points in three 2-D blobs (k = 2..10, 10 restarts, ``--model spectral``'s default). Writes
``results/benchmarks/sklearn_kmeans.csv``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.cluster import KMeans
from sklearn.datasets import make_blobs
from threadpoolctl import threadpool_limits

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_short_rows import compare  # noqa: E402  (old and new alternating, best of rounds)

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "results" / "benchmarks" / "sklearn_kmeans.csv"


def fits(fit, X, ks, n_init):
    return [fit(X, k, n_init, seed) for seed, k in enumerate(ks)]


def sklearn_fit(X, k, n_init, seed):
    km = KMeans(n_clusters=k, n_init=n_init, random_state=seed).fit(X)
    return km.cluster_centers_, km.labels_, km.inertia_


def identical(old, new) -> bool:
    return all(np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1]) and a[2] == b[2]
               for a, b in zip(old, new, strict=True))


def main() -> None:
    from sklearn.manifold import spectral_embedding
    from sklearn.neighbors import kneighbors_graph

    from mtc_cli.core.models import sklearn_kmeans

    small = make_blobs(1000, 10, centers=5, random_state=0)[0]
    half = small[np.random.default_rng(0).permutation(1000)[:500]]
    medium = make_blobs(10000, 20, centers=5, random_state=0)[0]
    three = make_blobs(2000, 2, centers=3, random_state=0)[0]
    graph = kneighbors_graph(three, n_neighbors=10, include_self=True)
    maps = spectral_embedding(0.5 * (graph + graph.T), n_components=10, random_state=0,
                              drop_first=False)
    cases = {"small case's half (500 x 10), k = 1..12, 3 restarts": (half, range(1, 13), 3),
             "small case (1 000 x 10), k = 1..12, 3 restarts": (small, range(1, 13), 3),
             "10 000 x 20, k = 1..10, 3 restarts": (medium, range(1, 11), 3)}
    rows = []
    with threadpool_limits(limits=1):
        for name, (X, ks, n_init) in cases.items():
            rows.append(compare("k-means fits", name,
                                lambda X=X, ks=ks, n=n_init: fits(sklearn_fit, X, ks, n),
                                lambda X=X, ks=ks, n=n_init: fits(sklearn_kmeans.fit, X, ks, n),
                                identical))
        spectral = "spectral embedding (2 000 x k), k = 2..10, 10 restarts"
        rows.append(compare(
            "k-means fits", spectral,
            lambda: [sklearn_fit(maps[:, :k], k, 10, k) for k in range(2, 11)],
            lambda: [sklearn_kmeans.fit(maps[:, :k], k, 10, k) for k in range(2, 11)],
            identical))
    table = pd.DataFrame(rows)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(OUT, index=False)
    print(table.to_string(index=False))


if __name__ == "__main__":
    main()
