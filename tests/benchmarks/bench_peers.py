"""Benchmark: the peers of ``mtc select`` — tools users reach for to choose the number of
clusters k — on the data sets of the league of families (``experiments/league/protocol.py``,
``configs/league.yaml``), so that their hit rates (share of data sets where the chosen k
equals the true k) can sit beside the league's own candidates.

The data sets are the league's own: :func:`experiments.league.datasets` over the config's
parameters and :func:`experiments.league.data` for each matrix (never re-implemented here);
k_max = the config's ``k_max`` (10; 6 with ``--quick``). Every random choice is fixed by
``SEED`` = the config's ``select_seed`` (0).

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
- ``hdbscan_5``, ``hdbscan_10``, ``hdbscan_20``: HDBSCAN's own count — scikit-learn's
  :class:`sklearn.cluster.HDBSCAN` with ``min_cluster_size`` 5, 10 or 20 and its defaults
  otherwise (``cluster_selection_method="eom"``, excess of mass; ``min_samples`` =
  ``min_cluster_size``; euclidean), as the league's probe runs it; k = the number of
  clusters found (distinct labels other than −1), and **k = 1 when every object is noise**
  (no cluster found is read as "no structure", the only way HDBSCAN says k = 1). Its range
  is unbounded: it may answer k > k_max.
- ``genie_dunnowa``, ``genie_wcnn``, ``genie_gdunn``: Genie (genieclust's
  :class:`genieclust.Genie` with its defaults — ``gini_threshold=0.3``, ``M=0``, i.e. no
  mutual-reachability smoothing and no noise points, ``metric="l2"``) fitted with
  ``n_clusters=k`` for each k = 2..12 (fixed, also with ``--quick``; it cannot choose k = 1),
  each partition scored by one of genieclust's cluster-validity indices
  (:mod:`genieclust.cluster_validity`, on the data as given, C-contiguous float64):

  * ``genie_dunnowa``: ``dunnowa_index(X, y, M=25, owa_numerator="SMin:5",
    owa_denominator="Const")`` — the Dunn index on the M-near-neighbour graph with OWA
    operators ("Are cluster validity measures (in)valid?", Inf. Sci. 581, 2021), here its
    package default, DuNN_25_SMin:5_Const;
  * ``genie_wcnn``: ``wcnn_index(X, y, M=25)`` — their within-cluster near-neighbours
    index WCNN_25;
  * ``genie_gdunn``: ``generalised_dunn_index(X, y, lowercase_d=1, uppercase_d=2)`` —
    Bezdek & Pal's generalised Dunn index with d1 (separation: the minimal distance between
    two clusters' points) over D2 (compactness: the mean pairwise distance within a
    cluster), GDunn_d1_D2, genieclust's Python default.

  Why these: the issue names Genie with DuNN, WCNN and the generalised Dunn index, and each
  is taken as genieclust ships it (its defaults above), tuned on nothing. What they give is
  measured here on generated data, not read from elsewhere: on the league's nine synthetic
  families (``peers_league.csv``) the generalised Dunn index recovers 60 % averaged over the
  families, DuNN and WCNN 42 % each — they recover alike on every synthetic family (88 % of
  the shapes, 0 % of the one-cluster sets, where Genie cannot answer k = 1).

  Rule: k = the argmax of the index over k = 2..12; on ties, the **largest** tied k. Ties
  matter: DuNN is +inf and WCNN is 1 for every partition no near-neighbour edge crosses
  (on well-separated groups: every k up to the true one), so the smallest tied k would
  answer 2 whenever groups are clean; the largest tied k is the finest such partition.
  DuNN and WCNN are −inf for a partition with a cluster of at most M = 25 objects (never
  chosen); no finite or +inf value at any k = no choice.

  genieclust (Marek Gagolewski) is licensed under the GNU Affero General Public License v3
  (AGPL-3.0; version 1.3.0 here): it is only a benchmark-time tool in this separate virtual
  environment, never imported by mtc, never a dependency of mtc, and none of its code is in
  mtc.

None of them is a dependency of mtc, and ``pip install kneed yellowbrick clusteval
validclust genieclust`` can move numpy / scikit-learn / pandas; so they live in a separate
virtual environment holding mtc (editable) at exactly the versions of mtc's own environment
(``/work/main/.venv``), and this script runs under it::

    python3 -m venv /work/peers-venv
    /work/main/.venv/bin/python -m pip freeze | grep -v -e '^-e' -e '^mtc' -e '@ file' \\
        > /tmp/peers-constraints.txt          # pin mtc's numpy, scikit-learn, pandas, ...
    . /work/peers-venv/bin/activate
    pip install -c /tmp/peers-constraints.txt -e /work/main
    pip install -c /tmp/peers-constraints.txt kneed yellowbrick clusteval validclust \\
        genieclust wheel                      # genieclust ships wheels
    pip install --no-build-isolation --no-deps gap-stat   # its sdist pins a 2018 wheel
    python tests/benchmarks/bench_peers.py --quick -j 1  # from /work/main
    python tests/benchmarks/bench_peers.py -j 1

(HDBSCAN is scikit-learn's own, so the ``hdbscan_*`` peers need nothing more.) A peer that
is not importable is skipped with the reason; a peer that fails on one data set gives no
choice there (k = NaN, the message in ``failure``). Output (``--out``, by default
``results/benchmarks/peers_league.csv``; ``peers_league_quick.csv`` with ``--quick``): one
row per data set × peer — ``dataset`` (the design's ``id``), ``peer``, ``k`` (NaN if none),
``true_k``, ``seconds``, ``family``, ``n``, ``d``, ``failure``, then every other key of the
design with a ``design_`` prefix (``design_seed``, ``design_sizes``, ``design_name``, ...;
lists as text). Prints per peer the share recovered per family, its mean over families
(each family weighted equally, as the league scores), the hit rate over all data sets, the
number of data sets without a choice and the summed seconds.

``--beside-league RESULTS_DIR`` (runs no peer; needs only mtc's environment): reads the
peers' CSV (``--out``, by default ``results/benchmarks/peers_league.csv``) and the league's
per-data-set answers ``RESULTS_DIR/answers.csv`` (its data sets, families and true k) and
writes ``results/benchmarks/league_with_peers.csv``: one row per peer — ``peer``,
``recovered`` (the mean over families of the share of the family's data sets where k = true
k; no answer is a miss, as in the league), ``mean_abs_error`` (the mean over families of
the mean |k − true k| over the data sets with an answer), one column per family (its share
recovered, named as the family), ``n_datasets`` and ``seconds`` (summed); best first
(``recovered`` down, then ``mean_abs_error`` up). Only the league's data sets count (a
league data set the peers' CSV lacks is a miss); a true k that differs from the league's
is an error (another config). The league's own candidates are in its ``summary.csv``.
With ``--quick`` both files get a ``_quick`` suffix (``peers_league_quick.csv``,
``league_with_peers_quick.csv``), e.g. ``--quick --beside-league results/quick/league``.

Cost (the 250 data sets of ``configs/league.yaml``, k_max = 10, ``-j 1`` on a 2-core machine
beside the league's summarising): 9.3 min wall (559 s); summed seconds kneed 21, yellowbrick
27, clusteval 31, validclust 50, gap_stat 335 (its dispersion is a Python loop over points,
×11 fits per k), hdbscan_5 / _10 / _20 3 each, genie_dunnowa 29, genie_wcnn 26, genie_gdunn 27
(11 Genie fits each, the three peers do not share them) — no peer needs restricting. Peak memory
0.8 GB. DuNN and WCNN mostly answer k = 2 here: on overlapping groups their separation only
falls as k grows, and a partition with a cluster of ≤ 25 objects scores −inf (12 data sets
with no choice each).

Options: ``--quick`` (the quick profile's data sets and k_max), ``--peers a,b``, ``-j N``
(joblib processes over data sets, default 1; one BLAS / OpenMP thread each), ``--out
PATH``, ``--config PATH`` (another config of the league; default ``configs/league.yaml``),
``--beside-league RESULTS_DIR``.
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
os.environ.setdefault("OMP_NUM_THREADS", "1")  # genieclust's MST: one thread per process

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

HDBSCAN_SIZES = (5, 10, 20)
GENIE_KS = tuple(range(2, 13))
#: genie peer → (genieclust.cluster_validity function, its keyword arguments)
GENIE_INDICES = {
    "genie_dunnowa": ("dunnowa_index", {"M": 25, "owa_numerator": "SMin:5",
                                        "owa_denominator": "Const"}),
    "genie_wcnn": ("wcnn_index", {"M": 25}),
    "genie_gdunn": ("generalised_dunn_index", {"lowercase_d": 1, "uppercase_d": 2}),
}
PEERS = ("kneed", "yellowbrick", "clusteval", "validclust", "gap_stat",
         *(f"hdbscan_{m}" for m in HDBSCAN_SIZES), *GENIE_INDICES)
MODULES = {"kneed": "kneed", "yellowbrick": "yellowbrick", "clusteval": "clusteval",
           "validclust": "validclust", "gap_stat": "gap_statistic",
           **{f"hdbscan_{m}": "sklearn.cluster" for m in HDBSCAN_SIZES},
           **{p: "genieclust" for p in GENIE_INDICES}}
INSTALL = {"kneed": "pip install kneed", "yellowbrick": "pip install yellowbrick",
           "clusteval": "pip install clusteval", "validclust": "pip install validclust",
           "gap_stat": "pip install wheel && pip install --no-build-isolation --no-deps "
                       "gap-stat",
           **{f"hdbscan_{m}": "scikit-learn ≥ 1.3" for m in HDBSCAN_SIZES},
           **{p: "pip install genieclust" for p in GENIE_INDICES}}
N_INIT = 10
DEFAULT_OUT = ROOT / "results" / "benchmarks" / "peers_league.csv"
BESIDE_OUT = ROOT / "results" / "benchmarks" / "league_with_peers.csv"


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


def peer_hdbscan(min_cluster_size: int):
    def run(X, k_max, seed, opts):
        from sklearn.cluster import HDBSCAN

        labels = HDBSCAN(min_cluster_size=min_cluster_size, copy=True).fit_predict(X)
        return max(len(set(labels.tolist()) - {-1}), 1)  # every object noise: k = 1

    return run


def argmax_largest(scores: dict[int, float]):
    """The k of the largest score, the largest such k on ties; −inf and NaN never count
    (None when no k has a finite or +inf score)."""
    ok = {k: v for k, v in scores.items() if not np.isnan(v) and v != -np.inf}
    if not ok:
        return None
    best = max(ok.values())
    return max(k for k, v in ok.items() if v == best)


def peer_genie(index: str, kwargs: dict):
    def run(X, k_max, seed, opts):
        import genieclust
        from genieclust import cluster_validity

        Xc = np.ascontiguousarray(X, dtype=np.float64)
        score = getattr(cluster_validity, index)
        scores = {}
        for k in GENIE_KS:
            y = genieclust.Genie(n_clusters=k).fit_predict(Xc)
            scores[k] = float(score(Xc, y, **kwargs))
        return argmax_largest(scores)

    return run


RUNNERS = {"kneed": peer_kneed, "yellowbrick": peer_yellowbrick,
           "clusteval": peer_clusteval, "validclust": peer_validclust,
           "gap_stat": peer_gap_stat,
           **{f"hdbscan_{m}": peer_hdbscan(m) for m in HDBSCAN_SIZES},
           **{p: peer_genie(index, kw) for p, (index, kw) in GENIE_INDICES.items()}}


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

    from threadpoolctl import threadpool_limits

    from experiments.league import data

    logging.disable(logging.WARNING)  # clusteval's logger
    X, _, true_k = data(design)
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


def _families(present) -> list[str]:
    """The families present, in the league's order (others after, by name)."""
    from experiments.league.protocol import FAMILIES

    present = set(present)
    return [f for f in FAMILIES if f in present] + sorted(present - set(FAMILIES))


