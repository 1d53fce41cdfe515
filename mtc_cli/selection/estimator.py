"""``OrderSelector``: the selection of ``mtc select`` as a scikit-learn style estimator."""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator

from mtc_cli.core.errors import MtcError
from mtc_cli.selection import auto, choice, engine, voting
from mtc_cli.selection.catalog import AUTO_MODELS, CLUSTERING, CRITERIA, MODELS
from mtc_cli.selection.settings import check_data, make_settings, parse_range


class DataRefused(ValueError):
    """The data do not suit the model (its check before any fit, one line saying why)."""


class OrderSelector(BaseEstimator):
    """Choose the model order k with every criterion that applies to ``model`` and vote.

    Parameters
    ----------
    model : {"gmm", "kmeans", "spkmeans", "ward", "average", "complete", "single", \
"spectral", "pathbased", "svd", "boolean", "auto"}
        What k counts: Gaussian components, k-means clusters, spherical k-means clusters
        (rows are L2-normalised; apply tf-idf yourself), the clusters of an agglomerative,
        spectral or path-based clustering, the rank of a truncated SVD, or the roles of a
        Boolean factorization (0/1 data). ``"auto"``: every algorithm of
        :data:`~mtc_cli.selection.catalog.AUTO_MODELS`, the one of lowest normalised
        stability chosen (:mod:`mtc_cli.selection.auto`) and its vote the answer.
    k : range, (lo, hi) or "lo..hi"
        Contiguous range of k; ``None``: 1..10 (svd: every rank up to 100), at most half
        the objects.
    criteria : "all" or list of str
        Names from :data:`mtc_cli.selection.CRITERIA`; "all": every one that applies.
    splits, references, clest_references, clest_splits, n_init, covariance_type,
    max_items : as the keys of ``mtc select`` (``configs/select_blobs.yaml``); ``n_init``
        None: the model's default (:data:`mtc_cli.selection.settings.N_INIT`).
    random_state : int
        Seed; each task's generator is spawned from it, the task and the matrix
        (:mod:`mtc_cli.selection.engine`), as in ``mtc select --seed``: the same seed and
        matrix give the same ``results_`` and ``labels_`` as ``mtc select`` on a file
        holding X.
    n_jobs : int
        Worker processes for the tasks (joblib); the result does not depend on it.

    Attributes
    ----------
    k_ : the voted k (:mod:`mtc_cli.selection.voting`); ``votes_``: {criterion: chosen k};
    ``tally_``: {k: votes cast}; ``summary_``: one row per criterion (chosen k, spread over
    splits, defined range, what it optimises); ``results_``: the tidy rows of every task;
    ``curves_``: each criterion's curve over k; ``labels_``: the clustering of X at ``k_``
    (clustering models); ``true_k_``: distinct values of ``y`` if given (never used).
    With ``model="auto"``: ``model_`` the winning algorithm, ``auto_`` the decision table
    (:func:`mtc_cli.selection.auto.decide`), ``selections_`` {algorithm: its fitted
    OrderSelector}, ``left_out_`` {algorithm: why it does not take X (its data check's
    :class:`DataRefused`)}, and the attributes above those of the winner.
    """

    def __init__(self, model="gmm", k=None, criteria="all", *, splits=10, references=10,
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
        """Compute every criterion on X (array, DataFrame or scipy sparse matrix).

        ``y``: known labels, only counted into ``true_k_``. ``train_labels``: one label
        per object (None/NaN: unlabelled) for the PAC-MDL bound (Banerjee & Langford)."""
        from sklearn.utils.validation import check_array

        from mtc_cli.core.datasets.user_data import label_like

        for name, values in X.items() if isinstance(X, pd.DataFrame) else ():
            if label_like(name, values):
                raise DataRefused(f"column {name!r} of X looks like class labels, not a "
                                  "feature: pass it as y, or drop it from X")
        if self.model == "auto":
            return self._fit_auto(X, y, train_labels)
        if self.model not in MODELS:
            raise ValueError(f"model must be one of {', '.join(MODELS)}, auto; got "
                             f"{self.model!r}")
        X = check_array(X, accept_sparse="csr" if self.model == "spkmeans" else False,
                        dtype=np.float64, ensure_min_samples=2)
        train = _train_labels(train_labels, X.shape[0])
        try:
            check_data(X, self.model, "X")
            settings = make_settings(
                self.model, _k_range(self.k),
                None if self.criteria in ("all", None) else list(self.criteria),
                n=X.shape[0], d=X.shape[1], train_labels=train, splits=self.splits,
                references=self.references, clest_references=self.clest_references,
                clest_splits=self.clest_splits, n_init=self.n_init,
                covariance_type=self.covariance_type, max_items=self.max_items)
        except MtcError as exc:
            raise DataRefused(str(exc)) from None
        if self.model == "spkmeans":
            from mtc_cli.selection.fitting import unit_rows

            X = unit_rows(X)
        seed = int(self.random_state)
        self.results_ = engine.run(X, settings, seed, train_labels=train, n_jobs=self.n_jobs)
        true_k = None if y is None else len(np.unique(np.asarray(y).astype(str)))
        self.summary_, self.curves_ = choice.summarize(
            self.results_, settings.criteria, k_lo=settings.k_lo, k_hi=settings.k_hi,
            model=settings.model, true_k=true_k, ps_threshold=settings.ps_threshold,
            coverage=settings.coverage, increment_tol=settings.increment_tol)
        rule = voting.rule_for(settings.model, settings.criteria)
        voted, tally = voting.decide(choice.choices(self.summary_), rule, settings.k_hi)
        self.tally_ = dict(zip(tally["k"].tolist(), tally["votes"].tolist(), strict=True))
        self.k_ = int(voted) if np.isfinite(voted) else None
        self.votes_ = {c: (int(k) if np.isfinite(k) else None)
                       for c, k in zip(self.summary_["criterion"], self.summary_["selected_k"],
                                       strict=True)}
        self.true_k_ = true_k
        self.settings_ = settings
        if settings.model in CLUSTERING and self.k_ is not None:
            self.labels_ = engine.clustering(X, settings, self.k_, seed,
                                             engine.data_digest(X, train))
        return self

    def _fit_auto(self, X, y, train_labels):
        """Every algorithm of ``AUTO_MODELS`` with this selector's settings, then the
        decision of :func:`mtc_cli.selection.auto.decide`; the winner's attributes."""
        params = self.get_params()
        fitted, self.left_out_ = {}, {}
        for m in AUTO_MODELS:
            params["model"] = m
            if self.criteria not in ("all", None):  # those that apply, and the stability
                params["criteria"] = [c for c in dict.fromkeys([*self.criteria, "stability"])
                                      if m in CRITERIA[c].models]
            try:
                fitted[m] = OrderSelector(**params).fit(X, y, train_labels=train_labels)
            except DataRefused as exc:  # as the CLI: an algorithm that does not take X
                self.left_out_[m] = str(exc)
        if not fitted:
            raise DataRefused(next(iter(self.left_out_.values())))
        self.selections_ = fitted
        self.auto_ = auto.decide(
            {m: auto.normalised_stability(f.results_) for m, f in fitted.items()},
            {m: np.nan if f.k_ is None else f.k_ for m, f in fitted.items()})
        best, _ = auto.winner(self.auto_)
        self.model_ = best
        if best is not None:
            for name in ("results_", "summary_", "curves_", "tally_", "k_", "votes_",
                         "true_k_", "settings_", "labels_"):
                if hasattr(fitted[best], name):
                    setattr(self, name, getattr(fitted[best], name))
        return self

    def plot(self, ax=None):
        """Every criterion's curve over k, normalised (1 = best), its choice circled."""
        from mtc_cli.selection.figure import draw_curves

        if ax is None:
            from mtc_cli.show import plotting

            ax = plotting.figure(1, 1, width=7.0, height=4.0)[1][0, 0]
        draw_curves(ax, self.curves_, self.summary_)
        return ax


def _k_range(k):
    if k is None:
        return None
    if isinstance(k, str):
        try:
            return parse_range(k)
        except MtcError as exc:  # a parameter, not the data: auto stops here, as for any k
            raise ValueError(str(exc)) from None
    values = sorted(int(v) for v in (range(k[0], k[1] + 1) if isinstance(k, tuple) else k))
    if not values or values != list(range(values[0], values[-1] + 1)):
        raise ValueError(f"k must be a contiguous range such as range(1, 11), got {k!r}")
    return values[0], values[-1]


def _train_labels(labels, n: int):
    if labels is None:
        return None
    values = list(pd.Series(labels, dtype=object))
    if len(values) != n:
        raise ValueError(f"train_labels has {len(values)} entries for {n} objects")
    return np.array([None if pd.isna(v) else str(v) for v in values], dtype=object)

