"""Benchmark: the default ``mtc select`` (no ``--model``: ``auto``, every algorithm of its
roster and the league's answer, :func:`mtc_cli.selection.answer.shipped_rule`) at the sizes
users bring, against a plain scikit-learn run of the same data; and ``--model kmeans`` /
``gmm`` on small data against the loop a user would otherwise write.

Every run is a fresh process (start-up, reading, every task, summary, figure), ``-j 2``,
each ``mtc select`` into a fresh run folder, on ``make_blobs(n, d, centers=5)`` written to
a CSV (``cluster_std`` 1.5 at 1 000 points, 1.0 above). Per size, :data:`ROUNDS` rounds,
each running every command of the size once in turn (baseline, default, …: A, B, A, B, so
that other load on the machine falls on both sides); the medians, and each ratio of the
medians of one run.

- **the default** (``--k 1..10``) against :data:`BASELINE`: a fresh ``python`` that reads
  the file with pandas, fits scikit-learn's ``KMeans(n_init=3)`` for k = 1..10, then
  ``HDBSCAN(min_cluster_size=10)`` (``baseline_hdbscan_s``: its HDBSCAN part). Sizes
  1 000 × 10, 10 000 × 10 and 100 000 × 20 (targets, :data:`TARGET`: 10× at 10 000, 2× at
  100 000 and under 1 GiB peak);
- at 1 000 × 10, ``--model kmeans`` and ``--model gmm`` (``--k 1..12``) against :data:`LOOP`:
  a fresh ``python`` that fits ``KMeans(n_init=10)`` for k = 1..12 and computes the
  silhouette of k = 2..12 (``ratio_to_loop``, targets :data:`LOOP_TARGET`);
- at 100 000 × 20, ``--model kmeans`` and ``gmm`` too (that they run, and their memory);
- ``fits`` (10 000 × 20, ``gmm`` and ``kmeans``): against the scikit-learn fits those
  criteria need (:func:`sklearn_fits`, best of 3, one core: the fitting no implementation
  of them can avoid).

``select_peak_mib`` / ``baseline_peak_mib``: the largest sum, over the process and all its
descendants (the workers), of their resident memory, polled every 50 ms with psutil
(:class:`Peak`; the most of any round). ``task_s`` and ``task_<algorithm>_s``: the compute
time the run's task cache records (``elapsed_s`` of each ``<run>/tasks/*.json``, summed;
one thread each), in all and per algorithm (median of the rounds). ``load``: the 1-minute
load average before the size's first round.

Writes the rows of the sizes it ran into ``results/benchmarks/select.csv`` (the rows of the
others stay). ``python tests/benchmarks/bench_select.py [--sizes 1000,10000,100000,fits]
[--rounds R]`` (default 1000,10000; 100 000 once, about 15 minutes more).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import pandas as pd
import psutil
from sklearn.datasets import make_blobs
from threadpoolctl import threadpool_limits

from mtc_cli.selection.catalog import ALGORITHMS, auto_models

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "results" / "benchmarks" / "select.csv"
#: n → (d, cluster_std, rounds)
SIZES = {1_000: (10, 1.5, 3), 10_000: (10, 1.0, 3), 100_000: (20, 1.0, 1)}
#: the default's wall time over the baseline's, and its peak memory (MiB), by n
TARGET = {10_000: 10.0, 100_000: 2.0}
PEAK_TARGET_MIB = 1024
#: the small-data targets: mtc select's wall time over the loop's
LOOP_TARGET = {"kmeans": 2.5, "gmm": 4.0}
#: the plain scikit-learn run of the data (argv[1]: the file); prints its parts' seconds
BASELINE = """
import json, sys, time
import pandas as pd
from sklearn.cluster import HDBSCAN, KMeans
X = pd.read_csv(sys.argv[1]).to_numpy()
start = time.perf_counter()
for k in range(1, 11):
    KMeans(n_clusters=k, n_init=3, random_state=0).fit(X)
