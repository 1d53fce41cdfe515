"""``OrderSelector``: the selection of ``mtc select`` as a scikit-learn style estimator, its
parameters the options of a selection (:mod:`mtc_cli.selection.options`), checked as a
config's keys are."""

from __future__ import annotations

import dataclasses
import inspect
import numbers

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_consistent_length, validate_data

from mtc_cli.core.errors import MtcError
from mtc_cli.run.params import build
from mtc_cli.selection import answer, auto
from mtc_cli.selection.catalog import ALGORITHMS
from mtc_cli.selection.options import Options, Run
from mtc_cli.selection.settings import parse_range


class DataRefused(ValueError):
    """The data do not suit the model (its check before any fit, one line saying why)."""


#: OrderSelector's parameters: every option of a selection (``model``, ``k`` and ``criteria``
#: first, the others keyword-only), ``random_state`` (the seed) and ``n_jobs``
_FIRST = ("model", "k", "criteria")
_PARAMETERS = [
    *(inspect.Parameter(f.name, inspect.Parameter.POSITIONAL_OR_KEYWORD
                        if f.name in _FIRST else inspect.Parameter.KEYWORD_ONLY,
                        default=f.default) for f in dataclasses.fields(Options)),
    inspect.Parameter("random_state", inspect.Parameter.KEYWORD_ONLY,
                      default=Run.__dataclass_fields__["seed"].default),
    inspect.Parameter("n_jobs", inspect.Parameter.KEYWORD_ONLY,
                      default=Run.__dataclass_fields__["n_jobs"].default)]


def _parameter_lines() -> str:
    """The numpydoc lines of every parameter, from the options' declarations."""
    helps = {f.name: f.metadata["help"] for f in dataclasses.fields(Options)}
    helps["random_state"] = (f"{Run.__dataclass_fields__['seed'].metadata['help']}; int ≥ 0, "
                             "or None, a numpy RandomState or Generator: a seed is drawn from "
                             "it at each fit and kept as random_state_")
    helps["n_jobs"] = Run.__dataclass_fields__["n_jobs"].metadata["help"] + " (None: 1)"
    return "\n".join(f"    {p.name} : default {p.default!r}\n        {helps[p.name]}."
                     for p in _PARAMETERS)


