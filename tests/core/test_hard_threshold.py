"""Gavish–Donoho optimal hard threshold: λ*(β) at β = 1, the Marchenko–Pastur median against
a closed form and Monte Carlo, ω(β) against the abstract's 2.858 and the paper's cubic, and
the number of singular values above the threshold on low-rank-plus-noise matrices."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import optimize

from mtc_cli.core.criteria import hard_threshold as ht


def low_rank(rng, m, n, svals):
    """An m × n matrix with the given singular values and Haar-random singular vectors."""
    U, _ = np.linalg.qr(rng.standard_normal((m, len(svals))))
    V, _ = np.linalg.qr(rng.standard_normal((n, len(svals))))
    return (U * np.asarray(svals, dtype=float)) @ V.T


def kept(Y) -> int:
    """The rank Gavish & Donoho select for the matrix Y: the number of its singular values
    strictly above τ = :func:`ht.threshold` (0 for a zero matrix, whose τ is 0)."""
    s = np.linalg.svd(Y, compute_uv=False)
    return int(np.sum(s > ht.threshold(s, Y.shape)))


def test_lambda_star_square_is_four_over_root_three():
    # β = 1: 2·2 + 8 / (2 + √16) = 4 + 4/3 = 16/3, √(16/3) = 4/√3.
    assert abs(ht.lambda_star(1.0) - 4.0 / np.sqrt(3.0)) < 1e-12
    # β → 0: 2(β + 1) + 8β/(2 + O(β)) → 2, so λ* → √2 (the upper bulk edge 1 + √β → 1 is
    # below it).
    assert abs(ht.lambda_star(1e-12) - np.sqrt(2.0)) < 1e-9
    np.testing.assert_allclose(ht.lambda_star(np.array([0.25, 1.0])),
                               [ht.lambda_star(0.25), ht.lambda_star(1.0)])


@pytest.mark.parametrize("beta", [0.05, 0.3, 0.7, 1.0])
def test_marchenko_pastur_density_has_unit_mass(beta):
    just_below = (1.0 + np.sqrt(beta)) ** 2 - 1e-12
    assert abs(ht.marchenko_pastur_cdf(just_below, beta) - 1.0) < 1e-9


def test_marchenko_pastur_median_square_case_closed_form():
    """β = 1: the density √(4 − x) / (2π√x) on [0, 4]; x = 4 sin²θ gives dF = (4/π) cos²θ dθ,
    F = (2/π)(θ + sinθ cosθ). With φ = 2θ the median solves φ + sin φ = π/2, and
    μ_1 = 4 sin²(φ/2) = 2(1 − cos φ)."""
    phi = optimize.brentq(lambda p: p + np.sin(p) - np.pi / 2, 0.0, np.pi / 2, xtol=1e-15)
    assert abs(ht.marchenko_pastur_median(1.0) - 2.0 * (1.0 - np.cos(phi))) < 1e-10


def test_marchenko_pastur_median_against_monte_carlo():
    """The median eigenvalue of Z Zᵀ / n, Z a 200 × 400 standard Gaussian matrix (β = 1/2),
    averaged over 10 draws. One draw's median has sd ≈ 0.007 (seen over 20 seeds), so the
    mean of 10 has sd ≈ 0.002; the tolerance 0.01 is ≈ 4.5 sd. The medians of the laws with
    β = 0.45 and 0.55 (off by ≈ 0.017) and of the density with the 1/x factor dropped (a
    semicircle on the same support, median 1 + β = 1.5) all fall outside it."""
    m, n, beta, tol = 200, 400, 0.5, 0.01
    rng = np.random.default_rng(12345)
    draws = []
    for _ in range(10):
        Z = rng.standard_normal((m, n))
        draws.append(np.median(np.linalg.eigvalsh(Z @ Z.T / n)))
    mc = float(np.mean(draws))
    mu = ht.marchenko_pastur_median(beta)
    assert abs(mc - mu) < tol
    for wrong in (ht.marchenko_pastur_median(0.45), ht.marchenko_pastur_median(0.55),
                  1.0 + beta):
        assert abs(mc - wrong) > tol


def test_omega_square_case_matches_abstract():
    # (4/√3) / √μ_1 with μ_1 = 0.652776 gives 2.858362; the abstract quotes 2.858.
    w = ht.omega(1.0)
    assert abs(w - 2.858) < 1e-3
    assert abs(w - (4.0 / np.sqrt(3.0)) / np.sqrt(ht.marchenko_pastur_median(1.0))) < 1e-14


def test_omega_cubic_approximation_within_002_on_grid():
    """The paper's cubic ω ≈ 0.56β³ − 0.95β² + 1.82β + 1.43; on β ∈ [0.05, 1] the largest
    deviation from the exact ω is ≈ 0.0063 (at β ≈ 0.13), well inside 0.02."""
    beta = np.linspace(0.05, 1.0, 39)
    exact = ht.omega(beta)
    cubic = 0.56 * beta**3 - 0.95 * beta**2 + 1.82 * beta + 1.43
    assert np.max(np.abs(exact - cubic)) <= 0.02
    assert np.all(np.diff(exact) > 0)  # ω increases with β


def test_median_threshold_recovers_known_noise_threshold():
    """For pure noise y_med ≈ √(max(m, n) μ_β)·σ, so ω(β)·y_med ≈ λ*(β)·√max(m, n)·σ: the
    unknown-σ rule reproduces the known-σ one (Gavish & Donoho 2014, Sect. III)."""
    rng = np.random.default_rng(3)
    m, n, sigma = 1000, 500, 0.7
    s = np.linalg.svd(sigma * rng.standard_normal((m, n)), compute_uv=False)
    tau = ht.threshold(s, (m, n))
    assert tau / (np.sqrt(m) * sigma) == pytest.approx(ht.lambda_star(0.5), abs=0.01)


def test_rank_of_clear_low_rank_signal_and_of_pure_noise():
    """200 × 100 (β = 1/2), noise σ = 0.5: five signal singular values 2.5·√200·σ push data
    singular values to ≈ 2.80·√200·σ, well above τ ≈ 1.98·√200·σ (5 in 200/200 seeds tried);
    pure noise stays below it (0 in 200/200 seeds)."""
    rng = np.random.default_rng(0)
    m, n, sigma = 200, 100, 0.5
    X = low_rank(rng, m, n, np.full(5, 2.5 * np.sqrt(m) * sigma))
    Y = X + sigma * rng.standard_normal((m, n))
    assert kept(Y) == 5
    assert kept(Y.T) == 5  # orientation does not matter
    s = np.linalg.svd(Y, compute_uv=False)
    assert ht.threshold(s, (n, m)) == ht.threshold(s, (m, n))
    assert kept(sigma * rng.standard_normal((m, n))) == 0


def test_weak_spikes_above_bulk_edge_are_dropped():
    """Spikes of size x = 1.27 (units √max·σ, β = 1/2) emerge from the bulk — their data
    singular values ≈ √((x² + 1)(x² + β))/x ≈ 1.85 exceed the edge 1 + √β ≈ 1.71 — but stay
    below λ*(1/2) ≈ 1.98, where keeping them costs more MSE than it saves: rank 3, not 5
    (3 in 20/20 seeds tried)."""
    rng = np.random.default_rng(0)
    m, n = 1000, 500
    Y = low_rank(rng, m, n, np.array([6.0, 5.0, 4.0, 1.27, 1.27]) * np.sqrt(m))
    Y += rng.standard_normal((m, n))
    s = np.linalg.svd(Y, compute_uv=False)
    assert np.all(s[3:5] > (1.0 + np.sqrt(0.5)) * np.sqrt(m))
    assert np.sum(s > ht.threshold(s, Y.shape)) == 3


def test_zero_matrix_and_input_checks():
    assert kept(np.zeros((30, 20))) == 0
    assert ht.threshold(np.zeros(20), (20, 30)) == 0.0
    with pytest.raises(ValueError, match="singular values"):
        ht.threshold(np.ones(5), (20, 30))
    with pytest.raises(ValueError, match="beta"):
        ht.lambda_star(1.5)
    with pytest.raises(ValueError, match="beta"):
        ht.omega(0.0)
