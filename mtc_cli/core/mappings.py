"""Mappings ψ that transfer a solution from X¹ to X² (Frank et al. 2011, Sect. 2)."""

from __future__ import annotations

import numpy as np
from scipy.special import softmax


def nearest_neighbour(X1: np.ndarray, X2: np.ndarray, *, metric: str = "euclidean",
                      chunk: int = 1024) -> np.ndarray:
    """ψ_NN of eqs. 1 and 3: for each row i' of X² the index of its nearest row of X¹.

    ``metric`` is ``"euclidean"`` (squared distances ‖x²‖² − 2x²·x¹ + ‖x¹‖², one matrix
    product per chunk of X² rows, ‖x¹‖² − 2x²·x¹ formed in place in it: the same values
    as the expression, a − 2g = (−2g) + a exactly) or ``"hamming"`` (Boolean rows,
    mismatching bits). Ties go to the lowest index of X¹. Exact (no approximate search);
    computed once per split and shared by every model order.
    """
    X1 = np.asarray(X1)
    X2 = np.asarray(X2)
    if X1.ndim != 2 or X2.ndim != 2 or X1.shape[1] != X2.shape[1]:
        raise ValueError(f"X1 {X1.shape} and X2 {X2.shape} must be 2-D with equal columns")
    if metric == "euclidean":
        A, B = X1.astype(np.float64), X2.astype(np.float64)
        norms1 = np.einsum("ij,ij->i", A, A)
        out = np.empty(len(B), dtype=np.intp)
        for s in range(0, len(B), chunk):
            d = B[s:s + chunk] @ A.T  # ‖x²‖² is constant per row
            d *= -2.0
            d += norms1[None, :]
            out[s:s + chunk] = np.argmin(d, axis=1)
        return out
    if metric == "hamming":
        A, B = X1.astype(np.float64), X2.astype(np.float64)
        ones1 = A.sum(axis=1)
        out = np.empty(len(B), dtype=np.intp)
        for s in range(0, len(B), chunk):
            b = B[s:s + chunk]
            d = ones1[None, :] + b.sum(axis=1, keepdims=True) - 2.0 * (b @ A.T)
            out[s:s + chunk] = np.argmin(d, axis=1)
        return out
    raise ValueError(f"unknown metric {metric!r}: expected 'euclidean' or 'hamming'")


def nearest_neighbour_cosine(X1, X2, *, block: int = 4_000_000) -> np.ndarray:
    """ψ_NN of eq. 1 under the cosine dissimilarity 1 − x²ᵀx¹ for rows of unit norm: for
    each row i' of X² the index of its most similar row of X¹ (ties: lowest index).

    X¹ and X² may be dense or scipy sparse (documents × terms); the similarities are formed
    for blocks of X² rows of at most ``block`` numbers, so memory stays O(block).
    """
    if X1.ndim != 2 or X2.ndim != 2 or X1.shape[1] != X2.shape[1]:
        raise ValueError(f"X1 {X1.shape} and X2 {X2.shape} must be 2-D with equal columns")
    rows = max(1, block // max(1, X1.shape[0]))
    out = np.empty(X2.shape[0], dtype=np.intp)
    for s in range(0, X2.shape[0], rows):
        sim = X2[s:s + rows] @ X1.T
        sim = sim.toarray() if hasattr(sim, "toarray") else np.asarray(sim)
        out[s:s + rows] = np.argmax(sim, axis=1)
    return out


def structure(centroids: np.ndarray, X2: np.ndarray) -> np.ndarray:
    """ψ^s of eq. 4 (used in eq. 11): for each row i' of X² the index of its nearest centroid.

    Squared Euclidean distance; ties go to the lowest centroid index. For centroid-based
    clustering the objects of one cluster are indistinguishable, so X² is mapped to the
    structures of s¹ rather than to individual objects of X¹.
    """
    C = np.asarray(centroids, dtype=np.float64)
    B = np.asarray(X2, dtype=np.float64)
    if C.ndim != 2 or B.ndim != 2 or C.shape[1] != B.shape[1]:
        raise ValueError(f"centroids {C.shape} and X2 {B.shape} must be 2-D with equal columns")
    return np.argmin(np.einsum("ij,ij->i", C, C)[None, :] - 2.0 * (B @ C.T), axis=1)


def generative(n1: int, n2: int) -> np.ndarray:
    """ψ^G of eq. 5: the identity i' ↦ i between objects sampled in pairs.

    Valid only when X² was generated pairwise with X¹ (same mixture component for the same
    index), so n1 must equal n2.
    """
    if n1 != n2:
        raise ValueError(f"generative mapping needs paired sets of equal size, got {n1} and {n2}")
    return np.arange(n2, dtype=np.intp)


def soft(dissimilarities: np.ndarray, beta: float) -> np.ndarray:
    """Probabilistic mapping of eq. 12: p = exp(−β d) / Z, normalised along axis 1.

    ``dissimilarities`` is (N₂, M): d between each x² and each of M targets (the N₁ objects
    of X¹ in eq. 12, or the k centroids in eq. 14). Computed with log-sum-exp, so any β ≥ 0
    and any scale of d is safe; β = 0 gives the uniform mapping, β → ∞ the nearest target.
    """
    D = np.asarray(dissimilarities, dtype=np.float64)
    if D.ndim != 2:
        raise ValueError(f"dissimilarities must be 2-D (N2, M), got shape {D.shape}")
    if not beta >= 0 or not np.isfinite(beta):
        raise ValueError(f"beta must be finite and >= 0, got {beta}")
    return softmax(-beta * D, axis=1)