class OrderSelector(BaseEstimator):
    """Choose the model order k with every criterion that applies to ``model`` and vote —
    ``mtc select`` on an array.

    Parameters are the options of ``mtc select`` and of a ``select`` config, under the same
    names and defaults, checked at ``fit`` by the same checks: a bad one is a ValueError
    naming it; data the model does not take (e.g. every row identical) are a
    :class:`DataRefused`, in the words of ``mtc select``. ``k`` also takes an int K (1..K), a
    pair (lo, hi) or a contiguous range of ints; ``criteria`` a list, names separated by
    commas (as ``--criteria``), or "all". ``model`` None: the league's answer (``auto``) for
    dense X, spherical k-means for sparse (its all-zero rows, which have no direction, left
    out: their label is −1). Data of few distinct rows: k at most their number, and said.

    Parameters
    ----------
{parameters}

    Attributes
    ----------
    k_ : the answer's k (the vote, or 1 where the tests of k = 1 say there is no group
        structure); ``model_`` : the model that answers (None for k = 1); ``answer_`` : the
        :class:`~mtc_cli.selection.answer.Answer` with why and its doubt, ``doubt_`` that
        doubt in words (as ``mtc select`` says it); ``candidates_`` : the answer and the
        runner-up (model, k, support: the share of the random splits that back it).
    votes_ : {{criterion: chosen k}}; ``tally_`` : {{k: votes cast}}; ``summary_`` : one row
        per criterion (chosen k, spread over splits, defined range, what it optimises);
        ``results_`` : the tidy rows of every task; ``curves_`` : each criterion's curve
        over k; ``settings_`` : the Settings computed.
    labels_ : the clustering of X at ``k_`` (clustering models); ``true_k_`` : distinct
        values of ``y`` if given (never used); ``random_state_`` : the int seed of the fit;
        ``n_features_in_`` (and ``feature_names_in_`` for a DataFrame): the columns of X.
    auto_, selections_, left_out_ : with ``model="auto"``: the decision table
        (:func:`mtc_cli.selection.auto.standings`), {{algorithm: its fitted
        OrderSelector}}, {{algorithm: why it does not take X or has no finite
        stability}}; the attributes above those of the winner.
    """

    def __init__(self, *args, **kwargs):
        bound = inspect.Signature([inspect.Parameter("self", inspect.Parameter.POSITIONAL_ONLY),
                                   *_PARAMETERS]).bind(self, *args, **kwargs)
        bound.apply_defaults()
        for name, value in list(bound.arguments.items())[1:]:
            setattr(self, name, value)

    __init__.__signature__ = inspect.Signature(
        [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD), *_PARAMETERS])

    def _options(self, model: str) -> Options:
        """The parameters as :class:`~mtc_cli.selection.options.Options`, checked as a
        config's keys are (a bad one: ValueError naming it)."""
        values = {f.name: getattr(self, f.name) for f in dataclasses.fields(Options)}
        values.update(model=model, k=_k_text(self.k), criteria=_criteria(self.criteria))
        try:
            return build(Options, values, "OrderSelector", "")
        except MtcError as exc:
            raise ValueError(str(exc)) from None

    def fit(self, X, y=None, *, train_labels=None):
        """Compute every criterion on X (array, DataFrame or scipy sparse matrix); the
        attributes of an earlier fit are dropped first.

        ``y``: known labels, only counted into ``true_k_``. ``train_labels``: one label
        per object (None/NaN: unlabelled) for the PAC-MDL bound (Banerjee & Langford)."""
        from mtc_cli.core.datasets.user_data import UserData, label_like
        from mtc_cli.selection.selector import Selection

        for name in [a for a in vars(self) if a.endswith("_") and not a.startswith("_")]:
            delattr(self, name)
        for name, values in X.items() if isinstance(X, pd.DataFrame) else ():
            if label_like(name, values):
                raise DataRefused(f"column {name!r} of X looks like class labels, not a "
                                  "feature: pass it as y, or drop it from X")
        model = self._model_for(X)
        options = self._options(model)
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
        if y is not None:
            missing = pd.isna(pd.Series(np.asarray(y, dtype=object).ravel()))
            if missing.any():
                raise ValueError(f"the labels (y) are missing in {missing.sum()} row(s), the "
                                 f"first in row {int(np.argmax(missing))} of X; leave those "
                                 "rows out of X and y")
        import scipy.sparse as sp

        data = UserData(X, "sparse" if sp.issparse(X) else "table", [],
                        None if y is None else np.asarray(y).astype(str),
                        _train_labels(train_labels), (), "X")
        try:
            sel = Selection(data, options)
        except MtcError as exc:
            raise DataRefused(str(exc)) from None
        rows = sel.run(self.random_state_, n_jobs=1 if self.n_jobs is None else self.n_jobs)
        derived = sel.derive(rows)
        if not sel.auto:
            self._set(sel, rows, derived, sel.model)
            self._answered(derived.answer)
            self._label(sel)
            return self
        fitted = {}
        for m in sel.settings:
            one = self.__class__(**{**self.get_params(), "model": m})
            one.random_state_ = self.random_state_
            one.n_features_in_ = self.n_features_in_
            if hasattr(self, "feature_names_in_"):
                one.feature_names_in_ = self.feature_names_in_
            one._set(sel, rows, derived, m)
            found = answer.find(sel.matrix(m), {m: rows[m]}, {m: derived.summaries[m]},
                                {m: sel.settings[m]}, auto_mode=False,
                                curves={m: derived.curves[m]}, digest=sel.digest(m),
                                distinct=sel.distinct)[0]
            one._answered(found)
            one._label(sel, m)
            fitted[m] = one
        self.selections_, self.auto_ = fitted, derived.decision
        notes = {m: f.summary_.set_index("criterion")["note"].get("stability")
                 for m, f in fitted.items()}
        self.left_out_ = {**sel.left_out, **auto.unranked(self.auto_, notes)}
        best = derived.answer.model or derived.answer.runner_up_model  # k = 1: the tested one
        if best is not None:
            self._set(sel, rows, derived, best)
        self._answered(derived.answer)
        if best is not None:
            self._label(sel, best)
        return self

    def _set(self, sel, rows: dict, derived, model: str) -> None:
        """The attributes of ``model``'s selection: its rows, summary, curves, votes, tally,
        true k and settings."""
        self.results_ = rows[model]
        self.summary_ = derived.summaries[model]
        self.curves_ = derived.curves[model]
        self.votes_ = {c: (int(k) if np.isfinite(k) else None)
                       for c, k in zip(self.summary_["criterion"], self.summary_["selected_k"],
                                       strict=True)}
        tally = derived.tallies[model]
        self.tally_ = dict(zip(tally["k"].tolist(), tally["votes"].tolist(), strict=True))
        self.true_k_ = sel.true_k
        self.settings_ = sel.settings[model]

    def _label(self, sel, model: str | None = None) -> None:
        """``labels_``: the clustering of X at ``k_`` by ``model`` (the answer's)."""
        model = model or sel.model
        if ALGORITHMS[model].clusters and self.k_ is not None:
            labels = sel.labels(model, self.k_, self.random_state_)
            if sel.kept is not None:  # the rows left out (all zero, for the cosine): −1
                full = np.full(len(sel.kept), -1, dtype=labels.dtype)
                full[sel.kept] = labels
                labels = full
            self.labels_ = labels

    def _model_for(self, X) -> str:
        """``model``, or by default the league's answer for dense data
        (:func:`mtc_cli.selection.answer.default_model`) and spherical k-means for sparse."""
        if self.model is not None:
            return self.model
        import scipy.sparse as sp

        return "spkmeans" if sp.issparse(X) else answer.default_model()

    def _answered(self, found: answer.Answer) -> None:
        """``k_``, ``model_``, ``answer_`` and ``candidates_`` of the answer ``found``."""
        self.answer_ = found
        self.doubt_ = answer.doubt(found.row())
        self.k_ = int(found.k) if np.isfinite(found.k) else None
        self.model_ = found.model
        self.candidates_ = pd.DataFrame(
            [{"candidate": "answer", "model": found.model, "k": found.k,
              "support": found.support},
             {"candidate": "runner-up", "model": found.runner_up_model,
              "k": found.runner_up_k, "support": found.runner_up_support}])

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


