"""Benchmark: ``mtc select`` on 10 000 × 20 points (make_blobs, 5 centres), k = 1..10, the
default criteria of ``gmm`` and of ``kmeans``, ``-j 2`` — against the scikit-learn fits
those criteria need, and on 100 000 × 20 points (it must run, in bounded memory).

For each model, measured in one run:

- ``select``: wall time of the ``mtc select`` command (a fresh run directory: data
  reading, every task, summary, figure), and the peak resident memory of its processes;
- ``sklearn_fits``: the same number of ``GaussianMixture`` / ``KMeans`` fits of the same
  sizes, one after the other on one core with one BLAS thread: 2 halves × splits × k for
  the random splits, k fits of all objects, (references + 1) × k for the gap statistic and
  (clest_references + 1) × clest_splits × (learning set + test set + the LDA classifier)
  × (k ≥ 2) for Clest, both on max_items = 2000 objects — the scikit-learn fitting that no
  implementation of these criteria can avoid (best of ``REPEATS`` runs).

Writes ``results/benchmarks/select.csv``. ``python tests/benchmarks/bench_select.py
[--large]``: ``--large`` adds the 100 000-point runs (several minutes).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.datasets import make_blobs
from threadpoolctl import threadpool_limits

ROOT = Path(__file__).resolve().parents[2]
KS = range(1, 11)
REPEATS = 3
#: mtc select's defaults
SPLITS, REFERENCES, CLEST_REFERENCES, CLEST_SPLITS, MAX_ITEMS = 10, 10, 5, 5, 2000


def write_data(n: int, path: Path) -> np.ndarray:
    X, _ = make_blobs(n, 20, centers=5, random_state=0)
    pd.DataFrame(X, columns=[f"x{i}" for i in range(20)]).to_csv(path, index=False)
    return X


def run_select(path: Path, model: str, out: Path) -> tuple[float, float]:
    """Wall seconds of ``mtc select`` and the peak RSS (MiB) of its biggest process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "mtc_cli.cli", "select", str(path), "--model", model,
                    "--k", "1..10", "-j", "2", "--out", str(out)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return wall, max(peak, before) / 1024.0


def sklearn_fits(X: np.ndarray, model: str) -> float:
    """Seconds of the model fits the default criteria need, sequential, one thread."""
    from sklearn.cluster import KMeans
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from sklearn.mixture import GaussianMixture

    def fit(data, k, seed):
        if model == "gmm":
            return GaussianMixture(k, n_init=1, max_iter=500, random_state=seed).fit_predict(data)
        return KMeans(k, n_init=1, random_state=seed).fit(data).labels_

    rng = np.random.default_rng(0)
    n = len(X)
    lo, hi = X.min(axis=0), X.max(axis=0)
    start = time.perf_counter()
    with threadpool_limits(limits=1):
        for s in range(SPLITS):
            perm = rng.permutation(n)
            for half in (perm[:n // 2], perm[n // 2:]):
                for k in KS:
                    fit(X[half], k, s)
        for k in KS:
            fit(X, k, 0)
        sample = X[rng.permutation(n)[:MAX_ITEMS]]  # gap and Clest: ≤ max_items objects
        m = len(sample)
        for b in range(REFERENCES + 1):
            data = sample if b == 0 else lo + (hi - lo) * rng.random(sample.shape)
            for k in KS:
                fit(data, k, b)
        learn = int(round(2 / 3 * m))
        for b in range(CLEST_REFERENCES + 1):
            data = sample if b == 0 else lo + (hi - lo) * rng.random(sample.shape)
            for s in range(CLEST_SPLITS):
                perm = rng.permutation(m)
                for k in KS:
                    if k >= 2:
                        labels = fit(data[perm[:learn]], k, s)
                        fit(data[perm[learn:]], k, s)
                        LinearDiscriminantAnalysis().fit(data[perm[:learn]], labels)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--large", action="store_true", help="also 100 000 × 20")
    args = parser.parse_args()
    sizes = [10_000] + ([100_000] if args.large else [])
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            path = Path(tmp) / f"blobs{n}.csv"
            X = write_data(n, path)
            for model in ("gmm", "kmeans"):
                wall, peak = run_select(path, model, Path(tmp) / f"{model}{n}")
                ref = (min(sklearn_fits(X, model) for _ in range(REPEATS)) if n == 10_000
                       else np.nan)
                rows.append({"n": n, "d": 20, "model": model, "select_wall_s": round(wall, 1),
                             "select_peak_mib": round(peak), "sklearn_fits_s": round(ref, 1),
                             "ratio": round(wall / ref, 2) if ref == ref else np.nan,
                             "cpus": os.cpu_count()})
                print(rows[-1], flush=True)
    out = ROOT / "results" / "benchmarks" / "select.csv"
    out.parent.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(rows).to_csv(out, index=False)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
