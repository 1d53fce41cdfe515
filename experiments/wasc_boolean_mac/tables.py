"""The tables ``wasc_boolean_mac`` derives from its rows, anew on every run (outside its
code version)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from experiments.wasc_boolean_mac.protocol import BY_START, MODELS, Params
from mtc_cli.run.experiment import Experiment
from mtc_cli.show.tables import select_per_rep


def summarize(exp, rows: pd.DataFrame, p: Params) -> pd.DataFrame:
    """The framework's selection, with k the model's number (1 MAC, 2 MAC-mix, 3 SAC,
    4 SAC-mix; ties go to the lower number), plus the model each criterion chose most
    often over the repetitions."""
    out = Experiment.summarize(exp, rows, p)
    chosen = select_per_rep(rows, list(exp.condition), exp.select)
    names = dict(enumerate(MODELS, start=1))
    mode = (chosen.groupby(["epsilon", "criterion"])["selected_k"]
            .agg(lambda s: names[int(s.mode().min())]).rename("selected_model"))
    return out.merge(mode.reset_index(), on=["epsilon", "criterion"], how="left")


def tables(exp, rows, summary, p: Params) -> dict:
    """``curves``: per ε, criterion and model the median, quartiles and mean over the
    repetitions; ``ranking``: one wide row, per model the capacity and the mismatch
    averaged over the ε grid (areas under the median curves), the median capacity at
    ε = 0, the first ε with a non-zero median mismatch and the breakdown ε (the
    smallest ε whose median mismatch exceeds 0.05); ``starts``: per -mix model, ε and
    noise start, the medians of the run's mismatch, ε̂ and negative log-likelihood above
    the best run's, and how often it was the run kept."""
    curves = _curves(rows)
    wide = {"log2_3": float(np.log2(3))}
    for model in MODELS:
        key = model.replace("-", "_")
        s = curves[curves["model"] == model]
        cap = s[s["criterion"] == "capacity"].set_index("epsilon")["median"].sort_index()
        used = s[s["criterion"] == "capacity_in_use"].set_index("epsilon")["median"]
        mis = s[s["criterion"] == "mismatch"].set_index("epsilon")["median"].sort_index()
        wide[f"cap_mean_{key}"] = float(cap.mean())
        wide[f"cap_used_mean_{key}"] = float(used.mean())
        wide[f"cap_used_max_eps_{key}"] = float(used.sort_index().iloc[-1])
        wide[f"mismatch_mean_{key}"] = float(mis.mean())
        wide[f"cap_eps0_{key}"] = float(cap.loc[0.0]) if 0.0 in cap.index else np.nan
        for name, level in (("eps_first_error", 0.0), ("eps_break", 0.05)):
            broken = mis[mis > level]
            wide[f"{name}_{key}"] = float(broken.index.min()) if len(broken) else 1.0
        wide[f"cap_falls_{key}"] = bool(cap.iloc[-1] < cap.iloc[0])
    starts = (rows[rows["criterion"] == BY_START]
              .assign(kept=lambda d: d["nll_gap"] == 0.0)
              .groupby(["model", "epsilon", "epsilon_start"])
              .agg(mismatch=("score", "median"), epsilon_hat=("epsilon_hat", "median"),
                   nll_gap=("nll_gap", "median"), kept=("kept", "mean"))
              .reset_index())
    return {"curves": curves, "ranking": pd.DataFrame([wide]), "starts": starts}


def _curves(rows: pd.DataFrame) -> pd.DataFrame:
    """Per ε, criterion and model: median, quartiles and mean of the score over reps."""
    rows = rows[rows["criterion"] != BY_START]
    g = rows.groupby(["epsilon", "criterion", "model"])["score"]
    return g.agg(median="median", q25=lambda s: s.quantile(0.25),
                 q75=lambda s: s.quantile(0.75), mean="mean", n_reps="size").reset_index()
