"""mtc_cli.core.models.batched_kmeans: the global optimum on tiny sets, scikit-learn's
partitions (its own seeding and Lloyd kernels fed our draws; KMeans on separated blobs),
its inertia on average, reproducibility from the generator's state, and the edge cases."""

import itertools
import warnings

import numpy as np
import pytest
from sklearn.cluster import KMeans
from sklearn.datasets import make_blobs
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics import adjusted_rand_score
from threadpoolctl import threadpool_limits

from mtc_cli.core.models import batched_kmeans as B
from mtc_cli.core.models import sklearn_kmeans


def optimum(X, k) -> float:
    """The least k-means cost over every partition of X into k non-empty groups."""
    labels = np.array(list(itertools.product(range(k), repeat=len(X))))
    onehot = labels[:, :, None] == np.arange(k)  # (M, n, k)
    counts = onehot.sum(axis=1)
    full = (counts > 0).all(axis=1)
    labels, onehot, counts = labels[full], onehot[full], counts[full]
    centroids = np.einsum("mnk,nd->mkd", onehot, X) / counts[:, :, None]
    diff = X[None] - np.take_along_axis(centroids, labels[:, :, None], axis=1)
    return float(np.einsum("mnd,mnd->m", diff, diff).min())


def recomputed(X, centres, labels) -> float:
    return float(((X - centres[labels]) ** 2).sum())


@pytest.mark.parametrize("seed", range(6))
def test_global_optimum_on_tiny_sets(seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(8 + seed % 3, 2))
    fits = B.fit_all(X, [2, 3], 20, rng)
    for k in (2, 3):
        assert fits[k][2] == pytest.approx(optimum(X, k), rel=1e-12)


class Draws:
    """A stand-in for ``RandomState`` that hands scikit-learn's seeding our uniforms, in the
    order the module's docstring gives."""

    def __init__(self, u):
        self.u, self.at = u, 0

    def choice(self, n, p):
        self.at = 1
        return min(int(self.u[0] * n), n - 1)

    def uniform(self, size):
        self.at += size
        return self.u[self.at - size:self.at]


