"""The full-covariance EM steps of a Gaussian mixture computed for blocks of components at
once (the M-step's covariances and Cholesky factors, the log-densities), and the Cholesky
factors of the precisions; :mod:`mtc_cli.core.models.gmm_em` runs EM with them and
:mod:`mtc_cli.core.models.gmm` costs solutions with them."""

from __future__ import annotations

import numpy as np

#: objects × features × components of one block of the batched steps (2 M doubles)
_BLOCK = 2_000_000
_ILL_DEFINED = ("Fitting the mixture model failed because some components have ill-defined "
                "empirical covariance (for instance caused by singleton or collapsed samples). "
                "Try to decrease the number of components, increase reg_covar, or scale the "
                "input data.")


def _component_blocks(k: int, n: int, d: int):
    step = max(1, _BLOCK // max(1, n * d))
    for start in range(0, k, step):
        yield slice(start, min(start + step, k))


def full_m_step(X: np.ndarray, resp: np.ndarray, reg_covar: float):
    """The M-step of a full-covariance mixture (Bishop 2006, eqs. 9.24–9.26): N_t = Σ_i r_it
    (plus scikit-learn's 10 ε), π_t = N_t / n, μ_t = Σ_i r_it x_i / N_t,
    Σ_t = Σ_i r_it (x_i − μ_t)(x_i − μ_t)ᵀ / N_t + ``reg_covar`` I, and the Cholesky factors
    of the precisions Σ_t⁻¹ = P_t P_tᵀ (:func:`precision_cholesky`). Returns (N, μ, Σ, P);
    π = N / Σ_t N_t."""
    n, d = X.shape
    k = resp.shape[1]
    nk = resp.sum(axis=0) + 10 * np.finfo(resp.dtype).eps
    means = (resp.T @ X) / nk[:, None]
    covariances = np.empty((k, d, d))
    for blk in _component_blocks(k, n, d):
        diff = X[None, :, :] - means[blk, None, :]  # (block, n, d)
        weighted = resp.T[blk, :, None] * diff
        covariances[blk] = np.matmul(weighted.transpose(0, 2, 1), diff) / nk[blk, None, None]
    covariances[:, np.arange(d), np.arange(d)] += reg_covar
    return nk, means, covariances, precision_cholesky(covariances)


def full_log_densities(X: np.ndarray, means: np.ndarray, precisions_chol: np.ndarray):
    """ln N(x_i | μ_t, Σ_t) for every object and component, an (n, k) matrix:
    −½ (d ln 2π + ‖(x_i − μ_t)ᵀ P_t‖²) + Σ_j ln (P_t)_jj, with P_t the Cholesky factor of
    the precision Σ_t⁻¹ (:func:`full_m_step`)."""
    n, d = X.shape
    k = len(means)
    squared = np.empty((n, k))
    for blk in _component_blocks(k, n, d):
        shift = np.einsum("td,tde->te", means[blk], precisions_chol[blk])
        y = np.matmul(X[None], precisions_chol[blk]) - shift[:, None, :]  # (block, n, d)
        squared[:, blk] = np.einsum("tnd,tnd->nt", y, y)
    log_det = np.log(np.diagonal(precisions_chol, axis1=1, axis2=2)).sum(axis=1)
    return -0.5 * (d * np.log(2 * np.pi) + squared) + log_det


def precision_cholesky(covariances: np.ndarray) -> np.ndarray:
    """P_t = L_t⁻ᵀ for every Σ_t = L_t L_tᵀ (Cholesky), so that Σ_t⁻¹ = P_t P_tᵀ: a (k, d, d)
    array. A Σ_t that is not positive definite raises scikit-learn's ValueError."""
    try:
        chol = np.linalg.cholesky(covariances)
    except np.linalg.LinAlgError:
        raise ValueError(_ILL_DEFINED) from None
    eye = np.broadcast_to(np.eye(chol.shape[-1]), chol.shape)
    return np.linalg.solve(chol, eye).transpose(0, 2, 1)
