"""Mappings ψ that transfer a solution from X¹ to X² (Frank et al. 2011, Sect. 2)."""

from __future__ import annotations

import numpy as np


def nearest_neighbour(X1: np.ndarray, X2: np.ndarray, *, metric: str = "euclidean",
                      chunk: int = 1024) -> np.ndarray:
    """ψ_NN of eqs. 1 and 3: for each row i' of X² the index of its nearest row of X¹.

    ``metric`` is ``"euclidean"`` (squared distances ‖x²‖² − 2x²·x¹ + ‖x¹‖², one matrix
    product per chunk of X² rows) or ``"hamming"`` (Boolean rows, mismatching bits).
    Ties go to the lowest index of X¹. Exact (no approximate search); computed once per
    split and shared by every model order.
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
            d = norms1[None, :] - 2.0 * (B[s:s + chunk] @ A.T)  # ‖x²‖² is constant per row
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
