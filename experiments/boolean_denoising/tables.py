"""The tables ``boolean_denoising`` derives from its rows, anew on every run (outside its
code version)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from experiments.boolean_denoising.protocol import Params, _opcv
from mtc_cli.core.criteria import molloy
from mtc_cli.core.quartiles import median_and_quartiles


def method_labels(p: Params) -> dict:
    """criterion → label, in the figure's order (the oracle is drawn apart)."""
    out = {"mtc": "MTC"}
    out.update({_opcv(h): f"OP-CV {h:.0%}" for h in p.holdouts})
    out.update({"coverage": f"{p.coverage:.0%} rule", "increment": "increment rule"})
    return out


def summarize(exp, rows: pd.DataFrame, p: Params) -> pd.DataFrame:
    """Per dataset × criterion: the median rank over noise draws (quartiles), the
    oracle's, the mean Hamming error to X* at the chosen rank and its ratio to the
    oracle's error (mean over draws), the share of draws within 10 % of the oracle's
    error, and the median distance in rank."""
    per = per_draw(rows, p)
    g = per.groupby(["dataset", "criterion"], sort=False)
    errors = g.agg(oracle_k=("oracle_k", "median"),
                   hamming=("hamming", "mean"), oracle_hamming=("oracle_hamming", "mean"),
                   ratio=("ratio", "mean"), ratio_max=("ratio", "max"),
                   within_10pct=("ratio", lambda s: float(np.mean(s <= 1.1))),
                   rank_distance=("rank_distance", "median"))
    return pd.concat([median_and_quartiles(g["selected_k"]), errors], axis=1).reset_index()


def tables(exp, rows, summary, p: Params) -> dict:
    """``choices``: every selection (MTC per split as well, ``split`` −1 for the
    others); ``ranks``: one row per dataset with the oracle and each method's rank and
    error ratio (the README table); ``overall``: per method, pooled over datasets."""
    overall = overall_table(summary, p)
    return {"choices": choices(rows, p), "ranks": rank_table(summary, rows, p),
            "overall": overall, "pooled": pooled_table(overall)}


def per_draw(rows: pd.DataFrame, p: Params) -> pd.DataFrame:
    """Each noise draw's rank per method (MTC: the lower median of its per-split argmins;
    OP-CV: argmin of the median curve; Molloy's rules; the oracle as criterion
    ``oracle``), the Hamming error to X* there, the oracle's rank and error, their ratio
    and the distance in rank."""
    picks = choices(rows, p)
    mtc = picks[picks["criterion"] == "mtc"]
    lower_median = (mtc.groupby(["dataset", "rep"])["selected_k"]
                    .agg(lambda s: int(np.quantile(s, 0.5, method="lower"))).reset_index()
                    .assign(criterion="mtc"))
    per = pd.concat([picks[picks["criterion"] != "mtc"], lower_median], ignore_index=True)
    per = per[["dataset", "rep", "criterion", "selected_k"]]
    err = rows[rows["criterion"] == "hamming"].set_index(["dataset", "rep", "k"])["score"]
    per["hamming"] = err.reindex(pd.MultiIndex.from_frame(
        per[["dataset", "rep", "selected_k"]])).to_numpy()
    oracle = per[per["criterion"] == "oracle"].set_index(["dataset", "rep"])
    key = pd.MultiIndex.from_frame(per[["dataset", "rep"]])
    per["oracle_k"] = oracle["selected_k"].reindex(key).to_numpy()
    per["oracle_hamming"] = oracle["hamming"].reindex(key).to_numpy()
    per["ratio"] = per["hamming"] / per["oracle_hamming"]
    per["rank_distance"] = (per["selected_k"] - per["oracle_k"]).abs()
    order = {c: i for i, c in enumerate(["oracle", *method_labels(p)])}
    per["_o"] = per["criterion"].map(order)
    names = {n: i for i, n in enumerate(dict.fromkeys(rows["dataset"]))}
    per["_d"] = per["dataset"].map(names)
    return per.sort_values(["_d", "_o", "rep"]).drop(columns=["_o", "_d"]).reset_index(
        drop=True)