middle = time.perf_counter()
HDBSCAN(min_cluster_size=10).fit_predict(X)
print(json.dumps({"kmeans_s": middle - start, "hdbscan_s": time.perf_counter() - middle}))
"""
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
#: mtc select's defaults (for :func:`sklearn_fits`)
SPLITS, REFERENCES, CLEST_REFERENCES, CLEST_SPLITS, MAX_ITEMS = 10, 10, 5, 5, 2000
KS = range(1, 11)
COLUMNS = ["n", "d", "k", "model", "n_init", "rounds", "select_wall_s", "baseline_wall_s",
           "baseline_hdbscan_s", "ratio", "target_ratio", "select_peak_mib",
           "baseline_peak_mib", "loop_wall_s", "ratio_to_loop", "target_ratio_to_loop",
           "sklearn_fits_s", "fits_ratio", "n_tasks", "task_s",
           *(f"task_{m}_s" for m in auto_models()), "load", "cpus"]


class Peak:
    """The largest summed resident memory (bytes) of a process and its descendants, polled
    every ``interval`` seconds on a thread while the process runs."""

    def __init__(self, pid: int, interval: float = 0.05):
        self.root, self.interval, self.bytes = psutil.Process(pid), interval, 0
        self.thread = threading.Thread(target=self._poll, daemon=True)
        self.thread.start()

    def _poll(self) -> None:
        while True:
            try:
                procs = [self.root, *self.root.children(recursive=True)]
            except psutil.NoSuchProcess:
                return
            total = 0
            for p in procs:
                try:
                    total += p.memory_info().rss
                except psutil.NoSuchProcess:
                    pass
            self.bytes = max(self.bytes, total)
            time.sleep(self.interval)

    def mib(self) -> float:
        self.thread.join()
        return self.bytes / 2**20


def timed(argv: list[str]) -> tuple[float, float, str]:
    """(wall seconds, peak MiB of the process tree, stdout) of a fresh process."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            cwd=ROOT)
    peak = Peak(proc.pid)
    out, _ = proc.communicate()
    wall = time.perf_counter() - start
    if proc.returncode:
        raise subprocess.CalledProcessError(proc.returncode, argv)
    return wall, peak.mib(), out


def select(path: Path, model: str | None, out: Path, ks: str) -> dict:
    """One ``mtc select`` (the default when ``model`` is None): its wall time, peak memory
    and the task times its run folder records, in all and per algorithm."""
    chosen = [] if model is None else ["--model", model]
    wall, peak, _ = timed([sys.executable, "-m", "mtc_cli.cli", "select", str(path), *chosen,
                           "--k", ks, "-j", "2", "--out", str(out)])
    per: dict[str, float] = {}
    entries = [json.loads(p.read_text()) for p in (out / "tasks").glob("*.json")]
    for e in entries:
        per[e["task"]["model"]] = per.get(e["task"]["model"], 0.0) + e["elapsed_s"]
    return {"wall": wall, "peak": peak, "n_tasks": len(entries), "task_s": sum(per.values()),
            **{f"task_{m}_s": s for m, s in per.items()}}


def baseline(path: Path) -> dict:
    wall, peak, out = timed([sys.executable, "-c", BASELINE, str(path)])
    return {"wall": wall, "peak": peak, "hdbscan": json.loads(out)["hdbscan_s"]}


def loop(path: Path) -> dict:
    return {"wall": timed([sys.executable, "-c", LOOP, str(path)])[0]}


def write_data(n: int, d: int, path: Path, cluster_std: float) -> np.ndarray:
    X, _ = make_blobs(n, d, centers=5, cluster_std=cluster_std, random_state=0)
    pd.DataFrame(X, columns=[f"x{i}" for i in range(d)]).to_csv(path, index=False)
    return X


def load() -> float:
    return round(os.getloadavg()[0], 2)


def median(runs: list[dict], key: str) -> float:
    values = [r[key] for r in runs if key in r]
    return float(np.median(values)) if values else np.nan


def size_rows(n: int, rounds: int, tmp: Path) -> list[dict]:
    """The rows of one size: ``rounds`` rounds of its commands in turn."""
    d, std, _ = SIZES[n]
    path = tmp / f"blobs{n}x{d}.csv"
    write_data(n, d, path, std)
    commands = {"baseline": lambda i: baseline(path),
                "auto": lambda i: select(path, None, tmp / f"auto{n}-{i}", "1..10")}
    if n == 1_000:
        commands["loop"] = lambda i: loop(path)
        for m in LOOP_TARGET:
            commands[m] = lambda i, m=m: select(path, m, tmp / f"{m}{n}-{i}", "1..12")
    elif n == 100_000:
        for m in LOOP_TARGET:
            commands[m] = lambda i, m=m: select(path, m, tmp / f"{m}{n}-{i}", "1..10")
    runs: dict[str, list[dict]] = {name: [] for name in commands}
    before = load()
    for i in range(rounds):
        for name, command in commands.items():
            runs[name].append(command(i))
            print(f"  n = {n} round {i + 1}: {name} {runs[name][-1]['wall']:.2f} s "
                  f"(load {load()})", flush=True)
    base, auto = runs["baseline"], runs["auto"]
    rows = [{"n": n, "d": d, "k": "1..10", "model": "auto", "rounds": rounds,
             "select_wall_s": median(auto, "wall"), "baseline_wall_s": median(base, "wall"),
             "baseline_hdbscan_s": median(base, "hdbscan"),
             "ratio": median(auto, "wall") / median(base, "wall"),
             "target_ratio": TARGET.get(n, np.nan),
             "select_peak_mib": max(r["peak"] for r in auto),
             "baseline_peak_mib": max(r["peak"] for r in base)}]
    for m in LOOP_TARGET if n != 10_000 else ():
        rows.append({"n": n, "d": d, "k": "1..12" if n == 1_000 else "1..10", "model": m,
                     "n_init": ALGORITHMS[m].n_init, "rounds": rounds,
                     "select_wall_s": median(runs[m], "wall"),
                     "select_peak_mib": max(r["peak"] for r in runs[m])})
        if n == 1_000:
            rows[-1].update(loop_wall_s=median(runs["loop"], "wall"),
                            ratio_to_loop=median(runs[m], "wall") / median(runs["loop"], "wall"),
                            target_ratio_to_loop=LOOP_TARGET[m])
    for row in rows:
        own = auto if row["model"] == "auto" else runs[row["model"]]
        row.update({key: median(own, key) for key in own[0] if key.startswith("task_")},
                   n_tasks=own[0]["n_tasks"], load=before, cpus=os.cpu_count())
        if n == 1_000 and row["model"] == "auto":
            row.update(loop_wall_s=median(runs["loop"], "wall"),
                       ratio_to_loop=row["select_wall_s"] / median(runs["loop"], "wall"))
    return rows