def report(df: pd.DataFrame) -> str:
    """Per peer: the share recovered per family, its mean over families, the hit rate over
    all data sets, the data sets without a choice, failures and the summed seconds."""
    d = df.assign(hit=df["k"] == df["true_k"])
    fam = d.pivot_table(index="peer", columns="family", values="hit", aggfunc="mean")
    fam = fam[_families(fam.columns)]
    g = d.groupby("peer", sort=False)
    out = pd.DataFrame({"recovered": fam.mean(axis=1), "hit_rate": g["hit"].mean(),
                        "n_datasets": g["hit"].size(),
                        "no_choice": g["k"].apply(lambda s: int(s.isna().sum())),
                        "failures": g["failure"].apply(
                            lambda s: int((s.fillna("") != "").sum())),
                        "seconds": g["seconds"].sum()}).join(fam)
    out = out.loc[list(dict.fromkeys(d["peer"]))].rename_axis("peer").reset_index()
    with pd.option_context("display.width", 250, "display.float_format", "{:.2f}".format):
        return out.to_string(index=False)


def beside_league(peers: pd.DataFrame, answers: pd.DataFrame) -> pd.DataFrame:
    """Per peer, on the league's data sets (``answers``: the league's ``answers.csv``, one
    row per candidate and data set):
    the share recovered per family and its mean over families (``recovered``), the mean
    over families of the mean |k − true k| over the data sets with an answer, the number
    of data sets and the summed seconds; best first."""
    sets = answers.drop_duplicates("dataset")[["dataset", "family", "true_k"]]
    if sets.empty:
        raise SystemExit("the league's answers.csv has no data set")
    truth = peers.drop_duplicates("dataset").set_index("dataset")["true_k"]
    common = sets[sets["dataset"].isin(truth.index)]
    wrong = common[truth.loc[common["dataset"]].to_numpy() != common["true_k"].to_numpy()]
    if len(wrong):
        raise SystemExit(f"the peers' true k differs from the league's on {len(wrong)} data "
                         f"set(s), e.g. {wrong['dataset'].iloc[0]}: another config?")
    missing = sorted(set(sets["dataset"]) - set(truth.index))
    if missing:
        print(f"warning: {len(missing)} league data set(s) not in the peers' CSV (scored "
              f"as misses), e.g. {missing[0]}", file=sys.stderr)
    families = _families(sets["family"])
    rows = []
    for peer, part in peers.groupby("peer", sort=False):
        a = sets.merge(part[["dataset", "k", "seconds"]], on="dataset", how="left")
        a = a.assign(hit=a["k"] == a["true_k"], err=(a["k"] - a["true_k"]).abs())
        per = a.groupby("family")
        rows.append({"peer": peer, "recovered": per["hit"].mean().mean(),
                     "mean_abs_error": per["err"].mean().mean(),
                     **per["hit"].mean().reindex(families).to_dict(),
                     "n_datasets": int(a["seconds"].notna().sum()),
                     "seconds": a["seconds"].sum()})
    out = pd.DataFrame(rows)
    return out.sort_values(["recovered", "mean_abs_error"], ascending=[False, True],
                           kind="stable").reset_index(drop=True)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="the quick profile's data sets")
    ap.add_argument("--peers", default=",".join(PEERS),
                    help=f"comma-separated subset of {','.join(PEERS)}")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="processes over data sets")
    ap.add_argument("--out", type=Path, default=None,
                    help="the peers' CSV (default results/benchmarks/peers_league.csv; "
                         "peers_league_quick.csv with --quick)")
    ap.add_argument("--config", type=Path, default=ROOT / "configs" / "league.yaml",
                    help="the league's config (default: configs/league.yaml)")
    ap.add_argument("--beside-league", type=Path, default=None, metavar="RESULTS_DIR",
                    help="run no peer: write results/benchmarks/league_with_peers.csv from "
                         "the peers' CSV and RESULTS_DIR/answers.csv (mtc's environment)")
    args = ap.parse_args(argv)
    def quick(path: Path) -> Path:
        return path.with_name(f"{path.stem}_quick.csv") if args.quick else path

    out = args.out or quick(DEFAULT_OUT)
    if args.beside_league is not None:
        table = beside_league(pd.read_csv(out),
                              pd.read_csv(args.beside_league / "answers.csv"))
        beside = quick(BESIDE_OUT)
        beside.parent.mkdir(parents=True, exist_ok=True)
        table.to_csv(beside, index=False)
        with pd.option_context("display.width", 250, "display.float_format", "{:.2f}".format):
            print(table.to_string(index=False))
        print(f"wrote {beside}")
        return

    from joblib import Parallel, delayed
    from tqdm import tqdm

    from experiments.league import datasets
    from mtc_cli.run.config import load_config

    p = load_config(args.config, quick=args.quick).params
    peers = [s.strip() for s in args.peers.split(",") if s.strip()]
    unknown = [s for s in peers if s not in PEERS]
    if unknown:
        ap.error(f"unknown peer(s) {unknown}; choose from {list(PEERS)}")
    peers, skipped = available(peers)
    for peer, why in skipped.items():
        print(f"skipping {peer}: {why}", file=sys.stderr)
    if not peers:
        sys.exit("no peer is importable: nothing to run (see the docstring for the setup)")
    designs = datasets(p)
    opts = {"references": p.references}
    print(f"{len(designs)} data sets, k_max={p.k_max}, seed={p.select_seed}, peers={peers}, "
          f"jobs={args.jobs}", file=sys.stderr)

    t0 = time.perf_counter()
    tasks = (delayed(run_design)(d, peers, p.k_max, p.select_seed, opts) for d in designs)
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
