"""Annealed Gibbs sampling of cluster assignments (Geman & Geman 1984), the optimizer of
the wASC experiments of Buhmann, Chehreghani, Frank, Streich 2011 (Sects. 4 and 6).

At temperature T one sweep draws every assignment c_i from its Gibbs probabilities
p(k | x_i) ∝ exp(−‖x_i − μ_k‖² / T) (eq. 14 of Buhmann et al. 2011) and then sets each
centroid μ_k to the mean of the objects assigned to k (an empty cluster keeps its
centroid). The chain runs on from one temperature to the next as T is lowered
geometrically, so it can stay trapped in a meta-stable state that deterministic annealing
(:mod:`mtc_cli.core.models.annealing`, the fixed point of the same probabilities) does not
have. The estimate at a stopping temperature is the thermal average of the centroids over
``sweeps`` sweeps after ``burn_in``: a single state carries in every coordinate the noise
of the mean of ≈ n/K objects drawn at random, which in high dimension is as large as the
separation of the sources. K̂ at T counts the thermal means distinct at the resolution
of T (:func:`mtc_cli.core.models.resolution.distinct_at`).
"""

from __future__ import annotations

import numpy as np

from mtc_cli.core.models.annealing import AnnealingPath
from mtc_cli.core.models.resolution import distinct_at
from mtc_cli.core.short_rows import softmax


def sample_assignments(p: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One draw c_i ~ p(· | x_i) per row of the (n, K) probabilities ``p`` (inverse CDF)."""
    cdf = np.cumsum(p, axis=1)
    u = rng.random(len(p)) * cdf[:, -1]
    return np.minimum((u[:, None] >= cdf).sum(axis=1), p.shape[1] - 1)


def centroid_means(X: np.ndarray, c: np.ndarray, previous: np.ndarray) -> np.ndarray:
    """μ_k = mean of the objects with c_i = k; a cluster with no object keeps ``previous``."""
    onehot = np.eye(len(previous))[c]  # (n, K)
    counts = onehot.sum(axis=0)
    sums = onehot.T @ X
    return np.where(counts[:, None] > 0, sums / np.maximum(counts, 1.0)[:, None], previous)


def annealed_gibbs(X: np.ndarray, n_centroids: int, rng: np.random.Generator, *,
                   t_start: float, t_stop: float, cooling: float = 0.9,
                   burn_in: int = 10, sweeps: int = 40) -> AnnealingPath:
    """Annealed Gibbs sampling of ``n_centroids`` clusters from ``t_start`` down to
    ``t_stop`` by the factor ``cooling`` (see the module docstring). The chain starts from
    uniformly random assignments (T = ∞). At every stopping temperature the path holds the
    thermal mean of the centroids and K̂, the number of them distinct at the resolution
    of T (:func:`~mtc_cli.core.models.resolution.distinct_at`)."""
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or len(X) < 1:
        raise ValueError(f"X must be a non-empty (n, D) array, got shape {np.shape(X)}")
    if not 0 < cooling < 1:
        raise ValueError(f"need 0 < cooling < 1, got {cooling}")
    if not t_start > t_stop > 0:
        raise ValueError(f"need t_start > t_stop > 0, got {t_start}, {t_stop}")
    if burn_in < 0 or sweeps < 1:
        raise ValueError(f"need burn_in >= 0 and sweeps >= 1, got {burn_in}, {sweeps}")
    M = centroid_means(X, rng.integers(n_centroids, size=len(X)),
                       np.tile(X.mean(axis=0), (n_centroids, 1)))
    temps, cents, khats = [], [], []
    T = float(t_start)
    while True:
        mean = np.zeros_like(M)
        for sweep in range(burn_in + sweeps):
            # −‖x_i − μ_k‖²/T up to a term of i alone, which the softmax over k cancels
            logits = (2.0 * X @ M.T - np.einsum("kd,kd->k", M, M)) / T
            c = sample_assignments(softmax(logits), rng)
            M = centroid_means(X, c, M)
            if sweep >= burn_in:
                mean += M
        mean /= sweeps
        temps.append(T)
        cents.append(mean)
        khats.append(int(distinct_at(mean, T).max() + 1))
        if T <= t_stop:
            break
        T = max(T * cooling, t_stop)
    return AnnealingPath(np.array(temps), np.stack(cents), np.array(khats),
                         np.full(len(temps), burn_in + sweeps))
