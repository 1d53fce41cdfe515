"""``OrderSelector``: the selection of ``mtc select`` as a scikit-learn style estimator."""

from __future__ import annotations

import numbers
from dataclasses import replace

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_consistent_length, validate_data

from mtc_cli.core.errors import MtcError
from mtc_cli.selection import answer, auto, choice, engine
from mtc_cli.selection.catalog import AUTO_MODELS, CLUSTERING, CRITERIA, MODELS
from mtc_cli.selection.settings import check_data, make_settings, parse_range


class DataRefused(ValueError):
    """The data do not suit the model (its check before any fit, one line saying why)."""


class OrderSelector(BaseEstimator):
    """Choose the model order k with every criterion that applies to ``model`` and vote.

    Parameters are checked at ``fit`` as scikit-learn does: a bad one is a ValueError naming
    it; data the model does not take (e.g. every row identical) are a :class:`DataRefused`,
    in the words of ``mtc select``.

    Parameters
    ----------
    model : None or {"gmm", "kmeans", "spkmeans", "ward", "average", "complete", \
"single", "spectral", "pathbased", "hdbscan", "svd", "boolean", "auto"}
        What k counts: Gaussian components, k-means clusters, spherical k-means clusters
        (rows are L2-normalised; apply tf-idf yourself), the clusters of an agglomerative,
        spectral, path-based or HDBSCAN hierarchy, the rank of a truncated SVD, or the roles
        of a Boolean factorization (0/1 data). ``"auto"``: every algorithm of
        :data:`~mtc_cli.selection.catalog.AUTO_MODELS`, one chosen by the answer rule
        (:mod:`mtc_cli.selection.answer`) and its vote the answer. ``None``: the answer the
        league of families found best (``mtc select``'s default; spherical k-means for
        sparse X).
    k : int, (lo, hi), "lo..hi" or a contiguous range/list of ints
        The k offered: an int K means 1..K, a tuple lo..hi (both included), a str as ``mtc
        select --k`` ("K" alone: 1..K as well); ``None``: 1..10 (svd: every rank up to 100),
        at most half the objects; a range of one k is refused (nothing to choose).
    criteria : "all" or list of str
        Names from :data:`mtc_cli.selection.CRITERIA`; "all": every one that applies (with
        ``auto``: what its answer reads of each algorithm, :func:`answer.read_by`).
    splits, references, clest_references, clest_splits, n_init, covariance_type,
    max_items : as the keys of ``mtc select`` (``configs/select_blobs.yaml``); ``n_init``
        None: the model's default (:data:`mtc_cli.selection.settings.N_INIT`).
    random_state : int ≥ 0, None, numpy RandomState or Generator
        An int is the seed; each task's generator is spawned from it, the task and the
        matrix (:mod:`mtc_cli.selection.engine`), as in ``mtc select --seed``: the same seed
        and matrix give the same ``results_`` and ``labels_`` as ``mtc select`` on a file
        holding X. Otherwise a seed is drawn from it (None: numpy's global RandomState) at
        each fit; ``random_state_`` keeps it, to repeat the fit.
    n_jobs : int or None
        Worker processes for the tasks (joblib; None: 1, -1: every core); the result does
        not depend on it.

    Attributes
    ----------
    k_ : the answer's k (:func:`mtc_cli.selection.answer.find`: the vote, or 1 where the
    answer rule's test of k = 1 says there is no group structure); ``model_``: the model
    that answers; ``answer_``: the :class:`~mtc_cli.selection.answer.Answer` with its
    doubt; ``candidates_``: the answer and the runner-up (model, k, support: the share of the
    random splits that agree); ``votes_``: {criterion: chosen k};
    ``tally_``: {k: votes cast}; ``summary_``: one row per criterion (chosen k, spread over
    splits, defined range, what it optimises); ``results_``: the tidy rows of every task;
    ``curves_``: each criterion's curve over k; ``labels_``: the clustering of X at ``k_``
    (clustering models); ``true_k_``: distinct values of ``y`` if given (never used);
    ``random_state_``: the int seed of the fit; ``n_features_in_`` (and
    ``feature_names_in_`` for a DataFrame): the columns of X.
    With ``model="auto"``: ``model_`` the algorithm chosen by the answer rule, ``auto_`` the
    decision table (:func:`mtc_cli.selection.auto.decide`), ``selections_`` {algorithm: its fitted
    OrderSelector}, ``left_out_`` {algorithm: why it does not take X (its data check's
    :class:`DataRefused`) or has no finite stability (:func:`mtc_cli.selection.auto.unranked`;
    it stays in ``selections_``)}, and the attributes above those of the winner.
    """

    def __init__(self, model=None, k=None, criteria="all", *, splits=10, references=10,
                 clest_references=5, clest_splits=5, n_init=None, covariance_type="full",
                 max_items=2000, random_state=0, n_jobs=1):
        self.model = model
        self.k = k
        self.criteria = criteria
        self.splits = splits
        self.references = references
        self.clest_references = clest_references
        self.clest_splits = clest_splits
        self.n_init = n_init
        self.covariance_type = covariance_type
        self.max_items = max_items
        self.random_state = random_state
        self.n_jobs = n_jobs

    def fit(self, X, y=None, *, train_labels=None):
        """Compute every criterion on X (array, DataFrame or scipy sparse matrix); the
        attributes of an earlier fit are dropped first.

        ``y``: known labels, only counted into ``true_k_``. ``train_labels``: one label
        per object (None/NaN: unlabelled) for the PAC-MDL bound (Banerjee & Langford)."""
        from mtc_cli.core.datasets.user_data import label_like

        for name in [a for a in vars(self) if a.endswith("_") and not a.startswith("_")]:
            delattr(self, name)
        for name, values in X.items() if isinstance(X, pd.DataFrame) else ():
            if label_like(name, values):
                raise DataRefused(f"column {name!r} of X looks like class labels, not a "
                                  "feature: pass it as y, or drop it from X")
        model = self._model_for(X)
        if model != "auto" and model not in MODELS:
            raise ValueError(f"model must be one of {', '.join(MODELS)}, auto or None; got "
                             f"{self.model!r}")
        if not (self.n_jobs is None or _is_int(self.n_jobs) and self.n_jobs != 0):
            raise ValueError("n_jobs must be None (1), a positive int or a negative one (-1: "
                             f"every core); got {self.n_jobs!r}")
        self.random_state_ = _seed(self.random_state)
        X = validate_data(self, X, accept_sparse="csr" if model == "spkmeans" else False,
                          dtype=np.float64, ensure_min_samples=2)
        for name, values in (("y", y), ("train_labels", train_labels)):
            if values is not None:
                try:
                    check_consistent_length(X, values)
                except (TypeError, ValueError) as exc:
                    raise type(exc)(f"{name} must hold one entry per row of X: {exc}") from None
        if model == "auto":
            return self._fit_auto(X, y, train_labels)
        train = _train_labels(train_labels)
        try:
            check_data(X, model, "X")
            settings = make_settings(
                model, _k_range(self.k),
                None if self.criteria in ("all", None) else list(self.criteria),
                n=X.shape[0], d=X.shape[1], train_labels=train, splits=self.splits,
                references=self.references, clest_references=self.clest_references,
                clest_splits=self.clest_splits, n_init=self.n_init,
                covariance_type=self.covariance_type, max_items=self.max_items)
        except MtcError as exc:
            raise DataRefused(str(exc)) from None
        tested = getattr(self, "_auto_tested", None)  # one algorithm of auto: what it reads
        if tested is not None and self.criteria in ("all", None):
            settings = replace(settings, criteria=answer.read_by(model, settings.criteria,
                                                                 tested=tested))
        if model == "spkmeans":
            from mtc_cli.selection.fitting import unit_rows

            X = unit_rows(X)
        seed = self.random_state_
        self.results_ = engine.run(X, settings, seed, train_labels=train, n_jobs=self.n_jobs)
        true_k = None if y is None else len(np.unique(np.asarray(y).astype(str)))
        self.summary_, self.curves_ = choice.summarize(
            self.results_, settings.criteria, k_lo=settings.k_lo, k_hi=settings.k_hi,
            model=settings.model, true_k=true_k, ps_threshold=settings.ps_threshold,
            coverage=settings.coverage, increment_tol=settings.increment_tol)
        m = settings.model
        found, tallies, _ = answer.find(X, {m: self.results_}, {m: self.summary_},
                                        {m: settings}, auto_mode=False)
        tally = tallies[m]
        self.tally_ = dict(zip(tally["k"].tolist(), tally["votes"].tolist(), strict=True))
        self._answered(found)
        self.votes_ = {c: (int(k) if np.isfinite(k) else None)
                       for c, k in zip(self.summary_["criterion"], self.summary_["selected_k"],
                                       strict=True)}
        self.true_k_ = true_k
        self.settings_ = settings
        if settings.model in CLUSTERING and self.k_ is not None:
            self.labels_ = engine.clustering(X, settings, self.k_, seed,
                                             engine.data_digest(X, train))
        return self

    def _model_for(self, X) -> str:
        """``model``, or by default the league's answer for dense data
        (:func:`mtc_cli.selection.answer.shipped`) and spherical k-means for sparse."""
        if self.model is not None:
            return self.model
        import scipy.sparse as sp

        return "spkmeans" if sp.issparse(X) else answer.shipped()["default_model"]

    def _answered(self, found: answer.Answer) -> None:
        """``k_``, ``model_``, ``answer_`` and ``candidates_`` of the answer ``found``."""
        self.answer_ = found
        self.k_ = int(found.k) if np.isfinite(found.k) else None
        self.model_ = found.model
        self.candidates_ = pd.DataFrame(
            [{"candidate": "answer", "model": found.model, "k": found.k,
              "support": found.support},
             {"candidate": "runner-up", "model": found.runner_up_model,
              "k": found.runner_up_k, "support": found.runner_up_support}])

    def _fit_auto(self, X, y, train_labels):
        """Every algorithm of ``AUTO_MODELS`` with this selector's settings, then the
        decision of :func:`mtc_cli.selection.auto.decide`; the winner's attributes."""
        params = {**self.get_params(), "random_state": self.random_state_}
        fitted, self.left_out_ = {}, {}
        for m in AUTO_MODELS:
            params["model"] = m
            if self.criteria not in ("all", None):  # those that apply, and the stability
                params["criteria"] = [c for c in dict.fromkeys([*self.criteria, "stability"])
                                      if m in CRITERIA[c].models]
            one = OrderSelector(**params)
            one._auto_tested = not fitted  # the test of k = 1 reads the first (k-means)
            try:
                fitted[m] = one.fit(X, y, train_labels=train_labels)
            except DataRefused as exc:  # as the CLI: an algorithm that does not take X
                self.left_out_[m] = str(exc)
        if not fitted:
            raise DataRefused(next(iter(self.left_out_.values())))
        self.selections_ = fitted
        found, tallies, self.auto_ = answer.find(
            X, {m: f.results_ for m, f in fitted.items()},
            {m: f.summary_ for m, f in fitted.items()},
            {m: f.settings_ for m, f in fitted.items()}, auto_mode=True)
        notes = {m: f.summary_.set_index("criterion")["note"].get("stability")
                 for m, f in fitted.items()}
        self.left_out_.update(auto.unranked(self.auto_, notes))
        best = found.model
        if best is not None:
            for name in ("results_", "summary_", "curves_", "votes_", "true_k_", "settings_"):
                setattr(self, name, getattr(fitted[best], name))
            tally = tallies[best]
            self.tally_ = dict(zip(tally["k"].tolist(), tally["votes"].tolist(), strict=True))
        self._answered(found)
        if best is not None and self.k_ is not None:
            s = self.settings_
            self.labels_ = engine.clustering(
                X, s, self.k_, self.random_state_,
                engine.data_digest(X, _train_labels(train_labels)))
        return self

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = self.model in ("spkmeans", None)  # the model that takes CSR
        return tags

    def plot(self, ax=None):
        """Every criterion's curve over k as a row of a heat map, normalised (1 = best), its
        choice boxed, the criteria that vote above the others
        (:func:`mtc_cli.selection.figure.draw_heatmap`)."""
        from mtc_cli.selection.figure import draw_heatmap
        from mtc_cli.selection.voting import rule_for

        if ax is None:
            from mtc_cli.show import plotting

            ax = plotting.figure(1, 1, width=8.0, height=1.2 + 0.22 * len(self.summary_),
                                 layout="constrained")[1][0, 0]
        draw_heatmap(ax, self.curves_, self.summary_,
                     rule_for(self.settings_.model, self.settings_.criteria))
        return ax


