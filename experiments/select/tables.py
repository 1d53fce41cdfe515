"""The tables ``select`` derives from its rows, anew on every run (outside its code
version)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from experiments.select.protocol import (
    Params,
    _data_key,
    _digest,
    _matrix,
    _read,
    auto_selections,
    model_of,
    selections,
    settings,
)
from mtc_cli.selection import answer, auto, choice, engine
from mtc_cli.selection.catalog import CLUSTERING
from mtc_cli.selection.settings import Settings

_LAST: list = []


def _summaries(rows: pd.DataFrame, p: Params, true_k=None) -> dict:
    """model → (summary, curves) of :func:`mtc_cli.selection.choice.summarize`, computed once
    for the summary and the tables of the same rows."""
    if _LAST and _LAST[0] is rows and _LAST[1] == (p, true_k):
        return _LAST[2]
    out = {}
    for model, s in selections(p).items():
        own = rows[rows["model"] == model] if model_of(p) == "auto" else rows
        out[model] = choice.summarize(own, s.criteria, k_lo=s.k_lo, k_hi=s.k_hi, model=model,
                                      true_k=true_k, ps_threshold=s.ps_threshold,
                                      coverage=s.coverage, increment_tol=s.increment_tol)
    _LAST[:] = [rows, (p, true_k), out]
    return out


def summarize(exp, rows: pd.DataFrame, p: Params) -> pd.DataFrame:
    """One row per criterion (``auto``: per algorithm and criterion, ``model`` first)."""
    parts = _summaries(rows, p, _true_k(p))
    if model_of(p) != "auto":
        return next(iter(parts.values()))[0]
    return pd.concat([summary.assign(model=m)[["model", *summary.columns]]
                      for m, (summary, _) in parts.items()], ignore_index=True)


def tables(exp, rows, summary, p: Params, *, seed: int) -> dict:
    """``curves``: every criterion's curve over k; ``vote``: the tally (ties marked);
    ``projection``: a 2-D PCA view of (at most 5000 of) the objects with the clustering
    at the voted k (clustering models; :func:`mtc_cli.selection.engine.clustering`
    with the run's seed), or ``spectrum``: the singular values (svd, boolean). ``auto``:
    curves and votes of every algorithm (``model`` first), ``auto``: the decision
    (:func:`mtc_cli.selection.auto.decide`), ``stability``: each algorithm's S(k)/S_perm(k),
    and the projection of the winner's clustering at its voted k."""
    parts = _summaries(rows, p, _true_k(p))
    models = selections(p)
    key = _data_key(p)
    auto_mode = model_of(p) == "auto"
    found, votes, decision = answer.find(
        _matrix(*key, next(iter(models)), p.tfidf),
        {m: rows[rows["model"] == m] if auto_mode else rows for m in models},
        {m: parts[m][0] for m in models}, models, auto_mode=auto_mode)
    out = {"curves": _stacked({m: c for m, (_, c) in parts.items()}) if auto_mode
           else parts[next(iter(models))][1],
           "vote": _stacked(votes) if auto_mode else next(iter(votes.values())),
           "answer": pd.DataFrame([found.row()])}
    if auto_mode:
        out["auto"] = decision
        out["stability"] = pd.concat(
            [pd.DataFrame({"model": m, "k": c.index, "value": c.to_numpy()})
             for m, c in ((m, auto.normalised_stability(rows[rows["model"] == m]))
                          for m in models)], ignore_index=True)
    s = models[found.model] if found.model in models else next(iter(models.values()))
    if s.model not in CLUSTERING:
        out["spectrum"] = _spectrum(_matrix(*key, s.model, p.tfidf))
    elif np.isfinite(found.k):
        out["projection"] = _projection(key, s, p.tfidf, int(found.k), seed)
    return out


def report(exp, summary: pd.DataFrame, p: Params, run_dir: Path) -> str:
    from mtc_cli.selection.output import auto_report, terminal_report

    data = _read(*_data_key(p))
    vote = pd.read_csv(Path(run_dir) / "vote.csv")
    found = _found(Path(run_dir))
    if model_of(p) == "auto":
        taken, left = auto_selections(p)
        return auto_report(summary, taken, data, vote,
                           pd.read_csv(Path(run_dir) / "auto.csv"), left, found)
    return terminal_report(summary, settings(p), data, vote, found)


def _found(run_dir: Path) -> dict | None:
    """The row of ``answer.csv`` (None for a run made before it was written)."""
    path = run_dir / "answer.csv"
    return pd.read_csv(path).iloc[0].to_dict() if path.is_file() else None


def summary_json(exp, outcome) -> dict:
    """The selection of a finished run as a JSON-able dict (``mtc select --json``)."""
    from mtc_cli.selection.output import auto_json, summary_json

    p = outcome.config.params
    run_dir = Path(outcome.run_dir)
    data = _read(*_data_key(p))
    vote = pd.read_csv(run_dir / "vote.csv")
    if model_of(p) == "auto":
        taken, left = auto_selections(p)
        return auto_json(outcome.summary, taken, data, vote,
                         pd.read_csv(run_dir / "auto.csv"), run_dir, left, _found(run_dir))
    return summary_json(outcome.summary, settings(p), data, vote, run_dir, _found(run_dir))


def _true_k(p: Params):
    labels = _read(*_data_key(p)).labels
    return None if labels is None else len(np.unique(labels))


def _stacked(tables: dict) -> pd.DataFrame:
    """model → table, as one table with ``model`` first."""
    return pd.concat([t.assign(model=m)[["model", *t.columns]] for m, t in tables.items()],
                     ignore_index=True)


def _projection(key: tuple, s: Settings, tfidf: bool, k: int, seed: int) -> pd.DataFrame:
    """Two principal components of (a random sample of at most 5000 of) the objects, with
    the clustering of all objects at k (as ``OrderSelector.labels_``) and the known
    labels."""
    from mtc_cli.selection.projection import pca_2d

    X = _matrix(*key, s.model, tfidf)
    labels = engine.clustering(X, s, k, seed, _digest(*key, s.model, tfidf))
    rng = np.random.default_rng(0)
    idx = np.sort(rng.choice(X.shape[0], size=min(5000, X.shape[0]), replace=False))
    xy = pca_2d(X[idx])
    out = pd.DataFrame({"pc1": xy[:, 0], "pc2": xy[:, 1], "cluster": labels[idx]})
    labels = _read(*key).labels
    if labels is not None:
        out["label"] = np.asarray(labels)[idx]
    return out


def _spectrum(X) -> pd.DataFrame:
    """The singular values of the data matrix, with Gavish & Donoho's threshold τ."""
    from mtc_cli.core.criteria import hard_threshold
    from mtc_cli.core.models import svd

    sv = svd.fit(np.asarray(X, dtype=np.float64)).s
    return pd.DataFrame({"rank": np.arange(1, len(sv) + 1), "singular_value": sv,
                         "threshold": hard_threshold.threshold(sv, X.shape)})
