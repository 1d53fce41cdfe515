"""``mtc select``: which k? on a user's own data — every criterion that applies to the
model, side by side, with a vote (no paper targets are evaluated here).

The data file is read once per process (:mod:`mtc_cli.core.datasets.user_data`); the work is
split into the tasks of the selection engine (:mod:`mtc_cli.selection.engine`: random
halves, the fit on all objects, reference data sets), so that the runner caches,
parallelises and resumes it as any experiment. A task's key holds the digest of the matrix
the criteria see, not the file's bytes: the same numbers in another format, or given to
``OrderSelector``, are the same tasks with the same generators. Where the file is and how it
is read is the task's ``location``, outside its key.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from mtc_cli.core.datasets.formats import FORMATS
from mtc_cli.core.errors import MtcError
from mtc_cli.core.files import file_sha256
from mtc_cli.core.models.gmm import COVARIANCE_TYPES
from mtc_cli.run.experiment import Experiment
from mtc_cli.run.params import param
from mtc_cli.run.tasking import LOCATION
from mtc_cli.selection import auto, choice, engine, voting
from mtc_cli.selection.catalog import AUTO_MODELS, CLUSTERING, CRITERIA, MODELS
from mtc_cli.selection.settings import Settings, check_data, make_settings, parse_range

#: the model a kind of input counts by default
DEFAULT_MODEL = {"table": "gmm", "sparse": "spkmeans", "image": "svd", "boolean": "boolean"}
#: Params keys passed on to :class:`~mtc_cli.selection.settings.Settings` as they are
OPTIONS = ("splits", "references", "clest_references", "clest_splits", "n_init",
           "covariance_type", "max_items", "n_random", "ps_threshold", "train_fraction",
           "holdout", "permutations", "max_assignments", "coverage", "increment_tol",
           "beta_factor")


@dataclass(frozen=True)
class Params:
    data: Path | None = param(None, help="the data file: CSV/TSV, NPY/NPZ, Matrix Market "
                                         ".mtx, an image, or a user–permission list")
    format: str | None = param(None, help="file format (default: from the suffix)",
                               choices=list(FORMATS))
    label_column: str | None = param(None, help="column of known labels: the true k is "
                                                "reported beside every choice, never used")
    train_labels: str | None = param(None, help="column of training labels for the PAC-MDL "
                                                "bound (empty cells: unlabelled objects)")
    columns: list[str] | None = param(None, help="feature columns to keep (default: all)")
    drop: list[str] = param([], help="feature columns to leave out")
    header: bool | None = param(None, help="CSV/TSV header row (default: detected)")
    sep: str | None = param(None, help="CSV/TSV field separator, one character or \\t "
                                       "(default: comma for CSV, tab for TSV)")
    dropna: bool = param(False, help="drop rows with missing or non-finite values")
    standardize: bool = param(False, help="z-score every feature column first")
    patch: int = param(8, help="images: side of the square patches (rows of X)", min=1)
    max_pixels: int = param(50_000_000, help="images: largest number of pixels read", min=1)
    tfidf: bool = param(True, help="spkmeans: tf-idf weighting of the counts before the "
                                   "rows are L2-normalised")
    model: str | None = param(None, help="what k counts (default: gmm for tables, spkmeans "
                                         "for .mtx, svd for images, boolean for 0/1 data); "
                                         "auto: the clustering algorithm of lowest "
                                         "normalised stability and its k",
                              choices=[*MODELS, "auto"])
    k: str | None = param(None, help="range of k, LO..HI (default 1..10; svd: every rank "
                                     "up to 100)")
    criteria: list[str] | None = param(None, help="criteria to compute (default: all that "
                                                  "apply to the model)",
                                       choices=list(CRITERIA))
    splits: int = param(10, help="random splits into halves (MTC, capacity, stability, "
                                 "prediction strength; PAC-MDL train/test splits)", min=1)
    references: int = param(10, help="gap statistic: uniform reference data sets (B)", min=2)
    clest_references: int = param(5, help="Clest: uniform reference data sets", min=1)
    clest_splits: int = param(5, help="Clest: learning/test splits per data set", min=1)
    n_init: int | None = param(None, help="restarts of every k-means and GMM fit, the "
                                          "best objective kept (default: by model, kmeans "
                                          "3, gmm 1, spkmeans 1)", min=1)
    covariance_type: str = param("full", help="gmm: covariance model",
                                 choices=list(COVARIANCE_TYPES))
    max_items: int = param(2000, help="above this many objects, a random sample of this "
                                      "size serves the silhouette (all pairwise distances), "
                                      "the capacity's nearest-neighbour alignment, the gap "
                                      "statistic and Clest (their reference sets)", min=10)
    n_random: int = param(20, help="stability: random labellings per baseline", min=1)
    ps_threshold: float = param(0.8, help="prediction strength threshold", min=0.0, max=1.0)
    train_fraction: float = param(0.5, help="PAC-MDL with every row labelled: the share of "
                                            "labels kept for training", min=0.01, max=0.99)
    holdout: float = param(0.5, help="bi-cross-validation: held-out share of rows and "
                                     "of columns", min=0.01, max=0.99)
    permutations: int = param(20, help="bi-cross-validation: random permutations", min=1)
    max_assignments: int = param(2, help="boolean: most roles of one user (MAC)", min=1)
    coverage: float = param(0.8, help="boolean: Molloy's coverage rule threshold", min=0.0,
                            max=1.0)
    increment_tol: float = param(0.001, help="boolean: Molloy's increment rule threshold",
                                 min=0.0)
    beta_factor: float = param(0.75, help="kmeans/spkmeans MTC: β = factor / R(s¹, X¹, 1)",
                               min=0.0)


def source(p: Params) -> dict:
    """What the data matrix depends on: the file's digest and every reading option (not
    its location: the same data read the same way gives the same results anywhere)."""
    path = location(p)
    return {"sha256": file_sha256(path), "format": p.format, "label_column": p.label_column,
            "train_labels": p.train_labels, "columns": p.columns, "drop": list(p.drop),
            "header": p.header, "sep": p.sep, "dropna": p.dropna, "standardize": p.standardize,
            "patch": p.patch, "max_pixels": p.max_pixels}


def location(p: Params) -> str:
    """Where the data file is (a task's ``location``, outside its cache key)."""
    if p.data is None:
        raise MtcError("key 'data': a data file is required")
    path = Path(p.data)
    if not path.is_file():
        raise MtcError(f"{path}: data file not found")
    return str(path.resolve())


def _key(s: dict) -> tuple:
    return tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in sorted(s.items()))


