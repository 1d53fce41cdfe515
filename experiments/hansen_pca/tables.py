"""The tables ``hansen_pca`` derives from its rows, anew on every run (outside its code
version)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from experiments.hansen_pca.protocol import CRITERIA, Params
from mtc_cli.run.experiment import Experiment
from mtc_cli.show.curves import mean_curves


def summarize(exp, rows: pd.DataFrame, p: Params) -> pd.DataFrame:
    out = Experiment.summarize(exp, rows, p)
    out["k0"] = p.k0
    return out


def tables(exp, rows, summary, p: Params) -> dict:
    """``curves`` and ``curve_choice`` (:func:`mtc_cli.show.curves.mean_curves`) and
    ``agreement``: per K the gap between each analytic estimate and the mean test error
    (nats) and whether their error bars (± one standard deviation over replications)
    overlap."""
    out = mean_curves(rows, CRITERIA)
    mean = out["curves"].pivot(index="k", columns="criterion", values="mean")
    sd = out["curves"].pivot(index="k", columns="criterion", values="std")
    agree = pd.DataFrame({"k": mean.index, "test_mean": mean["test"].values,
                          "test_std": sd["test"].values})
    for c in ("analytic_paper", "analytic_ppca"):
        gap = (mean[c] - mean["test"]).values
        agree[f"{c}_gap"] = gap
        agree[f"{c}_overlap"] = np.abs(gap) <= (sd[c] + sd["test"]).values
    out["agreement"] = agree
    return out
