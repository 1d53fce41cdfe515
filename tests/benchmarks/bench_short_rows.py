"""Benchmark: the compiled short-row reductions (``mtc_cli.core.short_rows``) in the wASC
optimizers against the code before them, measured in one run as CPU seconds of this process
with one BLAS thread (less disturbed than wall time by other load), old and new alternating
``ROUNDS`` times (the best of each kept), every pair of results checked identical, bit for
bit.

The old code is ``mtc_cli/core/models/annealing.py`` and ``gibbs.py`` as of ``BASELINE`` (the
commit before: scipy's ``softmax`` and ‖x‖² recomputed in every sweep), loaded with ``git
show`` into temporary modules. Inputs:

- ``softmax``: one (10 000 × 10) matrix, as in every sweep of ``wasc_gmm_annealing``;
- ``deterministic_annealing``: ``wasc_gmm_annealing``'s five Gaussians, ten centroids, on
  ``N_ANNEAL`` objects (the config's 10 000 would take minutes per call) with its quick
  schedule (cooling 0.8, refined to 0.9, down to T = 0.7);
- ``annealed_gibbs``: ``wasc_phase_transitions``' two sources at D = 100, four centroids,
  n = 500, T = 16 → 0.2 by 0.9 (Fig. 5's run).

Writes ``results/benchmarks/short_rows.csv``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.special import softmax as scipy_softmax
from threadpoolctl import threadpool_limits

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_kernels import baseline  # noqa: E402  (the modules of mtc_cli/models at a commit)

ROOT = Path(__file__).resolve().parents[2]
BASELINE = "e15bb8a4566a3ff255882ff82d494fdd31de152f"
OUT = ROOT / "results" / "benchmarks" / "short_rows.csv"
ROUNDS = 3
N_ANNEAL = 3000


def identical(a, b) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def same_path(a, b) -> bool:
    return all(identical(getattr(a, f), getattr(b, f))
               for f in ("temperatures", "centroids", "k_hat", "iterations"))


def compare(name: str, size: str, old_call, new_call, check) -> dict:
    """Best CPU seconds of ``ROUNDS`` alternating rounds (new first), results checked."""
    best_old = best_new = np.inf
    same = True
    for _ in range(ROUNDS):
        start = time.process_time()
        new = new_call()
        best_new = min(best_new, time.process_time() - start)
        start = time.process_time()
        old = old_call()
        best_old = min(best_old, time.process_time() - start)
        same &= check(old, new)
    return {"kernel": name, "input": size, "old_cpu_s": round(best_old, 4),
            "new_cpu_s": round(best_new, 4), "speedup": round(best_old / best_new, 3),
            "identical": bool(same)}


def seeded(seed: int):
    return lambda: np.random.default_rng(seed)


def main() -> None:
    from experiments.wasc_gmm_annealing import Params, sample_aligned
    from experiments.wasc_phase_transitions import sources
    from mtc_cli.core import short_rows
    from mtc_cli.core.models import annealing, gibbs

    old_annealing, old_gibbs = baseline("annealing", BASELINE), baseline("gibbs", BASELINE)
    rows = []
    x = np.random.default_rng(0).normal(size=(10000, 10)) * 30
    short_rows.softmax(x[:2])  # compile (or load the cache) outside the timing
    rows.append(compare("softmax", "10000 x 10, 50 calls",
                        lambda: [scipy_softmax(x, axis=1) for _ in range(50)][-1],
                        lambda: [short_rows.softmax(x) for _ in range(50)][-1], identical))

    p = Params()
    means, sigma = np.asarray(p.means), float(np.sqrt(p.variance))
    X1 = sample_aligned(np.random.default_rng(1), means, sigma, N_ANNEAL)[0]
    kw = {"sigma": sigma, "t_stop": 0.7, "cooling": 0.8, "fine_cooling": 0.9,
          "merge_tol": p.merge_tol}
    rows.append(compare(
        "deterministic_annealing", f"wasc_gmm_annealing, n={N_ANNEAL}, 10 centroids",
        lambda: old_annealing.deterministic_annealing(X1, 10, seeded(2)(), **kw),
        lambda: annealing.deterministic_annealing(X1, 10, seeded(2)(), **kw), same_path))

    rng = np.random.default_rng(3)
    mu = sources(100, 0.5, 1.5)
    X = mu[rng.integers(2, size=500)] + np.sqrt(0.5) * rng.standard_normal((500, 100))
    kw = {"t_start": 16.0, "t_stop": 0.2, "cooling": 0.9, "burn_in": 10, "sweeps": 40}
    rows.append(compare(
        "annealed_gibbs", "wasc_phase_transitions, D=100, n=500, 4 centroids",
        lambda: old_gibbs.annealed_gibbs(X, 4, seeded(4)(), **kw),
        lambda: gibbs.annealed_gibbs(X, 4, seeded(4)(), **kw), same_path))

    table = pd.DataFrame(rows)
    print(table.to_string(index=False))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(OUT, index=False)


if __name__ == "__main__":
    with threadpool_limits(limits=1):
        main()
