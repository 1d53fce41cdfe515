"""Compiled short-row reductions (mtc_cli.core.short_rows): numpy's and scipy's bits on every
row length around the pairwise-summation thresholds, a brute-force pairwise sum, and the
annealing's fixed point unchanged."""

import numpy as np
import pytest
from scipy.special import softmax as scipy_softmax

from mtc_cli.core import short_rows
from mtc_cli.core.models import annealing

WIDTHS = [1, 2, 3, 7, 8, 9, 10, 15, 16, 17, 31, 64, 127, 128, 129, 136, 255, 256, 257, 1000]


def rows(width: int, seed: int) -> np.ndarray:
    """Rows whose terms differ in scale by up to 10¹², so that every change of the order
    of addition shows in the last bits."""
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((300, width)) * 10.0 ** rng.integers(-6, 7, size=(300, width))
    a[0] = -0.0                                   # a row of negative zeros
    return a


def pairwise(terms) -> float:
    """numpy's pairwise summation written out plainly (the brute-force route)."""
    n = len(terms)
    if n < 8:
        res = -0.0
        for t in terms:
            res += t
        return res
    if n <= 128:
        r = list(terms[:8])
        m = n - n % 8
        for i in range(8, m, 8):
            for j in range(8):
                r[j] += terms[i + j]
        res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        for t in terms[m:]:
            res += t
        return res
    half = n // 2 - (n // 2) % 8
    return pairwise(terms[:half]) + pairwise(terms[half:])


@pytest.mark.parametrize("width", WIDTHS)
def test_row_sum_and_max_are_numpys_bit_for_bit(width):
    a = rows(width, width)
    assert short_rows.row_sum(a).tobytes() == np.sum(a, axis=1).tobytes()
    assert short_rows.row_max(a).tobytes() == np.max(a, axis=1).tobytes()


@pytest.mark.parametrize("width", [3, 10, 129])
def test_row_sum_adds_in_pairwise_order(width):
    a = rows(width, 100 + width)
    want = np.array([0.0 + pairwise(list(r)) for r in a])
    assert short_rows.row_sum(a).tobytes() == want.tobytes()
    # the order matters on these rows: a left-to-right sum differs on some of them
    assert width < 8 or not np.array_equal(want, [sum(r) for r in a])


def test_row_max_carries_nan_and_infinities():
    a = np.array([[1.0, np.nan, 3.0], [-np.inf, -np.inf, -np.inf], [np.inf, 0.0, 1.0],
                  [np.nan, np.nan, 1.0]])
    np.testing.assert_array_equal(short_rows.row_max(a), np.max(a, axis=1))


@pytest.mark.parametrize("width", WIDTHS)
def test_shifted_by_max_is_numpys_masked_difference(width):
    a = rows(width, 200 + width)
    a[1] = a[1, 0]                                # a row of ties
    a[2, 0], a[3, -1], a[4] = np.nan, np.inf, -np.inf
    shifted, top, count = short_rows.shifted_by_max(a)
    m = np.max(a, axis=1, keepdims=True)
    with np.errstate(invalid="ignore"):
        want = np.where(a == m, -np.inf, a) - m
    assert shifted.tobytes() == want.tobytes()
    assert top.tobytes() == m.ravel().tobytes()
    np.testing.assert_array_equal(count, np.sum(a == m, axis=1))
    assert count[1] == width and count[4] == width and count[2] == 0


@pytest.mark.parametrize("width", [2, 5, 10, 40, 300])
def test_softmax_is_scipys_bit_for_bit(width):
    rng = np.random.default_rng(width)
    x = rng.normal(size=(500, width)) * 30
    x[0] = x[0, 0]                                # ties
    x[1, : width // 2] = -1e4                     # terms that underflow
    assert short_rows.softmax(x).tobytes() == scipy_softmax(x, axis=1).tobytes()


def test_refuses_what_it_does_not_reduce_alike():
    a = np.ones((4, 3))
    for bad in (np.asfortranarray(np.ones((4, 3)))[:, :2], a.astype(np.float32), a[0],
                np.ones((4, 0))):
        with pytest.raises(ValueError, match="C-ordered float64"):
            short_rows.row_sum(bad)


def test_the_annealing_fixed_point_is_the_one_with_scipys_softmax():
    """The fixed point as it was computed before (scipy's softmax, ‖x‖² in every sweep),
    written out here: the same centroids and sweeps, bit for bit."""
    rng = np.random.default_rng(3)
    X = rng.standard_normal((2000, 2)) + rng.integers(3, size=(2000, 1)) * 3.0
    M0 = X[:6] + 0.01
    T, tol, max_iter = 1.3, 1e-7, 500

    M, sweeps = M0.copy(), 0
    while sweeps < max_iter:
        sweeps += 1
        sq = (np.einsum("nd,nd->n", X, X)[:, None] - 2.0 * X @ M.T
              + np.einsum("kd,kd->k", M, M))
        p = scipy_softmax(-np.maximum(sq, 0.0) / T, axis=1)
        mass = p.sum(axis=0)
        new = np.where(mass[:, None] > 0, p.T @ X / np.maximum(mass, 1e-300)[:, None], M)
        moved = float(np.sqrt(np.max(np.sum((new - M) ** 2, axis=1))))
        M = new
        if moved <= tol:
            break
    got, got_sweeps = annealing.fixed_point(X, M0, T, tol=tol, max_iter=max_iter)
    assert got_sweeps == sweeps > 1 and got.tobytes() == M.tobytes()
