"""PCA as a density model with an isotropic noise subspace (Hansen & Larsen 1996, Sect. 4.1).

x ~ N(x₀, Σ) where Σ keeps the K leading principal directions of the sample covariance Σ̂
(eq. 11) and models the remaining L − K directions by one noise level
σ̂² = Tr(Σ̂ − Σ̂_K)/(L − K). One eigendecomposition of Σ̂ serves every K.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: how the K retained directions are modelled: ``"ml"`` keeps their eigenvalues λ_j (the
#: maximum-likelihood solution of probabilistic PCA, Tipping & Bishop 1999);
#: ``"additive"`` reads Σ = Σ̂_K + σ̂²·I_L literally (eigenvalues λ_j + σ̂²)
NOISE_MODELS = ("ml", "additive")


@dataclass(frozen=True)
class PcaSolution:
    """Mean x̂₀ (L,), eigenvalues λ of Σ̂ in decreasing order (L,), eigenvectors (L, L)."""

    mean: np.ndarray
    eigenvalues: np.ndarray
    eigenvectors: np.ndarray

    @property
    def dim(self) -> int:
        return len(self.mean)


def fit(X: np.ndarray) -> PcaSolution:
    """Eq. 11 of Hansen & Larsen 1996: sample mean and maximum-likelihood covariance
    (1/N), then its eigendecomposition (largest eigenvalue first)."""
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or len(X) <= X.shape[1]:
        raise ValueError(f"need more vectors than dimensions for a full-rank Σ̂, got {X.shape}")
    mean = X.mean(axis=0)
    lam, vec = np.linalg.eigh(np.cov(X, rowvar=False, bias=True))
    return PcaSolution(mean, lam[::-1].copy(), vec[:, ::-1].copy())


def model_variances(solution: PcaSolution, K: int, noise_model: str = "ml") -> np.ndarray:
    """The L variances of the model along the principal directions for K retained PCs:
    σ̂² = Tr(Σ̂ − Σ̂_K)/(L − K) on the noise subspace and, on the signal subspace, λ_j
    (``"ml"``) or λ_j + σ̂² (``"additive"``)."""
    L = solution.dim
    if not 0 <= K < L:
        raise ValueError(f"K must be in 0..L−1 = {L - 1}, got {K}")
    lam = solution.eigenvalues
    sigma2 = lam[K:].mean()
    if noise_model == "ml":
        signal = lam[:K]
    elif noise_model == "additive":
        signal = lam[:K] + sigma2
    else:
        raise ValueError(f"unknown noise_model {noise_model!r}: expected one of {NOISE_MODELS}")
    return np.concatenate([signal, np.full(L - K, sigma2)])


def negative_log_likelihood(solution: PcaSolution, X: np.ndarray, K: int,
                            noise_model: str = "ml") -> np.ndarray:
    """Per-vector cost ε(x|θ) = −log N(x | x̂₀, Σ_K) of Hansen & Larsen 1996, Sect. 4.1,
    evaluated in the eigenbasis: ½[L log 2π + Σ_j log ν_j + Σ_j z_j²/ν_j], z = Vᵀ(x − x̂₀)."""
    nu = model_variances(solution, K, noise_model)
    z = (np.asarray(X, dtype=np.float64) - solution.mean) @ solution.eigenvectors
    return 0.5 * (solution.dim * np.log(2 * np.pi) + np.log(nu).sum() + (z * z) @ (1.0 / nu))


def n_parameters_paper(K: int, L: int) -> int:
    """dim(θ) = L + 1 + K(K+1)/2 as counted by Hansen & Larsen 1996, Sect. 4.1: mean,
    noise level and a K × K signal covariance (the K eigenvectors are not counted)."""
    return L + 1 + K * (K + 1) // 2


def n_parameters_ppca(K: int, L: int) -> int:
    """dim(θ) = L + 1 + KL − K(K−1)/2 of probabilistic PCA (Tipping & Bishop 1999): mean,
    noise level and the L × K loading matrix up to rotation (K eigenvalues plus the
    KL − K(K+1)/2 angles of K orthonormal directions)."""
    return L + 1 + K * L - K * (K - 1) // 2
