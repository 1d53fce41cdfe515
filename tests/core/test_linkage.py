"""The merge trees of :mod:`mtc_cli.core.models.linkage` are scipy's, bit for bit: on random
data, on data with many tied distances (integer grids, duplicated objects) and on tiny
cases; the cophenetic matrix is scipy's ``cophenet`` in square form."""

import numpy as np
import pytest
from scipy.cluster.hierarchy import cophenet
from scipy.cluster.hierarchy import linkage as scipy_linkage
from scipy.spatial.distance import pdist, squareform

from mtc_cli.core.models.linkage import (
    METHODS,
    cophenetic_square,
    linkage,
    mutual_reachability,
)


def _cases():
    rng = np.random.default_rng(7)
    yield "gaussian", rng.normal(size=(300, 4))
    yield "grid", rng.integers(0, 4, size=(120, 2)).astype(float)  # many ties
    yield "copies", np.repeat(rng.normal(size=(20, 3)), 4, axis=0)  # zero distances
    yield "line", np.arange(9, dtype=float)[:, None]
    yield "two", np.array([[0.0], [1.0]])
    yield "blobs", np.vstack([rng.normal(c, 0.3, size=(80, 5)) for c in (0, 3, 9)])


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("name,X", list(_cases()), ids=[c[0] for c in _cases()])
def test_trees_equal_scipy_bit_for_bit(method, name, X):
    ours = linkage(X, method)
    theirs = scipy_linkage(X, method=method)
    assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
    assert np.array_equal(ours, theirs), name
    # and from a condensed matrix
    assert np.array_equal(linkage(pdist(X), method), theirs)


@pytest.mark.parametrize("method", METHODS)
def test_trees_of_mutual_reachability_equal_scipy(method):
    # HDBSCAN's distances: many pairs share a core distance, so many tied heights
    X = np.random.default_rng(11).normal(size=(250, 3))
    y = mutual_reachability(X, 5)
    assert np.array_equal(linkage(y, method), scipy_linkage(y, method=method))


def test_a_hand_worked_tree():
    # points 0, 1, 3, 7 on a line: single linkage joins {0,1} at 1, then 3 at 2, then 7 at 4
    Z = linkage(np.array([[0.0], [1.0], [3.0], [7.0]]), "single")
    assert Z.tolist() == [[0, 1, 1, 2], [2, 4, 2, 3], [3, 5, 4, 4]]
    # complete: {0,1} at 1; {0,1,3} at 3; then 7 at 7
    Z = linkage(np.array([[0.0], [1.0], [3.0], [7.0]]), "complete")
    assert Z.tolist() == [[0, 1, 1, 2], [2, 4, 3, 3], [3, 5, 7, 4]]
    # Ward on two pairs: merge heights √(2·|x||y|/(|x|+|y|))·(centroid gap) for the last
    Z = linkage(np.array([[0.0], [2.0], [10.0], [12.0]]), "ward")
    assert Z[:2, 2].tolist() == [2.0, 2.0]
    assert Z[2, 2] == pytest.approx(np.sqrt(2 * 2 * 2 / 4) * 10)


@pytest.mark.parametrize("method", METHODS)
def test_cophenetic_square_is_scipys(method):
    X = np.random.default_rng(3).normal(size=(150, 3))
    Z = linkage(X, method)
    assert np.array_equal(cophenetic_square(Z), squareform(cophenet(Z)))


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="unknown linkage"):
        linkage(np.zeros((3, 2)), "centroid")
    with pytest.raises(ValueError, match="finite"):
        linkage(np.array([1.0, np.inf, 2.0]), "single")
    with pytest.raises(ValueError, match="condensed"):
        linkage(np.array([1.0, 2.0]), "single")


@pytest.mark.parametrize("min_samples", [1, 2, 5, 500])
def test_mutual_reachability_is_the_partition_of_the_square_matrix(min_samples):
    # its array form: core distances by np.partition of the square matrix, then maxima
    rng = np.random.default_rng(min_samples)
    for X in (rng.normal(size=(120, 3)), rng.integers(0, 3, size=(90, 2)).astype(float)):
        d = pdist(X)
        m = min(min_samples, len(X))
        core = np.partition(squareform(d), m - 1, axis=1)[:, m - 1]
        i, j = np.triu_indices(len(X), k=1)
        want = np.maximum(d, np.maximum(core[i], core[j]))
        assert np.array_equal(mutual_reachability(X, min_samples), want)
