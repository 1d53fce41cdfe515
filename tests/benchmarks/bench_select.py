"""Benchmark: ``mtc select`` on small and large data, the default criteria of ``gmm``,
``kmeans`` and ``auto`` — ``auto`` run as the default, with no ``--model`` (the league's
answer, :func:`mtc_cli.selection.answer.shipped`) — (each model with its default restarts,
``mtc_cli.selection.settings.N_INIT``), ``-j 2``, the whole command (start-up, reading,
every task, summary, figure), each into a fresh run directory.

- small: ``make_blobs(1000, 10, centers=5, cluster_std=1.5)``, k = 1..12, against what a
  user would otherwise write (:data:`LOOP`): a fresh ``python`` process that imports
  pandas and scikit-learn, reads the file, fits ``KMeans(n_init=10)`` for k = 1..12 and
  computes the silhouette of k = 2..12 — and against HDBSCAN's count of clusters
  (:data:`HDBSCAN`, a fresh process too). Three rounds, each timing the loop, HDBSCAN and
  the three models one after the other; the medians, and ``ratio_to_loop`` = the median of
  the model over the loop's median (targets: kmeans 2.5, gmm 4, auto 8);
- 10 000 × 20 points, k = 1..10 — against the scikit-learn fits those criteria need
  (``sklearn_fits``): the same number of ``GaussianMixture`` / ``KMeans`` fits of the same
  sizes and restarts, one after the other on one core with one BLAS thread: 2 halves ×
  splits × k for the random splits, k fits of all objects (which also give the gap
  statistic's W_k of the data), references × k for the gap statistic's reference sets and
  (clest_references + 1) × clest_splits × (learning set + test set + the LDA classifier) ×
  (k ≥ 2) for Clest, both on max_items = 2000 objects — the scikit-learn fitting that no
  implementation of these criteria can avoid (best of ``REPEATS`` runs; target 3×);
- large: 100 000 × 20 points, ``gmm``, ``kmeans`` and the default (it must run, in bounded
  memory: peak resident memory of the biggest process, target < 4 GiB);
- auto: the default (``auto``) on 10 000 × 10 points, k = 1..10 (target 5 minutes).

Writes the rows of the sizes it ran into ``results/benchmarks/select.csv`` (the others stay).
``python tests/benchmarks/bench_select.py [--sizes small,medium,large,auto]`` (default: small
and medium; large takes several minutes more). Run it with nothing else on the machine.
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

from mtc_cli.selection.settings import N_INIT

ROOT = Path(__file__).resolve().parents[2]
KS = range(1, 11)
REPEATS = 3
#: mtc select's defaults
SPLITS, REFERENCES, CLEST_REFERENCES, CLEST_SPLITS, MAX_ITEMS = 10, 10, 5, 5, 2000
#: the small-data targets: mtc select's wall time over the loop's (on 2 cores, -j 2)
SMALL_TARGET_RATIO = {"kmeans": 2.5, "gmm": 4.0, "auto": 8.0}
#: the target of ``--model auto`` on 10 000 × 10 points (wall seconds on 2 cores, -j 2)
AUTO_TARGET_S = 300.0
#: what a user would otherwise write: the silhouette over k-means fits (argv[1]: the file)
LOOP = """
import sys
import pandas as pd
from sklearn.cluster import KMeans
from sklearn.metrics import silhouette_score
X = pd.read_csv(sys.argv[1]).to_numpy()
scores = {}
for k in range(1, 13):
    labels = KMeans(n_clusters=k, n_init=10, random_state=0).fit_predict(X)
    if k > 1:
        scores[k] = silhouette_score(X, labels)
