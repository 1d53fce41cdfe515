"""Benchmark: MAC's EM sweeps on the distinct users weighted by their counts
(``mtc_cli.core.models.boolean.fit_mac``) against the sweeps over every user (the module as of
``BASELINE``), one BLAS thread, CPU seconds, old and new alternating in one process.

Inputs: the training users of fold 0 of each role_mining_bmf data set as its config builds
them, with its fit settings and one seed per fit. Per fit: the CPU time of each, the
distinct users, and how far the results move — the largest relative change of the
negative log-likelihood, the largest absolute change of the source parameters v, and
whether the hard assignments, the roles U and the number of temperatures are equal. The
synthetic matrix has no repeated user: there the fit is the same bit for bit.
Writes ``results/benchmarks/mac_rows.csv``.

    python tests/benchmarks/bench_mac_rows.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

BASELINE = "3c31005e192fc57a883600e42fb9e7058f254655"
FITS = (("synthetic", 10), ("skewed", 20), ("hc", 10), ("hc", 20), ("fire1", 20),
        ("fire1", 40))


def main() -> None:
    sys.path.insert(0, str(Path(__file__).parent))
    from bench_kernels import (
        baseline,
        experiment_task,
        identical,
        timed,
        training_users,
        write_table,
    )
    from threadpoolctl import threadpool_limits

    from mtc_cli.core.models import boolean

    old = baseline("boolean", BASELINE)
    rows = []
    with threadpool_limits(limits=1):
        for module in (old, boolean):                # compile outside the timing
            module.fit_mac(np.eye(4)[[0, 1, 1, 2]], 2, np.random.default_rng(0))
        for name, k in FITS:
            emod, task = experiment_task("role_mining_bmf", dataset=name, k=k)
            X1 = training_users(emod, task)
            new, t_new = timed(lambda X1=X1, task=task, k=k: boolean.fit_mac(
                X1, k, np.random.default_rng(7), **task["fit"]))
            ref, t_old = timed(lambda X1=X1, task=task, k=k: old.fit_mac(
                X1, k, np.random.default_rng(7), **task["fit"]))
            nll_old, nll_new = ref.neg_log_likelihood(), new.neg_log_likelihood()
            rows.append({
                "dataset": name, "k": k, "users": len(X1),
                "distinct_users": len(boolean.distinct_rows(X1)[0]),
                "old_cpu_s": t_old, "new_cpu_s": t_new, "speedup": t_old / t_new,
                "identical": all(identical(getattr(ref, f), getattr(new, f))
                                 for f in ("v", "gamma", "assignment", "R")),
                "nll_rel_change": abs(nll_new - nll_old) / abs(nll_old),
                "v_max_abs_change": float(np.abs(new.v - ref.v).max()),
                "same_assignment_roles_sweeps": bool(
                    np.array_equal(new.assignment, ref.assignment)
                    and np.array_equal(new.U, ref.U) and new.temperatures == ref.temperatures)})
            print(rows[-1], flush=True)
    write_table(rows, "mac_rows", ok="same_assignment_roles_sweeps",
                failure="an assignment, a role or the number of temperatures moved")


if __name__ == "__main__":
    main()
