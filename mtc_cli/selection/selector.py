"""One selection, computed once: from the data and the options (:class:`Selection`) each
model's Settings, validated against the data; the tasks; and, from the tasks' rows, each
model's summary, every tally and the answer (:class:`Derived`). ``mtc select`` (the
``select`` experiment) and :class:`~mtc_cli.selection.estimator.OrderSelector` both go
through it: the first hands the tasks to the runner (cache, workers, resume), the second
runs them in-process (:func:`mtc_cli.selection.engine.run`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from mtc_cli.core.errors import MtcError
from mtc_cli.selection import answer, auto, choice, engine
from mtc_cli.selection.catalog import ALGORITHMS, CRITERIA, auto_models, models_of
from mtc_cli.selection.options import Options
from mtc_cli.selection.settings import (
    CARRIED,
    Settings,
    check_data,
    default_range,
    make_settings,
    parse_range,
)

#: the model a kind of input counts by default; a table's is the answer's default, chosen
#: on the league of families (:func:`mtc_cli.selection.answer.default_model`)
DEFAULT_MODEL = {"sparse": "spkmeans", "image": "svd", "boolean": "boolean"}


@dataclass(frozen=True)
class Derived:
    """What a selection's rows give: per model its ``summaries`` (one row per criterion,
    :func:`mtc_cli.selection.choice.summarize`), ``curves`` and ``tallies``; the ``answer``
    with its doubt; ``auto``'s decision table (``decision``, None for one model), each
    algorithm's S(k)/S_perm(k) (``stability``) and what the test of k = 1 found
    (``said``, with each test's evidence)."""

    summaries: dict
    curves: dict
    tallies: dict
    answer: answer.Answer
    decision: pd.DataFrame | None
    stability: dict
    said: answer.Said


class Selection:
    """The selection ``options`` (:class:`~mtc_cli.selection.options.Options`) asks of
    ``data`` (a :class:`~mtc_cli.core.datasets.user_data.UserData`): ``model`` (an
    algorithm, or ``auto``), ``settings`` (model → its :data:`Settings`, made and checked
    once: every algorithm of auto's roster that takes the data) and ``left_out`` (algorithm
    → why it does not take them). ``tfidf``: the counts of spherical k-means tf-idf
    weighted before its rows are L2-normalised. A bad option or data is an
    :class:`~mtc_cli.core.errors.MtcError` naming the key."""

    def __init__(self, data, options: Options, *, tfidf: bool = False,
                 store: dict | None = None):
        self.options, self.tfidf = options, tfidf
        self._store = {} if store is None else store
        self.model = options.model or (answer.default_model() if data.kind == "table"
                                       else DEFAULT_MODEL[data.kind])
        self.auto = self.model == "auto"
        self.kept, notes = _directions(data, self.model)
        if self.kept is not None:
            data = _rows(data, self.kept)
        #: the number of distinct rows (None for a sparse matrix)
        self.distinct = _distinct(data.X)
        if self.distinct is not None and self.distinct < data.n_items:
            notes.append(f"{data.n_items} rows, {self.distinct} distinct: "
                         f"{data.n_items - self.distinct} repeat an earlier row exactly")
        self.data = replace(data, notes=(*data.notes, *notes))
        self.settings, self.left_out = self._all_settings()
        hi = max(s.k_hi for s in self.settings.values())
        if self.distinct is not None and hi == self.distinct:
            self.data = replace(self.data, notes=(
                *self.data.notes, f"k offered up to {hi}, the number of distinct rows: more "
                                  "clusters would split copies of one row"))
        self._derived: tuple = (None, None)

    @property
    def train_labels(self):
        return self.data.train_labels

    def _all_settings(self) -> tuple[dict, dict]:
        if not self.auto:
            return {self.model: self._settings(self.model)}, {}
        apart = [c for c in self.options.criteria or ()
                 if not any(CRITERIA[c].applies(ALGORITHMS[m]) for m in auto_models())]
        if apart:
            raise MtcError(f"--criteria: {', '.join(apart)} does not apply to a clustering "
                           f"algorithm, which auto compares (it does to: "
                           f"{', '.join(sorted(models_of(apart[0])))}); pick --model")
        taken, left = {}, {}
        for m in auto_models():
            try:
                taken[m] = self._settings(m)
            except MtcError as exc:  # an algorithm that does not take the data
                left[m] = str(exc)
        if not taken:
            raise MtcError(next(iter(left.values())))
        if self.options.criteria is None:  # what the answer reads, no more
            rule = answer.shipped_rule()
            tested = rule.tested(taken)
            taken = {m: replace(s, criteria=rule.reads(m, s.criteria, tested=m == tested))
                     for m, s in taken.items()}
        return taken, left

    def _settings(self, model: str) -> Settings:
        """The Settings of ``model`` on the data, checked (:func:`check_data`,
        :func:`make_settings`)."""
        o, data = self.options, self.data
        check_data(data.X, model, data.source)
        criteria = o.criteria
        if self.auto and criteria is not None:  # those that apply, and the stability
            criteria = [c for c in dict.fromkeys([*criteria, "stability"])
                        if CRITERIA[c].applies(ALGORITHMS[model])]
        return make_settings(model, self._k_range(model), criteria, n=data.n_items,
                             d=data.n_features, train_labels=self.train_labels,
                             **{f.name: getattr(o, f.name) for f in CARRIED})

    def _k_range(self, model: str) -> tuple[int, int] | None:
        """The k range asked (None: the model's default), at most the number of distinct
        rows: more clusters, a larger rank or more roles than distinct rows would only
        split copies of one row apart."""
        k = None if self.options.k is None else parse_range(self.options.k)
        m = self.distinct
        if m is None:
            return k
        lo, hi = k or default_range(model, self.data.n_items, self.data.n_features)
        if lo >= m and hi > m:
            raise MtcError(f"key 'k': the {self.data.n_items} rows hold {m} distinct ones: "
                           f"k = {lo}..{hi} would split copies of one row apart; offer k "
                           f"up to {m}, such as 1..{m}")
        return (lo, min(hi, m)) if k is not None or hi > m else None

    # --- the matrix each model sees, and the tasks -------------------------------------

    def matrix(self, model: str):
        """The matrix ``model`` computes on (:func:`prepared`)."""
        return prepared(self._store, self.data, model, self.tfidf)[0]

    def digest(self, model: str) -> str:
        """The digest of the matrix ``model`` sees (:func:`prepared`)."""
        return prepared(self._store, self.data, model, self.tfidf)[1]

    def tasks(self) -> list[dict]:
        """Every model's tasks, each naming the matrix it runs on."""
        return [t for m, s in self.settings.items() for t in engine.tasks(s, self.digest(m))]

    def task_bytes(self) -> float:
        """What one task holds: the matrix, its halves and a few working copies of it (8
        bytes a number), the blocks of nearest-neighbour distances, and a GMM's k
        covariances of d × d."""
        n, d = self.data.n_items, self.data.n_features
        k = max(s.k_hi for s in self.settings.values())
        covariances = 8 * k * d * d * 4 if self.model in ("gmm", "auto") else 0
        return 8 * n * d * 6 + 16 * 2**20 + covariances

    def workers(self, n_jobs: int) -> int:
        """The worker processes of ``n_jobs`` (-1: every core, -2 all but one, …) as ``mtc
        select``'s ``-j`` allows them (:func:`mtc_cli.run.workers.count`: at most the
        cores, the tasks and what memory holds), a warning saying why when fewer."""
        import warnings

        from mtc_cli.run.workers import cores, count

        requested = max(cores() + 1 + n_jobs, 1) if n_jobs < 0 else n_jobs
        n, why = count(requested, len(self.tasks()), self.task_bytes())
        if n < requested:
            warnings.warn(f"n_jobs={n_jobs}: {n} worker{'s' * (n != 1)}, as {why}",
                          stacklevel=3)
        return n

    def run(self, seed: int, *, n_jobs: int = 1) -> dict:
        """model → the rows of its tasks, computed in this process by :meth:`workers` of
        ``n_jobs``, every model's tasks in one pool, with the runner's progress on stderr
        once it runs a few seconds (:func:`mtc_cli.selection.engine.run_all`)."""
        return engine.run_all({m: (self.matrix(m), s) for m, s in self.settings.items()},
                              seed, train_labels=self.train_labels,
                              n_jobs=self.workers(n_jobs), progress=f"select ({self.model})")

    def rows_by_model(self, rows: pd.DataFrame) -> dict:
        """The rows of a run of every model (a ``model`` column under ``auto``), by model."""
        if not self.auto:
            return {self.model: rows}
        return {m: rows[rows["model"] == m] for m in self.settings}

    # --- from the rows: summaries, tallies and the answer -------------------------------

    @property
    def true_k(self) -> int | None:
        labels = self.data.labels
        return None if labels is None else len(np.unique(np.asarray(labels).astype(str)))

    def derive(self, rows) -> Derived:
        """The summaries, tallies and answer of ``rows`` (the run's rows, or model → its
        rows); computed once for the same rows object."""
        if self._derived[0] is rows:
            return self._derived[1]
        by_model = rows if isinstance(rows, dict) else self.rows_by_model(rows)
        parts = {m: choice.summarize(by_model[m], s, true_k=self.true_k,
                                     distinct=self.distinct)
                 for m, s in self.settings.items()}
        first = next(iter(self.settings))
        found, tallies, decision, said = answer.find(
            self.matrix(first), by_model, {m: p[0] for m, p in parts.items()}, self.settings,
            auto_mode=self.auto, curves={m: p[1] for m, p in parts.items()},
            digest=self.digest(first), distinct=self.distinct)
        stability = ({m: auto.normalised_stability(by_model[m]) for m in self.settings}
                     if self.auto else {})
        derived = Derived({m: p[0] for m, p in parts.items()},
                          {m: p[1] for m, p in parts.items()}, tallies, found, decision,
                          stability, said)
        self._derived = (rows, derived)
        return derived

    def labels(self, model: str, k: int, seed: int) -> np.ndarray:
        """The clustering of all objects at ``k`` by ``model`` (``labels_``, the projection
        of ``mtc select``: :func:`mtc_cli.selection.engine.clustering`)."""
        return engine.clustering(self.matrix(model), self.settings[model], k, seed,
                                 self.digest(model))


def _directions(data, model: str) -> tuple:
    """(the rows a cosine model computes on — those with a direction, not all zero — or None
    for every row, the notes saying which were left out)."""
    if model == "auto" or ALGORITHMS[model].metric != "cosine":
        return None, []
    norms = np.asarray(abs(data.X).sum(axis=1)).ravel()
    kept = norms > 0
    if kept.all() or not kept.any():  # none: the data check refuses them
        return None, []
    gone = int((~kept).sum())
    return kept, [f"{gone} all-zero row{'s' * (gone != 1)} left out (first: row "
                  f"{int(np.argmin(kept)) + 1}): {'they have' if gone != 1 else 'it has'} no "
                  f"direction for {model}; {'their' if gone != 1 else 'its'} label is −1"]


def _rows(data, kept):
    """``data`` with only the rows ``kept`` (their labels and training labels too)."""
    def subset(values):
        return None if values is None else np.asarray(values)[kept]

    return replace(data, X=data.X[kept], labels=subset(data.labels),
                   train_labels=subset(data.train_labels))


def _distinct(X) -> int | None:
    import scipy.sparse as sp

    from mtc_cli.core.criteria.ties import distinct_rows

    return None if sp.issparse(X) else distinct_rows(X)


def prepared(store: dict, data, model: str, tfidf: bool) -> tuple:
    """(the matrix ``model`` computes on, its digest, the training labels of its rows), kept
    in ``store`` (a dict per data set: each made once): the data's matrix in its
    :func:`~mtc_cli.selection.engine.canonical` form — for spherical k-means the all-zero
    rows left out (:func:`_directions`) and the others L2-normalised, after tf-idf if
    ``tfidf`` — and the digest of it and of the training labels
    (:func:`mtc_cli.selection.engine.data_digest`)."""
    key = (model, tfidf)
    if key not in store:
        kept, _ = _directions(data, model)
        if kept is not None:
            data = _rows(data, kept)
        X = data.X
        if ALGORITHMS[model].metric == "cosine":
            import scipy.sparse as sp

            from mtc_cli.selection.fitting import unit_rows

            if tfidf:
                from sklearn.feature_extraction.text import TfidfTransformer

                X = TfidfTransformer(norm=None).fit_transform(sp.csr_matrix(X))
            X = unit_rows(sp.csr_matrix(X) if sp.issparse(X) else X)
        X = engine.canonical(X)
        store[key] = (X, engine.data_digest(X, data.train_labels), data.train_labels)
    return store[key]
