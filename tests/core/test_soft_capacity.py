"""Soft-mapped approximation capacity (mtc_cli.core.criteria.soft_capacity): the mapping of
MTC eq. 12 by hand, eq. 13 recovered under the identity mapping, the Hungarian renaming,
and the two known cases (separated noise-free clusters: log₂ K bits; pure noise: 0 bits)
plus the k-curve on well-separated blobs for k-means and the Gaussian mixture. Where the
definition does not reach the known answer the test says so (strict xfail, with the
numbers and the reason): it stays red the day it passes, so the finding is revisited."""

import numpy as np
import pytest

from mtc_cli.core.criteria.approximation_capacity import capacity
from mtc_cli.core.criteria.soft_capacity import (
    _mapping_beta,
    _matching,
    _soft_mapping,
    alignment,
    soft_capacity,
)
from mtc_cli.selection.catalog import ALGORITHMS

K = 4
CENTRES = 10.0 * np.array([[0, 0], [1, 0], [0, 1], [1, 1]])


def blobs(rng, n, sigma):
    return CENTRES[rng.integers(K, size=n)] + sigma * rng.standard_normal((n, 2))


def model_of(name):
    return ALGORITHMS[name].make(n_init=3, covariance_type="full", beta_factor=0.75)


def curve(name, X1, X2, ks, seed=0):
    rng, model = np.random.default_rng(seed), model_of(name)
    mappings = alignment(X1, X2, model.metric)
    return [soft_capacity(X1, X2, model.fit(X1, k, rng), model.fit(X2, k, rng), model,
                          mappings) for k in ks]


def test_soft_mapping_hand_worked():
    """X¹ = {0, 1}, X² = {0}: R(s¹, X¹, 1) = ((½)² + (½)²)/2 = ¼, β_ψ = 0.75/¼ = 3;
    d = (0, 1), so p = (1, e⁻³)/(1 + e⁻³) = (0.9526, 0.0474)."""
    X1, X2 = np.array([[0.0], [1.0]]), np.array([[0.0]])
    assert _mapping_beta(X1, "euclidean") == pytest.approx(3.0)
    p = _soft_mapping(X1, X2, 3.0, "euclidean")
    e = np.exp(-3.0)
    np.testing.assert_allclose(p, [[1 / (1 + e), e / (1 + e)]])
    np.testing.assert_allclose(p, [[0.952574, 0.047426]], atol=1e-6)


def test_identity_mapping_is_wasc_eq13_on_the_pair():
    """With X¹ = X² and a mapping that is the identity (β_ψ → ∞ on distinct points), the
    capacity is that of eq. 13 on the two solutions' costs of the same objects."""
    rng = np.random.default_rng(1)
    X = blobs(rng, 40, 1.0)
    model = model_of("kmeans")
    f1, f2 = model.fit(X, 3, rng), model.fit(X, 3, rng)
    eye = (np.eye(40), np.eye(40))
    perm = _matching([(model.predict(f1, X), model.predict(f2, X))] * 2, 3)
    c1, c2 = model.costs(f1, X), model.costs(f2, X)[:, perm]
    expected = 0.5 * (capacity(c1, c2, n_grid=31)[0] + capacity(c2, c1, n_grid=31)[0])
    assert soft_capacity(X, X, f1, f2, model, eye) == pytest.approx(expected, abs=1e-12)


def test_matching_recovers_a_renaming():
    a = np.array([0, 0, 1, 1, 2, 2, 2])
    perm = _matching([(a, np.array([2, 0, 1])[a])], 3)
    np.testing.assert_array_equal(perm, [2, 0, 1])


def test_separated_noise_free_clusters_carry_log2_K_bits():
    """Tight blobs 10 apart, σ = 0.01, k = K: both solutions find the blobs; a mapping
    that stays inside each blob makes every term log Σ_k g¹g² → 0 as β → ∞, so
    I_β → log₂ K. Tolerance 0.05 bit: the β grid reaches 10⁴/g, where the remaining
    terms are e^(−10⁴)-small; the rest is the refinement's tolerance."""
    rng = np.random.default_rng(2)
    X1, X2 = blobs(rng, 200, 0.01), blobs(rng, 200, 0.01)
    (cap,) = curve("kmeans", X1, X2, [K])
    assert cap == pytest.approx(np.log2(K), abs=0.05)


@pytest.mark.xfail(strict=True, reason="a k-means tessellation of noise is reproducible and "
                   "the expected cost of the mapped image keeps its cells: 0.84 bits at k = 2, "
                   "1.69 at k = 4")
def test_pure_noise_carries_no_information_at_any_k():
    """Uniform noise on the unit square: no structure to transmit. Tolerance 0.1 bit at
    every k: the upward bias of a maximum over β of a mean over 200 objects."""
    rng = np.random.default_rng(3)
    X1, X2 = rng.random((200, 2)), rng.random((200, 2))
    caps = curve("kmeans", X1, X2, range(1, 7))
    assert max(caps) <= 0.1, np.round(caps, 3)


#: eq. 13's log k: splitting one of K blobs into halves that the mapping scrambles costs
#: (1/K) bit and adds log₂((K+1)/K), 0.32 bit for K = 4
SPLIT = "a split blob costs 1/4 bit and log k adds 0.32 bit: "


@pytest.mark.parametrize("name", [
    pytest.param("kmeans", marks=pytest.mark.xfail(strict=True, reason=SPLIT + (
        "2.00 bits at k = 4, 2.06 at k = 5"))), "gmm"])
def test_capacity_is_maximal_at_the_true_k_on_separated_blobs(name):
    """K = 4 Gaussian blobs (σ = 1, 10 apart), halves of 150: argmax_k over k = 1..8.
    Whether a fit beyond K splits a blob cleanly depends on its draws: with the GMM's fits
    of mtc select before its compiled EM (other k-means starts) the GMM's capacity also
    peaked beyond K (2.12 bits at k = 5); its present fits split none cleanly (1.80)."""
    rng = np.random.default_rng(4)
    X1, X2 = blobs(rng, 150, 1.0), blobs(rng, 150, 1.0)
    caps = curve(name, X1, X2, range(1, 9))
    assert int(np.argmax(caps)) + 1 == K, np.round(caps, 3)
