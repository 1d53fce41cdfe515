"""Deterministic annealing of centroids under squared Euclidean cost (Rose 1998), the
optimizer of the wASC experiments of Buhmann, Chehreghani, Frank, Streich 2011 (Sects. 4
and 6), with a fixed isotropic covariance: the computational temperature T plays the part
of the assumed width of the clusters (Σ = (T/2)·I), and β = 1/T.

At temperature T each object spreads over the K centroids with the Gibbs probabilities
p(k | x_i) ∝ exp(−‖x_i − μ_k‖² / T) (eq. 14 of Buhmann et al. 2011); each centroid is the
p-weighted mean of the objects; the two steps alternate to a fixed point, and T is lowered
geometrically. Centroids that coincide act as one cluster: at high T all K coincide at the
centre of mass, and they split, one phase transition after another, as T falls below the
critical temperature of a cluster, 2·λ_max of its covariance. The schedule is refined near
every split: a step that changes the number of distinct centroids K̂ is retried from the
previous temperature with the square root of the cooling factor, down to ``fine_cooling``,
so the last temperature before a split and the first after it lie close together.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.cluster.hierarchy import fcluster, linkage

from mtc_cli.core.short_rows import softmax


def squared_norms(X: np.ndarray) -> np.ndarray:
    """‖x_i‖² of every object, the term of :func:`costs` that no centroid changes."""
    X = np.asarray(X, dtype=np.float64)
    return np.einsum("nd,nd->n", X, X)


def costs(X: np.ndarray, centroids: np.ndarray, x_norms: np.ndarray | None = None
          ) -> np.ndarray:
    """ε_ik = ‖x_i − μ_k‖² (Sect. 4.1 of Buhmann et al. 2011) for every object and centroid,
    an (n, K) matrix, by ‖x‖² − 2 x·μ + ‖μ‖² (one matrix product; clipped at 0).
    ``x_norms``: :func:`squared_norms` of X, if computed once for many centroids."""
    X = np.asarray(X, dtype=np.float64)
    M = np.asarray(centroids, dtype=np.float64)
    norms = squared_norms(X) if x_norms is None else x_norms
    sq = norms[:, None] - 2.0 * X @ M.T + np.einsum("kd,kd->k", M, M)
    return np.maximum(sq, 0.0)


def critical_temperature(X: np.ndarray) -> float:
    """T_c = 2·λ_max of the covariance of X: below it the single centroid at the centre of
    mass stops being a stable fixed point of deterministic annealing (Rose 1998)."""
    X = np.asarray(X, dtype=np.float64)
    Y = X - X.mean(axis=0)
    s = np.linalg.svd(Y, compute_uv=False)
    return 2.0 * float(s[0] ** 2) / len(X)


def distinct(centroids: np.ndarray, tol: float) -> np.ndarray:
    """Group labels 0..K̂−1 of the centroids (numbered by first member): single-linkage
    groups of centroids closer than ``tol`` count as one cluster."""
    M = np.asarray(centroids, dtype=np.float64)
    if len(M) == 1:
        return np.zeros(1, dtype=int)
    labels = fcluster(linkage(M, method="single"), t=tol, criterion="distance")
    _, first, inverse = np.unique(labels, return_index=True, return_inverse=True)
    return np.argsort(np.argsort(first))[inverse]


def merge(centroids: np.ndarray, labels: np.ndarray, mass: np.ndarray
          ) -> tuple[np.ndarray, np.ndarray]:
    """The K̂ distinct centroids (the mean of each group of ``labels``) and the total
    ``mass`` of each group."""
    onehot = np.eye(labels.max() + 1)[labels]  # (K, K̂)
    means = onehot.T @ np.asarray(centroids, dtype=np.float64) / onehot.sum(axis=0)[:, None]
    return means, onehot.T @ np.asarray(mass, dtype=np.float64)


@dataclass(frozen=True)
class AnnealingPath:
    """The centroids at every stopping temperature of one annealing run.

    ``temperatures`` (m,) decreasing; ``centroids`` (m, K, D); ``k_hat`` (m,) the number
    of distinct centroids; ``iterations`` (m,) fixed-point sweeps spent at each T.
    """

    temperatures: np.ndarray
    centroids: np.ndarray
    k_hat: np.ndarray
    iterations: np.ndarray


def fixed_point(X: np.ndarray, centroids: np.ndarray, T: float, *, tol: float,
                max_iter: int) -> tuple[np.ndarray, int]:
    """Alternate p = softmax(−ε/T) and μ_k = Σ_i p_ik x_i / Σ_i p_ik until no centroid
    moves more than ``tol``; returns (centroids, sweeps)."""
    M = np.array(centroids, dtype=np.float64)
    norms = squared_norms(X)
    for it in range(1, max_iter + 1):
        p = softmax(-costs(X, M, norms) / T)
        mass = p.sum(axis=0)
        new = np.where(mass[:, None] > 0, p.T @ X / np.maximum(mass, 1e-300)[:, None], M)
        moved = float(np.sqrt(np.max(np.sum((new - M) ** 2, axis=1))))
        M = new
        if moved <= tol:
            return M, it
    return M, max_iter


def deterministic_annealing(X: np.ndarray, n_centroids: int, rng: np.random.Generator, *,
                            sigma: float, t_stop: float, t_start: float | None = None,
                            cooling: float = 0.9, fine_cooling: float = 0.99,
                            merge_tol: float = 0.5, perturbation: float = 1e-3,
                            tol: float = 1e-5, max_iter: int = 3000) -> AnnealingPath:
    """Deterministic annealing of ``n_centroids`` centroids from ``t_start`` (default
    1.25·:func:`critical_temperature`) down to ``t_stop`` by the factor ``cooling``,
    refined near splits down to ``fine_cooling`` (see the module docstring).

    ``sigma`` is the length unit of the tolerances: centroids closer than
    ``merge_tol``·σ count as one (K̂), each step starts from the previous centroids plus
    Gaussian noise of s.d. ``perturbation``·σ (so coinciding centroids can split), and a
    fixed point is reached when no centroid moves more than ``tol``·σ in a sweep.
    """
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or len(X) < 1:
        raise ValueError(f"X must be a non-empty (n, D) array, got shape {np.shape(X)}")
    if not (0 < cooling < 1 and cooling <= fine_cooling < 1):
        raise ValueError(f"need 0 < cooling <= fine_cooling < 1, got {cooling}, {fine_cooling}")
    T = 1.25 * critical_temperature(X) if t_start is None else float(t_start)
    if not T > t_stop > 0:
        raise ValueError(f"need t_start > t_stop > 0, got {T}, {t_stop}")

    def step(M, T):
        noisy = M + perturbation * sigma * rng.standard_normal(M.shape)
        M, it = fixed_point(X, noisy, T, tol=tol * sigma, max_iter=max_iter)
        return M, int(distinct(M, merge_tol * sigma).max() + 1), it

    M, k_hat, it = step(np.tile(X.mean(axis=0), (n_centroids, 1)), T)
    temps, cents, khats, iters = [T], [M], [k_hat], [it]
    factor = cooling
    while T > t_stop:
        T_next = max(T * factor, t_stop)
        M_next, k_next, it = step(M, T_next)
        if k_next != k_hat and factor < fine_cooling:
            factor = min(np.sqrt(factor), fine_cooling)  # retry the step more finely
            continue
        if k_next != k_hat:
            factor = cooling
        T, M, k_hat = T_next, M_next, k_next
        temps.append(T)
        cents.append(M)
        khats.append(k_hat)
        iters.append(it)
    return AnnealingPath(np.array(temps), np.stack(cents), np.array(khats), np.array(iters))