def _data_key(p: Params) -> tuple:
    return _key(source(p)), location(p)


@lru_cache(maxsize=4)
def _read(key: tuple, path: str):
    from mtc_cli.core.datasets import user_data

    s = dict(key)
    return user_data.load(Path(path), format=s["format"], label_column=s["label_column"],
                          train_labels=s["train_labels"],
                          columns=list(s["columns"]) if s["columns"] is not None else None,
                          drop=list(s["drop"]), header=s["header"], sep=s["sep"],
                          dropna=s["dropna"],
                          standardize=s["standardize"], patch=s["patch"],
                          max_pixels=s["max_pixels"])


@lru_cache(maxsize=4)
def _matrix(key: tuple, path: str, model: str, tfidf: bool):
    """The matrix the model sees: tf-idf and unit rows for ``spkmeans``; dense otherwise."""
    X = _read(key, path).X
    if model == "spkmeans":
        import scipy.sparse as sp

        from mtc_cli.selection.fitting import unit_rows

        if tfidf:
            from sklearn.feature_extraction.text import TfidfTransformer

            X = TfidfTransformer(norm=None).fit_transform(sp.csr_matrix(X))
        X = unit_rows(sp.csr_matrix(X) if sp.issparse(X) else X)
    return engine.canonical(X)


@lru_cache(maxsize=4)
def _digest(key: tuple, path: str, model: str, tfidf: bool) -> str:
    """The digest of the matrix the model sees, with the training labels if read
    (:func:`mtc_cli.selection.engine.data_digest`)."""
    train = _read(key, path).train_labels if dict(key)["train_labels"] else None
    return engine.data_digest(_matrix(key, path, model, tfidf), train)


def model_of(p: Params) -> str:
    return p.model or DEFAULT_MODEL[_read(*_data_key(p)).kind]


def settings(p: Params, model: str | None = None) -> Settings:
    """The selection a config asks for (of ``model``, one algorithm of ``auto``), validated
    against the data."""
    data = _read(*_data_key(p))
    model = model or model_of(p)
    check_data(data.X, model, data.source)
    k_range = None if p.k is None else parse_range(p.k)
    options = {f: getattr(p, f) for f in OPTIONS}
    criteria = p.criteria
    if p.model == "auto" and criteria is not None:  # those that apply, and the stability
        criteria = [c for c in dict.fromkeys([*criteria, "stability"])
                    if model in CRITERIA[c].models]
    return make_settings(model, k_range, criteria, n=data.n_items, d=data.n_features,
                         train_labels=data.train_labels if p.train_labels else None,
                         **options)


def selections(p: Params) -> dict[str, Settings]:
    """model → its :class:`Settings`: one model, or every algorithm of ``auto``
    (:data:`~mtc_cli.selection.catalog.AUTO_MODELS`) that takes the data."""
    if p.model == "auto":
        return auto_selections(p)[0]
    return {model_of(p): settings(p)}


