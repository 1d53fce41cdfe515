"""mtc_cli.core.models.sklearn_kmeans against scikit-learn's KMeans: the same centres, labels
and inertia bit for bit, in one thread (as every task runs)."""

import numpy as np
import pytest
from sklearn.cluster import KMeans
from sklearn.datasets import make_blobs
from sklearn.exceptions import ConvergenceWarning
from threadpoolctl import threadpool_limits

from mtc_cli.core.models import sklearn_kmeans


def _case(seed: int):
    rng = np.random.default_rng(seed)
    n, d = int(rng.integers(2, 400)), int(rng.integers(1, 12))
    if seed % 3 == 0:
        X = make_blobs(n, d, centers=int(rng.integers(1, 8)), random_state=seed)[0]
    elif seed % 3 == 1:
        X = rng.normal(size=(n, d))
    else:  # many duplicate objects: ties in the distances, empty clusters
        X = np.round(rng.normal(size=(n, d)), 0)
    return X, int(rng.integers(1, min(n, 13) + 1)), int(rng.integers(1, 6))


@pytest.mark.parametrize("seed", range(60))
def test_equals_kmeans(seed):
    X, k, n_init = _case(seed)
    with threadpool_limits(limits=1):
        km = KMeans(n_clusters=k, n_init=n_init, random_state=seed).fit(X)
        centres, labels, inertia = sklearn_kmeans.fit(X, k, n_init, seed)
    assert np.array_equal(centres, km.cluster_centers_)
    assert np.array_equal(labels, km.labels_)
    assert inertia == km.inertia_


def test_equals_kmeans_on_a_column_slice():
    """A non-contiguous view (the spectral embedding's first k columns) and k = n."""
    X = np.random.default_rng(0).normal(size=(30, 6))[:, :3]
    for k in (1, 3, 30):
        with threadpool_limits(limits=1):
            km = KMeans(n_clusters=k, n_init=2, random_state=5).fit(X)
            centres, labels, inertia = sklearn_kmeans.fit(X, k, 2, 5)
        assert np.array_equal(centres, km.cluster_centers_)
        assert np.array_equal(labels, km.labels_)
        assert inertia == km.inertia_
    assert not X.flags.c_contiguous


def test_plusplus_first_centre_and_greedy_choice():
    """Two far groups and k = 2: the second centre is drawn from the other group (its
    objects hold all of the potential), whatever the first."""
    X = np.array([[0.0], [0.1], [100.0], [100.1]])
    norms = np.einsum("ij,ij->i", X, X)
    for seed in range(10):
        centres = sklearn_kmeans.plusplus(X, 2, norms, np.ones(4), np.random.RandomState(seed))
        assert abs(centres[0, 0] - centres[1, 0]) > 99


def test_squared_distances_by_hand():
    C = np.array([[0.0, 0.0], [1.0, 1.0]])
    X = np.array([[3.0, 4.0], [1.0, 1.0]])
    d = sklearn_kmeans.squared_distances(C, X, np.einsum("ij,ij->i", X, X))
    assert np.array_equal(d, [[25.0, 2.0], [13.0, 0.0]])


def test_too_many_clusters():
    with pytest.raises(ValueError, match="n_clusters=3"):
        sklearn_kmeans.fit(np.zeros((2, 1)), 3, 1, 0)


def test_warns_as_kmeans_when_clusters_are_missing():
    X = np.repeat([[0.0], [1.0]], 5, axis=0)
    with pytest.warns(ConvergenceWarning, match=r"distinct clusters \(2\) found smaller than "
                                                r"n_clusters \(3\)"):
        sklearn_kmeans.fit(X, 3, 1, 0)
