"""The two rank-selection rules Molloy et al. (SACMAT 2010, "Mining roles with noisy data")
propose for the SVD-threshold denoiser X̃_k = g(U_k S_k V_kᵀ) (Sect. 4.2 of Frank et al.
2011)."""

from __future__ import annotations

import numpy as np


def coverage(denoised: np.ndarray, X: np.ndarray) -> float:
    """The fraction of the 1-entries of X that X̃_k also holds: |X̃_k ∧ X|₁ / |X|₁."""
    X = np.asarray(X, dtype=bool)
    return float(np.count_nonzero(np.asarray(denoised, dtype=bool) & X) / X.sum())


def increment(denoised: np.ndarray, denoised_next: np.ndarray, X: np.ndarray) -> float:
    """The approximation increment ‖X̃_k − X̃_{k+1}‖₁ / ‖X‖₁ (Sect. 4.2 of Frank et al.)."""
    changed = np.asarray(denoised, dtype=bool) ^ np.asarray(denoised_next, dtype=bool)
    return float(np.count_nonzero(changed) / np.count_nonzero(X))


def coverage_rule(coverages, threshold: float = 0.8) -> int:
    """The 80 % rule: the smallest rank k whose X̃_k covers ``threshold`` of the ones of X
    (``coverages[k − 1]`` for k = 1..); the largest rank offered if none does."""
    c = np.asarray(coverages, dtype=np.float64)
    hit = np.flatnonzero(c >= threshold)
    return int(hit[0]) + 1 if hit.size else len(c)


def increment_rule(increments, tol: float = 0.001) -> int:
    """The increment rule: the smallest rank k with ‖X̃_k − X̃_{k+1}‖₁ / ‖X‖₁ < ``tol``
    (``increments[k − 1]`` for k = 1..); the largest rank offered if none is."""
    inc = np.asarray(increments, dtype=np.float64)
    hit = np.flatnonzero(inc < tol)
    return int(hit[0]) + 1 if hit.size else len(inc)
