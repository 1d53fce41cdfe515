"""The tables ``stability_leukemia`` derives from its rows, anew on every run (outside its
code version)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from experiments import _lange2002_tables as lange2002_tables
from experiments.stability_leukemia.protocol import GOLUB, Params, _data, _key, source

#: Lange et al. 2002, Table 1 and Sect. 4
PAPER = {(GOLUB, "kmeans"): {"stability": 3, "gap": 10, "clest": 3, "prediction_strength": 1}}
PAPER_AGREEMENT = {"agreement_k3_subtype": ("subtype", 3, 66),
                   "agreement_k2_all_aml": ("all_aml", 2, 62)}


def summarize(exp, rows: pd.DataFrame, p: Params) -> pd.DataFrame:
    out = lange2002_tables.summarize(rows, list(exp.condition))
    if p.dataset is None:
        out["true_k"] = 3
    else:
        labels = _data(_key(source(p)))[1].get("labels")
        out["true_k"] = np.nan if labels is None else len(np.unique(labels))
    return out


def tables(exp, rows, summary, p: Params) -> dict:
    """``table1``: Lange et al.'s Table 1 row(s) with the agreement counts;
    ``curves``: mean curves over runs; ``agreement``: matched samples per k."""
    golub_data = p.dataset is None
    t1 = lange2002_tables.table1(rows, summary, PAPER if golub_data else {},
                            {GOLUB: "3 (or 2)"} if golub_data else {},
                            PAPER_AGREEMENT if golub_data else None)
    agree = rows[rows["criterion"] == "agreement"]
    agreement = (agree.groupby(["dataset", "clusterer", "reference", "k"])["score"]
                 .agg(median="median", min="min", max="max").reset_index()
                 if len(agree) else pd.DataFrame())
    return {"table1": t1, "curves": lange2002_tables.curves(rows, list(exp.condition)),
            "agreement": agreement}
