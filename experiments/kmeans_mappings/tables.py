"""The tables ``kmeans_mappings`` derives from its rows, anew on every run (outside its code
version)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from experiments.kmeans_mappings.protocol import Params, evaluate, soft_name
from mtc_cli.core.datasets.gaussians import mixture_pairs
from mtc_cli.show.tables import select_per_rep, summarize_selection


def summarize(exp, rows: pd.DataFrame, p: Params) -> pd.DataFrame:
    select = exp.select_rules(p)
    out = summarize_selection(rows, ["setting"], select)
    true_k = {s.name: len(s.centres) for s in p.settings}
    out["true_k"] = out["setting"].map(true_k)
    out["k_max"] = p.k_max
    chosen = select_per_rep(rows, ["setting"], select)
    chosen["is_true"] = chosen["selected_k"] == chosen["setting"].map(true_k)
    frac = chosen.groupby(["setting", "criterion"])["is_true"].mean().rename("frac_true_k")
    return out.merge(frac.reset_index(), on=["setting", "criterion"], how="left")


def tables(exp, rows, summary, p: Params) -> dict:
    """``curves``: median and quartiles of each score vs k; ``monotone``: per setting
    and score whether the median curve never rises with k; ``sensitivity``: soft-MTC's
    choice vs the β factor; ``scatter``: an example data set per setting (seeded by
    ``example_seed``) with the clustering chosen by soft-mapping MTC."""
    q = rows.groupby(["setting", "criterion", "k"])["score"]
    curves = pd.DataFrame({"median": q.median(), "q25": q.quantile(0.25),
                           "q75": q.quantile(0.75)}).reset_index()
    mono = (curves.sort_values("k").groupby(["setting", "criterion"])["median"]
            .apply(lambda s: bool(np.all(np.diff(s.to_numpy()) <= 0)))
            .rename("non_increasing").reset_index())
    factors = {p.beta_factor: "soft", **{f: soft_name(f) for f in p.sensitivity_factors
                                         if f != p.beta_factor}}
    sens = summary[summary["criterion"].isin(factors.values())].copy()
    sens["beta_factor"] = sens["criterion"].map({v: k for k, v in factors.items()})
    sens = sens.sort_values(["setting", "beta_factor"])[
        ["setting", "beta_factor", "selected_k", "selected_k_q25", "selected_k_q75",
         "true_k"]]
    return {"curves": curves, "monotone": mono, "sensitivity": sens,
            "scatter": exp._scatter(p)}


def _scatter(exp, p: Params) -> pd.DataFrame:
    parts = []
    with threadpool_limits(limits=1):
        for i, s in enumerate(p.settings):
            rng = np.random.default_rng([p.example_seed, i])
            X1, X2, _ = mixture_pairs(rng, p.n, s.centres, s.sigmas, s.weights)
            scores, sols = evaluate(X1, X2, p.k_max, p.n_init, p.beta_factor, [], rng)
            sol = sols[int(np.argmin(scores["soft"]))]
            pts = pd.DataFrame({"kind": "point", "x": X1[:, 0], "y": X1[:, 1],
                                "cluster": sol.labels})
            cen = pd.DataFrame({"kind": "centroid", "x": sol.centroids[:, 0],
                                "y": sol.centroids[:, 1], "cluster": np.arange(sol.k)})
            both = pd.concat([pts, cen], ignore_index=True)
            both.insert(0, "setting", s.name)
            both["k"] = sol.k
            parts.append(both)
    return pd.concat(parts, ignore_index=True)
