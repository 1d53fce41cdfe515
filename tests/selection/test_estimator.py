"""OrderSelector checks its parameters and data as scikit-learn's estimators do: each bad
value a one-line ValueError naming the parameter, data no model takes a DataRefused in the
words of ``mtc select``, and a refit replaces every attribute of the fit before."""

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_blobs

from mtc_cli.selection.estimator import DataRefused, OrderSelector

SMALL = {"splits": 2, "references": 2, "clest_references": 1, "clest_splits": 2}
X, Y = make_blobs(40, 2, centers=3, random_state=1)


def _selector(**params):
    return OrderSelector(**{"model": "kmeans", "k": (1, 4), **SMALL, **params})


@pytest.mark.parametrize("random_state", [None, np.random.RandomState(3),
                                          np.random.default_rng(3)],
                         ids=["None", "RandomState", "Generator"])
def test_a_drawn_seed_is_kept_and_repeats_the_fit(random_state):
    first = _selector(random_state=random_state).fit(X)
    assert isinstance(first.random_state_, int) and first.random_state_ >= 0
    again = _selector(random_state=first.random_state_).fit(X)
    assert again.random_state_ == first.random_state_
    pd.testing.assert_frame_equal(again.results_, first.results_)
    assert (again.labels_ == first.labels_).all()


def test_an_int_seed_stays_as_given():
    assert _selector(random_state=7).fit(X).random_state_ == 7


def test_auto_draws_one_seed_for_every_algorithm():
    est = _selector(model="auto", k=(1, 2), criteria=["silhouette"],
                    random_state=np.random.RandomState(0)).fit(X)
    assert {s.random_state_ for s in est.selections_.values()} == {est.random_state_}


@pytest.mark.parametrize("k, expected", [(3, (1, 3)), (np.int64(2), (1, 2)), ((2, 3), (2, 3)),
                                         ("2..3", (2, 3)), ("3", (1, 3)), (range(1, 4), (1, 3)),
                                         ([3, 2], (2, 3)), (np.arange(1, 3), (1, 2))])
def test_k_as_an_int_a_pair_a_string_or_a_range(k, expected):
    settings = _selector(k=k, criteria=["silhouette"]).fit(X).settings_
    assert (settings.k_lo, settings.k_hi) == expected


@pytest.mark.parametrize("k", [0, -2, True, 2.5, (3, 1), (1, 2, 3), (1.0, 3), [1, 3], [],
                               "3..1", "two", {1, 2}])
def test_a_bad_k_is_a_value_error_naming_k(k):
    with pytest.raises(ValueError, match=r"^k must be an int K \(1\.\.K\).*; got ") as err:
        _selector(k=k).fit(X)
    assert err.type is ValueError and "\n" not in str(err.value)


@pytest.mark.parametrize("name, value", [("n_jobs", 0), ("n_jobs", 1.5), ("n_jobs", True),
                                         ("random_state", -1), ("random_state", "seed"),
                                         ("random_state", 1.5)])
def test_a_bad_parameter_is_a_value_error_naming_it(name, value):
    with pytest.raises(ValueError, match=f"^{name} must .*; got {value!r}$"):
        _selector(**{name: value}).fit(X)


@pytest.mark.parametrize("name", ["y", "train_labels"])
def test_labels_of_another_length_than_x_are_refused(name):
    labels = {name: Y[:-1]}
    with pytest.raises(ValueError, match=f"^{name} must hold one entry per row of X: .*"
                                         r"\[40, 39\]"):
        _selector().fit(X, labels.pop("y", None), **labels)


@pytest.mark.parametrize("model", ["kmeans", "gmm", "auto"])
def test_identical_rows_are_refused_in_one_line_as_the_cli_refuses_them(model):
    with pytest.raises(DataRefused) as err:
        _selector(model=model).fit(np.ones((40, 2)))
    assert str(err.value) == "X: all 40 rows are identical: there is nothing to select"


def test_a_refit_replaces_every_attribute_of_the_fit_before():
    X80, y80 = make_blobs(80, 2, centers=3, random_state=2)
    est = _selector().fit(X80, y80)
    assert len(est.labels_) == 80 and est.true_k_ == 3
    est.set_params(model="svd", k=(1, 2)).fit(X)
    assert not hasattr(est, "labels_") and est.true_k_ is None
    assert est.n_features_in_ == 2 and est.settings_.model == "svd"
    with pytest.raises(ValueError, match="^k must"):
        est.set_params(k=0).fit(X)
    assert not any(hasattr(est, a) for a in ("k_", "results_", "summary_", "settings_"))