def sklearn_fits(X: np.ndarray, model: str) -> float:
    """Seconds of the model fits the criteria of ``model`` need, sequential, one thread: 2
    halves × splits × k for the random splits, k fits of all objects (which also give the
    gap statistic's W_k of the data), references × k for the gap statistic's reference sets
    and (clest_references + 1) × clest_splits × (learning set + test set + the LDA
    classifier) × (k ≥ 2) for Clest, both on max_items objects."""
    from sklearn.cluster import KMeans
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from sklearn.mixture import GaussianMixture

    n_init = ALGORITHMS[model].n_init

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
        sample = X[rng.permutation(n)[:MAX_ITEMS]]
        m = len(sample)
        for b in range(1, REFERENCES + 1):
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


def fits_rows(tmp: Path) -> list[dict]:
    """10 000 × 20, ``gmm`` and ``kmeans``, against :func:`sklearn_fits` (best of 3)."""
    path = tmp / "blobs10000x20.csv"
    X = write_data(10_000, 20, path, 1.0)
    rows = []
    for model in ("gmm", "kmeans"):
        before = load()
        run = select(path, model, tmp / f"fits-{model}", "1..10")
        ref = min(sklearn_fits(X, model) for _ in range(3))
        rows.append({"n": 10_000, "d": 20, "k": "1..10", "model": model,
                     "n_init": ALGORITHMS[model].n_init, "rounds": 1, "select_wall_s": run["wall"],
                     "select_peak_mib": run["peak"], "sklearn_fits_s": ref,
                     "fits_ratio": run["wall"] / ref, "n_tasks": run["n_tasks"],
                     "task_s": run["task_s"], "load": before, "cpus": os.cpu_count()})
        print(f"  fits {model}: {run['wall']:.1f} s, scikit-learn {ref:.1f} s", flush=True)
    return rows


def write(rows: list[dict]) -> None:
    """The rows into :data:`OUT`, replacing those of the same n, d and model."""
    table = pd.DataFrame(rows)
    if OUT.is_file():
        kept = pd.read_csv(OUT)
        new = set(zip(table["n"], table["d"], table["model"], strict=True))
        old = [(n, d, m) not in new
               for n, d, m in zip(kept["n"], kept["d"], kept["model"], strict=True)]
        table = pd.concat([kept[old], table], ignore_index=True)
    table = table.reindex(columns=COLUMNS)
    for c in ("n_init", "rounds", "n_tasks", "cpus"):
        table[c] = table[c].astype("Int64")
    for c in [c for c in COLUMNS if c.endswith(("_s", "ratio", "_mib", "to_loop"))]:
        table[c] = table[c].round(3 if "ratio" in c else 2 if c.endswith("_s") else 0)
    table.sort_values(["n", "d"], kind="stable").to_csv(OUT, index=False, lineterminator="\n")
    print(f"wrote {OUT}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="1000,10000",
                        help="comma-separated: 1000, 10000, 100000 (the default against the "
                             "baseline) and fits (10 000 × 20 against the scikit-learn fits); "
                             "the rows of the others in select.csv stay")
    parser.add_argument("--rounds", type=int,
                        help="rounds per size [default: 3, 100 000 once]")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes.split(","):
            print(f"{size} (load {load()})", flush=True)
            if size == "fits":
                new = fits_rows(Path(tmp))
            else:
                new = size_rows(int(size), args.rounds or SIZES[int(size)][2], Path(tmp))
            for row in new:
                print({k: v for k, v in row.items() if v == v}, flush=True)
            rows += new
    write(rows)


if __name__ == "__main__":
    main()
