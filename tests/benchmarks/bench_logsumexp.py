"""Benchmark: the log-sum-exp with compiled row reductions (``mtc_cli.core.logsumexp`` through
``mtc_cli.core.short_rows.shifted_by_max`` and ``row_sum``) and the GMMs' k-means initialisation
through ``mtc_cli.core.models.sklearn_kmeans``, against the code as of ``BASELINE``, one BLAS
thread, CPU seconds, old and new alternating in one process, every pair of results checked
identical bit for bit.

The old log-sum-exp is ``mtc_cli/core/logsumexp.py`` as of ``BASELINE`` (numpy's reductions);
each caller is timed with it and with the new one put in its module's namespace, on the
same input:

- ``logsumexp``: a wASC β grid block (31 × 500 × 8) and an E-step's (2 000 × 12);
- ``capacity``: ``approximation_capacity.capacity`` (eq. 9: a 31-point β grid, then the
  bounded search) on 500 objects × 8 clusters, as in every k of a ``mtc select`` split;
- ``gmm_em``: ``BatchedGaussianMixture`` (k = 8, 1 000 × 10, full covariances);
- ``soft_movmf``: Soft-moVMF on cmu-newsgroup-clean-1000 as pac_mdl_text builds it, k = 20;
- ``fit_mac``: MAC on fire1's training users of role_mining_bmf's fold 0, k = 10;
- ``gmm_kmeans_init``: ``BatchedGaussianMixture`` (k = 8, 1 000 × 10) with the module's old
  ``KMeans`` initialisation against ``sklearn_kmeans`` (both with the new log-sum-exp).

Writes ``results/benchmarks/logsumexp.csv``.
    python tests/benchmarks/bench_logsumexp.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

BASELINE = "5404cf8ec7bc532597f077791ccdccc0cd933258"


def main() -> None:
    sys.path.insert(0, str(Path(__file__).parent))
    from bench_kernels import (
        baseline,
        compare,
        experiment_task,
        identical,
        training_users,
        write_table,
    )
    from threadpoolctl import threadpool_limits

    from mtc_cli.core import logsumexp as lse_module
    from mtc_cli.core.criteria import approximation_capacity
    from mtc_cli.core.models import boolean, gmm_em, text

    old = baseline("logsumexp", BASELINE, package="mtc_cli").logsumexp
    new = lse_module.logsumexp
    rng = np.random.default_rng(0)

    def with_lse(module, f):
        """``f`` called with ``module.logsumexp`` set to the old log-sum-exp, then reset."""
        def call():
            module.logsumexp = old
            try:
                return f()
            finally:
                module.logsumexp = new
        return call

    rows = []
    with threadpool_limits(limits=1):
        grid, estep = rng.normal(size=(31, 500, 8)) * 5, rng.normal(size=(2000, 12)) * 5
        new(grid[:1], axis=2)                          # compile outside the timing
        for name, a, reps in (("31 x 500 x 8", grid, 50), ("2000 x 12", estep, 200)):
            rows.append(compare(
                "logsumexp", f"{name}, {reps} calls",
                [(lambda a=a, r=reps: [old(a, axis=-1) for _ in range(r)][-1],
                  lambda a=a, r=reps: [new(a, axis=-1) for _ in range(r)][-1])], identical))
            print(rows[-1], flush=True)

        costs = [(rng.exponential(size=(500, 8)) * (1 + s), rng.exponential(size=(500, 8)))
                 for s in range(10)]
        cap = approximation_capacity.capacity
        rows.append(compare(
            "capacity", "500 x 8, 31-point grid + bounded search",
            [(with_lse(approximation_capacity, lambda c=c: cap(*c, n_grid=31)),
              lambda c=c: cap(*c, n_grid=31)) for c in costs], lambda a, b: a == b))
        print(rows[-1], flush=True)

        X = rng.normal(size=(1000, 10)) + rng.integers(5, size=(1000, 1)) * 3.0

        def gmm(module, seed):
            fitted = module.BatchedGaussianMixture(8, random_state=seed).fit(X)
            return np.concatenate([fitted.means_.ravel(), fitted.covariances_.ravel(),
                                   [fitted.lower_bound_]])

        rows.append(compare(
            "gmm_em", "1000 x 10, k = 8, full",
            [(with_lse(gmm_em, lambda s=s: gmm(gmm_em, s)), lambda s=s: gmm(gmm_em, s))
             for s in range(5)], identical))
        print(rows[-1], flush=True)

        old_gmm = baseline("gmm_em", BASELINE)
        rows.append(compare(
            "gmm_kmeans_init", "1000 x 10, k = 8, full",
            [(lambda s=s: gmm(old_gmm, s), lambda s=s: gmm(gmm_em, s)) for s in range(5)],
            identical))
        print(rows[-1], flush=True)

        emod, task = experiment_task("pac_mdl_text", dataset="cmu-newsgroup-clean-1000")
        docs = emod.corpus(task).representation("l2_tfidf")
        seeds = [np.random.default_rng(s).choice(docs.shape[0], size=20, replace=False)
                 for s in range(1)]

        def same_text(a, b):
            return identical(a.labels, b.labels) and identical(a.costs, b.costs)

        rows.append(compare(
            "soft_movmf", f"{docs.shape[0]}x{docs.shape[1]}, k = 20",
            [(with_lse(text, lambda s=s: text.soft_movmf(docs, s)),
              lambda s=s: text.soft_movmf(docs, s)) for s in seeds], same_text))
        print(rows[-1], flush=True)

        emod, task = experiment_task("role_mining_bmf", dataset="fire1")
        users = training_users(emod, task)

        def mac():
            fit = boolean.fit_mac(users, 10, np.random.default_rng(1))
            return np.concatenate([fit.R.ravel(), fit.v.ravel(), [fit.epsilon]])

        rows.append(compare("fit_mac", f"fire1 {users.shape[0]}x{users.shape[1]}, k = 10",
                            [(with_lse(boolean, mac), mac)], identical))
        print(rows[-1], flush=True)
    write_table(rows, "logsumexp")


if __name__ == "__main__":
    main()
