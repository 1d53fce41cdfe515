"""Deterministic annealing of centroids (mtc_cli.core.models.annealing): costs against loops,
the critical temperature against the covariance's eigenvalue and the observed split,
merging, the fixed point at high and low temperature, and the refined schedule."""

import numpy as np
import pytest

from mtc_cli.core.models import annealing


def two_clusters(rng, n=400, a=2.0, sd=0.3):
    labels = rng.integers(2, size=n)
    centres = np.array([[-a, 0.0], [a, 0.0]])
    return centres[labels] + sd * rng.standard_normal((n, 2)), centres


def test_costs_are_squared_distances():
    rng = np.random.default_rng(0)
    X, M = rng.standard_normal((7, 3)), rng.standard_normal((4, 3))
    want = np.array([[np.sum((x - m) ** 2) for m in M] for x in X])
    np.testing.assert_allclose(annealing.costs(X, M), want, atol=1e-12)


def test_critical_temperature_is_twice_the_largest_variance():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((500, 3)) * [3.0, 1.0, 0.5]
    lam = np.linalg.eigvalsh(np.cov(X.T, bias=True)).max()
    assert annealing.critical_temperature(X) == pytest.approx(2 * lam)


def test_distinct_and_merge():
    M = np.array([[0.0, 0.0], [5.0, 0.0], [0.01, 0.0], [5.0, 0.02]])
    labels = annealing.distinct(M, tol=0.1)
    np.testing.assert_array_equal(labels, [0, 1, 0, 1])
    means, mass = annealing.merge(M, labels, np.array([1.0, 2.0, 3.0, 4.0]))
    np.testing.assert_allclose(means, [[0.005, 0.0], [5.0, 0.01]])
    np.testing.assert_allclose(mass, [4.0, 6.0])
    np.testing.assert_array_equal(annealing.distinct(M[:1], 0.1), [0])


def test_fixed_point_limits():
    rng = np.random.default_rng(2)
    X, centres = two_clusters(rng)
    start = X.mean(axis=0) + 0.1 * rng.standard_normal((2, 2))
    hot, _ = annealing.fixed_point(X, start, 1e4, tol=1e-10, max_iter=500)
    np.testing.assert_allclose(hot, np.tile(X.mean(axis=0), (2, 1)), atol=1e-3)
    cold, _ = annealing.fixed_point(X, centres + 0.5, 1e-3, tol=1e-10, max_iter=500)
    labels = annealing.costs(X, centres).argmin(axis=1)
    np.testing.assert_allclose(cold, [X[labels == 0].mean(axis=0), X[labels == 1].mean(axis=0)],
                               atol=1e-8)


def test_annealing_splits_near_the_critical_temperature():
    rng = np.random.default_rng(3)
    X, centres = two_clusters(rng)
    Tc = annealing.critical_temperature(X)
    path = annealing.deterministic_annealing(X, 4, rng, sigma=0.3, t_stop=0.05, cooling=0.8,
                                             fine_cooling=0.98)
    T, k = path.temperatures, path.k_hat
    assert np.all(np.diff(T) < 0) and T[-1] == pytest.approx(0.05)
    assert path.centroids.shape == (len(T), 4, 2)
    first_split = np.argmax(k > 1)
    assert k[first_split - 1] == 1 and k[first_split] == 2
    # the first split lies just below T_c (the refined schedule brackets it closely)
    assert 0.85 * Tc < T[first_split] < Tc
    assert T[first_split] / T[first_split - 1] >= 0.98 - 1e-12
    # at T = 1 (≪ T_c, ≫ 2·0.3²) two distinct centroids sit on the true centres
    i = np.argmin(np.abs(T - 1.0))
    M = path.centroids[i]
    merged, _ = annealing.merge(M, annealing.distinct(M, 0.15), np.ones(4))
    assert len(merged) == 2
    np.testing.assert_allclose(np.sort(merged[:, 0]), centres[:, 0], atol=0.1)


def test_rejects_bad_schedule():
    X = np.zeros((3, 2))
    with pytest.raises(ValueError):
        annealing.deterministic_annealing(X, 2, np.random.default_rng(0), sigma=1.0,
                                          t_stop=1.0, t_start=0.5)
    with pytest.raises(ValueError):
        annealing.deterministic_annealing(X, 2, np.random.default_rng(0), sigma=1.0,
                                          t_stop=0.1, t_start=1.0, cooling=0.9,
                                          fine_cooling=0.5)
