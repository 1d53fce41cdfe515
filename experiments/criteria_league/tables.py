"""The tables ``criteria_league`` derives from its rows, anew on every run (outside its code
version)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from experiments.criteria_league.protocol import FAMILIES, Params
from mtc_cli.selection import voting


def summarize(exp, rows: pd.DataFrame, p: Params) -> pd.DataFrame:
    """Per data set × model × criterion (and the votes of :func:`with_votes`): the chosen
    k and the true k."""
    out = with_votes(rows)[["dataset", "model", "criterion", "k", "true_k", "family",
                            "condition", "half"]].rename(columns={"k": "selected_k"})
    return out.assign(selected_k_q25=out["selected_k"], selected_k_q75=out["selected_k"],
                      n_reps=1)


def tables(exp, rows, summary, p: Params) -> dict:
    """``vote_rule``: per model the vote's rule fitted on the fit half
    (:func:`mtc_cli.selection.voting.fit_rule`; shipped with mtc as
    ``mtc_cli/selection/vote_rule.csv``); ``league``: per half × model × criterion
    (and vote) the share of data sets recovered, the mean and median |k̂ − k|, and the
    share per family; ``league_conditions``: the share per Milligan–Cooper error
    condition and size pattern (test half)."""
    voted = with_votes(rows)
    test = voted[voted["half"] == "test"]
    return {"vote_rule": voting.rule_table(fit_rules(rows)),
            "league": league(voted), "league_conditions": by_condition(test)}


def report(exp, summary, p: Params, run_dir) -> str:
    table = pd.read_csv(Path(run_dir) / "league.csv")
    cols = ["model", "criterion", "recovered", "recovered_k_ge_2", "mean_abs_error",
            "n_datasets", *[f for f in FAMILIES if f in table.columns]]
    out = []
    for half in ("test", "fit"):
        t = table[table["half"] == half]
        with pd.option_context("display.width", 200,
                               "display.float_format", "{:.2f}".format):
            out.append(f"League table, {half} half (share of data sets where k is "
                       f"recovered):\n" + t[cols].to_string(index=False))
    return "\n\n".join(out)


def fit_rules(rows: pd.DataFrame) -> dict:
    """model → (the vote's rule, the criteria's records), fitted on the fit half."""
    fit = rows[rows["half"] == "fit"]
    return {m: voting.fit_rule(g[["dataset", "criterion", "k", "true_k", "k_hi", "family"]])
            for m, g in fit.groupby("model", sort=True)}


def with_votes(rows: pd.DataFrame) -> pd.DataFrame:
    """The criteria's rows and two votes per data set × model: ``vote`` (the rule fitted on
    the fit half, :func:`fit_rules`) and ``plurality`` (every criterion, one vote each)."""
    rules = {m: r for m, (r, _) in fit_rules(rows).items()}
    extra = []
    for (_, model), g in rows.groupby(["dataset", "model"], sort=False):
        picks = dict(zip(g["criterion"], g["k"], strict=True))
        first = g.iloc[0]
        for name, rule in (("vote", rules.get(model)), ("plurality", voting.PLURALITY)):
            if rule is None:
                continue
            k, _ = voting.decide(picks, rule, int(first["k_hi"]))
            extra.append({**first.to_dict(), "criterion": name, "k": k,
                          "score": abs(k - first["true_k"]) if np.isfinite(k) else np.nan})
    return pd.concat([rows, pd.DataFrame(extra, columns=rows.columns)], ignore_index=True)


def league(rows: pd.DataFrame) -> pd.DataFrame:
    """Per half × model × criterion: data sets, share with k̂ = k (``recovered``; also over
    the data sets with k ≥ 2 only, where criteria undefined at k = 1 can compete), mean and
    median |k̂ − k| (a criterion without a choice counts as not recovered and is left out
    of the errors), then the recovered share per family; the test half first, best first
    within each model."""
    keys = ["half", "model", "criterion"]
    r = rows.assign(hit=rows["score"] == 0, hit_k2=(rows["score"] == 0).where(
        rows["true_k"] >= 2))
    out = r.groupby(keys, sort=False).agg(
        n_datasets=("hit", "size"), recovered=("hit", "mean"),
        recovered_k_ge_2=("hit_k2", "mean"), mean_abs_error=("score", "mean"),
        median_abs_error=("score", "median"),
        no_choice=("score", lambda s: int(s.isna().sum()))).reset_index()
    fam = r.pivot_table(index=keys, columns="family", values="hit", aggfunc="mean")
    fam = fam[[f for f in FAMILIES if f in fam.columns]].reset_index()
    out = out.merge(fam, on=keys, how="left")
    out = out.assign(test_first=out["half"] != "test").sort_values(
        ["test_first", "model", "recovered", "mean_abs_error"],
        ascending=[True, True, False, True], kind="stable").drop(columns="test_first")
    out.insert(3, "rank", out.groupby(["half", "model"]).cumcount() + 1)
    return out.reset_index(drop=True)


def by_condition(rows: pd.DataFrame) -> pd.DataFrame:
    """The recovered share per model × criterion × Milligan–Cooper condition."""
    sub = rows[rows["family"] == "milligan_cooper"].assign(
        hit=lambda d: d["score"] == 0)
    if sub.empty:
        return pd.DataFrame(columns=["model", "criterion"])
    return (sub.pivot_table(index=["model", "criterion"], columns="condition", values="hit",
                            aggfunc="mean").reset_index())
