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
from mtc_cli.selection.settings import CARRIED, Settings, check_data, make_settings, parse_range

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
        self.data, self.options, self.tfidf = data, options, tfidf
        self._store = {} if store is None else store
        self.model = options.model or (answer.default_model() if data.kind == "table"
                                       else DEFAULT_MODEL[data.kind])
        self.auto = self.model == "auto"
        self.settings, self.left_out = self._all_settings()
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
        return make_settings(model, None if o.k is None else parse_range(o.k), criteria,
                             n=data.n_items, d=data.n_features, train_labels=self.train_labels,
                             **{f.name: getattr(o, f.name) for f in CARRIED})

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

    def run(self, seed: int, *, n_jobs: int = 1) -> dict:
        """model → the rows of its tasks, computed in this process, every model's tasks in
        one pool, with the runner's progress on stderr once it runs a few seconds
        (:func:`mtc_cli.selection.engine.run_all`)."""
        return engine.run_all({m: (self.matrix(m), s) for m, s in self.settings.items()},
                              seed, train_labels=self.train_labels, n_jobs=n_jobs,
                              progress=f"select ({self.model})")

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
        parts = {m: choice.summarize(by_model[m], s, true_k=self.true_k)
                 for m, s in self.settings.items()}
        first = next(iter(self.settings))
        found, tallies, decision, said = answer.find(
            self.matrix(first), by_model, {m: p[0] for m, p in parts.items()}, self.settings,
            auto_mode=self.auto, curves={m: p[1] for m, p in parts.items()},
            digest=self.digest(first))
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


def prepared(store: dict, data, model: str, tfidf: bool) -> tuple:
    """(the matrix ``model`` computes on, its digest), kept in ``store`` (a dict per data set:
    each made once): the data's matrix in its :func:`~mtc_cli.selection.engine.canonical`
    form — for spherical k-means the rows L2-normalised, after tf-idf if ``tfidf`` — and the
    digest of it and of the training labels (:func:`mtc_cli.selection.engine.data_digest`)."""
    key = (model, tfidf)
    if key not in store:
        X = data.X
        if ALGORITHMS[model].metric == "cosine":
            import scipy.sparse as sp

            from mtc_cli.selection.fitting import unit_rows

            if tfidf:
                from sklearn.feature_extraction.text import TfidfTransformer

                X = TfidfTransformer(norm=None).fit_transform(sp.csr_matrix(X))
            X = unit_rows(sp.csr_matrix(X) if sp.issparse(X) else X)
        X = engine.canonical(X)
        store[key] = (X, engine.data_digest(X, data.train_labels))
    return store[key]
