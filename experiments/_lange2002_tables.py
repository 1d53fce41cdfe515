"""The tables of the protocol of Lange et al. (2002) that ``stability_toy`` and
``stability_leukemia`` derive from their rows (:mod:`experiments._lange2002`): the summary
of every run's choice, the mean curves and Table 1."""

from __future__ import annotations

import numpy as np
import pandas as pd

from experiments._lange2002 import CRITERIA
from mtc_cli.core.quartiles import median_and_quartiles


def summarize(rows: pd.DataFrame, condition: list[str]) -> pd.DataFrame:
    """Per condition × criterion the median and quartiles over runs of each run's
    selected k (``selected_k``, ``selected_k_q25``, ``selected_k_q75``, ``n_reps``) and
    all runs' choices (``choices``)."""
    sel = rows[rows["criterion"].isin(CRITERIA)]
    per_run = sel.groupby([*condition, "criterion", "rep"], sort=False)["selected"].first()
    return median_and_quartiles(
        per_run.groupby(level=[*condition, "criterion"], sort=False),
        choices=lambda s: " ".join(str(int(v)) for v in s)).reset_index()


def curves(rows: pd.DataFrame, condition: list[str]) -> pd.DataFrame:
    """Mean over runs of each criterion's score per condition and k, with the mean of the
    stability's per-split quartiles and the Gap's s_k."""
    sel = rows[rows["criterion"].isin(CRITERIA)]
    cols = [c for c in ("score", "q25", "q75", "se", "p_value") if c in sel.columns]
    return sel.groupby([*condition, "criterion", "k"], sort=True)[cols].mean().reset_index()


def table1(rows: pd.DataFrame, summary: pd.DataFrame, paper: dict, true_k: dict,
           agreements: dict | None = None) -> pd.DataFrame:
    """Lange et al.'s Table 1: one row per (dataset, clusterer) with the median selected k
    of every criterion (and all runs' choices), the true k and the paper's values.
    ``agreements`` maps a column name to (reference, k, paper value): the median matched
    count over runs of the clustering of all objects with k clusters."""
    out = []
    for (dataset, name), sub in summary.groupby(["dataset", "clusterer"], sort=False):
        row = {"dataset": dataset, "clusterer": name, "true_k": true_k.get(dataset, ""),
               "runs": int(sub["n_reps"].max())}
        for criterion in CRITERIA:
            s = sub[sub["criterion"] == criterion]
            row[criterion] = float(s["selected_k"].iloc[0]) if len(s) else np.nan
            row[f"{criterion}_runs"] = s["choices"].iloc[0] if len(s) else ""
            row[f"paper_{criterion}"] = paper.get((dataset, name), {}).get(criterion, "")
        for column, (ref, k, target) in (agreements or {}).items():
            a = rows[(rows["criterion"] == "agreement") & (rows["dataset"] == dataset)
                     & (rows["clusterer"] == name) & (rows["reference"] == ref)
                     & (rows["k"] == k)]
            row[column] = float(a["score"].median()) if len(a) else np.nan
            row[f"{column}_n"] = int(a["n"].iloc[0]) if len(a) else 0
            row[f"paper_{column}"] = target
        out.append(row)
    return pd.DataFrame(out)
