"""The mappings ψ of Frank et al. 2011 (eqs. 1, 4, 5, 12), checked by brute force and
by their known limits."""

import numpy as np
import pytest
from scipy.spatial.distance import cdist

from mtc_cli.core import mappings


@pytest.fixture
def sets():
    rng = np.random.default_rng(0)
    return rng.normal(size=(30, 3)), rng.normal(size=(17, 3))


def test_structure_is_the_nearest_centroid_by_brute_force(sets):
    C, X2 = sets[0][:5], sets[1]
    expected = [int(np.argmin([np.sum((x - c) ** 2) for c in C])) for x in X2]
    assert mappings.structure(C, X2).tolist() == expected


def test_structure_with_objects_as_centroids_is_the_nearest_neighbour_map(sets):
    X1, X2 = sets
    np.testing.assert_array_equal(mappings.structure(X1, X2),
                                  mappings.nearest_neighbour(X1, X2))


def test_structure_ties_go_to_the_lowest_index_and_shapes_are_checked():
    C = np.array([[1.0, 0.0], [-1.0, 0.0]])
    assert mappings.structure(C, np.array([[0.0, 5.0]])).tolist() == [0]
    with pytest.raises(ValueError):
        mappings.structure(C, np.zeros((2, 3)))


@pytest.mark.parametrize("chunk", [1, 7, 1024])
def test_nearest_neighbour_is_the_brute_force_argmin_ties_to_the_lowest_index(chunk):
    """On a small integer grid every squared distance is exact and many tie: the lowest
    index of X¹ at the least ‖x² − x¹‖², whatever the chunk of X² rows."""
    rng = np.random.default_rng(4)
    X1 = rng.integers(-3, 4, size=(60, 3)).astype(float)
    X2 = rng.integers(-3, 4, size=(45, 3)).astype(float)
    expected = [min(range(len(X1)), key=lambda i: (np.sum((x - X1[i]) ** 2), i)) for x in X2]
    assert mappings.nearest_neighbour(X1, X2, chunk=chunk).tolist() == expected


def test_generative_is_the_identity_of_paired_sets():
    assert mappings.generative(4, 4).tolist() == [0, 1, 2, 3]
    with pytest.raises(ValueError, match="paired"):
        mappings.generative(4, 5)


def test_soft_matches_eq12_term_by_term(sets):
    X1, X2 = sets
    D = cdist(X2, X1, "sqeuclidean")
    beta = 0.7
    brute = np.array([[np.exp(-beta * d) / sum(np.exp(-beta * e) for e in row) for d in row]
                      for row in D])
    np.testing.assert_allclose(mappings.soft(D, beta), brute, rtol=1e-12)


def test_soft_limits_uniform_and_nearest(sets):
    X1, X2 = sets
    D = cdist(X2, X1, "sqeuclidean")
    np.testing.assert_allclose(mappings.soft(D, 0.0), np.full(D.shape, 1 / D.shape[1]))
    hard = mappings.soft(D, 1e6)  # β → ∞: the deterministic nearest-neighbour mapping
    np.testing.assert_array_equal(hard.argmax(axis=1), mappings.nearest_neighbour(X1, X2))
    assert np.allclose(hard.max(axis=1), 1.0)


def test_soft_is_stable_for_huge_dissimilarities():
    D = np.array([[1e5, 1e5 + 1.0], [3e8, 3e8]])
    p = mappings.soft(D, 2.0)
    assert np.isfinite(p).all()
    np.testing.assert_allclose(p[0], [1 / (1 + np.exp(-2.0)), np.exp(-2.0) / (1 + np.exp(-2.0))])
    np.testing.assert_allclose(p[1], [0.5, 0.5])


def test_soft_rejects_bad_beta_and_shape():
    with pytest.raises(ValueError, match="beta"):
        mappings.soft(np.zeros((2, 2)), -1.0)
    with pytest.raises(ValueError, match="beta"):
        mappings.soft(np.zeros((2, 2)), np.inf)
    with pytest.raises(ValueError, match="2-D"):
        mappings.soft(np.zeros(3), 1.0)
