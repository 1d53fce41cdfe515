"""Benchmark: the compiled EM of every k in one call (``mtc_cli.core.models.batched_gmm``)
against the current path, ``mtc_cli.core.models.gmm_em.BatchedGaussianMixture`` fitted once per
k, on ``make_blobs`` data (5 centres, ``cluster_std`` 1.5) of n objects × d features.

Each fits k = 1..12, one EM run per k from the labels of ``sklearn_kmeans.fit(X, k, 1, k)``
(computed beforehand, the same for both: the k-means time is in neither), with
``mtc_cli.core.models.gmm.fit``'s settings (``max_iter`` 500, ``reg_covar`` 1e-6, ``tol``
1e-3). CPU seconds of the process under one BLAS thread, the two alternating, best of
``REPEATS``; the JIT compilation is done before. Both run the same EM, so they take the same
number of iterations (``same_n_iter``) and differ by rounding (``max_rel_diff_means``: the
largest difference of the means over the largest mean, over k). Writes
``results/benchmarks/batched_gmm.csv``; its crossover is
``mtc_cli.core.models.batched_gmm.MAX_D`` and ``MAX_CELLS``.
"""

from __future__ import annotations

import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.datasets import make_blobs
from sklearn.exceptions import ConvergenceWarning
from threadpoolctl import threadpool_limits

from mtc_cli.core.files import write_csv
from mtc_cli.core.models import batched_gmm, sklearn_kmeans
from mtc_cli.core.models.gmm import REG_COVAR
from mtc_cli.core.models.gmm_em import BatchedGaussianMixture

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "results" / "benchmarks" / "batched_gmm.csv"
NS = (100, 250, 500, 1_000, 2_000, 5_000, 10_000)
DS = (2, 5, 10, 20, 50)
KS = range(1, 13)
MAX_ITER = 500
REPEATS = 3


class _FromLabels(BatchedGaussianMixture):
    """The current path from given initial labels (``init_labels``) instead of its k-means."""

    def _initialize_parameters(self, X, random_state, *args, **kwargs):
        resp = np.zeros((len(X), self.n_components))
        resp[np.arange(len(X)), self.init_labels] = 1
        self._initialize(X, resp)


def ours(X, init) -> tuple[float, dict]:
    start = time.process_time()
    fits = batched_gmm.fit_all(X, init, reg_covar=REG_COVAR, max_iter=MAX_ITER)
    return time.process_time() - start, {k: (f.means, f.n_iter) for k, f in fits.items()}


def current(X, init) -> tuple[float, dict]:
    start = time.process_time()
    fits = {}
    for k, (labels,) in init.items():
        gm = _FromLabels(n_components=k, covariance_type="full", reg_covar=REG_COVAR,
                         max_iter=MAX_ITER)
        gm.init_labels = labels
        gm.fit(X)
        fits[k] = (gm.means_, gm.n_iter_)
    return time.process_time() - start, fits


def main() -> None:
    rows = []
    warnings.simplefilter("ignore", ConvergenceWarning)  # the same runs in both
    with threadpool_limits(1):
        X, _ = make_blobs(100, 2, centers=5, cluster_std=1.5, random_state=0)
        ours(X, {2: [sklearn_kmeans.fit(X, 2, 1, 0)[1]]})  # the JIT compilation
        for d in DS:
            for n in NS:
                X, _ = make_blobs(n, d, centers=5, cluster_std=1.5, random_state=0)
                init = {k: [sklearn_kmeans.fit(X, k, 1, k)[1]] for k in KS}
                times, fits = {"ours": [], "current": []}, {}
                for _ in range(REPEATS):
                    for name, run in (("ours", ours), ("current", current)):
                        t, fits[name] = run(X, init)
                        times[name].append(t)
                a, b = fits["ours"], fits["current"]
                dev = max(np.max(np.abs(a[k][0] - b[k][0])) / np.max(np.abs(b[k][0])) for k in KS)
                rows.append({"n": n, "d": d, "ours_cpu_s": round(min(times["ours"]), 4),
                             "current_cpu_s": round(min(times["current"]), 4),
                             "speedup": round(min(times["current"]) / min(times["ours"]), 2),
                             "max_rel_diff_means": float(f"{dev:.2g}"),
                             "same_n_iter": all(a[k][1] == b[k][1] for k in KS)})
                print(rows[-1], flush=True)
    write_csv(pd.DataFrame(rows), OUT)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
