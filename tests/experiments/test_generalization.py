"""Hansen & Larsen 1996: the maximum-likelihood estimate (eq. 10) against the general one
(eqs. 7 and 9, written here), the PCA and RBF density models, checked on Gaussians with
known answers, and both experiments end to end."""

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from scipy.special import logsumexp
from scipy.stats import multivariate_normal

from mtc_cli.core.criteria.generalization import ml_generalization_error
from mtc_cli.core.datasets.gaussians import random_subspace, signal_plus_noise
from mtc_cli.core.models import pca_density, rbf_density


def gaussian_derivatives(x: np.ndarray):
    """Per-sample gradient and Hessian of ε = ½ log(2πv) + (x−μ)²/(2v) in θ = (μ, v) at
    the maximum-likelihood estimate."""
    mu, v = x.mean(), x.var()
    d = x - mu
    g = np.stack([-d / v, 1 / (2 * v) - d**2 / (2 * v**2)], axis=1)
    h = np.empty((len(x), 2, 2))
    h[:, 0, 0] = 1 / v
    h[:, 0, 1] = h[:, 1, 0] = d / v**2
    h[:, 1, 1] = -1 / (2 * v**2) + d**2 / v**3
    return g, h


def sensitivity_matrices(gradients: np.ndarray, hessians: np.ndarray):
    """Q̂ = (1/N) Σ_α g_α g_αᵀ and Ĵ = (1/N) Σ_α H_α: eq. 7 of Hansen & Larsen 1996 without
    regularization, from the per-sample gradients g_α (N, m) and Hessians H_α (N, m, m)."""
    return gradients.T @ gradients / len(gradients), hessians.mean(axis=0)


def general_estimate(train_error: float, Q: np.ndarray, J: np.ndarray, n: int) -> float:
    """⟨G⟩ ≈ ⟨E⟩ + Tr(Q J⁻¹)/N: eq. 9 of Hansen & Larsen 1996, for any smoothly
    parametrized cost; eq. 10 (``ml_generalization_error``) is its case Q = J."""
    return train_error + float(np.trace(Q @ np.linalg.inv(J))) / n


def test_eq10_is_eq9_for_a_gaussian_and_eq9_grows_with_kurtosis():
    """The Gaussian's negative log-likelihood in θ = (μ, v) at its ML estimate, N = 200 000.
    On Gaussian data (Q = J) eq. 9, with Q and J of eq. 7, is eq. 10: E + dim(θ)/N, dim = 2.
    Tr(Q J⁻¹) = 1 + (κ − 1)/2 with κ the kurtosis, so on Laplace data (κ = 6), where the
    model is misspecified, eq. 9 adds 3.5/N, which eq. 10 misses."""
    rng = np.random.default_rng(0)
    n = 200_000
    for x, trace in ((rng.normal(2.0, 3.0, n), 2.0), (rng.laplace(0.0, 1.0, n), 3.5)):
        Q, J = sensitivity_matrices(*gaussian_derivatives(x))
        E = 0.5 * np.log(2 * np.pi * x.var()) + 0.5  # eq. 1: the mean ε at (x̄, var x)
        G = general_estimate(E, Q, J, n)
        assert G == pytest.approx(E + trace / n, abs=0.03 * trace / n)
        eq10 = float(ml_generalization_error(E, 2, n))
        assert abs(eq10 - G) * n < 0.06 if trace == 2.0 else abs(eq10 - G) * n > 1.4


def test_eq10_is_eq9_when_Q_equals_J():
    rng = np.random.default_rng(1)
    A = rng.normal(size=(4, 4))
    J = A @ A.T + 4 * np.eye(4)
    assert float(ml_generalization_error(1.5, 4, 20)) == pytest.approx(
        general_estimate(1.5, J, J, 20))
    np.testing.assert_allclose(ml_generalization_error([1.0, 2.0], [3, 5], 10), [1.3, 2.5])


def test_E_plus_dim_over_N_approaches_the_exact_expected_test_nll():
    """Full-covariance Gaussian (the PCA model with K = L − 1 and the ML variances): the
    exact G(θ̂) is known in closed form; averaged over training sets, G − E ≈ dim/N, and
    exactly L(L+3)/(2(N−L−2)) by the Wishart mean of Σ̂⁻¹."""
    rng = np.random.default_rng(2)
    L, n, reps = 3, 150, 3000
    A = rng.normal(size=(L, L))
    sigma, mu = A @ A.T + np.eye(L), rng.normal(size=L)
    dim = pca_density.n_parameters_ppca(L - 1, L)
    assert dim == L + L * (L + 1) // 2
    gaps = []
    for _ in range(reps):
        X = rng.multivariate_normal(mu, sigma, n)
        sol = pca_density.fit(X)
        E = pca_density.negative_log_likelihood(sol, X, L - 1).mean()
        S = np.cov(X, rowvar=False, bias=True)
        Sinv, d = np.linalg.inv(S), mu - sol.mean
        G = 0.5 * (L * np.log(2 * np.pi) + np.linalg.slogdet(S)[1] + np.trace(Sinv @ sigma)
                   + d @ Sinv @ d)
        gaps.append(G - E)
    exact = L * (L + 3) / (2 * (n - L - 2))
    se = np.std(gaps) / np.sqrt(reps)
    assert abs(np.mean(gaps) - exact) < 4 * se
    assert np.mean(gaps) == pytest.approx(dim / n, rel=0.2)