@pytest.mark.parametrize("seed", range(12))
def test_scikit_learns_kernels_fed_our_draws(seed):
    """scikit-learn's k-means++ and Lloyd's iterations (:mod:`sklearn_kmeans`) from the
    uniforms ``fit_all`` draws: the same partition and inertia for every k (one restart)."""
    rng = np.random.default_rng(seed)
    n, d = int(rng.integers(20, 300)), int(rng.integers(1, 8))
    X = make_blobs(n, d, centers=int(rng.integers(2, 6)), cluster_std=2.0,
                   random_state=seed)[0]
    ks = range(1, 9)
    state = np.random.default_rng(100 + seed)
    ours = B.fit_all(X, ks, 1, np.random.default_rng(100 + seed))
    tol = np.mean(np.var(X, axis=0)) * B.TOL
    norms, weight = np.einsum("ij,ij->i", X, X), np.ones(n)
    for k in ks:
        u = state.random((1, 1 + (k - 1) * B.trials(k)))[0] if k > 1 else np.zeros(1)
        seeds = sklearn_kmeans.plusplus(X, k, norms, weight, Draws(u))
        labels, inertia, centres = sklearn_kmeans.lloyd(X, weight, seeds, tol)
        assert np.array_equal(ours[k][1], labels)
        assert ours[k][2] == pytest.approx(inertia, rel=1e-9)
        np.testing.assert_allclose(ours[k][0], centres, rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("k", [2, 3, 4, 6])
def test_separated_blobs_as_kmeans(k):
    X, truth = make_blobs(60 * k, 5, centers=k, cluster_std=0.5, center_box=(-30, 30),
                          random_state=k)
    ours = B.fit(X, k, 3, np.random.default_rng(k))[1]
    with threadpool_limits(limits=1):
        theirs = KMeans(n_clusters=k, n_init=3, random_state=k).fit(X).labels_
    assert adjusted_rand_score(ours, theirs) == 1.0
    assert adjusted_rand_score(ours, truth) == 1.0


def test_mean_inertia_as_kmeans():
    """50 overlapping data sets, each at its true k: the mean of our inertia over
    ``KMeans(n_init=3)``'s within 1 % of 1."""
    ratios = []
    for seed in range(50):
        rng = np.random.default_rng(seed)
        n, d, k = int(rng.integers(100, 601)), int(rng.integers(2, 11)), int(rng.integers(2, 9))
        X = make_blobs(n, d, centers=k, cluster_std=float(rng.uniform(1.0, 3.0)),
                       center_box=(-6, 6), random_state=seed)[0]
        ours = B.fit(X, k, 3, rng)[2]
        with threadpool_limits(limits=1):
            ratios.append(ours / KMeans(n_clusters=k, n_init=3, random_state=seed).fit(X).inertia_)
    assert abs(np.mean(ratios) - 1) < 0.01


def test_reproducible_from_the_generator_state():
    X = np.random.default_rng(0).uniform(size=(200, 2))
    ks = range(1, 9)
    first = B.fit_all(X, ks, 1, np.random.default_rng(7))
    np.random.seed(1)
    np.random.random(10)  # the global state plays no part
    again = B.fit_all(X, ks, 1, np.random.default_rng(7))
    for k in ks:
        assert np.array_equal(first[k][0], again[k][0])
        assert np.array_equal(first[k][1], again[k][1])
        assert first[k][2] == again[k][2]
    rng = np.random.default_rng(7)
    one, two = B.fit_all(X, ks, 1, rng), B.fit_all(X, ks, 1, rng)
    assert all(np.array_equal(one[k][1], first[k][1]) for k in ks)
    assert any(not np.array_equal(one[k][0], two[k][0]) for k in ks)


def test_one_k_as_fit_all():
    X = np.random.default_rng(1).normal(size=(50, 3))
    centres, labels, inertia = B.fit(X, 4, 2, np.random.default_rng(3))
    other = B.fit_all(X, [4], 2, np.random.default_rng(3))[4]
    assert np.array_equal(centres, other[0]) and np.array_equal(labels, other[1])
    assert inertia == other[2]


def test_one_cluster_is_the_mean():
    X = np.random.default_rng(2).normal(size=(40, 4)) + 5
    centres, labels, inertia = B.fit(X, 1, 3, np.random.default_rng(0))
    np.testing.assert_allclose(centres[0], X.mean(axis=0), rtol=1e-14)
    assert centres.shape == (1, 4) and not labels.any()
    assert inertia == pytest.approx(recomputed(X, centres, labels), rel=1e-12)


@pytest.mark.parametrize("seed", range(8))
def test_labels_and_inertia(seed):
    """Labels 0..k−1 (intp), centres (k, d), inertia Σ‖x − c_label‖²; half of the sets hold
    many duplicate points (ties, empty clusters)."""
    rng = np.random.default_rng(seed)
    n, d = int(rng.integers(15, 300)), int(rng.integers(1, 12))
    X = rng.normal(size=(n, d))
    if seed % 2:
        X = np.round(X)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        fits = B.fit_all(X, range(1, 14), 3, rng)
    for k, (centres, labels, inertia) in fits.items():
        assert labels.dtype == np.intp and labels.shape == (n,)
        assert centres.shape == (k, d)
        assert 0 <= labels.min() and labels.max() < k
        assert inertia == pytest.approx(recomputed(X, centres, labels), rel=1e-12, abs=1e-12)


def test_more_clusters_than_distinct_points():
    X = np.repeat(np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 5.0]]), 4, axis=0)
    with pytest.warns(ConvergenceWarning, match="distinct clusters"):
        centres, labels, inertia = B.fit(X, 5, 3, np.random.default_rng(0))
    assert inertia == 0.0 and len(np.unique(labels)) == 3 and labels.max() < 5
    assert np.isfinite(centres).all()


def test_bad_input():
    X = np.zeros((5, 2))
    for ks in ([0], [6], []):
        with pytest.raises(ValueError, match="every k"):
            B.fit_all(X, ks, 1, np.random.default_rng(0))
    X[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        B.fit_all(X, [2], 1, np.random.default_rng(0))
