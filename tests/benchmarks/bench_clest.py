"""Benchmark: Clest's statistic (``clest.agreement_statistic``) with its LDA and
Fowlkes–Mallows through scikit-learn (``LinearDiscriminantAnalysis().fit().predict()``,
``fowlkes_mallows_score``: the code before) and through ``clest.lda_predict`` /
``clest.fowlkes_mallows`` (the same operations without the per-call validation), CPU seconds
of this process with one BLAS thread, the two alternating (``REPEATS`` rounds, the best of
each kept), every statistic compared (equal to the last bit).

Inputs: the three Gaussians of ``stability_toy`` (200 points, k = 2..10, its k-means of 10
starts) and ``mtc select``'s small case (1 000 × 10 ``make_blobs`` points, k = 2..12, one
k-means start), 20 learning/test splits each. Writes ``results/benchmarks/clest.csv``.
"""

from __future__ import annotations

import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.datasets import make_blobs
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.metrics import fowlkes_mallows_score
from threadpoolctl import threadpool_limits

from mtc_cli.core.criteria import clest
from mtc_cli.core.models.clusterers import kmeans_cluster

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "results" / "benchmarks" / "clest.csv"
REPEATS = 3


def sklearn_lda(X_train, labels, X_test):
    labels = np.asarray(labels)
    if len(np.unique(labels)) < 2:
        return np.full(len(X_test), labels[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return LinearDiscriminantAnalysis().fit(X_train, labels).predict(X_test)


def sklearn_fm(a, b):
    return float(fowlkes_mallows_score(np.asarray(a), np.asarray(b)))


def inputs():
    rng = np.random.default_rng(2002)
    toy = np.concatenate([rng.normal([0.0, 0.0], 0.5, (50, 2)),
                          rng.normal([2.5, 0.0], 0.5, (50, 2)),
                          rng.normal([1.25, 6.0], 1.0, (100, 2))])
    blobs = make_blobs(1000, 10, centers=5, random_state=0)[0]
    return {"stability_toy's three Gaussians (200 × 2), k = 2..10": (toy, range(2, 11), 10),
            "mtc select's small case (1 000 × 10), k = 2..12": (blobs, range(2, 13), 1)}


def statistic(X, ks, n_init, fm, lda) -> tuple[np.ndarray, float]:
    def cluster(data, ks, rng):
        return kmeans_cluster(data, ks, rng, n_init=n_init)

    saved = clest.fowlkes_mallows
    clest.fowlkes_mallows = fm
    try:
        start = time.process_time()
        t = clest.agreement_statistic(X, ks, cluster, np.random.default_rng(0), n_splits=20,
                                      predict=lda)
        return t, time.process_time() - start
    finally:
        clest.fowlkes_mallows = saved


def main() -> None:
    rows = []
    with threadpool_limits(limits=1):
        for name, (X, ks, n_init) in inputs().items():
            best = {"scikit-learn": np.inf, "ours": np.inf}
            values = {}
            for _ in range(REPEATS):
                for way, fm, lda in (("scikit-learn", sklearn_fm, sklearn_lda),
                                     ("ours", clest.fowlkes_mallows, clest.lda_predict)):
                    values[way], seconds = statistic(X, ks, n_init, fm, lda)
                    best[way] = min(best[way], seconds)
            same = bool(np.array_equal(values["scikit-learn"], values["ours"]))
            ratio = best["scikit-learn"] / best["ours"]
            print(f"{name}: scikit-learn {best['scikit-learn']:.2f} s, ours {best['ours']:.2f} s "
                  f"({ratio:.2f}×), statistics equal: {same}", flush=True)
            rows.append({"input": name, "splits": 20, "repeats": REPEATS,
                         "sklearn_cpu_s": round(best["scikit-learn"], 3),
                         "ours_cpu_s": round(best["ours"], 3), "ratio": round(ratio, 3),
                         "statistics_equal": same})
    OUT.parent.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(rows).to_csv(OUT, index=False)
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