OrderSelector.__doc__ = OrderSelector.__doc__.format(parameters=_parameter_lines())


def _k_text(k) -> str | None:
    """``k`` as ``mtc select``'s ``LO..HI``: an int K (1..K), (lo, hi), a str as ``--k``
    takes it, or a contiguous range/list of ints; a bad ``k`` is a ValueError (a parameter,
    not the data: auto stops there rather than leaving an algorithm out)."""
    if k is None:
        return None
    if isinstance(k, str):
        try:
            lo, hi = parse_range(k)
            return f"{lo}..{hi}"
        except MtcError:
            pass
    elif _is_int(k):
        if k >= 1:
            return f"1..{int(k)}"
    elif isinstance(k, tuple):
        if len(k) == 2 and all(map(_is_int, k)) and 1 <= k[0] <= k[1]:
            return f"{int(k[0])}..{int(k[1])}"
    elif isinstance(k, range | list) or (isinstance(k, np.ndarray) and k.ndim == 1):
        values = list(k)
        if values and all(map(_is_int, values)):
            values.sort()
            if values[0] >= 1 and values == list(range(values[0], values[-1] + 1)):
                return f"{int(values[0])}..{int(values[-1])}"
    raise ValueError(f"k must be an int K (1..K), (lo, hi), 'lo..hi' or a contiguous range "
                     f"of ints such as range(1, 11), with 1 ≤ lo ≤ hi; got {k!r}")


def _criteria(criteria) -> list | None:
    """``criteria`` as the option takes it: None for "all" (or None); a str as ``--criteria``
    takes it, names separated by commas; a list otherwise."""
    if criteria is None or (isinstance(criteria, str) and criteria.strip() == "all"):
        return None
    if isinstance(criteria, str):
        return [c.strip() for c in criteria.split(",") if c.strip()]
    return list(criteria)


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
