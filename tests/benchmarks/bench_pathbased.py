"""Benchmark: Path-Based Clustering's agglomeration (``clusterers.agglomerate``) with its
merges compiled (``_merges``) against the array expressions before (``mtc_cli/models/
clusterers.py`` as of ``BASELINE``, loaded with ``git show``), CPU seconds of this process
with one BLAS thread, old and new alternating ``ROUNDS`` times (the best of each kept),
every partition compared (equal, every k).

Inputs: halves of ``stability_toy``'s three rings (100 + 200 + 300 points: halves of 300)
and of ``shapes_league``'s rings (400 points: halves of 200), effective dissimilarities,
k = 1..10 recorded. Writes ``results/benchmarks/pathbased.csv``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_kernels import baseline  # noqa: E402  (the modules of mtc_cli/models at a commit)

ROOT = Path(__file__).resolve().parents[2]
BASELINE = "b7a41de"
OUT = ROOT / "results" / "benchmarks" / "pathbased.csv"
ROUNDS = 3


def rings(sizes, rng, noise=0.08):
    radii = np.arange(1, len(sizes) + 1, dtype=np.float64)
    angles = [rng.uniform(0, 2 * np.pi, m) for m in sizes]
    return np.concatenate([np.c_[r * np.cos(a), r * np.sin(a)] + noise * rng.standard_normal(
        (len(a), 2)) for r, a in zip(radii, angles, strict=True)])


def main() -> None:
    from mtc_cli.models import clusterers

    old = baseline("clusterers", BASELINE)
    rng = np.random.default_rng(0)
    inputs = {"stability_toy rings, half of 600 (300 points)": rings([50, 100, 150], rng),
              "shapes_league rings, half of 400 (200 points)": rings([67, 67, 66], rng)}
    ks = range(1, 11)
    clusterers.agglomerate(np.ones((3, 3)) - np.eye(3), [1])  # compile outside the timing
    rows = []
    for name, X in inputs.items():
        D = clusterers.effective_dissimilarity(X)
        best_old = best_new = np.inf
        same = True
        for _ in range(ROUNDS):
            start = time.process_time()
            new = clusterers.agglomerate(D, ks)
            best_new = min(best_new, time.process_time() - start)
            start = time.process_time()
            was = old.agglomerate(D, ks)
            best_old = min(best_old, time.process_time() - start)
            same &= all(np.array_equal(new[k], was[k]) for k in ks)
        rows.append({"input": name, "k": "1..10", "old_cpu_s": round(best_old, 4),
                     "new_cpu_s": round(best_new, 4), "speedup": round(best_old / best_new, 2),
                     "identical": bool(same)})
    table = pd.DataFrame(rows)
    print(table.to_string(index=False))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(OUT, index=False)


if __name__ == "__main__":
    with threadpool_limits(limits=1):
        main()
