"""The tables ``stability_toy`` derives from its rows, anew on every run (outside its code
version)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from experiments import _lange2002 as lange2002
from experiments import _lange2002_tables as lange2002_tables
from experiments.stability_toy.protocol import SWEEP, Params, _cases, _spec, _sweep, generate

#: Lange et al. 2002, Table 1
PAPER = {("gaussians", "kmeans"): {"stability": 3, "gap": 3, "clest": 3,
                                   "prediction_strength": 3},
         ("rings", "kmeans"): {"stability": 7, "gap": 1, "clest": 7, "prediction_strength": 1},
         ("rings", "pathbased"): {"stability": 3, "gap": 1, "clest": 1,
                                  "prediction_strength": 1}}


def summarize(exp, rows: pd.DataFrame, p: Params) -> pd.DataFrame:
    out = lange2002_tables.summarize(rows, list(exp.condition))
    out["true_k"] = [len(getattr(p, d.split("-")[0]).sizes) for d in out["dataset"]]
    return out


def tables(exp, rows, summary, p: Params) -> dict:
    """``table1``: the toy rows of Lange et al.'s Table 1 (and the sweep's);
    ``curves``: mean curves over runs; ``points``: the data sets (for the scatter
    plots); ``design``: the distances of the 3 Gaussians (the two small clouds' to each
    other and to the big one); ``sweep``: each criterion's choice against the small
    clouds' separation."""
    true_k = {d: len(getattr(p, d).sizes) for d, _ in _cases(p)}
    true_k.update({name: len(p.gaussians.sizes) for name, _ in _sweep(p)})
    points = []
    for d in dict.fromkeys(d for d, _ in _cases(p)):
        X, truth = generate(d, _spec(p, d), p.data_seed)
        points.append(pd.DataFrame({"dataset": d, "x": X[:, 0], "y": X[:, 1],
                                    "component": truth}))
    t1 = lange2002_tables.table1(rows, summary, PAPER, true_k)
    sweep = t1[t1["dataset"].str.startswith(SWEEP)]
    sweep = sweep.assign(separation=[float(d.split("sep")[1]) for d in sweep["dataset"]])
    return {"table1": t1[~t1["dataset"].isin(sweep["dataset"])],
            "curves": lange2002_tables.curves(rows, list(exp.condition)),
            "points": pd.concat(points, ignore_index=True), "design": _design(p),
            "sweep": sweep[["separation", *lange2002.CRITERIA, "runs"]]}


def _design(p: Params) -> pd.DataFrame:
    """The 3 Gaussians' geometry: the distance between the two small clouds (the first
    two) and the smaller of their distances to the third, in cloud sds."""
    c = np.asarray(p.gaussians.centres, dtype=np.float64)
    small = float(np.linalg.norm(c[0] - c[1]))
    to_big = float(min(np.linalg.norm(c[0] - c[2]), np.linalg.norm(c[1] - c[2])))
    return pd.DataFrame([{"small_apart": small, "small_to_big": to_big,
                          "small_apart_in_sd": small / max(p.gaussians.sds[:2])}])
