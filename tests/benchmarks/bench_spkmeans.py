"""Benchmark: our spherical k-means (``mtc_cli.core.models.text.spkmeans``) against
scikit-learn's ``KMeans`` (Lloyd, one run) on the same L2-normalised sparse tf-idf matrix,
from the same seed documents, one BLAS thread, measured in one run.

Datasets: classic3 (3891 docs) and cmu-different-1000 (2776 docs), built from data/ as
the pac_mdl_text config builds them; k ∈ {3, 10, 20}; ``INITS`` seed sets per k. Reported
per (dataset, k): total seconds of each, the ratio sklearn / ours, mean iterations, and
the agreement of the two partitions (Rand index on a sample of pairs): both optimise a
similar objective on unit vectors (‖x − μ‖² = 2 − 2xᵀμ for unit μ), but k-means keeps
un-normalised centroids, so partitions differ somewhat.
Writes ``results/benchmarks/spkmeans.csv``.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.cluster import KMeans
from sklearn.metrics import rand_score
from threadpoolctl import threadpool_limits

from mtc_cli.core.datasets import text
from mtc_cli.core.models.text import spkmeans

ROOT = Path(__file__).resolve().parents[2]
INITS = 5
SOURCES = {"classic3": ROOT / "data/classic3/classic3.mat",
           "newsgroups": ROOT / "data/20newsgroups/20news-19997.tar.gz"}


def main() -> None:
    rows = []
    rng = np.random.default_rng(0)
    with threadpool_limits(limits=1):
        for name in ("classic3", "cmu-different-1000"):
            X = text.load(name, SOURCES, ROOT / "data/cache").representation("l2_tfidf")
            for k in (3, 10, 20):
                t_ours = t_sk = 0.0
                it_ours, it_sk, agree = [], [], []
                for _ in range(INITS):
                    seeds = rng.choice(X.shape[0], size=k, replace=False)
                    start = time.perf_counter()
                    ours = spkmeans(X, seeds)
                    t_ours += time.perf_counter() - start
                    start = time.perf_counter()
                    km = KMeans(n_clusters=k, init=X[seeds].toarray(), n_init=1,
                                algorithm="lloyd").fit(X)
                    t_sk += time.perf_counter() - start
                    it_ours.append(ours.n_iter)
                    it_sk.append(km.n_iter_)
                    agree.append(rand_score(ours.labels, km.labels_))
                rows.append({"dataset": name, "n_docs": X.shape[0], "k": k, "inits": INITS,
                             "ours_seconds": t_ours, "sklearn_seconds": t_sk,
                             "sklearn_over_ours": t_sk / t_ours,
                             "ours_iterations": np.mean(it_ours),
                             "sklearn_iterations": np.mean(it_sk),
                             "rand_index": np.mean(agree)})
    df = pd.DataFrame(rows)
    out = ROOT / "results/benchmarks/spkmeans.csv"
    out.parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(out, index=False)
    print(df.to_string(index=False, float_format=lambda v: f"{v:.3g}"))
    print(f"overall: sklearn KMeans / our SPKMeans time = "
          f"{df['sklearn_seconds'].sum() / df['ours_seconds'].sum():.2f}")


if __name__ == "__main__":
    main()
