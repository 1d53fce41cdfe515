"""Benchmark: the task time of each algorithm of the default ``mtc select`` (no ``--model``:
``auto``, :func:`mtc_cli.selection.catalog.auto_models`) by size, and where it goes.

Data: ``make_blobs(n, d, centers=5, random_state=0)`` for n = 1 000 and 10 000 (d = 10) and
100 000 (d = 20), written to a CSV and read as ``mtc select`` reads it. The selection is the
default's (:class:`mtc_cli.selection.selector.Selection` of the ``select`` experiment's
params with ``k = 1..10``: each algorithm with the criteria the answer reads). For every
algorithm, one task of each family it plans (the first ``split``, ``gap`` and ``clest``
task, the ``full`` task), run by :func:`mtc_cli.selection.tasks.run_task` with the generator
``mtc select`` gives it at seed 0 (:func:`mtc_cli.selection.engine.rng_of`); ``tasks``: how
many tasks of that family the selection plans (the family's time in a run is about
``cpu_s × tasks``). CPU seconds of the process (less disturbed by other load than wall
time; both are kept), one BLAS/OpenMP thread — a task's share of ``-j 2`` on two cores —,
the median of :data:`SIZES`' repeats.

Each task's time is split into parts (exclusive: a part nested in another is charged to
itself; ``gap_fits`` and ``hdbscan_count`` take what they call): ``fit`` (fitting the
algorithm, on ≤ ``max_items`` objects for the label-only ones), ``transfer`` (a label-only
algorithm's predictor: extending its fit to the other objects of a half or of the data, and
labelling X² for the stability), ``predict`` (k-means' and the GMM's predictor),
``strength_predict`` (the prediction strength's nearest centroid), ``stability`` (the
disagreement and its random baselines), ``prediction_strength``, the internal and partition
indices by name, ``gap_fits`` (the model's fits of a reference set or of the data's sample
for the gap statistic), ``hdbscan_count``, ``clest`` (Clest's splits and agreement, its fits
and classifier apart), ``lda`` (Clest's classifier) and ``other`` (the rest: halves,
sampling, reference sets, rows).

``--before REV``: the same measurements of the code of a git revision too (``git archive``
into a scratch directory, run in a subprocess with this script), the rows of each task
compared (``identical``: every score equal, NaN to NaN) and ``speedup`` = CPU before / CPU
after.

Writes ``results/benchmarks/algorithms.csv`` (the rows of the sizes it ran).
``python tests/benchmarks/bench_algorithms.py [--sizes 1000,10000,100000] [--before REV]``.
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import os
import pickle
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import defaultdict
from contextlib import contextmanager
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "results" / "benchmarks" / "algorithms.csv"
#: n → (d, repeats)
SIZES = {1_000: (10, 3), 10_000: (10, 3), 100_000: (20, 1)}
FAMILIES = ("split", "full", "gap", "clest")
#: parts that take what they call (their fits, their predictors)
WHOLE = ("gap_fits", "hdbscan_count")


class Parts:
    """CPU seconds per part: each wrapped call is charged its own time less that of the
    wrapped calls it makes, except inside a part of :data:`WHOLE`, which takes all."""

    def __init__(self):
        self.seconds: dict[str, float] = defaultdict(float)
        self.stack: list[list] = []

    def wrap(self, label: str, fn):
        def timed(*args, **kwargs):
            if any(frame[0] in WHOLE for frame in self.stack):
                return fn(*args, **kwargs)
            self.stack.append([label, 0.0])
            start = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                spent = time.process_time() - start
                _, nested = self.stack.pop()
                self.seconds[label] += spent - nested
                if self.stack:
                    self.stack[-1][1] += spent
        return timed


@contextmanager
def instrumented(parts: Parts):
    """The functions of the parts wrapped (module and class attributes, restored after)."""
    from mtc_cli.core.criteria import (
        clest,
        hdbscan_count,
        internal_indices,
        prediction_strength,
        stability,
    )
    from mtc_cli.core.criteria.partition_indices import INDICES
    from mtc_cli.selection import fitting, tasks

    patches = []
    for cls in (fitting._PerK, fitting.Gmm, fitting.Kmeans, fitting._Labels,
                fitting.PathBased):
        for attr, label in (("fit_all", "fit"), ("transfer", "transfer"),
                            ("predict_all", "predict"),
                            ("strength_predict_all", "strength_predict")):
            if attr in vars(cls):
                patches.append((cls, attr, label))
    patches += [(stability, "disagreement_and_baseline", "stability"),
                (stability, "random_disagreement", "stability"),
                (prediction_strength, "prediction_strength", "prediction_strength"),
                (internal_indices, "silhouette", "silhouette"),
                (internal_indices, "calinski_harabasz", "calinski_harabasz"),
                (internal_indices, "davies_bouldin", "davies_bouldin"),
                (tasks.Context, "log_w", "gap_fits"),
                (hdbscan_count, "hdbscan_count", "hdbscan_count")]
    saved = [(owner, attr, vars(owner)[attr]) for owner, attr, _ in patches]
    saved.append((clest, "agreement_statistic", clest.agreement_statistic))
    indices = dict(INDICES)
    try:
        for owner, attr, label in patches:
            setattr(owner, attr, parts.wrap(label, vars(owner)[attr]))
        # Clest's classifier is the default of an argument: passed explicitly, wrapped
        clest.agreement_statistic = parts.wrap("clest", partial(
            clest.agreement_statistic, predict=parts.wrap("lda", clest.lda_predict)))
        for name, index in indices.items():
            INDICES[name] = dataclasses.replace(index, values=parts.wrap(name, index.values))
        yield
    finally:
        for owner, attr, fn in saved:
            setattr(owner, attr, fn)
        INDICES.update(indices)


def write_data(n: int, d: int, path: Path) -> None:
    from sklearn.datasets import make_blobs

    X, _ = make_blobs(n, d, centers=5, random_state=0)
    pd.DataFrame(X, columns=[f"x{i}" for i in range(d)]).to_csv(path, index=False)


def measure(path: Path, repeats: int) -> list[dict]:
    """One task of each family of each algorithm of the default on the data at ``path``,
    ``repeats`` times: the median CPU and wall seconds, the parts of the median run (by
    CPU) and the task's rows."""
    from experiments.select.protocol import Params, selection_of
    from mtc_cli.selection.engine import rng_of
    from mtc_cli.selection.tasks import run_task

    sel = selection_of(Params(data=str(path), k="1..10"))
    planned = sel.tasks()
    out = []
    for model in sel.settings:
        X = sel.matrix(model)
        mine = [t for t in planned if t["model"] == model]
        for family in (f for f in FAMILIES if any(t["family"] == f for t in mine)):
            task = next(t for t in mine if t["family"] == family)
            runs = []
            for _ in range(repeats):
                parts = Parts()
                with instrumented(parts):
                    cpu, wall = time.process_time(), time.perf_counter()
                    rows = run_task(X, task, rng_of(0, task))
                    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
                runs.append((cpu, wall, dict(parts.seconds), rows))
            runs.sort(key=lambda r: r[0])
            cpu, wall, seconds, rows = runs[len(runs) // 2]
            print(f"  {model:9s} {family:5s} {cpu:8.2f} s", flush=True)
            out.append({"algorithm": model, "family": family, "cpu_s": cpu,
                        "wall_s": float(np.median([r[1] for r in runs])),
                        "tasks": sum(t["family"] == family for t in mine),
                        "parts": seconds, "rows": rows})
    return out


def child(path: str, repeats: int, result: str) -> None:
    """The measurements of the code on ``sys.path``, pickled to ``result``; the compiled
    kernels loaded (or compiled) first by a small selection."""
    import mtc_cli

    print(f"  mtc_cli from {Path(mtc_cli.__file__).parent}", flush=True)
    with threadpool_limits(limits=1):
        from experiments.select.protocol import Params, selection_of

        warm = Path(result).with_suffix(".warm.csv")
        write_data(300, 3, warm)
        sel = selection_of(Params(data=str(warm), k="1..3"))
        sel.run(0)
        out = measure(Path(path), repeats)
    Path(result).write_bytes(pickle.dumps(out))


def run_code(code: Path, path: Path, repeats: int, tmp: Path, name: str) -> list[dict]:
    """:func:`child` in a fresh process with ``code`` first on its path."""
    result = tmp / f"{name}.pkl"
    env = {**os.environ, "PYTHONPATH": str(code), "OMP_NUM_THREADS": "1",
           "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", str(path),
                    str(repeats), str(result)], check=True, env=env, cwd=code)
    return pickle.loads(result.read_bytes())


