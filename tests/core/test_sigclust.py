"""SigClust at k̂ (mtc_cli/core/criteria/sigclust.py): the cluster index and the background
noise worked out by hand, the null eigenvalues against numpy's covariance, the answers on two
blobs and on one Gaussian, calibration on data drawn from the Gaussian null, determinism."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import norm

from mtc_cli.core.criteria.gap_statistic import within_sum_of_squares
from mtc_cli.core.criteria.sigclust import (
    background_variance,
    cluster_index,
    null_eigenvalues,
    sigclust,
)


def test_cluster_index_by_hand():
    """(0,0), (0,2), (10,0), (10,2) in pairs: within 4 × 1, total 4 × (25 + 1) → 4/104."""
    X = np.array([[0.0, 0.0], [0.0, 2.0], [10.0, 0.0], [10.0, 2.0]])
    assert cluster_index(X, [0, 0, 1, 1]) == pytest.approx(4 / 104)
    assert cluster_index(X, [5, 5, 5, 5]) == pytest.approx(1.0)
    assert cluster_index(X, ["a", "b", "c", "d"]) == pytest.approx(0.0, abs=1e-12)
    with pytest.raises(ValueError, match="coincide"):
        cluster_index(np.ones((3, 2)), [0, 1, 1])


def test_cluster_index_is_the_gap_statistics_w_over_the_total():
    rng = np.random.default_rng(0)
    X, labels = rng.standard_normal((50, 3)), rng.integers(4, size=50)
    total = within_sum_of_squares(X, np.zeros(50))
    assert cluster_index(X, labels) == pytest.approx(within_sum_of_squares(X, labels) / total)


def test_background_variance_by_hand():
    """1, 2, 3, 4, 100: median 3, absolute deviations 2, 1, 0, 1, 97, MAD 1; σ̂ = 1/Φ⁻¹(¾)."""
    X = np.array([[1.0, 2.0, 3.0, 4.0, 100.0]])
    assert background_variance(X) == pytest.approx(1 / norm.ppf(0.75) ** 2)


def test_null_eigenvalues_are_the_sample_covariances_where_n_exceeds_d():
    X = np.random.default_rng(1).standard_normal((40, 3)) * [3.0, 1.0, 0.2]
    np.testing.assert_allclose(null_eigenvalues(X), np.linalg.eigvalsh(np.cov(X.T))[::-1])


def test_null_eigenvalues_raised_to_the_background_noise_where_d_is_large():
    X = np.random.default_rng(2).standard_normal((10, 30))
    lam, sigma2 = null_eigenvalues(X), background_variance(X)
    raw = null_eigenvalues(X, floor=False)
    assert np.all(raw[9:] < 1e-20)  # rank ≤ n − 1 = 9
    np.testing.assert_allclose(lam, np.maximum(raw, sigma2))
    assert np.all(lam[9:] == sigma2)


def test_two_blobs_at_the_minimum_one_gaussian_not():
    rng = np.random.default_rng(3)
    blobs = np.vstack([rng.standard_normal((100, 2)), rng.standard_normal((100, 2)) + [8, 0]])
    e = sigclust(blobs, 2, rng, n_simulations=50)
    assert e.p_value == 0.0 and not e.says_one and e.statistic < min(e.reference)
    e = sigclust(rng.standard_normal((200, 2)) * [2.0, 1.0], 2, rng, n_simulations=50)
    assert e.p_value > 0.05 and e.says_one and len(e.reference) == 50


def test_calibrated_under_its_gaussian_null():
    """100 data sets of 300 points from N(0, diag(4, 1, 0.25)) at k̂ = 2. Under
    exchangeability p ≤ 0.05 iff at most 2 of the 50 simulations lie below the data (3/51 =
    5.9 %); with the eigenvalues estimated from each data set the null follows the data, and
    the test is conservative (seeds 4 and 5: 3 and 2 of 100 at 0.05, 7 and 7 at 0.10, mean p
    0.54 and 0.50). Accepted: ≤ 12 at 0.05, ≤ 20 at 0.10, mean p in 0.40–0.60, and between
    35 and 65 p-values ≤ 0.5."""
    rng = np.random.default_rng(4)
    p = np.array([sigclust(rng.standard_normal((300, 3)) * [2.0, 1.0, 0.5], 2, rng,
                           n_simulations=50).p_value for _ in range(100)])
    assert np.sum(p <= 0.05) <= 12 and np.sum(p <= 0.10) <= 20
    assert 0.40 <= p.mean() <= 0.60 and 35 <= np.sum(p <= 0.5) <= 65


def test_deterministic_and_sampled_above_max_items():
    X = np.random.default_rng(5).standard_normal((500, 2))
    a = sigclust(X, 2, np.random.default_rng(6), n_simulations=10, max_items=100)
    b = sigclust(X, 2, np.random.default_rng(6), n_simulations=10, max_items=100)
    assert a == b

    seen = []

    def cluster(Y, k, rng):
        seen.append(len(Y))
        return (Y[:, 0] > np.median(Y[:, 0])).astype(int)

    sigclust(X, 2, np.random.default_rng(6), cluster=cluster, n_simulations=3, max_items=100)
    assert seen == [100] * 4


def test_uniform_square_clustered_against_a_gaussian_not_against_its_box():
    """k-means cuts a uniform square into tighter pieces than a Gaussian of its covariance
    (2-means: CI = (1/4 + 1)/2 = 0.625 against 1 − 2/π·1/2 ≈ 0.68): the Gaussian null finds
    groups, the principal-component box null does not."""
    X = np.random.default_rng(7).random((400, 2))
    gauss = sigclust(X, 2, np.random.default_rng(8), n_simulations=50)
    box = sigclust(X, 2, np.random.default_rng(8), n_simulations=50, null="pc_box")
    assert gauss.statistic == pytest.approx(0.625, abs=0.03)
    assert np.mean(gauss.reference) == pytest.approx(1 - 1 / np.pi, abs=0.03)
    assert gauss.p_value == 0.0 and not gauss.says_one
    assert box.test == "sigclust_pc_box" and box.p_value > 0.05 and box.says_one
    with pytest.raises(ValueError, match="unknown null"):
        sigclust(X, 2, np.random.default_rng(8), null="t")


def test_pc_box_null_calibrated_on_uniform_boxes():
    """100 rotated uniform rectangles (300 points, sides 2 and 1) at k̂ = 2 against their
    principal-component box. Anti-conservative: the estimated axes are a little off the
    rectangle's, so the box of the scores is wider than the rectangle across its short side
    and the null's CI larger (seeds 9 and 10: p ≤ 0.05 on 10 and 11 of 100, mean p 0.42 and
    0.41). Accepted: ≤ 15 at 0.05, mean p in 0.35–0.55."""
    rng = np.random.default_rng(9)
    c, s = np.cos(0.7), np.sin(0.7)
    R = np.array([[c, -s], [s, c]])
    p = np.array([sigclust(rng.random((300, 2)) * [2.0, 1.0] @ R.T, 2, rng, n_simulations=50,
                           null="pc_box").p_value for _ in range(100)])
    assert np.sum(p <= 0.05) <= 15 and 0.35 <= p.mean() <= 0.55
