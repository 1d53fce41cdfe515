"""The partitions of a hierarchy at every k from its merge order: scipy's ``cut_tree`` where
heights are distinct (and k < n), and on tied heights exactly k nested clusters, each the
union of the merges so far (sets merged one by one, an independent route)."""

import numpy as np
import pytest
from scipy.cluster.hierarchy import cut_tree, linkage

from mtc_cli.core.models.tree_cuts import cuts

METHODS = ["ward", "single", "average", "complete"]


def by_sets(Z: np.ndarray, k: int) -> np.ndarray:
    """The partition after n − k merges, as Python sets, numbered by first appearance."""
    n = len(Z) + 1
    clusters = {i: {i} for i in range(n)}
    for i, (a, b) in enumerate(Z[: n - k, :2].astype(int)):
        clusters[n + i] = clusters.pop(a) | clusters.pop(b)
    owner = {obj: c for c, members in clusters.items() for obj in members}
    numbers: dict[int, int] = {}
    return np.array([numbers.setdefault(owner[i], len(numbers)) for i in range(n)])


@pytest.mark.parametrize("method", METHODS)
def test_equals_cut_tree_where_heights_are_distinct(method):
    rng = np.random.default_rng(0)
    for n in (2, 3, 10, 57):
        X = rng.normal(size=(n, 3))
        Z = linkage(X, method=method)
        ks = list(range(1, min(n - 1, 12) + 1))
        ours = cuts(Z, [*ks, n])
        theirs = cut_tree(Z, n_clusters=ks)
        for j, k in enumerate(ks):
            assert np.array_equal(ours[k], theirs[:, j]), (n, k)
        # k = n: every object alone (scipy's cut_tree asked for k = 1, 2 of 2 objects gives
        # one cluster at both)
        assert np.array_equal(ours[n], np.arange(n))


@pytest.mark.parametrize("method", METHODS)
def test_tied_heights_give_k_nested_clusters_of_the_merges(method):
    rng = np.random.default_rng(1)
    X = rng.integers(0, 4, (60, 2)).astype(float)  # a 4 × 4 grid: many tied distances
    Z = linkage(X, method=method)
    ks = list(range(1, 16))
    ours = cuts(Z, ks)
    for k in ks:
        assert np.array_equal(ours[k], by_sets(Z, k))
        assert sorted(set(ours[k])) == list(range(k))
        if k > 1:  # the cut at k refines the cut at k − 1
            coarse = ours[k - 1]
            assert all(len(set(coarse[ours[k] == c])) == 1 for c in range(k))


def test_ks_in_any_order_and_repeated():
    Z = linkage(np.random.default_rng(2).normal(size=(20, 2)), method="average")
    out = cuts(Z, [5, 2, 5, 20])
    assert set(out) == {2, 5, 20}
    assert np.array_equal(out[20], np.arange(20))


def test_a_k_beyond_the_objects_is_refused():
    Z = linkage(np.random.default_rng(3).normal(size=(5, 2)), method="single")
    with pytest.raises(ValueError, match="a tree of 5 objects has no cut into 6 clusters"):
        cuts(Z, [2, 6])
