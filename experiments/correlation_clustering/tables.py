"""The tables ``correlation_clustering`` derives from its rows, anew on every run (outside
its code version)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from experiments.correlation_clustering.protocol import INSTABILITIES, Params
from mtc_cli.run.experiment import Experiment


def summarize(exp, rows: pd.DataFrame, p: Params) -> pd.DataFrame:
    """Per-split choices (median, quartiles) as usual, and beside them two choices
    from the mean curve over splits (the paper's figure shows mean curves):
    ``selected_k_mean_curve``, its argmin (ties to the smallest k), and
    ``selected_k_1se``, the smallest k whose mean is within one standard error over
    splits of that minimum (the one-standard-error rule of Breiman et al. 1984 and
    Tibshirani et al. 2001), which keeps statistically tied k from being told apart
    by noise."""
    out = Experiment.summarize(exp, rows, p)
    chosen = [{"p": noise, "criterion": criterion, **mean_curve_choice(sub)}
              for (noise, criterion), sub in mean_curve(rows).groupby(["p", "criterion"])]
    out = out.merge(pd.DataFrame(chosen), on=["p", "criterion"], how="left")
    out["true_k"] = len(p.sizes)
    return out


def tables(exp, rows, summary, p: Params) -> dict:
    """``mean_curve``: mean and spread over splits of each criterion per p and k;
    ``flatness``: per p, how much the mean transfer cost and the mean instability vary
    over k ≥ true k against their spread over splits, how many clusters the graph-1
    solutions use there and how many nodes lie outside their true-k largest clusters."""
    curve = mean_curve(rows)
    true_k = len(p.sizes)
    tail = curve[curve["k"] >= true_k]
    flat = []
    for noise, sub in tail.groupby("p"):
        fits = rows[(rows["criterion"] == "training_cost") & (rows["p"] == noise)
                    & (rows["k"] >= true_k)]
        row = {"p": noise, "true_k": true_k}
        for criterion, name in (("transfer_cost", ""), ("instability", "instability_")):
            c = sub[sub["criterion"] == criterion]
            row[f"{name}range_k_ge_true"] = float(c["mean"].max() - c["mean"].min())
            row[f"{name}sd_k_ge_true"] = float(c["sd"].mean())
        row.update(clusters_used_min=int(fits["clusters_used"].min()),
                   clusters_used_max=int(fits["clusters_used"].max()),
                   outside_largest_max=int(fits["outside_largest"].max()))
        flat.append(row)
    return {"mean_curve": curve, "flatness": pd.DataFrame(flat)}


def mean_curve(rows: pd.DataFrame) -> pd.DataFrame:
    """Mean, sd and quartiles over splits of each criterion's score per p and k. For the
    instabilities the mean is Lange et al.'s S(k)/S_rand(k): the mean disagreement over
    splits divided by the mean random-labelling disagreement."""
    g = rows.groupby(["p", "criterion", "k"], sort=True)
    out = g["score"].agg(mean="mean", sd="std", q25=lambda s: s.quantile(0.25),
                         q75=lambda s: s.quantile(0.75), n="count").reset_index()
    if "disagreement" in rows.columns:
        ratio = g["disagreement"].mean() / g["random_disagreement"].mean()
        inst = out["criterion"].isin(list(INSTABILITIES)).to_numpy()
        keys = pd.MultiIndex.from_frame(out.loc[inst, ["p", "criterion", "k"]])
        out.loc[inst, "mean"] = ratio.reindex(keys).to_numpy()
    return out


def mean_curve_choice(curve: pd.DataFrame) -> dict:
    """The argmin of one mean curve (ties to the smallest k) and the smallest k within
    one standard error (sd over splits / √n at the argmin) of its minimum."""
    c = curve.dropna(subset=["mean"]).sort_values("k")
    best = c.loc[c["mean"].idxmin()]
    se = best["sd"] / np.sqrt(best["n"]) if best["n"] > 1 and np.isfinite(best["sd"]) else 0.0
    within = c.loc[c["mean"] <= best["mean"] + se, "k"]
    return {"selected_k_mean_curve": int(best["k"]), "selected_k_1se": int(within.min())}
