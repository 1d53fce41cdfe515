"""The tables ``gmm_overlap`` derives from its rows, anew on every run (outside its code
version)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from experiments.gmm_overlap.protocol import CRITERIA, Params, centre_distance, radius, unit
from mtc_cli.run.experiment import Experiment


def summarize(exp, rows: pd.DataFrame, p: Params) -> pd.DataFrame:
    out = Experiment.summarize(exp, rows, p)
    out["true_k"] = len(p.centres)
    return out


def tables(exp, rows, summary, p: Params) -> dict:
    """``thresholds``: per criterion the smallest σ (in the config's unit) whose median
    choice is below the true k (``first_below``) and the largest whose median choice is
    the true k (``last_at_true``: the paper's "still estimates 3 … up to"), each also in
    units of d (``_d``) and of r (``_r``), the two readings of the paper's "distance
    between the centers" (one wide row, so targets can compare criteria)."""
    wide = {}
    to_d = unit(p.centres, p.distance) / centre_distance(p.centres)
    to_r = unit(p.centres, p.distance) / radius(p.centres)
    for c in CRITERIA:
        s = summary[summary["criterion"] == c].sort_values("sigma_over_d")
        below = s.loc[s["selected_k"] < s["true_k"], "sigma_over_d"]
        first = float(below.min()) if len(below) else np.nan
        wide[f"{c}_first_below"] = first
        wide[f"{c}_first_below_d"] = first * to_d
        wide[f"{c}_first_below_r"] = first * to_r
        at_true = s.loc[s["selected_k"] == s["true_k"], "sigma_over_d"]
        last = float(at_true.max()) if len(at_true) else np.nan
        wide[f"{c}_last_at_true"] = last
        wide[f"{c}_last_at_true_d"] = last * to_d
        wide[f"{c}_last_at_true_r"] = last * to_r
    wide["mtc_over_bic"] = wide["mtc_first_below"] / wide["bic_first_below"]
    wide["grid_step_d"] = round(float(np.min(np.diff(sorted(p.sigma_over_d)))), 12) * to_d \
        if len(p.sigma_over_d) > 1 else np.nan
    wide["grid_step_r"] = wide["grid_step_d"] * centre_distance(p.centres) \
        / radius(p.centres)
    return {"thresholds": pd.DataFrame([wide])}
