"""Tied values spread within their resolution for the tests of k = 1
(mtc_cli/core/criteria/ties.py)."""

import numpy as np

from mtc_cli.core.criteria.dip import dip_pvalue
from mtc_cli.core.criteria.ties import dequantized, distinct_rows, resolution


def test_resolution_by_hand():
    assert resolution([3, 1, 2, 2, 5]) == 1.0
    assert resolution([0.0, 0.25, 1.0]) == 0.25
    assert resolution([4, 4, 4]) == np.inf


def test_each_value_stays_in_its_rounding_interval_and_the_ties_are_gone():
    rng = np.random.default_rng(0)
    X = np.c_[rng.integers(1, 6, 300), rng.normal(size=300), np.full(300, 2.0)]
    Y = dequantized(X, np.random.default_rng(1))
    assert np.all(np.abs(Y[:, 0] - X[:, 0]) <= 0.5)
    assert len(np.unique(Y[:, 0])) == 300
    np.testing.assert_array_equal(Y[:, 1:], X[:, 1:])  # no tie, one value: as they are
    assert distinct_rows(X[:, :1]) == 5 and distinct_rows(Y) == 300


def test_two_likert_items_of_one_population_are_unimodal_once_dequantized():
    """The review's T04: integers 1–5 of one normal population; ties made the dip's p tiny."""
    rng = np.random.default_rng(3)
    x = np.clip(np.round(rng.normal(3, 1, 300)), 1, 5)
    assert dip_pvalue(x)[1] < 1e-6
    assert dip_pvalue(dequantized(x[:, None], np.random.default_rng(0))[:, 0])[1] > 0.05


def test_distinct_rows_against_a_set_of_tuples():
    rng = np.random.default_rng(2)
    X = rng.integers(0, 3, (200, 3)).astype(float)
    assert distinct_rows(X) == len({tuple(r) for r in X.tolist()})
    assert distinct_rows(np.repeat([[0.0, 0.0], [5, 5], [10, 0]], 50, 0)) == 3
    assert distinct_rows(np.array([[0.0, 1.0], [-0.0, 1.0]])) == 1  # −0.0 is 0.0
