"""The tables ``shapes_league`` derives from its rows, anew on every run (outside its code
version)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from experiments.shapes_league.protocol import Params
from mtc_cli.selection import auto

FAMILIES = ("shapes", "milligan_cooper")


def summarize(exp, rows: pd.DataFrame, p: Params) -> pd.DataFrame:
    """Per data set × algorithm (and ``auto``): the voted k and the true k."""
    a = answers(rows)
    return a.rename(columns={"k": "selected_k"}).assign(
        criterion="vote", selected_k_q25=a["k"], selected_k_q75=a["k"], n_reps=1)


def tables(exp, rows, summary, p: Params) -> dict:
    """``answers``: per data set × algorithm (and ``auto``, with its winner) the voted k
    and the adjusted Rand index of its clustering; ``shapes_league``: per algorithm the
    share of data sets recovered, the mean |k̂ − k| and the mean adjusted Rand index, over
    the shapes, Milligan & Cooper's designs and each shape."""
    a = answers(rows)
    return {"answers": a, "shapes_league": league(a)}


def report(exp, summary, p: Params, run_dir) -> str:
    table = pd.read_csv(Path(run_dir) / "shapes_league.csv")
    with pd.option_context("display.width", 200, "display.float_format",
                           "{:.2f}".format):
        return ("Shapes league (share of data sets where the answer is the known k, mean "
                "|k̂ − k|, mean adjusted Rand index of the answer's clustering):\n"
                + table.to_string(index=False))


def answers(rows: pd.DataFrame) -> pd.DataFrame:
    """Per data set: every algorithm's vote and ``auto``'s answer (the vote of the
    algorithm of lowest S(k)/S_perm(k), :func:`mtc_cli.selection.auto.decide`), each with
    the adjusted Rand index of its clustering (``auto``: its winner's)."""
    keys = ["dataset", "family", "group", "true_k"]
    ari = rows[rows["criterion"] == "ari"].set_index(["dataset", "model"])["score"]
    votes = rows[rows["criterion"] == "vote"][[*keys, "model", "k"]].assign(winner="")
    votes["ari"] = [ari.get((d, m), np.nan) for d, m in zip(votes["dataset"], votes["model"],
                                                            strict=True)]
    extra = []
    for (dataset, family, group, true_k), g in rows.groupby(keys, sort=False):
        curves = {m: s.set_index("k")["score"]
                  for m, s in g[g["criterion"] == "s_perm"].groupby("model", sort=False)}
        voted = dict(zip(g.loc[g["criterion"] == "vote", "model"],
                         g.loc[g["criterion"] == "vote", "k"], strict=True))
        best, k = auto.winner(auto.decide({m: curves.get(m, pd.Series(dtype=float))
                                           for m in voted}, voted))
        extra.append({"dataset": dataset, "family": family, "group": group,
                      "true_k": true_k, "model": "auto", "k": k, "winner": best or "",
                      "ari": ari.get((dataset, best), np.nan)})
    out = pd.concat([votes, pd.DataFrame(extra)], ignore_index=True)
    return out.assign(hit=out["k"] == out["true_k"],
                      abs_error=(out["k"] - out["true_k"]).abs())


def league(a: pd.DataFrame) -> pd.DataFrame:
    """Per algorithm (``auto`` last): data sets, the share recovered, the mean |k̂ − k| and the
    mean adjusted Rand index over the shapes and over Milligan & Cooper's designs, then the
    share per shape."""
    rows = []
    for model, g in a.groupby("model", sort=False):
        row = {"model": model}
        for fam in FAMILIES:
            f = g[g["family"] == fam]
            row[f"{fam}_n"] = len(f)
            row[f"{fam}_recovered"] = float(f["hit"].mean()) if len(f) else np.nan
            row[f"{fam}_mean_abs_error"] = float(f["abs_error"].mean()) if len(f) else np.nan
            row[f"{fam}_mean_ari"] = float(f["ari"].mean()) if len(f) else np.nan
        for group, f in g[g["family"] == "shapes"].groupby("group", sort=False):
            row[group] = float(f["hit"].mean())
        rows.append(row)
    return pd.DataFrame(rows)
