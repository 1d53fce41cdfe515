"""Benchmark: the text models' per-cluster sums of hard assignments added by label — one
addition per non-zero instead of k multiply-adds (``mtc_cli.core.models.text._label_sums``) —
against the module as of ``BASELINE`` (the product X.T @ W with the one-hot W), one BLAS
thread, CPU seconds, old and new alternating in one process, every pair of results
(labels and cost histories) checked to be identical bit for bit.

Input: cmu-newsgroup-clean-1000 as pac_mdl_text builds it (tf-idf rows of unit norm; word
distributions for KLKMeans), k = 20, three seed sets. Soft-moVMF changes only in its first
M-step (from the first hard assignment).
Writes ``results/benchmarks/label_sums.csv``.

    python tests/benchmarks/bench_label_sums.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

BASELINE = "cf0bab3d1e6f823074251d60e14d3718d005ba55"
#: function → the representation it reads
ALGORITHMS = {"spkmeans": "l2_tfidf", "fskmeans": "l2_tfidf", "hard_movmf": "l2_tfidf",
              "soft_movmf": "l2_tfidf", "klkmeans": "l1_tf"}


def main() -> None:
    sys.path.insert(0, str(Path(__file__).parent))
    from bench_kernels import baseline, compare, experiment_task, identical, write_table
    from threadpoolctl import threadpool_limits

    from mtc_cli.core.models import text

    old = baseline("text", BASELINE)
    emod, task = experiment_task("pac_mdl_text", dataset="cmu-newsgroup-clean-1000")
    corpus = emod.corpus(task)
    data = {"l2_tfidf": corpus.representation("l2_tfidf"),
            "l1_tf": corpus.representation("l1_tf")}
    seed_sets = [np.random.default_rng(s).choice(corpus.n_docs, size=20, replace=False)
                 for s in range(3)]

    def same(a, b):
        return identical(a.labels, b.labels) and identical(a.costs, b.costs)

    rows = []
    with threadpool_limits(limits=1):
        for module in (old, text):                   # compile outside the timing
            for name, rep in ALGORITHMS.items():
                getattr(module, name)(data[rep], np.arange(3), max_iter=1)
        for name, rep in ALGORITHMS.items():
            X, f_old, f_new = data[rep], getattr(old, name), getattr(text, name)
            calls = [(lambda s=s, f=f_old, X=X: f(X, s), lambda s=s, f=f_new, X=X: f(X, s))
                     for s in seed_sets]
            rows.append(compare(name, f"{X.shape[0]}x{X.shape[1]}, k=20", calls, same))
            print(rows[-1], flush=True)
    write_table(rows, "label_sums")


if __name__ == "__main__":
    main()