def auto_selections(p: Params) -> tuple[dict[str, Settings], dict[str, str]]:
    """The algorithms of ``auto`` whose data check takes the data, with their
    :class:`Settings`, and why each other one is left out (its refusal, e.g. a GMM on
    variances its regularisation cannot fit); the first refusal if none takes them."""
    taken, left = {}, {}
    for m in AUTO_MODELS:
        try:
            taken[m] = settings(p, m)
        except MtcError as exc:
            left[m] = str(exc)
    if not taken:
        raise MtcError(next(iter(left.values())))
    return taken, left


_LAST: list = []


def _summaries(rows: pd.DataFrame, p: Params, true_k=None) -> dict:
    """model → (summary, curves) of :func:`mtc_cli.selection.choice.summarize`, computed once
    for the summary and the tables of the same rows."""
    if _LAST and _LAST[0] is rows and _LAST[1] == (p, true_k):
        return _LAST[2]
    out = {}
    for model, s in selections(p).items():
        own = rows[rows["model"] == model] if p.model == "auto" else rows
        out[model] = choice.summarize(own, s.criteria, k_lo=s.k_lo, k_hi=s.k_hi, model=model,
                                      true_k=true_k, ps_threshold=s.ps_threshold,
                                      coverage=s.coverage, increment_tol=s.increment_tol)
    _LAST[:] = [rows, (p, true_k), out]
    return out


def _voted(summary: pd.DataFrame, s: Settings) -> pd.DataFrame:
    return voting.decide(choice.choices(summary), voting.rule_for(s.model, s.criteria),
                         s.k_hi)[1]


