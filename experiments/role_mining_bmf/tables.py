"""The tables ``role_mining_bmf`` derives from its rows, anew on every run (outside its code
version)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from experiments.role_mining_bmf.protocol import SKEWED, SYNTHETIC, Params
from mtc_cli.run.experiment import Experiment


def true_k(p: Params, name: str) -> float:
    """The true number of (shared) roles of a synthetic dataset, NaN for real data."""
    if name == SYNTHETIC and p.synthetic is not None:
        return p.synthetic.n_roles
    if name == SKEWED and p.skewed is not None:
        return p.skewed.n_roles
    return np.nan


def summarize(exp, rows: pd.DataFrame, p: Params) -> pd.DataFrame:
    """Per-fold argmin (median, quartiles), plus ``selected_k_mean_curve`` (argmin of
    the mean over folds, as the paper's figure shows), ``true_k`` and ``oracle_k``
    (synthetic; see :func:`shape_table`)."""
    out = Experiment.summarize(exp, rows, p)
    shape = shape_table(rows, p).set_index("dataset")
    out["selected_k_mean_curve"] = out["dataset"].map(shape["k_min_mean"])
    out["true_k"] = out["dataset"].map(shape["true_k"])
    out["oracle_k"] = out["dataset"].map(shape["oracle_k"])
    return out


def tables(exp, rows, summary, p: Params) -> dict:
    """``curve``: mean, sd and quartiles over folds per dataset × criterion × k (with the
    mean clean error); ``shape``: per dataset the U-shape and spread statistics the
    targets read."""
    return {"curve": curve_table(rows), "shape": shape_table(rows, p)}


def timing(exp, rows: pd.DataFrame) -> pd.DataFrame:
    """MAC fit time per dataset: total over folds and k, and the mean per fit."""
    fits = rows[rows["criterion"] == "transfer_cost"].groupby("dataset", sort=False)
    return fits["fit_seconds"].agg(fits="size", seconds="sum",
                                   mean_seconds="mean").reset_index()


def curve_table(rows: pd.DataFrame) -> pd.DataFrame:
    """Mean, sd (over folds), quartiles per dataset × criterion × k; the mean error of the
    reconstruction to the clean structure per training user (synthetic), the mean number of
    roles used and ``copy_cost``, the mean transfer cost of memorizing the training users
    (reconstruction = X¹; the same for every k)."""
    g = rows.groupby(["dataset", "criterion", "k"], sort=False)
    return g.agg(mean=("score", "mean"), sd=("score", "std"),
                 q25=("score", lambda s: s.quantile(0.25)),
                 q75=("score", lambda s: s.quantile(0.75)), n=("score", "size"),
                 clean_error=("clean_error", "mean"),
                 roles_used=("roles_used", "mean"),
                 copy_cost=("copy_cost", "mean")).reset_index()


def shape_table(rows: pd.DataFrame, p: Params) -> pd.DataFrame:
    """Per dataset: the argmin of the mean transfer-cost curve (``k_min_mean``, ties to the
    smallest k), the true number of (shared) roles and ``oracle_k``, the argmin of the mean
    error to the clean structure (synthetic); the largest k offered; the mean cost at the
    smallest k, at the minimum and at k_max; ``copy_cost``, the limit of overfitting
    (memorized training users; above ``cost_min``, overfitting can cost more); the largest
    rise of the mean curve after the minimum, also in units of the fold sd at the minimum
    (``rise_in_sd``); the mean fold sd below and above the minimum (underfitting and
    overfitting regimes), and below and above the true number of roles (``sd_below_true``,
    ``sd_above_true``; NaN on the real matrices); ``u_shape``: the minimum is interior, the
    curve falls to it and rises after it by more than one fold sd."""
    curve = curve_table(rows)
    out = []
    for name, c in curve[curve["criterion"] == "transfer_cost"].groupby("dataset", sort=False):
        c = c.sort_values("k").reset_index(drop=True)
        best = c.loc[c["mean"].idxmin()]
        truth = true_k(p, name)
        after = c.loc[c["k"] > best["k"], "mean"]
        rise = after.max() - best["mean"] if len(after) else 0.0
        rise_in_sd = (rise / best["sd"] if best["sd"] > 0 else np.nan) if len(after) else 0.0
        out.append({
            "dataset": name, "true_k": truth,
            "oracle_k": (c.loc[c["clean_error"].idxmin(), "k"]
                         if c["clean_error"].notna().any() else np.nan),
            "k_min_mean": int(best["k"]), "k_max": int(c["k"].iloc[-1]),
            "cost_k1": c["mean"].iloc[0], "cost_min": best["mean"],
            "cost_kmax": c["mean"].iloc[-1], "copy_cost": c["copy_cost"].iloc[0],
            "rise_after_min": rise, "rise_in_sd": rise_in_sd,
            "sd_below": c.loc[c["k"] < best["k"], "sd"].mean(),
            "sd_above": c.loc[c["k"] > best["k"], "sd"].mean(),
            "sd_below_true": c.loc[c["k"] < truth, "sd"].mean(),
            "sd_above_true": c.loc[c["k"] > truth, "sd"].mean(),
            "u_shape": bool(len(after) and c["mean"].iloc[0] > best["mean"]
                            and rise_in_sd > 1)})
    return pd.DataFrame(out)
