"""Owen–Perry bi-cross-validation of the SVD (OP-CV in Sect. 4.2 of Frank et al. 2011):
the all-ranks error formula against explicit pseudo-inverses, exactness on noise-free
low-rank matrices, the permutation protocol, and the rank ``mtc select`` reads off the
curves."""

import numpy as np
import pandas as pd
import pytest

from mtc_cli.core.criteria import bicross
from mtc_cli.selection.catalog import CRITERIA


def brute_errors(X, rows, cols, k_max):
    """‖A − B (D_k)⁺ C‖²_F with D_k the rank-k truncation and numpy's pinv, k by k."""
    r = np.zeros(X.shape[0], bool)
    c = np.zeros(X.shape[1], bool)
    r[rows] = True
    c[cols] = True
    A, B, C, D = X[np.ix_(r, c)], X[np.ix_(r, ~c)], X[np.ix_(~r, c)], X[np.ix_(~r, ~c)]
    U, s, Vt = np.linalg.svd(D, full_matrices=False)
    out = []
    for k in range(1, k_max + 1):
        Dk = (U[:, :k] * s[:k]) @ Vt[:k]
        out.append(np.sum((A - B @ np.linalg.pinv(Dk) @ C) ** 2))
    return np.array(out)


def chosen_rank(curves: np.ndarray) -> float:
    """The rank ``mtc select`` chooses from the error curves (one row per permutation): the
    reader of its ``bicross`` criterion on the rows its hook writes."""
    rows = pd.DataFrame([{"k": k, "score": v, "permutation": p}
                         for p, curve in enumerate(curves) for k, v in enumerate(curve, start=1)])
    return CRITERIA["bicross"].reader.choose(rows, None)[1]


def test_holdout_errors_match_explicit_pseudo_inverse():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(13, 9))
    rows, cols = np.array([0, 4, 7]), np.array([2, 5])
    got = bicross.holdout_errors(X, rows, cols)
    assert len(got) == 7  # D is 10 × 7: every rank up to 7
    np.testing.assert_allclose(got, brute_errors(X, rows, cols, 7), rtol=1e-9)
    np.testing.assert_allclose(bicross.holdout_errors(X, rows, cols, k_max=3), got[:3])


def test_exact_prediction_of_noise_free_low_rank_matrix_at_its_rank():
    rng = np.random.default_rng(1)
    r = 3
    X = rng.normal(size=(40, r)) @ rng.normal(size=(r, 25))
    rows, cols = rng.permutation(40)[:20], rng.permutation(25)[:12]
    err = bicross.holdout_errors(X, rows, cols)
    A = X[np.ix_(rows, cols)]
    assert len(err) == r  # the numerical rank of D is r: higher ranks are not offered
    assert err[r - 1] <= 1e-12 * np.sum(A**2)
    assert err[0] > 1e-3 * np.sum(A**2)  # an underfitted rank does not predict A


def test_boolean_low_rank_matrix_exact_at_k_r():
    """A Boolean matrix with r disjoint role blocks has real rank r; OP-CV predicts the
    held-out block exactly at k = r."""
    rng = np.random.default_rng(2)
    roles = rng.integers(0, 3, size=60)
    U = np.zeros((3, 30))
    U[0, :10], U[1, 10:20], U[2, 20:] = 1, 1, 1
    X = U[roles]
    err = bicross.holdout_errors(X, np.arange(0, 60, 3), np.arange(0, 30, 3))
    assert err[2] <= 1e-12 * np.sum(X[::3, ::3] ** 2)


def test_permutations_and_rank_selection():
    rng = np.random.default_rng(3)
    r = 4
    X = rng.normal(size=(80, r)) @ rng.normal(size=(r, 50)) + 0.05 * rng.normal(size=(80, 50))
    curves = bicross.bicross_validation(X, np.random.default_rng(4), holdout=0.5,
                                        permutations=6, k_max=10)
    assert curves.shape == (6, 10)
    assert chosen_rank(curves) == r
    again = bicross.bicross_validation(X, np.random.default_rng(4), holdout=0.5,
                                       permutations=6, k_max=10)
    np.testing.assert_array_equal(curves, again)
    # the held-out block of a fifth: 16 rows and 10 columns of the permuted matrix
    small = bicross.bicross_validation(X, rng, holdout=0.2, permutations=2, k_max=60)
    assert small.shape == (2, 40)  # D is 64 × 40


def test_the_chosen_rank_has_the_lowest_median_over_permutations():
    """Medians 3, 1, 2 and means 2, 11/3, 13/3: the median's rank 2, not the mean's 1."""
    curves = np.array([[3.0, 1.0, 2.0], [3.0, 1.0, 2.0], [0.0, 9.0, 9.0]])
    assert chosen_rank(curves) == 2


def test_bad_holdouts():
    X = np.ones((4, 4))
    with pytest.raises(ValueError):
        bicross.bicross_validation(X, np.random.default_rng(0), holdout=1.0)
    with pytest.raises(ValueError):
        bicross.holdout_errors(X, np.arange(4), np.array([0]))
