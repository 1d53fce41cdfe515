"""Benchmark: Path-Based Clustering's agglomeration (``clusterers.agglomerate``) with its
merges compiled (``_merges``) against the array expressions before (``mtc_cli/core/models/
clusterers.py`` as of ``BASELINE``, loaded with ``git show``), CPU seconds of this process
with one BLAS thread, old and new alternating (``bench_short_rows.compare``: the best of
its rounds kept), every partition compared (equal, every k).

Inputs: halves of ``stability_toy``'s three rings (100 + 200 + 300 points: halves of 300)
and of three rings of radii 1, 2, 3 with equal counts (400 points: halves of 200), effective
dissimilarities, k = 1..10 recorded. Writes ``results/benchmarks/pathbased.csv``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_kernels import baseline  # noqa: E402  (the modules of mtc_cli/models at a commit)
from bench_short_rows import compare  # noqa: E402  (old and new alternating, best of rounds)

ROOT = Path(__file__).resolve().parents[2]
BASELINE = "b7a41de"
OUT = ROOT / "results" / "benchmarks" / "pathbased.csv"


def main() -> None:
    from mtc_cli.core.datasets import toy
    from mtc_cli.core.models import clusterers

    old = baseline("clusterers", BASELINE)
    rng = np.random.default_rng(0)
    inputs = {"stability_toy rings, half of 600 (300 points)":
              toy.rings(rng, [50, 100, 150], [1.0, 2.0, 3.0], 0.05)[0],
              "equal rings, half of 400 (200 points)":
              toy.rings(rng, [67, 67, 66], [1.0, 2.0, 3.0], 0.08)[0]}
    ks = range(1, 11)
    clusterers.agglomerate(np.ones((3, 3)) - np.eye(3), [1])  # compile outside the timing
    rows = []
    for name, X in inputs.items():
        D = clusterers.effective_dissimilarity(X)
        rows.append(compare(
            "agglomerate", f"{name}, k = 1..10", lambda D=D: old.agglomerate(D, ks),
            lambda D=D: clusterers.agglomerate(D, ks),
            lambda a, b: all(np.array_equal(a[k], b[k]) for k in ks)))
    table = pd.DataFrame(rows)
    print(table.to_string(index=False))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(OUT, index=False)


if __name__ == "__main__":
    with threadpool_limits(limits=1):
        main()
