"""K-means based radial-basis-function density (Hansen & Larsen 1996, Sect. 4.2).

p(x) = Σ_k β_k (2πσ²)^(−L/2) exp(−‖x − μ_k‖²/(2σ²)) (eqs. 12–13) with centres μ_k from
K-means, weights β_k the relative cluster frequencies on the training set, and one shared
width σ² fitted by maximum likelihood with the centres and weights held fixed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import minimize_scalar

from mtc_cli.core.logsumexp import logsumexp
from mtc_cli.core.models import kmeans


@dataclass(frozen=True)
class RbfSolution:
    """Centres μ_k (K, L), weights β_k (K,) and the shared width σ²."""

    centres: np.ndarray
    weights: np.ndarray
    width: float


def fit(X: np.ndarray, K: int, *, n_init: int = 10, random_state: int = 0) -> RbfSolution:
    """Centres by K-means, β_k = N_k/N, then σ² = argmin of the training NLL
    (:func:`ml_width`)."""
    X = np.asarray(X, dtype=np.float64)
    sol = kmeans.fit(X, K, n_init=n_init, random_state=random_state)
    weights = np.bincount(sol.labels, minlength=K) / len(X)
    return RbfSolution(sol.centroids, weights, ml_width(X, sol.centroids, weights))


def ml_width(X: np.ndarray, centres: np.ndarray, weights: np.ndarray) -> float:
    """Maximum-likelihood shared width σ² for fixed centres and weights: a bounded
    one-dimensional minimisation of the mean NLL over log σ², between 10⁻³ × the
    hard-assignment estimate Σ_α min_k ‖x_α − μ_k‖²/(NL) and 10 × the K = 1 estimate."""
    X = np.asarray(X, dtype=np.float64)
    D = kmeans.squared_distances(centres, X)
    n, L = X.shape
    hard = D.min(axis=1).sum() / (n * L)
    spread = ((X - X.mean(axis=0)) ** 2).sum() / (n * L)
    lo, hi = np.log(max(hard, 1e-12 * spread) * 1e-3), np.log(10.0 * spread)
    log_w = np.log(weights)

    def mean_nll(log_s2: float) -> float:
        return float(_nll(D, log_w, np.exp(log_s2), L).mean())

    res = minimize_scalar(mean_nll, bounds=(lo, hi), method="bounded",
                          options={"xatol": 1e-10})
    return float(np.exp(res.x))


def _nll(D: np.ndarray, log_w: np.ndarray, width: float, L: int) -> np.ndarray:
    log_joint = log_w[None, :] - 0.5 * L * np.log(2 * np.pi * width) - D / (2.0 * width)
    return -logsumexp(log_joint, axis=1)


def negative_log_likelihood(solution: RbfSolution, X: np.ndarray) -> np.ndarray:
    """Per-vector cost ε(x|θ) = −log p(x|θ) of eqs. 12–13 of Hansen & Larsen 1996, with
    log-sum-exp over the K basis functions."""
    X = np.asarray(X, dtype=np.float64)
    D = kmeans.squared_distances(solution.centres, X)
    return _nll(D, np.log(solution.weights), solution.width, X.shape[1])


def n_parameters(K: int, L: int) -> int:
    """dim(θ) = K(L + 1) + 1 of Hansen & Larsen 1996, Sect. 4.2: K centres in L dimensions,
    K weights and one shared width."""
    return K * (L + 1) + 1
