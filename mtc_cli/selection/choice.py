"""From the tasks' rows to each criterion's curve over k, its chosen k and the spread of the
choice over random splits — each criterion read by its own reader
(:mod:`mtc_cli.selection.readers`) — and the summary table of a selection.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from mtc_cli.core.quartiles import quartiles
from mtc_cli.selection.catalog import ALGORITHMS, CRITERIA
from mtc_cli.selection.readers import empty_curve


class Choice(NamedTuple):
    """One criterion read from its rows: its ``curve`` (indexed by k: ``value``, the band
    ``lo``/``hi``, and ``p_value`` for Clest), its chosen ``k`` (NaN: no choice), the
    choices of its replicates alone (``per_replicate``) and its rows' notes."""

    curve: pd.DataFrame
    k: float
    per_replicate: list
    note: str


def evaluate(rows: pd.DataFrame, criterion: str, settings=None) -> Choice:
    """The :class:`Choice` of ``criterion`` from a selection's ``rows`` under ``settings``
    (the options its reader reads, such as the prediction strength's threshold; None: their
    defaults)."""
    from mtc_cli.selection.options import Options

    settings = Options() if settings is None else settings
    c = CRITERIA[criterion]
    sub = rows[rows["criterion"] == c.rows]
    note = ""
    if "note" in sub.columns:
        notes = [n for n in sub["note"].dropna().unique() if str(n)]
        note = "; ".join(map(str, notes))
    sub = sub[np.isfinite(sub["k"].astype(float))] if len(sub) else sub
    if sub.empty or not np.isfinite(sub["score"].astype(float)).any():  # not computed
        return Choice(empty_curve(), np.nan, [], note)
    curve, chosen, per = c.reader.choose(sub.assign(k=sub["k"].astype(int)), settings)
    curve.index.name = "k"
    return Choice(curve, chosen, per, note)


def summarize(rows: pd.DataFrame, settings, *, true_k=None,
              distinct: int | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(summary, curves): one summary row per criterion of ``settings`` — ``selected_k``,
    the quartiles of the per-split choices (``selected_k_q25``/``_q75``, empty without
    splits), ``n_reps``, the k range where it is defined, whether it chose the range's
    :func:`~mtc_cli.selection.settings.edge` (``at_edge``; ``distinct``: the number of
    distinct rows), what it optimises, ``true_k`` — and the tidy curves (``criterion``,
    ``k``, ``value``, ``lo``, ``hi``) the figure draws."""
    from mtc_cli.selection.settings import edge

    s = settings
    top = edge(s, distinct)
    out, curves = [], []
    for c in s.criteria:
        chosen = evaluate(rows, c, s)
        per = [p for p in chosen.per_replicate if np.isfinite(p)]
        crit = CRITERIA[c]
        q25, q75 = quartiles(per)
        k = chosen.k
        note = chosen.note
        if per and np.isfinite(k) and not q25 <= k <= q75:
            note = "; ".join(filter(None, (note, outside_spread(k, per, crit.reader))))
        out.append({
            "criterion": c, "selected_k": k,
            "selected_k_q25": q25, "selected_k_q75": q75,
            "n_reps": len(per) if per else 1,
            "k_min": max(s.k_lo, crit.k_min), "k_max": s.k_hi,
            "at_edge": bool(np.isfinite(k) and k >= top and max(s.k_lo, crit.k_min) < s.k_hi),
            "optimises": crit.describe(ALGORITHMS[s.model]), "note": note,
            "true_k": np.nan if true_k is None else true_k,
        })
        if len(chosen.curve):
            c_df = chosen.curve.reset_index()
            c_df.insert(0, "criterion", c)
            curves.append(c_df)
    summary = pd.DataFrame(out)
    cols = ["criterion", "k", "value", "lo", "hi"]
    curve_df = (pd.concat(curves, ignore_index=True) if curves
                else pd.DataFrame(columns=cols))
    return summary, curve_df[[c for c in curve_df.columns if c in cols or c == "p_value"]]


#: a reader's replicates (its ``replicate`` column), in words
_REPLICATES = {"rep": "random splits", "split": "train/test splits",
               "permutation": "permutations"}


def outside_spread(k: float, per: list, reader) -> str:
    """Why the chosen ``k`` lies outside the quartiles of ``per``, the choices of the
    replicates alone: it is read off the curve of all replicates together (at each k their
    mean, or median: ``reader.aggregate``), and the k that curve gives need not be one most
    replicates choose alone (the median of an even number of errors at each k, for one, is
    the curve of no replicate)."""
    values, counts = np.unique(np.asarray(per, dtype=float), return_counts=True)
    order = np.lexsort((values, -counts))[:4]
    alone = ", ".join(f"{values[i]:g} ({counts[i]} of {len(per)})" for i in order)
    unit = _REPLICATES.get(reader.replicate, "replicates")
    return (f"its choice {k:g} lies outside its spread: it is read off the "
            f"{getattr(reader, 'aggregate', 'mean')} curve of all {len(per)} {unit}; alone, "
            f"they choose {alone}{' …' if len(values) > 4 else ''}")


def choices(summary: pd.DataFrame) -> dict:
    """criterion → its chosen k (NaN: no choice), from :func:`summarize`'s table."""
    return dict(zip(summary["criterion"], summary["selected_k"].astype(float), strict=True))


def per_split(rows: pd.DataFrame, settings) -> dict[str, list]:
    """criterion → its choice on each random split alone, for the criteria read per split
    (their reader's replicates are the splits, ``rep``)."""
    return {c: evaluate(rows, c, settings).per_replicate for c in settings.criteria
            if CRITERIA[c].reader.replicate == "rep"}