def same_rows(a: list[dict], b: list[dict]) -> bool:
    A, B = pd.DataFrame(a), pd.DataFrame(b)
    if list(A.columns) != list(B.columns) or len(A) != len(B):
        return False
    return all(A[c].equals(B[c]) for c in A.columns)


def row(n: int, d: int, repeats: int, code: str, r: dict, **extra) -> dict:
    part = {f"{k}_s": round(v, 3) for k, v in sorted(r["parts"].items(), key=lambda kv: -kv[1])}
    return {"n": n, "d": d, "algorithm": r["algorithm"], "family": r["family"], "code": code,
            "tasks": r["tasks"], "repeats": repeats, "cpu_s": round(r["cpu_s"], 3),
            "wall_s": round(r["wall_s"], 3), **extra,
            "other_s": round(r["cpu_s"] - sum(r["parts"].values()), 3), **part}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="1000,10000,100000",
                        help="comma-separated n of SIZES; the rows of the others stay")
    parser.add_argument("--before", metavar="REV",
                        help="also measure the code of this git revision, and compare")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], int(args.child[1]), args.child[2])
        return
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        before = tmp / "before"
        if args.before:
            archive = subprocess.run(["git", "archive", args.before], cwd=ROOT, check=True,
                                     capture_output=True).stdout
            with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
                tar.extractall(before, filter="data")
        for n in (int(v) for v in args.sizes.split(",")):
            d, repeats = SIZES[n]
            path = tmp / f"blobs{n}x{d}.csv"
            write_data(n, d, path)
            print(f"n = {n}, d = {d} (load {os.getloadavg()[0]:.2f})", flush=True)
            new = run_code(ROOT, path, repeats, tmp, f"after{n}")
            if not args.before:
                rows += [row(n, d, repeats, "this", a) for a in new]
                continue
            print(f"n = {n}, d = {d}: before ({args.before})", flush=True)
            old = run_code(before, path, repeats, tmp, f"before{n}")
            for o, a in zip(old, new, strict=True):
                assert (o["algorithm"], o["family"]) == (a["algorithm"], a["family"])
                same = {"speedup": round(o["cpu_s"] / a["cpu_s"], 2),
                        "identical": same_rows(o["rows"], a["rows"])}
                rows += [row(n, d, repeats, f"before {args.before}", o, **same),
                         row(n, d, repeats, "this", a, **same)]
                print(f"{n:>7} {a['algorithm']:9s} {a['family']:5s} before "
                      f"{o['cpu_s']:8.2f} s after {a['cpu_s']:8.2f} s "
                      f"×{same['speedup']:.2f} identical {same['identical']}", flush=True)
    table = pd.DataFrame(rows)
    if OUT.is_file():
        kept = pd.read_csv(OUT)
        table = pd.concat([kept[~kept["n"].isin(table["n"])], table], ignore_index=True)
    fixed = ["n", "d", "algorithm", "family", "code", "tasks", "repeats", "cpu_s", "wall_s",
             "speedup", "identical", "other_s"]
    table = table.reindex(columns=fixed + sorted(c for c in table.columns if c not in fixed))
    table["tasks"] = table["tasks"].astype("Int64")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    table.sort_values(["n", "algorithm", "family", "code"], kind="stable").to_csv(
        OUT, index=False, lineterminator="\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
