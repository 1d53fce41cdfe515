"""Benchmark: the batched k-means of the Lange et al. (2002) stability experiments
(:func:`mtc_cli.core.models.clusterers.kmeans_cluster`: k-means++ and Lloyd's iterations,
the restarts batched in matrix products) head to head against scikit-learn's
``KMeans(n_clusters=k, n_init=n_init, algorithm="lloyd", init="k-means++",
random_state=seed).fit(X)``, one fit per k (default ``tol``; k = 1 is the one-cluster
solution in both, no fit), and against :func:`mtc_cli.core.models.sklearn_kmeans.fit`
(scikit-learn's compiled kernels called directly, as ``mtc select`` does: the same labels as
``KMeans``). CPU seconds of this process with one BLAS/OpenMP thread (as every task runs);
the three alternate call by call, the order reversed every round, best of ``ROUNDS``
rounds.

Inputs, the papers' sizes as the configs' full profiles use them: every call of
``kmeans_cluster`` made by run 0 of ``stability_leukemia`` (Golub, 72 × 100, k = 2..10, 20
restarts) and of ``stability_toy``'s ``gaussians/kmeans`` (200 × 2) and ``rings/kmeans``
(600 × 2) cases (k = 2..10, 10 restarts) is recorded while the task runs; most are Clest's
learning and test sets (2/3 and 1/3 of the objects) of uniform reference data. Per call
size, ``SAMPLE`` calls spread over the task's calls of that size are timed; a row's times
are the task's calls of that size, estimated as their number × the mean sampled time, and
the ``one task`` row sums them. Then two larger sets to show the crossover: ``make_blobs``
2 000 × 10 and 20 000 × 10 (5 centres), k = 2..10, 10 restarts, one call each.

Columns: ``speedup`` = KMeans' time / ours, ``direct_speedup`` = the direct kernels' time /
ours (above 1: ours faster); ``same_cost`` / ``sklearn_lower`` / ``sklearn_higher``: of the
sampled fits (one per call and k ≥ 2), how many of KMeans' best costs Σ‖x − μ‖² (both
computed alike from the labels) equal ours within 1e-9 relative, are lower, are higher.
``reproduces_committed`` on a ``one task`` row: the task's rows recomputed here against
the committed ``results/<experiment>/rows.csv`` (``byte for byte``, ``within rtol 1e-9`` as
``mtc run`` keeps tables, or ``no``). The last row runs the quick profile's
``gaussians/kmeans`` task twice, k-means by ours and by ``KMeans`` (its seeds drawn from
the task's generator): KMeans draws its k-means++ centres from numpy's legacy
``RandomState``, ours from the task's ``Generator`` in another order, so its rows cannot be
the committed ones. Writes ``results/benchmarks/lloyd.csv`` (atomically); takes about ten
minutes.
"""

from __future__ import annotations

import io
import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.cluster import KMeans
from sklearn.datasets import make_blobs
from threadpoolctl import threadpool_limits

from mtc_cli.core.files import write_csv
from mtc_cli.core.models import clusterers, sklearn_kmeans
from mtc_cli.run import agreement
from mtc_cli.run.config import load_config
from mtc_cli.run.registry import get_experiment
from mtc_cli.run.tasking import task_key, task_rng

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "results" / "benchmarks" / "lloyd.csv"
ROUNDS = 3
SAMPLE = 6
RTOL_COST = 1e-9
#: (config, the task's keys): run 0 of each k-means case of the two experiments
TASKS = [("stability_leukemia", {"run": 0}),
         ("stability_toy", {"run": 0, "dataset": "gaussians", "clusterer": "kmeans"}),
         ("stability_toy", {"run": 0, "dataset": "rings", "clusterer": "kmeans"})]
LARGER = [(2000, 10), (20000, 10)]
LARGER_N_INIT = 10


def ours(X, ks, n_init, seed):
    return clusterers.kmeans_cluster(X, ks, np.random.default_rng(seed), n_init=n_init)


def sklearn_labels(X, ks, n_init, seed):
    return {k: KMeans(n_clusters=k, n_init=n_init, algorithm="lloyd", init="k-means++",
                      random_state=seed + k).fit(X).labels_ if k > 1
            else np.zeros(len(X), dtype=np.intp) for k in ks}


def direct_labels(X, ks, n_init, seed):
    return {k: sklearn_kmeans.fit(X, k, n_init, seed + k)[1] if k > 1
            else np.zeros(len(X), dtype=np.intp) for k in ks}


def sklearn_cluster(X, ks, rng, *, n_init=20):
    """``kmeans_cluster``'s signature with KMeans fits, each seeded from ``rng``."""
    return sklearn_labels(X, ks, n_init, int(rng.integers(2**31 - 100)))