def choices(rows: pd.DataFrame, p: Params) -> pd.DataFrame:
    """Every selection: per dataset × noise draw × criterion (× split for MTC) the rank the
    criterion's rule picks from its curve; ties go to the smallest rank."""
    out = []
    for (name, rep, crit), g in rows.groupby(["dataset", "rep", "criterion"], sort=False):
        if crit == "mtc":
            for s, gs in g.groupby("split"):
                gs = gs.sort_values("k")
                out.append((name, rep, crit, int(s), int(gs["k"].iloc[gs["score"].argmin()])))
            continue
        g = g.sort_values("k")
        score, ks = g["score"].to_numpy(), g["k"].to_numpy()
        if crit == "coverage":
            k = int(ks[molloy.coverage_rule(score, p.coverage) - 1])
        elif crit == "increment":
            k = int(ks[molloy.increment_rule(score, p.increment_tol) - 1])
        else:  # hamming (the oracle) and OP-CV: argmin
            k = int(ks[np.argmin(score)])
            crit = "oracle" if crit == "hamming" else crit
        out.append((name, rep, crit, -1, k))
    return pd.DataFrame(out, columns=["dataset", "rep", "criterion", "split", "selected_k"])


def rank_table(summary: pd.DataFrame, rows: pd.DataFrame, p: Params) -> pd.DataFrame:
    """One row per dataset: size, ones of X*, noise flips, the oracle's rank and error,
    and for each method its median rank, median rank distance and mean error ratio."""
    out = []
    for name, s in summary.groupby("dataset", sort=False):
        s = s.set_index("criterion")
        info = _info(rows, name)
        row = {"dataset": name, "users": int(info["n_users"]), "perms": int(info["n_perms"]),
               "ones": int(info["ones"]),
               "noise_flips": float(rows.loc[rows["dataset"] == name, "noise_hamming"].mean()),
               "oracle_k": s.loc["oracle", "selected_k"],
               "oracle_hamming": s.loc["oracle", "hamming"]}
        for crit in method_labels(p):
            row[f"{crit}_k"] = s.loc[crit, "selected_k"]
            row[f"{crit}_dist"] = s.loc[crit, "rank_distance"]
            row[f"{crit}_ratio"] = s.loc[crit, "ratio"]
        out.append(row)
    return pd.DataFrame(out)


def overall_table(summary: pd.DataFrame, p: Params) -> pd.DataFrame:
    """One row per method pooled over datasets: mean and worst dataset error ratio, share of
    noise draws within 10 % of the oracle's error, median rank distance, the spread (sd
    over datasets) of the ratio, and on how many datasets the median rank lies above /
    below the oracle's."""
    s = summary[summary["criterion"] != "oracle"]
    w = s["n_reps"]
    out = []
    for crit, g in s.groupby("criterion", sort=False):
        gw = w[g.index]
        out.append({"criterion": crit, "label": method_labels(p)[crit],
                    "mean_ratio": float(np.average(g["ratio"], weights=gw)),
                    "worst_dataset_ratio": float(g["ratio"].max()),
                    "sd_ratio_over_datasets": float(g["ratio"].std(ddof=0)),
                    "within_10pct": float(np.average(g["within_10pct"], weights=gw)),
                    "median_rank_distance": float(g["rank_distance"].median()),
                    "n_above_oracle": int((g["selected_k"] > g["oracle_k"]).sum()),
                    "n_below_oracle": int((g["selected_k"] < g["oracle_k"]).sum())})
    return pd.DataFrame(out)


def pooled_table(overall: pd.DataFrame) -> pd.DataFrame:
    """The ``overall`` table as one row: ``<criterion>_<column>``."""
    o = overall.drop(columns="label").set_index("criterion")
    return pd.DataFrame([{f"{c}_{col}": o.loc[c, col] for c in o.index for col in o.columns}])


def _info(rows: pd.DataFrame, name: str) -> pd.Series:
    """The size columns of a dataset (carried by its oracle rows)."""
    return rows[(rows["dataset"] == name) & (rows["criterion"] == "hamming")].iloc[0]
