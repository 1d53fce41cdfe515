"""The tables ``wasc_phase_transitions`` derives from its rows, anew on every run (outside
its code version)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from experiments.wasc_phase_transitions.protocol import Params

RECORDED = ("mutual_information", "capacity", "capacity_sigma", "transfer_cost", "s", "r")
#: the columns of one setting of the experiment
SETTING = ["separation", "optimizer", "D", "n_centroids", "u", "alpha"]


def tables(exp, rows, summary, p: Params) -> dict:
    """``curves``: per setting and annealing step the mean over repetitions of each
    recorded quantity; ``phases``: per setting (medians over repetitions) the peak
    of I_β and where it lies, r at its peak and at the lowest T, the oracle capacity
    (true centroids) and K̂ at the optima of I_β and of the transfer cost; the former
    reading beside it: K̂_σ at the transfer-cost minimum and at the maximum of
    ``capacity_sigma`` (columns ``*_sigma*``)."""
    curves = _curves(rows, by_rep=True)
    mean = _curves(rows)
    oracles = (rows[rows["criterion"] == "oracle_capacity"]
               .set_index([*SETTING, "rep"])["score"])
    per_rep = []
    for key, c in curves.groupby([*SETTING, "rep"]):
        c = c.sort_values("step")
        i_tc = c["transfer_cost"].idxmin()
        rec = {**dict(zip([*SETTING, "rep"], key, strict=True)),
               "k_at_tc_min": c.loc[i_tc, "k_hat"], "T_tc_min": c.loc[i_tc, "T"],
               "k_sigma_at_tc_min": c.loc[i_tc, "k_sigma"],
               "r_max": c["r"].max(), "r_lowest_T": c["r"].iloc[-1],
               "s_lowest_T": c["s"].iloc[-1], "T_lowest": c["T"].iloc[-1],
               "oracle_capacity": float(oracles.get(key, np.nan))}
        for short, col, k in (("mi", "mutual_information", "k_hat"),
                              ("cap", "capacity", "k_hat"),
                              ("cap_sigma", "capacity_sigma", "k_sigma")):
            i = c[col].idxmax()
            rec |= {f"{short}_max": c.loc[i, col], f"T_{short}_max": c.loc[i, "T"],
                    f"k_at_{short}_max": c.loc[i, k],
                    f"{short}_lowest_T": c[col].iloc[-1],
                    f"steps_{short}_to_tc": int(c.loc[i_tc, "step"] - c.loc[i, "step"])}
        per_rep.append(rec)
    phases = (pd.DataFrame(per_rep).groupby(SETTING).median(numeric_only=True)
              .drop(columns="rep").reset_index())
    phases["alpha_c"] = 4.0 * phases["u"] ** -4
    return {"curves": mean, "phases": phases}


def _curves(rows: pd.DataFrame, by_rep: bool = False) -> pd.DataFrame:
    """Every recorded quantity, T and K̂ per setting and annealing step, one column each:
    the mean over repetitions (or per repetition with ``by_rep``)."""
    index = [*SETTING, *(["rep"] if by_rep else []), "step"]
    path = rows[rows["criterion"].isin(RECORDED)]
    wide = path.pivot_table(index=index, columns="criterion", values="score", aggfunc="mean")
    extra = (path[path["criterion"] == "s"].groupby(index)
             .agg(T=("T", "mean"), k_hat=("k", "mean"), k_sigma=("k_sigma", "mean")))
    return wide.join(extra).reset_index()