def cost(X, labels) -> float:
    """Σ_i ‖x_i − μ_c(i)‖², the same arithmetic for any labels."""
    names, centroids = clusterers.class_means(X, labels)
    diff = X - centroids[np.searchsorted(names, labels)]
    return float(np.einsum("ij,ij->", diff, diff))


def run_task(name: str, match: dict, *, quick: bool = False, kmeans=None):
    """(the task, its rows, every ``kmeans_cluster`` call it made as (X, ks, n_init)),
    the task run as ``mtc run`` runs it (its own generator, one thread); k-means replaced
    by ``kmeans`` if given."""
    cfg = load_config(ROOT / "configs" / f"{name}.yaml", quick=quick,
                      resolve_experiment=get_experiment)
    exp = get_experiment(cfg.experiment)
    task = next(t for t in exp.tasks(cfg.params) if all(t[k] == v for k, v in match.items()))
    calls, original = [], clusterers.kmeans_cluster
    inner = kmeans or original

    def recorded(X, ks, rng, *, n_init=20):
        calls.append((np.array(X, dtype=np.float64), list(ks), n_init))
        return inner(X, ks, rng, n_init=n_init)

    clusterers.kmeans_cluster = recorded
    try:
        rows = exp.run_task(task, task_rng(cfg.seed, task_key(exp.name, cfg.seed, task)))
    finally:
        clusterers.kmeans_cluster = original
    return task, rows, calls


def as_committed(rows, committed: pd.DataFrame) -> pd.DataFrame:
    """``rows`` as a table with the committed columns, read back as ``mtc run`` writes it."""
    return pd.read_csv(io.StringIO(pd.DataFrame(rows).reindex(columns=committed.columns)
                                   .to_csv(index=False)))


def reproduces(name: str, task: dict, rows) -> str:
    old = pd.read_csv(ROOT / "results" / name / "rows.csv")
    keep = old["rep"] == task["run"]
    for col in ("dataset", "clusterer"):
        if col in task:
            keep &= old[col] == task[col]
    old = old[keep].reset_index(drop=True)
    new = as_committed(rows, old)
    if new.to_csv(index=False) == old.to_csv(index=False):
        return "byte for byte"
    moves = agreement.compare(new, old, "rows.csv")[0]
    return "no" if moves else f"within rtol {agreement.RTOL:g}"


def timed(fn, *args):
    start = time.process_time()
    out = fn(*args)
    return out, time.process_time() - start


def head_to_head(calls) -> dict:
    """Best-of-rounds CPU seconds of ours, KMeans and the direct kernels on ``calls``
    (X, ks, n_init), alternating call by call; the cost comparison of the first round."""
    contenders = [("ours", ours), ("sklearn", sklearn_labels), ("direct", direct_labels)]
    best = {name: np.inf for name, _ in contenders}
    same = lower = higher = 0
    for r in range(ROUNDS):
        spent = dict.fromkeys(best, 0.0)
        order = contenders if r % 2 == 0 else contenders[::-1]
        for seed, (X, ks, n_init) in enumerate(calls):
            out = {}
            for name, fn in order:
                out[name], dt = timed(fn, X, ks, n_init, 1000 * seed)
                spent[name] += dt
            if r == 0:
                for k in ks:
                    if k == 1:
                        continue
                    a, b = cost(X, out["ours"][k]), cost(X, out["sklearn"][k])
                    if abs(b - a) <= RTOL_COST * abs(a):
                        same += 1
                    elif b < a:
                        lower += 1
                    else:
                        higher += 1
        best = {name: min(best[name], spent[name]) for name in best}
    return {"ours": best["ours"], "sklearn": best["sklearn"], "direct": best["direct"],
            "same_cost": same, "sklearn_lower": lower, "sklearn_higher": higher}


def role(n: int, n_task: int) -> str:
    if n == n_task:
        return "whole set (agreement), Gap's data and references"
    if n == n_task // 2:
        return "halves (stability, prediction strength)"
    if n == int(round(2 / 3 * n_task)):
        return "Clest learning sets (data and references)"
    if n == n_task - int(round(2 / 3 * n_task)):
        return "Clest test sets (data and references)"
    return "other"


def ks_text(ks) -> str:
    fitted = [k for k in ks if k > 1]
    return f"{fitted[0]}..{fitted[-1]}"


