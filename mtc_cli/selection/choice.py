"""From the tasks' rows to each criterion's curve over k, its chosen k, the spread of the
choice over random splits (the vote over the choices: :mod:`mtc_cli.selection.voting`).

Each criterion chooses from its curve aggregated over the splits (or permutations, or
reference sets) with its own rule: the mean transfer cost (MTC estimates an expected
cost), the mean capacity, Lange et al.'s S(k)/S_rand(k), the mean prediction strength,
Gap(k) with s_k (three rules), Clest's d_k and p_k, the median bi-cross-validation error,
each classical index's own rule. Where a
criterion has one score per split, the same rule applied to each split alone gives the
*spread*: the quartiles of the per-split choices.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mtc_cli.core.quartiles import quartiles
from mtc_cli.selection.catalog import CRITERIA, GAP_RULES

#: the column that numbers a criterion's replicates (its spread is taken over them)
REPLICATE = {"pac_mdl": "split", "bicross": "permutation"}
SPLIT_FAMILY = ("mtc", "capacity", "stability", "prediction_strength", "mtc_svd")


def _replicate(criterion: str) -> str | None:
    if criterion in REPLICATE:
        return REPLICATE[criterion]
    return "rep" if criterion in SPLIT_FAMILY else None


def _arg(ks: np.ndarray, values: np.ndarray, rule: str) -> float:
    """The k of least (``min``) or greatest (``max``) finite value; ties: smallest k."""
    ok = np.isfinite(values)
    if not ok.any():
        return np.nan
    v = np.where(ok, values if rule == "min" else -values, np.inf)
    return float(ks[int(np.argmin(v))])


def _curve(sub: pd.DataFrame, rep: str | None, agg: str = "mean") -> pd.DataFrame:
    """Per k: the aggregate of the score over replicates and its quartiles."""
    g = sub.groupby("k")["score"]
    out = pd.DataFrame({"value": g.agg(agg)})
    if rep is not None and sub[rep].nunique() > 1:
        out["lo"], out["hi"] = g.quantile(0.25), g.quantile(0.75)
    else:
        out["lo"] = out["hi"] = np.nan
    return out


def _per_replicate(sub: pd.DataFrame, rep: str | None, choose) -> list[float]:
    if rep is None:
        return []
    out = []
    for _, g in sub.groupby(rep, sort=True):
        g = g.sort_values("k")
        out.append(choose(g["k"].to_numpy(), g["score"].to_numpy(), g))
    return out


def evaluate(rows: pd.DataFrame, criterion: str, *, ps_threshold: float = 0.8,
             coverage: float = 0.8, increment_tol: float = 0.001):
    """(curve, chosen k, per-replicate choices, note) of one criterion from its rows.
    ``curve``: a frame indexed by k with ``value`` (what the rule reads) and a band
    ``lo``/``hi`` (quartiles over splits, or ± s_k for the gap statistic)."""
    from mtc_cli.core.criteria import (
        clest,
        gap_rules,
        gap_statistic,
        molloy,
        prediction_strength,
        stability,
    )
    from mtc_cli.core.criteria.partition_indices import INDICES

    sub = rows[rows["criterion"] == ("gap" if criterion in GAP_RULES else criterion)]
    note = ""
    if "note" in sub.columns:
        notes = [n for n in sub["note"].dropna().unique() if str(n)]
        note = "; ".join(map(str, notes))
    sub = sub[np.isfinite(sub["k"].astype(float))] if len(sub) else sub
    if sub.empty or not np.isfinite(sub["score"].astype(float)).any():  # not computed
        return pd.DataFrame(columns=["value", "lo", "hi"]), np.nan, [], note
    sub = sub.assign(k=sub["k"].astype(int))
    rule = CRITERIA[criterion].rule
    rep = _replicate(criterion)
    if rule in ("min", "max"):
        curve = _curve(sub, rep)
        chosen = _arg(curve.index.to_numpy(), curve["value"].to_numpy(), rule)
        per = _per_replicate(sub, rep, lambda k, v, g: _arg(k, v, rule))
    elif rule == "median_min":
        curve = _curve(sub, rep, "median")
        chosen = _arg(curve.index.to_numpy(), curve["value"].to_numpy(), "min")
        per = _per_replicate(sub, rep, lambda k, v, g: _arg(k, v, "min"))
    elif rule == "stability":
        g = sub.groupby("k")
        ratio = sub["score"] / sub["random"]
        curve = pd.DataFrame({"value": g["score"].mean() / g["random"].mean(),
                              "lo": ratio.groupby(sub["k"]).quantile(0.25),
                              "hi": ratio.groupby(sub["k"]).quantile(0.75)})
        chosen = float(stability.select_k(curve.index, curve["value"], ties="largest"))
        per = _per_replicate(sub, rep, lambda k, v, g: float(stability.select_k(
            k, v / g["random"].to_numpy(), ties="largest")))
    elif rule == "threshold":
        curve = _curve(sub, rep)
        chosen = float(prediction_strength.select(curve.index, curve["value"], ps_threshold))
        per = _per_replicate(sub, rep, lambda k, v, g: float(
            prediction_strength.select(k, v, ps_threshold)))
    elif rule == "gap":
        observed = sub[sub["reference"] == 0].set_index("k")["score"].sort_index()
        refs = sub[sub["reference"] == 1].pivot_table(index="rep", columns="k",
                                                      values="score")
        ks = observed.index.intersection(refs.columns)
        if len(refs) < 2 or not len(ks):
            return pd.DataFrame(columns=["value", "lo", "hi"]), np.nan, [], note
        gaps, s = gap_statistic.gap(observed[ks].to_numpy(), refs[ks].to_numpy())
        curve = pd.DataFrame({"value": gaps, "lo": gaps - s, "hi": gaps + s},
                             index=pd.Index(ks, name="k"))
        chosen = (float(gap_statistic.select_1se(ks, gaps, s)) if criterion == "gap" else
                  float(gap_rules.choose(np.asarray(ks), gaps, s, GAP_RULES[criterion])))
        per = []
    elif rule == "clest":
        t = sub[sub["rep"] == 0].set_index("k")["score"].sort_index()
        t0 = sub[sub["rep"] > 0].pivot_table(index="rep", columns="k", values="score")
        ks = t.index.intersection(t0.columns)
        if len(t0):  # the k where the data and every reference set have a score
            ks = ks[np.isfinite(t[ks].to_numpy()) & np.isfinite(t0[ks].to_numpy()).all(axis=0)]
        if not len(t0) or not len(ks):
            return pd.DataFrame(columns=["value", "lo", "hi"]), np.nan, [], note
        d = t[ks].to_numpy() - t0[ks].to_numpy().mean(axis=0)
        p = (t0[ks].to_numpy() >= t[ks].to_numpy()).mean(axis=0)
        curve = pd.DataFrame({"value": d, "lo": np.nan, "hi": np.nan, "p_value": p},
                             index=pd.Index(ks, name="k"))
        chosen = float(clest.select(ks, d, p))
        per = []
    elif rule == "direct":
        if criterion == "gavish_donoho":
            curve = _curve(sub, None)
            chosen = float((curve["value"] > 1.0).sum())
        else:
            curve = pd.DataFrame(columns=["value", "lo", "hi"])
            chosen = float(sub["k"].iloc[0])
        per = []
    elif rule == "index":
        curve = _curve(sub, None)
        chosen = float(INDICES[criterion].choose(curve.index.to_numpy(),
                                                 curve["value"].to_numpy()))
        per = []
    elif rule in ("coverage", "increment"):
        curve = _curve(sub, None)
        if rule == "coverage":
            idx = molloy.coverage_rule(curve["value"].to_numpy(), coverage)
        else:
            idx = molloy.increment_rule(curve["value"].to_numpy(), increment_tol)
        chosen = float(curve.index[idx - 1])
        per = []
    else:
        raise ValueError(f"unknown rule {rule!r}")
    curve.index.name = "k"
    return curve, chosen, per, note


def summarize(rows: pd.DataFrame, criteria, *, k_lo: int, k_hi: int, model: str,
              true_k=None, ps_threshold: float = 0.8, coverage: float = 0.8,
              increment_tol: float = 0.001) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(summary, curves): one summary row per criterion — ``selected_k``, the quartiles
    of the per-split choices (``selected_k_q25``/``_q75``, empty without splits),
    ``n_reps``, the k range where it is defined, what it optimises, ``true_k`` — and the
    tidy curves (``criterion``, ``k``, ``value``, ``lo``, ``hi``) the figure draws."""
    out, curves = [], []
    for c in criteria:
        curve, chosen, per, note = evaluate(rows, c, ps_threshold=ps_threshold,
                                            coverage=coverage, increment_tol=increment_tol)
        per = [p for p in per if np.isfinite(p)]
        crit = CRITERIA[c]
        q25, q75 = quartiles(per)
        out.append({
            "criterion": c, "selected_k": chosen,
            "selected_k_q25": q25, "selected_k_q75": q75,
            "n_reps": len(per) if per else 1,
            "k_min": max(k_lo, crit.k_min), "k_max": k_hi,
            "at_edge": bool(np.isfinite(chosen) and chosen >= k_hi
                            and max(k_lo, crit.k_min) < k_hi),
            "optimises": crit.describe(model), "note": note,
            "true_k": np.nan if true_k is None else true_k,
        })
        if len(curve):
            c_df = curve.reset_index()
            c_df.insert(0, "criterion", c)
            curves.append(c_df)
    summary = pd.DataFrame(out)
    cols = ["criterion", "k", "value", "lo", "hi"]
    curve_df = (pd.concat(curves, ignore_index=True) if curves
                else pd.DataFrame(columns=cols))
    return summary, curve_df[[c for c in curve_df.columns if c in cols or c == "p_value"]]


def choices(summary: pd.DataFrame) -> dict:
    """criterion → its chosen k (NaN: no choice), from :func:`summarize`'s table."""
    return dict(zip(summary["criterion"], summary["selected_k"].astype(float), strict=True))