def _k_range(k) -> tuple[int, int] | None:
    """``k`` as (lo, hi); a bad ``k`` is a ValueError (a parameter, not the data: auto stops
    there rather than leaving an algorithm out)."""
    if k is None:
        return None
    if isinstance(k, str):
        try:
            return parse_range(k)
        except MtcError:
            pass
    elif _is_int(k):
        if k >= 1:
            return 1, int(k)
    elif isinstance(k, tuple):
        if len(k) == 2 and all(map(_is_int, k)) and 1 <= k[0] <= k[1]:
            return int(k[0]), int(k[1])
    elif isinstance(k, range | list) or (isinstance(k, np.ndarray) and k.ndim == 1):
        values = list(k)
        if values and all(map(_is_int, values)):
            values.sort()
            if values[0] >= 1 and values == list(range(values[0], values[-1] + 1)):
                return int(values[0]), int(values[-1])
    raise ValueError(f"k must be an int K (1..K), (lo, hi), 'lo..hi' or a contiguous range "
                     f"of ints such as range(1, 11), with 1 ≤ lo ≤ hi; got {k!r}")


def _is_int(value) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _seed(random_state) -> int:
    """``random_state`` as the int seed of the tasks: an int ≥ 0 as given, else one drawn
    from a RandomState (None: numpy's global one) or a Generator."""
    if _is_int(random_state) and random_state >= 0:
        return int(random_state)
    top = np.iinfo(np.int32).max
    if random_state is None or isinstance(random_state, np.random.RandomState):
        return int(check_random_state(random_state).randint(top))
    if isinstance(random_state, np.random.Generator):
        return int(random_state.integers(top))
    raise ValueError("random_state must be None, an int ≥ 0, a numpy RandomState or "
                     f"Generator; got {random_state!r}")


def _train_labels(labels):
    if labels is None:
        return None
    values = list(pd.Series(labels, dtype=object))
    return np.array([None if pd.isna(v) else str(v) for v in values], dtype=object)

