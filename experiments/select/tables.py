"""The tables ``select`` derives from its rows, anew on every run (outside its code
version): all read off the run's one :class:`~mtc_cli.selection.selector.Selection`
(:func:`experiments.select.protocol.selection_of`) and what it derives from the rows."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from experiments.select.protocol import Params, selection_of


def summarize(exp, rows: pd.DataFrame, p: Params) -> pd.DataFrame:
    """One row per criterion (``auto``: per algorithm and criterion, ``model`` first)."""
    sel = selection_of(p)
    summaries = sel.derive(rows).summaries
    if not sel.auto:
        return summaries[sel.model]
    return _stacked(summaries)


def tables(exp, rows, summary, p: Params, *, seed: int) -> dict:
    """``curves``: every criterion's curve over k; ``vote``: the tally (ties marked);
    ``answer``: the answer with its doubt; ``projection``: a 2-D PCA view of (at most 5000
    of) the objects with the clustering at the answer's k (clustering models;
    :meth:`~mtc_cli.selection.selector.Selection.labels` with the run's seed), or
    ``spectrum``: the singular values (svd, boolean). ``auto``: curves and votes of every
    algorithm (``model`` first), ``auto``: the decision
    (:func:`mtc_cli.selection.auto.standings`), ``stability``: each algorithm's
    S(k)/S_perm(k), and the projection of the winner's clustering at its voted k."""
    sel = selection_of(p)
    d = sel.derive(rows)
    found = d.answer
    out = {"curves": _stacked(d.curves) if sel.auto else d.curves[sel.model],
           "vote": _stacked(d.tallies) if sel.auto else d.tallies[sel.model],
           "answer": pd.DataFrame([found.row()])}
    if sel.auto:
        out["auto"] = d.decision
        out["stability"] = pd.concat(
            [pd.DataFrame({"model": m, "k": c.index, "value": c.to_numpy()})
             for m, c in d.stability.items()], ignore_index=True)
    model = found.model or found.runner_up_model  # k = 1: the algorithm the tests weighed
    model = model if model in sel.settings else next(iter(sel.settings))
    if not _clusters(model):
        out["spectrum"] = _spectrum(sel.matrix(model))
    elif np.isfinite(found.k):
        out["projection"] = _projection(sel, model, int(found.k), seed)
    return out


def report(exp, summary: pd.DataFrame, p: Params, run_dir: Path) -> str:
    from mtc_cli.selection.output import auto_report, terminal_report

    sel = selection_of(p)
    vote = pd.read_csv(Path(run_dir) / "vote.csv")
    found = _found(Path(run_dir))
    if sel.auto:
        return auto_report(summary, sel.settings, sel.data, vote,
                           pd.read_csv(Path(run_dir) / "auto.csv"), sel.left_out, found)
    return terminal_report(summary, sel.settings[sel.model], sel.data, vote, found)


def _found(run_dir: Path) -> dict | None:
    """The row of ``answer.csv`` (None for a run made before it was written)."""
    path = run_dir / "answer.csv"
    return pd.read_csv(path).iloc[0].to_dict() if path.is_file() else None


def summary_json(exp, outcome) -> dict:
    """The selection of a finished run as a JSON-able dict (``mtc select --json``)."""
    from mtc_cli.selection.output import auto_json, summary_json

    sel = selection_of(outcome.config.params)
    run_dir = Path(outcome.run_dir)
    vote = pd.read_csv(run_dir / "vote.csv")
    if sel.auto:
        return auto_json(outcome.summary, sel.settings, sel.data, vote,
                         pd.read_csv(run_dir / "auto.csv"), run_dir, sel.left_out,
                         _found(run_dir))
    return summary_json(outcome.summary, sel.settings[sel.model], sel.data, vote, run_dir,
                        _found(run_dir))


def _clusters(model: str) -> bool:
    from mtc_cli.selection.catalog import ALGORITHMS

    return ALGORITHMS[model].clusters


def _stacked(tables: dict) -> pd.DataFrame:
    """model → table, as one table with ``model`` first."""
    return pd.concat([t.assign(model=m)[["model", *t.columns]] for m, t in tables.items()],
                     ignore_index=True)


def _projection(sel, model: str, k: int, seed: int) -> pd.DataFrame:
    """Two principal components of (a random sample of at most 5000 of) the objects, with
    the clustering of all objects at k (as ``OrderSelector.labels_``) and the known
    labels."""
    from mtc_cli.selection.projection import pca_2d

    X = sel.matrix(model)
    labels = sel.labels(model, k, seed)
    rng = np.random.default_rng(0)
    idx = np.sort(rng.choice(X.shape[0], size=min(5000, X.shape[0]), replace=False))
    xy = pca_2d(X[idx])
    out = pd.DataFrame({"pc1": xy[:, 0], "pc2": xy[:, 1], "cluster": labels[idx]})
    if sel.data.labels is not None:
        out["label"] = np.asarray(sel.data.labels)[idx]
    return out


def _spectrum(X) -> pd.DataFrame:
    """The singular values of the data matrix, with Gavish & Donoho's threshold τ."""
    from mtc_cli.core.criteria import hard_threshold
    from mtc_cli.core.models import svd

    sv = svd.fit(np.asarray(X, dtype=np.float64)).s
    return pd.DataFrame({"rank": np.arange(1, len(sv) + 1), "singular_value": sv,
                         "threshold": hard_threshold.threshold(sv, X.shape)})