def row(label, what, n, d, ks, n_init, calls, sampled, t, scale=1.0, reproduced=""):
    return {"input": label, "role": what, "n": n, "d": d, "ks": ks, "n_init": n_init,
            "calls": calls, "sampled": sampled, "ours_cpu_s": t["ours"] * scale,
            "sklearn_cpu_s": t["sklearn"] * scale, "speedup": t["sklearn"] / t["ours"],
            "direct_cpu_s": t["direct"] * scale, "direct_speedup": t["direct"] / t["ours"],
            "k_fits": t["same_cost"] + t["sklearn_lower"] + t["sklearn_higher"],
            "same_cost": t["same_cost"], "sklearn_lower": t["sklearn_lower"],
            "sklearn_higher": t["sklearn_higher"], "reproduces_committed": reproduced}


def paper_rows(name: str, match: dict) -> list[dict]:
    task, rows, calls = run_task(name, match)
    reproduced = reproduces(name, task, rows)
    label = f"{name} {task.get('dataset', 'golub')}" + \
        (f"/{task['clusterer']}" if "clusterer" in task else "")
    n_task = max(len(X) for X, _, _ in calls)
    out, totals = [], {"ours": 0.0, "sklearn": 0.0, "direct": 0.0, "same_cost": 0,
                       "sklearn_lower": 0, "sklearn_higher": 0}
    for n in sorted({len(X) for X, _, _ in calls}):
        group = [c for c in calls if len(c[0]) == n]
        picked = [group[i] for i in np.unique(np.linspace(0, len(group) - 1, SAMPLE)
                                              .round().astype(int))]
        t = head_to_head(picked)
        scale = len(group) / len(picked)
        X, ks, n_init = group[0]
        out.append(row(label, role(n, n_task), n, X.shape[1], ks_text(ks), n_init,
                       len(group), len(picked), t, scale))
        for key in totals:
            totals[key] += t[key] * scale if key in ("ours", "sklearn", "direct") else t[key]
        print(out[-1], flush=True)
    d, n_init = calls[0][0].shape[1], calls[0][2]
    out.append(row(label, "one task: every k-means call (estimated from the sampled)",
                   n_task, d, ks_text(calls[0][1]), n_init, len(calls),
                   sum(r["sampled"] for r in out), totals, reproduced=reproduced))
    print(out[-1], flush=True)
    return out


def larger_rows() -> list[dict]:
    out = []
    for n, d in LARGER:
        X = make_blobs(n, d, centers=5, random_state=0)[0]
        t = head_to_head([(X, list(range(2, 11)), LARGER_N_INIT)])
        out.append(row(f"make_blobs {n} x {d}, 5 centres", "larger: the crossover", n, d,
                       "2..10", LARGER_N_INIT, 1, 1, t))
        print(out[-1], flush=True)
    return out


def sklearn_reproduction() -> dict:
    """The quick profile's gaussians/kmeans task with ours and with KMeans."""
    match = {"run": 0, "dataset": "gaussians", "clusterer": "kmeans"}
    task, mine, calls = run_task("stability_toy", match, quick=True)
    _, theirs, _ = run_task("stability_toy", match, quick=True, kmeans=sklearn_cluster)
    a, b = pd.DataFrame(mine), pd.DataFrame(theirs)
    differ = int((~np.isclose(a["score"], b["score"], rtol=1e-9, atol=0.0,
                              equal_nan=True)).sum())
    chosen = {c: (int(a.loc[a.criterion == c, "selected"].iloc[0]),
                  int(b.loc[b.criterion == c, "selected"].iloc[0]))
              for c in ("stability", "gap", "clest", "prediction_strength")}
    moved = [f"{c} {x}->{y}" for c, (x, y) in chosen.items() if x != y]
    return {"input": "stability_toy gaussians/kmeans, quick profile, run 0",
            "role": (f"k-means by KMeans instead of ours: {differ} of {len(a)} scores differ "
                     f"beyond 1e-9; selected k " + (", ".join(moved) if moved else
                                                   "the same for every criterion")),
            "n": len(calls[-1][0]), "d": calls[-1][0].shape[1], "ks": "2..10",
            "n_init": calls[-1][2], "calls": len(calls),
            "reproduces_committed": "no (KMeans: RandomState draws, not the task's "
                                    "Generator)"}


def main() -> None:
    rows = []
    with threadpool_limits(limits=1):
        for name, match in TASKS:
            rows += paper_rows(name, match)
        rows += larger_rows()
        rows.append(sklearn_reproduction())
    table = pd.DataFrame(rows)
    for col in ("calls", "sampled", "k_fits", "same_cost", "sklearn_lower", "sklearn_higher"):
        table[col] = table[col].astype("Int64")
    for col in ("ours_cpu_s", "sklearn_cpu_s", "direct_cpu_s"):
        table[col] = table[col].round(4)
    for col in ("speedup", "direct_speedup"):
        table[col] = table[col].round(3)
    write_csv(table, OUT)
    with pd.option_context("display.width", 250, "display.max_colwidth", 60):
        print(table.drop(columns=["role"]).to_string(index=False))
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
