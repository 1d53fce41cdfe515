"""The tables ``wasc_gmm_annealing`` derives from its rows, anew on every run (outside its
code version)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from experiments.wasc_gmm_annealing.protocol import SELECT, Params
from mtc_cli.run.experiment import Experiment


def summarize(exp, rows: pd.DataFrame, p: Params) -> pd.DataFrame:
    out = Experiment.summarize(exp, rows, p)
    out["true_k"] = len(p.means)
    return out


def tables(exp, rows, summary, p: Params) -> dict:
    """``optima``: per repetition the temperature and K̂ of each criterion's optimum
    over the annealing path, and the lowest T at which K̂ equals the true number; the
    same for the former reading K̂_σ (columns ``*_sigma``)."""
    true_k = len(p.means)
    out = []
    for rep, sub in rows[rows["criterion"] != "centroid_projection"].groupby("rep"):
        rec = {"rep": rep, "true_k": true_k}
        path = sub[sub["criterion"] == "mutual_information"].sort_values("step")
        last_true = {}
        for k, tail in (("k", ""), ("k_sigma", "_sigma")):
            at_true = path.loc[path[k] == true_k]
            rec[f"t_lowest_true_k{tail}"] = (float(at_true["T"].min()) if len(at_true)
                                             else np.nan)
            last_true[tail] = int(at_true["step"].max()) if len(at_true) else -1
        for c in ("mutual_information", "transfer_cost", "capacity"):
            s = sub[sub["criterion"] == c].sort_values("step")
            best = s.loc[s["score"].idxmax() if SELECT[c] == "max" else s["score"].idxmin()]
            rec[f"{c}_T"] = float(best["T"])
            for k, tail in (("k", ""), ("k_sigma", "_sigma")):
                rec[f"{c}_k{tail}"] = int(best[k])
                # annealing steps from the optimum down to the lowest T with the true K̂
                # (0: the optimum is there; > 0: above it; < 0: below it)
                rec[f"{c}_steps_above{tail}"] = last_true[tail] - int(best["step"])
            rec[f"{c}_value"] = float(best["score"])
        b = sub[sub["criterion"] == "bic"]
        rec["bic_k"] = int(b.loc[b["score"].idxmin(), "k"])
        out.append(rec)
    return {"optima": pd.DataFrame(out)}
