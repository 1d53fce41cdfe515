"""Tidy rows and the tables derived from them.

Contract of every run directory:

- ``rows.csv``: one row per condition × ``rep`` × ``criterion`` × ``k`` with ``score``;
- ``summary.csv``: one row per condition × criterion with ``selected_k`` (median of the
  per-repetition selections), ``selected_k_q25``, ``selected_k_q75``, ``n_reps`` and,
  where the experiment knows it, ``true_k`` / ``oracle_k``;
- ``targets.csv``: each paper claim of the config, whether it holds, what was observed
  (:mod:`mtc_cli.show.targets`);
- ``run.json``: resolved config, seed, versions, git commit, wall time, jobs.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from mtc_cli.core.quartiles import median_and_quartiles


def select_per_rep(rows: pd.DataFrame, condition: list[str], select: dict) -> pd.DataFrame:
    """Each repetition's choice: the k with the lowest (rule ``min``) or highest
    (``max``) score per condition × rep × criterion; ties go to the smallest k."""
    parts = []
    for criterion, rule in select.items():
        sub = rows[(rows["criterion"] == criterion) & rows["score"].notna()]
        if sub.empty:
            continue
        sub = sub.sort_values([*condition, "rep", "k"], kind="stable")
        key = sub["score"] if rule == "min" else -sub["score"]
        idx = key.groupby([sub[c] for c in [*condition, "rep"]], sort=False).idxmin()
        chosen = sub.loc[idx.values, [*condition, "rep", "k"]].rename(columns={"k": "selected_k"})
        chosen.insert(len(condition), "criterion", criterion)
        parts.append(chosen)
    if not parts:
        return pd.DataFrame(columns=[*condition, "criterion", "rep", "selected_k"])
    return pd.concat(parts, ignore_index=True)


def summarize_selection(rows: pd.DataFrame, condition: list[str], select: dict) -> pd.DataFrame:
    """Median and quartiles over repetitions of each criterion's selected k."""
    chosen = select_per_rep(rows, condition, select)
    order = {c: i for i, c in enumerate(select)}
    grouped = chosen.groupby([*condition, "criterion"], sort=False)["selected_k"]
    out = median_and_quartiles(grouped).reset_index()
    out["_order"] = out["criterion"].map(order)
    out = out.sort_values([*condition, "_order"], kind="stable").drop(columns="_order")
    return out.reset_index(drop=True)


def format_value(v) -> str:
    if isinstance(v, float | np.floating):
        return f"{v:.4g}"
    return str(v)


def summary_wide(summary: pd.DataFrame) -> pd.DataFrame:
    """Summary for the terminal: one row per condition, one column of median selected k
    per criterion (quartiles in brackets when they differ), then ``true_k``/``oracle_k``."""
    cond = list(summary.columns[:list(summary.columns).index("criterion")])
    def cell(r):
        lo, hi = r["selected_k_q25"], r["selected_k_q75"]
        return f"{r['selected_k']:g}" + ("" if lo == hi else f" [{lo:g}–{hi:g}]")

    s = summary.assign(_cell=summary.apply(cell, axis=1))
    index = cond or None
    if index is None:
        s = s.assign(_all="all")
        index = ["_all"]
    wide = s.pivot_table(index=index, columns="criterion", values="_cell", aggfunc="first",
                         sort=False)
    wide = wide[list(dict.fromkeys(s["criterion"]))]
    for col in ("true_k", "oracle_k"):
        if col in s.columns:
            wide[col] = s.groupby(index, sort=False)[col].first()
    wide.columns.name = None
    return wide.reset_index().drop(columns="_all", errors="ignore")


def format_table(df: pd.DataFrame, max_rows: int = 60) -> str:
    """A plain-text table for the terminal."""
    if df.empty:
        return "(empty)"
    with pd.option_context("display.max_rows", max_rows, "display.width", 160,
                           "display.max_colwidth", 70, "display.float_format", "{:.4g}".format):
        return df.to_string(index=False)


def markdown_table(df: pd.DataFrame) -> str:
    """A GitHub-flavoured markdown table (no extra dependency)."""
    def cell(v):
        return format_value(v).replace("|", "\\|").replace("\n", " ")

    head = "| " + " | ".join(map(str, df.columns)) + " |"
    rule = "|" + "---|" * len(df.columns)
    body = ["| " + " | ".join(cell(v) for v in r) + " |" for r in df.itertuples(index=False)]
    return "\n".join([head, rule, *body])