print(max(scores, key=scores.get))
"""
#: HDBSCAN's own count of clusters (scikit-learn, min_cluster_size 20)
HDBSCAN = """
import sys
import pandas as pd
from sklearn.cluster import HDBSCAN
labels = HDBSCAN(min_cluster_size=20).fit_predict(pd.read_csv(sys.argv[1]).to_numpy())
print(len(set(labels) - {-1}))
"""


def write_data(n: int, d: int, path: Path, cluster_std: float = 1.0) -> np.ndarray:
    X, _ = make_blobs(n, d, centers=5, cluster_std=cluster_std, random_state=0)
    pd.DataFrame(X, columns=[f"x{i}" for i in range(d)]).to_csv(path, index=False)
    return X


def run_script(script: str, path: Path) -> float:
    """Wall seconds of a fresh ``python -c script path``."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", script, str(path)], check=True,
                   stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def run_select(path: Path, model: str, out: Path, ks: str = "1..10") -> tuple[float, float]:
    """Wall seconds of ``mtc select`` and the peak RSS (MiB) of its biggest process;
    ``auto`` as the default, with no ``--model``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    chosen = [] if model == "auto" else ["--model", model]
    subprocess.run([sys.executable, "-m", "mtc_cli.cli", "select", str(path), *chosen,
                    "--k", ks, "-j", "2", "--out", str(out)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return wall, max(peak, before) / 1024.0


def sklearn_fits(X: np.ndarray, model: str) -> float:
    """Seconds of the model fits the default criteria need, sequential, one thread."""
    from sklearn.cluster import KMeans
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from sklearn.mixture import GaussianMixture

    n_init = N_INIT[model]

    def fit(data, k, seed):
        if model == "gmm":
            return GaussianMixture(k, n_init=n_init, max_iter=500,
                                   random_state=seed).fit_predict(data)
        return KMeans(k, n_init=n_init, random_state=seed).fit(data).labels_

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
        for b in range(1, REFERENCES + 1):  # the data's own W_k: the fits of all objects
            data = lo + (hi - lo) * rng.random(sample.shape)
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


def small(path: Path, tmp: Path) -> list[dict]:
    """The small rows: REPEATS rounds of the loop, HDBSCAN and each model, in turn."""
    models = tuple(SMALL_TARGET_RATIO)
    walls: dict[str, list[float]] = {name: [] for name in ("loop", "hdbscan", *models)}
    for i in range(REPEATS):
        walls["loop"].append(run_script(LOOP, path))
        walls["hdbscan"].append(run_script(HDBSCAN, path))
        for model in models:
            walls[model].append(run_select(path, model, tmp / f"small-{model}-{i}",
                                           "1..12")[0])
        print({name: round(w[-1], 2) for name, w in walls.items()}, flush=True)
    loop, count = float(np.median(walls["loop"])), float(np.median(walls["hdbscan"]))
    rows = []
    for model in models:
        wall = float(np.median(walls[model]))
        rows.append({"n": 1000, "d": 10, "k": "1..12", "model": model,
                     "n_init": N_INIT.get(model), "select_wall_s": round(wall, 2),
                     "loop_wall_s": round(loop, 2), "hdbscan_wall_s": round(count, 2),
                     "ratio_to_loop": round(wall / loop, 2),
                     "target_ratio": SMALL_TARGET_RATIO[model], "cpus": os.cpu_count()})
        print(rows[-1], flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="small,medium",
                        help="comma-separated: small (1 000 × 10), medium (10 000 × 20), large "
                             "(100 000 × 20), auto (10 000 × 10, --model auto); the rows of "
                             "the other sizes in select.csv stay")
    args = parser.parse_args()
    sizes = set(args.sizes.split(","))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "blobs1000.csv"
        write_data(1000, 10, path, cluster_std=1.5)
        if "small" in sizes:
            rows += small(path, Path(tmp))
        if "auto" in sizes:
            path = Path(tmp) / "blobs10000x10.csv"
            write_data(10_000, 10, path)
            wall, peak = run_select(path, "auto", Path(tmp) / "auto")
            rows.append({"n": 10_000, "d": 10, "k": "1..10", "model": "auto",
                         "select_wall_s": round(wall, 1), "target_wall_s": AUTO_TARGET_S,
                         "select_peak_mib": round(peak), "cpus": os.cpu_count()})
            print(rows[-1], flush=True)
        for n in [n for n, name in ((10_000, "medium"), (100_000, "large")) if name in sizes]:
            path = Path(tmp) / f"blobs{n}.csv"
            X = write_data(n, 20, path)
            for model in ("gmm", "kmeans") if n == 10_000 else ("gmm", "kmeans", "auto"):
                wall, peak = run_select(path, model, Path(tmp) / f"{model}{n}")
                ref = (min(sklearn_fits(X, model) for _ in range(REPEATS)) if n == 10_000
                       else np.nan)
                rows.append({"n": n, "d": 20, "k": "1..10", "model": model,
                             "n_init": N_INIT.get(model), "select_wall_s": round(wall, 1),
                             "select_peak_mib": round(peak), "sklearn_fits_s": round(ref, 1),
                             "ratio": round(wall / ref, 2) if ref == ref else np.nan,
                             "cpus": os.cpu_count()})
                print(rows[-1], flush=True)
    out = ROOT / "results" / "benchmarks" / "select.csv"
    out.parent.mkdir(parents=True, exist_ok=True)
    table = pd.DataFrame(rows)
    if out.is_file():
        kept = pd.read_csv(out)
        new = set(zip(table["n"], table["d"], table["model"], strict=True))
        old = [(n, d, m) not in new
               for n, d, m in zip(kept["n"], kept["d"], kept["model"], strict=True)]
        table = pd.concat([kept[old], table], ignore_index=True)
    table["n_init"] = table["n_init"].astype("Int64")  # empty for auto
    table.sort_values("n", kind="stable").to_csv(out, index=False, lineterminator="\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
