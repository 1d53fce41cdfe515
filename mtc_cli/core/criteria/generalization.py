"""Analytic generalization error of unsupervised models (Hansen & Larsen 1996).

E is the training error, the mean cost ε(x|θ̂) over the N training vectors (eq. 1); G the
expected cost of a new vector (eq. 2). For a smoothly parametrized model trained without
regularization, ⟨G⟩ ≈ ⟨E⟩ + Tr(Q J⁻¹)/N (eq. 9); with ε = −log p(x|θ) and maximum
likelihood, Q = J and the correction is dim(θ)/N (eq. 10).
"""

from __future__ import annotations

import numpy as np


def generalization_error(train_error, Q: np.ndarray, J: np.ndarray, n: int) -> float:
    """Eq. 9 of Hansen & Larsen 1996: ⟨G⟩ ≈ ⟨E⟩ + Tr(Q J⁻¹)/N.

    Q is the covariance of the per-sample cost gradients and J the mean Hessian of the
    cost at θ̂ (eq. 4, estimated by eq. 7 with :func:`sensitivity_matrices`).
    """
    Q = np.atleast_2d(np.asarray(Q, dtype=np.float64))
    J = np.atleast_2d(np.asarray(J, dtype=np.float64))
    if Q.shape != J.shape or Q.shape[0] != Q.shape[1]:
        raise ValueError(f"Q {Q.shape} and J {J.shape} must be square of equal size")
    return float(train_error) + float(np.trace(np.linalg.solve(J, Q))) / n


def ml_generalization_error(train_error, n_params, n: int):
    """Eq. 10 of Hansen & Larsen 1996: ⟨G⟩ ≈ ⟨E⟩ + dim(θ)/N for negative log-likelihood
    costs and maximum-likelihood training (Q = J by Fisher's argument). Vectorised over
    model orders: ``train_error`` and ``n_params`` may be arrays."""
    return np.asarray(train_error, dtype=np.float64) + np.asarray(n_params) / n


def sensitivity_matrices(gradients: np.ndarray,
                         hessians: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Eq. 7 of Hansen & Larsen 1996 without regularization: Q̂ = (1/N) Σ_α g_α g_αᵀ and
    Ĵ = (1/N) Σ_α H_α from the per-sample gradients g_α (N, m) and Hessians H_α
    (N, m, m) of ε(x_α|θ) at θ̂."""
    g = np.asarray(gradients, dtype=np.float64)
    h = np.asarray(hessians, dtype=np.float64)
    if g.ndim != 2 or h.shape != (*g.shape, g.shape[1]):
        raise ValueError(f"gradients (N, m) {g.shape} and hessians (N, m, m) {h.shape} "
                         "do not match")
    return g.T @ g / len(g), h.mean(axis=0)
