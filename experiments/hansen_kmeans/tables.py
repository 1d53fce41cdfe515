"""The tables ``hansen_kmeans`` derives from its rows, anew on every run (outside its code
version)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from experiments.hansen_kmeans.protocol import CRITERIA, Params, draw
from mtc_cli.core.models import kmeans
from mtc_cli.run.experiment import Experiment
from mtc_cli.show.curves import mean_curves
from mtc_cli.show.tables import select_per_rep


def summarize(exp, rows: pd.DataFrame, p: Params) -> pd.DataFrame:
    out = Experiment.summarize(exp, rows, p)
    out["true_k"] = len(p.centres)
    return out


def tables(exp, rows, summary, p: Params) -> dict:
    """For the paper's first ``paper_reps`` replications and (suffix ``_all``) for all:
    ``curves`` and ``curve_choice`` (:func:`mtc_cli.show.curves.mean_curves`, with, per
    criterion, the distance of K = true k above the mean curve's minimum in standard
    errors, ``<c>_gap_se``), ``agreement`` (per K: gap analytic − test and whether the
    ±1 sd error bars overlap); and ``example``: one training set (seeded by
    ``example_seed``) with its K-means centres for K = k_max, as in Fig. 2."""
    out = {}
    for suffix, part in (("", rows[rows["rep"] < p.paper_reps]), ("_all", rows)):
        for name, df in _curves(part, len(p.centres)).items():
            out[name + suffix] = df
    rng = np.random.default_rng(p.example_seed)
    X = draw(rng, p.n_train, p.centres, p.sigma, p.weights)
    with threadpool_limits(limits=1):
        sol = kmeans.fit(X, p.k_max, n_init=p.n_init,
                         random_state=int(rng.integers(2**31 - 1)))
    out["example"] = pd.concat([
        pd.DataFrame({"kind": "point", "x": X[:, 0], "y": X[:, 1], "cluster": sol.labels}),
        pd.DataFrame({"kind": "centre", "x": sol.centroids[:, 0], "y": sol.centroids[:, 1],
                      "cluster": np.arange(sol.k)})], ignore_index=True)
    return out


def _curves(rows: pd.DataFrame, true_k: int) -> dict:
    """Mean curves, their minima, how far K = ``true_k`` lies above each minimum in
    standard errors (sd/√replications of the curve at the minimum), and the agreement."""
    out = mean_curves(rows, CRITERIA)
    c = out["curves"]
    for crit in CRITERIA:
        sub = c[c["criterion"] == crit].set_index("k")
        best = sub["mean"].idxmin()
        se = sub.loc[best, "std"] / np.sqrt(sub.loc[best, "n"])
        gap = sub.loc[true_k, "mean"] - sub.loc[best, "mean"]
        out["curve_choice"][f"{crit}_gap_se"] = float(gap / se) if se > 0 else 0.0
    out["curve_choice"]["replications"] = int(rows["rep"].nunique())
    chosen = select_per_rep(rows, [], CRITERIA)
    for crit in CRITERIA:
        out["curve_choice"][f"{crit}_median_k"] = float(
            chosen.loc[chosen["criterion"] == crit, "selected_k"].median())
    mean = c.pivot(index="k", columns="criterion", values="mean")
    sd = c.pivot(index="k", columns="criterion", values="std")
    gap = (mean["analytic"] - mean["test"]).values
    out["agreement"] = pd.DataFrame({
        "k": mean.index, "gap": gap,
        "overlap": np.abs(gap) <= (sd["analytic"] + sd["test"]).values})
    return out