class Select(Experiment):
    name = "select"
    description = "Which k? Every criterion on your own data, side by side, with a vote"
    #: what the summary and the figure import (scikit-learn through Clest; kneed, which
    #: imports scipy.signal and matplotlib, for the knee), imported by
    #: ``mtc_cli.run.pipeline.preload`` while the workers compute
    summary_modules = ("mtc_cli.selection.choice", "mtc_cli.core.criteria.clest", "kneed",
                       "mtc_cli.selection.figure")
    Params = Params
    condition = ()

    def check(self, p: Params) -> None:
        selections(p)

    def run_name(self, p: Params) -> str:
        """``<data stem>-<model>``: the default run directory under results/select/."""
        return f"{Path(p.data).name.split('.')[0]}-{model_of(p)}"

    def paper_targets(self, p: Params) -> bool:
        return False

    def tasks(self, p: Params) -> list[dict]:
        key, path = _data_key(p)
        model = model_of(p)
        # with ``auto``, rows say their model; outside the task's key (as the file's
        # location), so that the tasks are those of each model alone and of OrderSelector
        where = {"path": path, "read": dict(key), "tfidf": p.tfidf,
                 "rows_name_model": model == "auto"}
        return [{**t, LOCATION: where}
                for m, s in selections(p).items()
                for t in engine.tasks(s, _digest(key, path, m, p.tfidf))]

    def run_task(self, task: dict, rng: np.random.Generator) -> list[dict]:
        from mtc_cli.selection.tasks import run_task

        where = task[LOCATION]
        key, path = _key(where["read"]), where["path"]
        if _digest(key, path, task["model"], where["tfidf"]) != task["data"]:
            raise MtcError(f"{path}: the data changed since this run was planned; run the "
                           "command again")
        X = _matrix(key, path, task["model"], where["tfidf"])
        rows = run_task(X, task, rng, train_labels=_read(key, path).train_labels)
        return ([{**r, "model": task["model"]} for r in rows]
                if where.get("rows_name_model") else rows)

    def summarize(self, rows: pd.DataFrame, p: Params) -> pd.DataFrame:
        """One row per criterion (``auto``: per algorithm and criterion, ``model`` first)."""
        parts = _summaries(rows, p, _true_k(p))
        if p.model != "auto":
            return next(iter(parts.values()))[0]
        return pd.concat([summary.assign(model=m)[["model", *summary.columns]]
                          for m, (summary, _) in parts.items()], ignore_index=True)

    tables_read_seed = True

    def tables(self, rows, summary, p: Params, *, seed: int) -> dict:
        """``curves``: every criterion's curve over k; ``vote``: the tally (ties marked);
        ``projection``: a 2-D PCA view of (at most 5000 of) the objects with the clustering
        at the voted k (clustering models; :func:`mtc_cli.selection.engine.clustering`
        with the run's seed), or ``spectrum``: the singular values (svd, boolean). ``auto``:
        curves and votes of every algorithm (``model`` first), ``auto``: the decision
        (:func:`mtc_cli.selection.auto.decide`), ``stability``: each algorithm's S(k)/S_perm(k),
        and the projection of the winner's clustering at its voted k."""
        parts = _summaries(rows, p, _true_k(p))
        models = selections(p)
        votes = {m: _voted(parts[m][0], s) for m, s in models.items()}
        key = _data_key(p)
        if p.model == "auto":
            curves = {m: auto.normalised_stability(rows[rows["model"] == m]) for m in models}
            decision = auto.decide(curves, {m: _k_of(v) for m, v in votes.items()})
            out = {"curves": _stacked({m: c for m, (_, c) in parts.items()}),
                   "vote": _stacked(votes), "auto": decision,
                   "stability": pd.concat([pd.DataFrame({"model": m, "k": c.index,
                                                         "value": c.to_numpy()})
                                           for m, c in curves.items()], ignore_index=True)}
            best, k = auto.winner(decision)
            if best is not None and np.isfinite(k):
                out["projection"] = _projection(key, models[best], p.tfidf, int(k), seed)
            return out
        (s,) = models.values()
        vote = votes[s.model]
        out = {"curves": parts[s.model][1], "vote": vote}
        if s.model in CLUSTERING and np.isfinite(_k_of(vote)):
            out["projection"] = _projection(key, s, p.tfidf, int(_k_of(vote)), seed)
        else:
            out["spectrum"] = _spectrum(_matrix(*key, s.model, p.tfidf))
        return out

    def plot(self, rows, summary, p: Params, outdir) -> list:
        from mtc_cli.selection import figure

        outdir = Path(outdir)
        data = _read(*_data_key(p))
        extra = {name: pd.read_csv(outdir / f"{name}.csv")
                 for name in ("projection", "spectrum", "auto", "stability")
                 if (outdir / f"{name}.csv").is_file()}
        size = f"{data.n_items} objects × {data.n_features} features"
        if p.model == "auto":
            s = next(iter(selections(p).values()))
            title = (f"{data.source}: the clustering algorithm and its k (auto), "
                     f"k = {s.k_lo}..{s.k_hi}, {size}")
            return [figure.save_auto_figure(extra["stability"], extra["auto"],
                                            extra.get("projection"), title,
                                            outdir / "select.png")]
        s = settings(p)
        title = f"{data.source}: {MODELS[s.model]}, k = {s.k_lo}..{s.k_hi}, {size}"
        return [figure.save_figure(pd.read_csv(outdir / "curves.csv"), summary,
                                   pd.read_csv(outdir / "vote.csv"), extra, title,
                                   outdir / "select.png")]

    def report(self, summary: pd.DataFrame, p: Params, run_dir: Path) -> str:
        from mtc_cli.selection.output import auto_report, terminal_report

        data = _read(*_data_key(p))
        vote = pd.read_csv(Path(run_dir) / "vote.csv")
        if p.model == "auto":
            taken, left = auto_selections(p)
            return auto_report(summary, taken, data, vote,
                               pd.read_csv(Path(run_dir) / "auto.csv"), left)
        return terminal_report(summary, settings(p), data, vote)

    def summary_json(self, outcome) -> dict:
        """The selection of a finished run as a JSON-able dict (``mtc select --json``)."""
        from mtc_cli.selection.output import auto_json, summary_json

        p = outcome.config.params
        run_dir = Path(outcome.run_dir)
        data = _read(*_data_key(p))
        vote = pd.read_csv(run_dir / "vote.csv")
        if p.model == "auto":
            taken, left = auto_selections(p)
            return auto_json(outcome.summary, taken, data, vote,
                             pd.read_csv(run_dir / "auto.csv"), run_dir, left)
        return summary_json(outcome.summary, settings(p), data, vote, run_dir)


def _true_k(p: Params):
    labels = _read(*_data_key(p)).labels
    return None if labels is None else len(np.unique(labels))


def _k_of(vote: pd.DataFrame) -> float:
    """The voted k of a vote table (NaN: none)."""
    voted = vote.loc[vote["voted"], "k"]
    return float(voted.iloc[0]) if len(voted) else np.nan


def _stacked(tables: dict) -> pd.DataFrame:
    """model → table, as one table with ``model`` first."""
    return pd.concat([t.assign(model=m)[["model", *t.columns]] for m, t in tables.items()],
                     ignore_index=True)


def _projection(key: tuple, s: Settings, tfidf: bool, k: int, seed: int) -> pd.DataFrame:
    """Two principal components of (a random sample of at most 5000 of) the objects, with
    the clustering of all objects at k (as ``OrderSelector.labels_``) and the known
    labels."""
    from mtc_cli.selection.figure import pca_2d

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


experiment = Select()
