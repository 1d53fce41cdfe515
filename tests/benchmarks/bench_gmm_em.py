"""Benchmark: EM with the batched full-covariance steps (``mtc_cli.core.models.gmm_em``) against
scikit-learn's ``GaussianMixture`` on the fits ``mtc select --model gmm`` makes, one BLAS
thread, CPU seconds of the process, old and new alternating on each input (``REPEATS``
rounds, the best of each kept).

Inputs: Clest's learning and test sets (667 and 333 of 1 000 points) and a random half (500),
of ``make_blobs`` data (1 000 × 10, 5 centres) and of a uniform reference set in its bounding
box, k = 2..12, one EM run each (``mtc select``'s ``n_init`` for GMMs), as
``mtc_cli.core.models.gmm.fit`` calls it (``max_iter`` 500, ``reg_covar`` 1e-6). Both classes
run the same EM from the same initialisation, so they take the same number of iterations;
the largest relative difference of the fitted means and covariances is reported beside
(rounding only: the batched steps sum in another order). Writes ``results/benchmarks/gmm_em.csv``.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.datasets import make_blobs
from sklearn.mixture import GaussianMixture
from threadpoolctl import threadpool_limits

from mtc_cli.core.models.gmm import REG_COVAR
from mtc_cli.core.models.gmm_em import BatchedGaussianMixture

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "results" / "benchmarks" / "gmm_em.csv"
KS = range(2, 13)
REPEATS = 3


def inputs() -> dict[str, np.ndarray]:
    X, _ = make_blobs(1000, 10, centers=5, random_state=0)
    rng = np.random.default_rng(0)
    U = rng.uniform(X.min(axis=0), X.max(axis=0), size=X.shape)
    out = {}
    for name, data in (("blobs", X), ("uniform reference", U)):
        perm = rng.permutation(len(data))
        for size in (667, 500, 333):
            out[f"{name}, {size} × 10"] = data[perm[:size]]
    return out


def fits(cls, X: np.ndarray) -> tuple[float, list]:
    start = time.process_time()
    models = [cls(n_components=k, covariance_type="full", n_init=1, random_state=k,
                  reg_covar=REG_COVAR, max_iter=500).fit(X) for k in KS]
    return time.process_time() - start, models


def main() -> None:
    rows = []
    with threadpool_limits(1):
        for name, X in inputs().items():
            old_s, new_s = [], []
            for _ in range(REPEATS):
                t, old = fits(GaussianMixture, X)
                old_s.append(t)
                t, new = fits(BatchedGaussianMixture, X)
                new_s.append(t)
            dev = max(max(np.max(np.abs(a.means_ - b.means_)) / np.max(np.abs(a.means_)),
                          np.max(np.abs(a.covariances_ - b.covariances_))
                          / np.max(np.abs(a.covariances_))) for a, b in zip(old, new, strict=True))
            rows.append({"input": name, "fits": len(KS),
                         "iterations": sum(m.n_iter_ for m in old),
                         "same_iterations": all(a.n_iter_ == b.n_iter_
                                                for a, b in zip(old, new, strict=True)),
                         "old_cpu_s": round(min(old_s), 4), "new_cpu_s": round(min(new_s), 4),
                         "speedup": round(min(old_s) / min(new_s), 3),
                         "max_relative_difference": float(f"{dev:.3g}")})
            print(rows[-1], flush=True)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(rows).to_csv(OUT, index=False)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
