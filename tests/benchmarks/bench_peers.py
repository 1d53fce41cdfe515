"""Benchmark: the peers of ``mtc select`` — tools users reach for to choose the number of
clusters k — on the data sets of the criteria league (``experiments/criteria_league/protocol.py``,
``configs/criteria_league.yaml``), so that their hit rates (share of data sets where the
chosen k equals the reference k) can sit beside our criteria's in the league table.

The data sets are the league's own: :func:`experiments.criteria_league.datasets` over the
config's suite and :func:`experiments.criteria_league.data` for each matrix (never
re-implemented here), k_max = the config's ``k_max`` (12; 6 with ``--quick``). Every random
choice is fixed by ``SEED`` = the config's ``select_seed`` (0).

The peers, each with its own rule:

- ``kneed``: :class:`kneed.KneeLocator` (curve="convex", direction="decreasing", its
  defaults otherwise: S=1, interp_method="interp1d") on the k-means SSE curve
  (scikit-learn ``KMeans(n_init=10, random_state=SEED)``, ``inertia_``), k = 1..k_max;
  no knee found = no choice.
- ``yellowbrick``: :class:`yellowbrick.cluster.KElbowVisualizer` with
  ``KMeans(n_init=10, random_state=SEED)``, ``metric="distortion"`` (its default: the sum of
  squared distances to the cluster means), ``locate_elbow=True`` (its vendored copy of
  kneed, convex / decreasing), k = 2..k_max — its k range starts at 2 (its default is
  2..10), so it cannot choose k = 1. ``force_model=True`` because yellowbrick 1.5 does not
  recognise scikit-learn ≥ 1.6's KMeans as a clusterer; drawn on the Agg backend and closed.
  No elbow found = no choice.
- ``clusteval``: :class:`clusteval.clusteval` with its documented defaults for choosing k —
  ``cluster="agglomerative"``, ``evaluate="silhouette"``, ``metric="euclidean"``,
  ``linkage="ward"``, ``min_clust=2`` — and ``max_clust=k_max + 1`` (its range is
  ``np.arange(min_clust, max_clust)``, so this evaluates k = 2..k_max; its default 25 is
  cut to the league's range). Its rule: the dendrogram cut of largest mean silhouette; k is
  the number of distinct labels in ``results["labx"]``. Cannot choose k = 1.
- ``validclust``: :class:`validclust.ValidClust` with ``methods="hierarchical"`` (Ward,
  euclidean), ``indices="calinski"``, k = 2..k_max; k = the argmax of the Calinski–Harabasz
  index. validclust 0.1.1 passes ``affinity=`` to scikit-learn's AgglomerativeClustering,
  removed in scikit-learn 1.4; a subclass here passes ``metric=`` instead (nothing else
  changed). Cannot choose k = 1.
- ``gap_stat``: gap-stat's :class:`gap_statistic.OptimalK` (``n_jobs=1``,
  ``parallel_backend=None``, ``random_state=SEED``) with ``KMeans(n_init=10,
  random_state=SEED)`` as its clusterer, ``n_refs`` = the config's ``references`` (10, the
  B of mtc's gap statistic in the league; its default is 3), k = 1..k_max; its own rule: the
  k of the largest gap (not Tibshirani's one-standard-error rule).

None of them is a dependency of mtc, and ``pip install kneed yellowbrick clusteval
validclust`` can move numpy / scikit-learn / pandas; so they live in a separate virtual
environment holding mtc (editable) at exactly the versions of mtc's own environment, and
this script runs under it::

    python3 -m venv /work/peers-venv
    /work/main/.venv/bin/python -m pip freeze | grep -v -e '^-e' -e '^mtc' -e '@ file' \\
        > /tmp/peers-constraints.txt          # pin mtc's numpy, scikit-learn, pandas, ...
    . /work/peers-venv/bin/activate
    pip install -c /tmp/peers-constraints.txt -e /work/main
    pip install -c /tmp/peers-constraints.txt kneed yellowbrick clusteval validclust wheel
    pip install --no-build-isolation --no-deps gap-stat   # its sdist pins a 2018 wheel
    python tests/benchmarks/bench_peers.py              # from /work/main

A peer that is not importable is skipped with the reason; a peer that fails on one data set
gives no choice there (k = NaN, the message in ``failure``). Output (``--out``, by default
``results/benchmarks/peers.csv``; ``peers_quick.csv`` with ``--quick``): one row per data
set × peer — ``dataset`` (the design's ``id``), ``peer``, ``k`` (NaN if none), ``true_k``,
``seconds``, ``family``, ``n``, ``d``, ``failure``, then every other key of the design with a
``design_`` prefix (e.g. ``design_family``, ``design_rep``, ``design_data_seed`` and
whatever keys — a fit/test half — the suite grows). Prints per peer the hit rate overall,
over the data sets with k ≥ 2, per family and per half (``half_fit``, ``half_test``, where
the designs have a ``half``), and its summed seconds.

Cost (508 data sets of the two-half suite, k_max = 12, ``-j 1`` on a shared 2-core
machine): 9 min wall; summed seconds kneed 34, yellowbrick 49, clusteval 8, validclust 12,
gap_stat 436 (its dispersion is a Python loop over points, ×11 fits per k) — no peer needs
restricting. The knee finders (kneed, yellowbrick) never pick an end of their range: kneed
never k = 1, yellowbrick never k = 2 (its range starts there).

Options: ``--quick`` (the quick profile's suite and k_max), ``--peers a,b``, ``-j N``
(joblib processes over data sets, default 1; one BLAS thread each), ``--out PATH``,
``--config PATH`` (another config of the league; default ``configs/criteria_league.yaml``),
``--beside-league`` (run no peer: put peers.csv beside the committed league table, per
half, in ``results/benchmarks/league_with_peers.csv``; needs only mtc's environment).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # experiments/ (also installed with mtc; this is a fallback)
os.environ.setdefault("MPLBACKEND", "Agg")  # draw nothing to screen, also in joblib workers

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from joblib import Parallel, delayed  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402
from tqdm import tqdm  # noqa: E402

PEERS = ("kneed", "yellowbrick", "clusteval", "validclust", "gap_stat")
MODULES = {"kneed": "kneed", "yellowbrick": "yellowbrick", "clusteval": "clusteval",
           "validclust": "validclust", "gap_stat": "gap_statistic"}
INSTALL = {"kneed": "pip install kneed", "yellowbrick": "pip install yellowbrick",
           "clusteval": "pip install clusteval", "validclust": "pip install validclust",
           "gap_stat": "pip install wheel && pip install --no-build-isolation --no-deps "
                       "gap-stat"}
N_INIT = 10


def _kmeans(k: int, seed: int):
    from sklearn.cluster import KMeans

    return KMeans(n_clusters=k, n_init=N_INIT, random_state=seed)


def peer_kneed(X, k_max, seed, opts):
    from kneed import KneeLocator

    ks = list(range(1, k_max + 1))
    sse = [_kmeans(k, seed).fit(X).inertia_ for k in ks]
    return KneeLocator(ks, sse, curve="convex", direction="decreasing").knee


def peer_yellowbrick(X, k_max, seed, opts):
    import matplotlib.pyplot as plt
    from yellowbrick.cluster import KElbowVisualizer

    fig, ax = plt.subplots()
    try:
        with warnings.catch_warnings():  # "no knee": reported as no choice
            warnings.simplefilter("ignore")
            viz = KElbowVisualizer(_kmeans(2, seed), ax=ax, k=(2, k_max + 1),
                                   metric="distortion", timings=False, locate_elbow=True,
                                   force_model=True)
            viz.fit(X)
        return viz.elbow_value_
    finally:
        plt.close(fig)


def peer_clusteval(X, k_max, seed, opts):
    from clusteval import clusteval

    ce = clusteval(cluster="agglomerative", evaluate="silhouette", metric="euclidean",
                   linkage="ward", min_clust=2, max_clust=k_max + 1, verbose="silent")
    results = ce.fit(X)
    if results is None or results.get("labx") is None:
        return None
    return len(np.unique(results["labx"]))


def peer_validclust(X, k_max, seed, opts):
    from validclust import ValidClust

    class _ValidClust(ValidClust):
        """``metric=`` for ``affinity=`` (removed in scikit-learn 1.4); nothing else."""

        def _get_method_objs(self):
            from sklearn.cluster import AgglomerativeClustering, KMeans

            objs = {"hierarchical": AgglomerativeClustering(linkage=self.linkage,
                                                            metric=self.affinity),
                    "kmeans": KMeans(random_state=seed)}
            return {m: objs[m] for m in self.methods}

    vc = _ValidClust(k=list(range(2, k_max + 1)), indices=["calinski"],
                     methods=["hierarchical"], linkage="ward", affinity="euclidean")
    scores = vc.fit(X).score_df.loc[("hierarchical", "calinski")].astype(float)
    return None if scores.isna().all() else int(scores.idxmax())


def peer_gap_stat(X, k_max, seed, opts):
    from gap_statistic import OptimalK

    def sklearn_kmeans(data, k):
        fit = _kmeans(k, seed).fit(data)
        return fit.cluster_centers_, fit.labels_

    np.random.seed(seed)
    finder = OptimalK(n_jobs=1, parallel_backend=None, clusterer=sklearn_kmeans,
                      random_state=seed)
    return int(finder(X, n_refs=opts["references"], cluster_array=list(range(1, k_max + 1))))


RUNNERS = {"kneed": peer_kneed, "yellowbrick": peer_yellowbrick,
           "clusteval": peer_clusteval, "validclust": peer_validclust,
           "gap_stat": peer_gap_stat}


def available(peers: list[str]) -> tuple[list[str], dict[str, str]]:
    """The peers that import, and for the others the reason."""
    ok, skipped = [], {}
    for p in peers:
        try:
            __import__(MODULES[p])
        except Exception as e:  # noqa: BLE001 - any import failure skips the peer
            skipped[p] = f"{type(e).__name__}: {e} (install: {INSTALL[p]})"
        else:
            ok.append(p)
    return ok, skipped


def run_design(design: dict, peers: list[str], k_max: int, seed: int,
               opts: dict) -> list[dict]:
    """Every peer on one data set of the league: one row per peer."""
    import logging

    from experiments.criteria_league import data

    logging.disable(logging.WARNING)  # clusteval's logger
    X, true_k = data(design)
    base = {"dataset": design["id"], "true_k": true_k, "family": design.get("family"),
            "n": X.shape[0], "d": X.shape[1]}
    extra = {f"design_{key}": (str(v) if isinstance(v, (list, dict, tuple)) else v)
             for key, v in design.items() if key not in ("id", "true_k")}
    rows = []
    with threadpool_limits(1):
        for peer in peers:
            t = time.perf_counter()
            err = ""
            try:
                k = RUNNERS[peer](X, k_max, seed, opts)
            except Exception as e:  # noqa: BLE001 - a failure is no choice, with its reason
                k, err = None, f"{type(e).__name__}: {e}"
            rows.append({**base, "peer": peer,
                         "k": float(k) if k is not None else np.nan,
                         "seconds": time.perf_counter() - t, "failure": err, **extra})
    return rows


def report(df: pd.DataFrame) -> str:
    from experiments.criteria_league import FAMILIES

    d = df.assign(hit=df["k"] == df["true_k"])
    d["hit_k_ge_2"] = d["hit"].where(d["true_k"] >= 2)
    g = d.groupby("peer", sort=False)
    out = g.agg(n_datasets=("hit", "size"), hit_rate=("hit", "mean"),
                hit_rate_k_ge_2=("hit_k_ge_2", "mean"),
                no_choice=("k", lambda s: int(s.isna().sum())),
                failures=("failure", lambda s: int((s.fillna("") != "").sum())),
                seconds=("seconds", "sum"))
    fam = d.pivot_table(index="peer", columns="family", values="hit", aggfunc="mean")
    fam = fam[sorted(fam.columns, key=lambda f: (f not in FAMILIES, FAMILIES.index(f)
                                                 if f in FAMILIES else 0, f))]
    out = out.join(fam)
    if "design_half" in d.columns:  # the league's fit / test halves, where the suite has them
        half = d.pivot_table(index="peer", columns="design_half", values="hit", aggfunc="mean")
        out = out.join(half.add_prefix("half_"))
    out = out.loc[list(dict.fromkeys(d["peer"]))].reset_index()
    with pd.option_context("display.width", 200, "display.float_format", "{:.3f}".format):
        return out.to_string(index=False)


def beside_league(peers: pd.DataFrame, league: pd.DataFrame) -> pd.DataFrame:
    """The league table (``results/criteria_league/league.csv``: per half × model ×
    criterion) with the peers' rows on the same data sets, scored by the league's own
    :func:`experiments.criteria_league.league` (each peer a criterion of model ``""``);
    ``tool`` is ``mtc`` or ``peer``; the test half first, best first within each half."""
    from experiments.criteria_league import league as score

    rows = peers.assign(half=peers["design_half"], model="", criterion=peers["peer"],
                        score=(peers["k"] - peers["true_k"]).abs())
    out = pd.concat([league.assign(tool="mtc"), score(rows).assign(tool="peer")],
                    ignore_index=True)
    cols = ["half", "tool", "model", "criterion",
            *[c for c in league.columns if c not in ("half", "model", "criterion", "rank")]]
    out = out.assign(test_first=out["half"] != "test").sort_values(
        ["test_first", "recovered"], ascending=[True, False], kind="stable")
    return out[cols].reset_index(drop=True)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="the quick profile's suite")
    ap.add_argument("--peers", default=",".join(PEERS),
                    help=f"comma-separated subset of {','.join(PEERS)}")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="processes over data sets")
    ap.add_argument("--out", type=Path, default=None, help="output CSV")
    ap.add_argument("--config", type=Path, default=ROOT / "configs" / "criteria_league.yaml",
                    help="the league's config (default: configs/criteria_league.yaml)")
    ap.add_argument("--beside-league", action="store_true",
                    help="run no peer: write results/benchmarks/league_with_peers.csv from "
                         "peers.csv and the committed league.csv (any environment)")
    args = ap.parse_args(argv)
    if args.beside_league:
        bench = ROOT / "results" / "benchmarks"
        table = beside_league(pd.read_csv(args.out or bench / "peers.csv"),
                              pd.read_csv(ROOT / "results" / "criteria_league" / "league.csv"))
        table.to_csv(bench / "league_with_peers.csv", index=False)
        with pd.option_context("display.width", 200, "display.float_format", "{:.3f}".format):
            print(table[table["half"] == "test"].to_string(index=False))
        return

    from experiments.criteria_league import datasets
    from mtc_cli.run.config import load_config

    cfg = load_config(args.config, quick=args.quick)
    p = cfg.params
    peers = [s.strip() for s in args.peers.split(",") if s.strip()]
    unknown = [s for s in peers if s not in PEERS]
    if unknown:
        ap.error(f"unknown peer(s) {unknown}; choose from {list(PEERS)}")
    peers, skipped = available(peers)
    for peer, why in skipped.items():
        print(f"skipping {peer}: {why}", file=sys.stderr)
    if not peers:
        sys.exit("no peer is importable: nothing to run (see the docstring for the setup)")
    designs = datasets(p.suite)
    out = args.out or ROOT / "results" / "benchmarks" / (
        "peers_quick.csv" if args.quick else "peers.csv")
    opts = {"references": p.references}
    print(f"{len(designs)} data sets, k_max={p.k_max}, seed={p.select_seed}, peers={peers}, "
          f"jobs={args.jobs}", file=sys.stderr)

    t0 = time.perf_counter()
    tasks = (delayed(run_design)(d, peers, p.k_max, p.select_seed, opts)
             for d in designs)
    parts = Parallel(n_jobs=args.jobs, return_as="generator")(tasks)
    rows = [r for part in tqdm(parts, total=len(designs), desc="data sets", file=sys.stderr)
            for r in part]
    wall = time.perf_counter() - t0

    df = pd.DataFrame(rows)
    first = ["dataset", "peer", "k", "true_k", "seconds", "family", "n", "d", "failure"]
    df = df[first + [c for c in df.columns if c not in first]]
    out.parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(out, index=False)
    print(report(df))
    for peer, why in skipped.items():
        print(f"skipped {peer}: {why}")
    print(f"wall time {wall:.1f} s with -j {args.jobs}; wrote {out}")


if __name__ == "__main__":
    main()
