"""The figures of ``select``, drawn from its rows and tables (outside its code version)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from experiments.select.protocol import Params, selection_of
from mtc_cli.core.errors import MtcError
from mtc_cli.core.files import read_csv
from mtc_cli.selection import voting
from mtc_cli.selection.answer import shipped_rule
from mtc_cli.selection.catalog import MODELS


def plot(exp, rows, summary, p: Params, outdir) -> list:
    from mtc_cli.selection import figure

    outdir = Path(outdir)
    sel = selection_of(p)
    data = sel.data
    needed = ("auto", "stability") if sel.auto else ("curves", "vote")
    extra = {name: read_csv(outdir / f"{name}.csv")
             for name in (*needed, "projection", "spectrum")
             if name in needed or (outdir / f"{name}.csv").is_file()}
    size = f"{data.n_items} objects × {data.n_features} features"
    answer = read_csv(outdir / "answer.csv") if (outdir / "answer.csv").is_file() else None
    if sel.auto:
        _check_auto(extra["auto"], extra["stability"], outdir)
        s = next(iter(sel.settings.values()))
        title = (f"{data.source}: the clustering algorithm and its k (auto), "
                 f"k = {s.k_lo}..{s.k_hi}, {size}")
        return [figure.save_auto_figure(extra["stability"], extra["auto"],
                                        extra.get("projection"), title,
                                        outdir / "select.png",
                                        rule=shipped_rule().winner, answer=answer,
                                        true_k=_true_k(summary))]
    s = sel.settings[sel.model]
    title = f"{data.source}: {MODELS[s.model]}, k = {s.k_lo}..{s.k_hi}, {size}"
    return [figure.save_figure(extra["curves"], summary, extra["vote"], extra, title,
                               outdir / "select.png", voting.rule_for(s.model, s.criteria),
                               answer)]


def _true_k(summary: pd.DataFrame) -> float:
    """The true k of the run's label column (NaN without one)."""
    known = summary["true_k"].dropna() if "true_k" in summary else ()
    return float(known.iloc[0]) if len(known) else float("nan")


def _check_auto(decision: pd.DataFrame, stability: pd.DataFrame, outdir: Path) -> None:
    """Every algorithm with a stability in ``auto.csv`` has its curve in ``stability.csv``."""
    ranked = set(decision.loc[decision["min_stability"].notna(), "model"])
    missing = sorted(ranked - set(stability["model"]))
    if missing:
        raise MtcError(f"{outdir / 'stability.csv'}: no curve of {', '.join(missing)}, which "
                       "auto.csv ranks; run the run's command again (its finished tasks are "
                       "cached) to rewrite it")