@pytest.fixture
def pca_data():
    rng = np.random.default_rng(4)
    basis = random_subspace(rng, 6, 2)
    return signal_plus_noise(rng, 40, basis, 9.0, 1.0), signal_plus_noise(rng, 7, basis, 9.0, 1.0)


@pytest.mark.parametrize("noise_model", pca_density.NOISE_MODELS)
@pytest.mark.parametrize("K", [1, 2, 5])
def test_pca_nll_matches_scipy_with_the_explicit_covariance(pca_data, noise_model, K):
    X, Xt = pca_data
    sol = pca_density.fit(X)
    L = X.shape[1]
    S = np.cov(X, rowvar=False, bias=True)
    lam, V = np.linalg.eigh(S)
    V = V[:, ::-1]
    Sk = V[:, :K] @ np.diag(lam[::-1][:K]) @ V[:, :K].T  # Σ̂_K
    s2 = np.trace(S - Sk) / (L - K)
    P = V[:, K:] @ V[:, K:].T  # projector on the noise subspace
    cov = Sk + s2 * P if noise_model == "ml" else Sk + s2 * np.eye(L)
    ref = -multivariate_normal(X.mean(axis=0), cov).logpdf(Xt)
    np.testing.assert_allclose(pca_density.negative_log_likelihood(sol, Xt, K, noise_model),
                               ref, rtol=1e-10)


def test_pca_training_error_of_the_ml_model_in_closed_form(pca_data):
    X = pca_data[0]
    sol = pca_density.fit(X)
    for K in (1, 3):
        nu = pca_density.model_variances(sol, K)
        E = 0.5 * (6 * np.log(2 * np.pi) + np.log(nu).sum() + 6)  # Tr(Σ̂ Σ⁻¹) = L
        assert pca_density.negative_log_likelihood(sol, X, K).mean() == pytest.approx(E)


def test_pca_parameter_counts_by_hand():
    assert pca_density.n_parameters_paper(3, 20) == 20 + 1 + 6
    assert pca_density.n_parameters_ppca(3, 20) == 20 + 1 + 60 - 3
    assert pca_density.n_parameters_ppca(1, 20) == pca_density.n_parameters_paper(1, 20) + 19
    sol = pca_density.fit(np.random.default_rng(0).normal(size=(10, 3)))
    with pytest.raises(ValueError, match="K must be"):
        pca_density.model_variances(sol, 3)  # K ≤ L − 1: the noise subspace is not empty
    with pytest.raises(ValueError, match="more vectors"):
        pca_density.fit(np.zeros((3, 3)))


def test_rbf_nll_matches_brute_force_mixture_density():
    rng = np.random.default_rng(6)
    X = rng.normal(size=(30, 2)) + rng.choice([0.0, 4.0], size=(30, 1))
    sol = rbf_density.fit(X, 3, n_init=2, random_state=0)
    dens = sum(w * multivariate_normal(c, sol.width * np.eye(2)).pdf(X[:5])
               for w, c in zip(sol.weights, sol.centres, strict=True))
    np.testing.assert_allclose(rbf_density.negative_log_likelihood(sol, X[:5]), -np.log(dens),
                               rtol=1e-10)
    assert sol.weights.sum() == pytest.approx(1.0)
    assert rbf_density.n_parameters(3, 2) == 10


def test_rbf_width_is_the_maximum_likelihood_width():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(50, 2)) * 0.7 + rng.choice([0.0, 3.0], size=(50, 1))
    # K = 1: σ² = mean ‖x − x̄‖² / L in closed form
    one = rbf_density.fit(X, 1, n_init=1)
    assert one.width == pytest.approx(((X - X.mean(axis=0)) ** 2).sum() / X.size, rel=1e-6)
    # K = 3: the stationarity condition of the likelihood in σ² (the EM fixed point)
    sol = rbf_density.fit(X, 3, n_init=2, random_state=1)
    D = ((X[:, None, :] - sol.centres[None]) ** 2).sum(axis=2)
    log_r = np.log(sol.weights) - D / (2 * sol.width)
    r = np.exp(log_r - logsumexp(log_r, axis=1, keepdims=True))
    assert sol.width == pytest.approx((r * D).sum() / X.size, rel=1e-5)


@pytest.mark.parametrize(("config", "figure"), [("hansen_pca", "hansen_pca.png"),
                                                ("hansen_kmeans", "hansen_kmeans.png")])
def test_quick_profile_end_to_end(root, tmp_path, config, figure):
    res = subprocess.run([sys.executable, "-m", "mtc_cli.cli", "run",
                          str(root / "configs" / f"{config}.yaml"), "--quick",
                          "--out", str(tmp_path)],
                         capture_output=True, text=True, cwd=root, timeout=120)
    assert res.returncode == 0, res.stderr
    for name in ("rows.csv", "summary.csv", "curves.csv", "curve_choice.csv", "agreement.csv",
                 "targets.csv", "run.json", figure):
        assert (tmp_path / name).is_file(), name
    rows = pd.read_csv(tmp_path / "rows.csv")
    assert np.isfinite(rows["score"]).all()
    # the analytic estimate is the training error plus a positive dim/N
    wide = rows.pivot_table(index=["rep", "k"], columns="criterion", values="score")
    analytic = [c for c in wide.columns if c.startswith("analytic")]
    assert all((wide[c] > wide["train"]).all() for c in analytic)
    if config == "hansen_kmeans":
        example = pd.read_csv(tmp_path / "example.csv")
        assert (example["kind"] == "centre").sum() == 4  # quick profile: k_max = 4
