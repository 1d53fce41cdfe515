"""Minimum transfer cost for Boolean data (Frank, Chehreghani, Buhmann 2011, Sects. 4.2
and 5): a solution learned on the users X¹ is transferred to the users X² by mapping each
x²_i' to its nearest neighbour in X¹ under Hamming distance, and x²_i' is costed by the
number of its bits that differ from the mapped user's reconstruction."""

from __future__ import annotations

import numpy as np

from mtc_cli.core.models import svd
from mtc_cli.core.models.boolean import boolean_product, threshold


def hamming_transfer_cost(reconstruction: np.ndarray, X2: np.ndarray, mapping: np.ndarray
                          ) -> float:
    """Eq. 3 of Frank et al. 2011 with R_i'(s¹(i), x²_i') = Σ_j |x²_i'j − x̂¹_ij|: the mean
    over the users i' of X² of the Hamming distance between x²_i' and the reconstruction
    x̂¹ (a Boolean N₁ × D matrix learned on X¹) of the user ψ(i') it is mapped to."""
    rec = np.asarray(reconstruction, dtype=bool)
    X2 = np.asarray(X2, dtype=bool)
    psi = np.asarray(mapping)
    if rec.ndim != 2 or X2.ndim != 2 or rec.shape[1] != X2.shape[1] or psi.shape != (len(X2),):
        raise ValueError(f"reconstruction {rec.shape}, X2 {X2.shape} and mapping {psi.shape} "
                         "do not fit")
    return float(np.count_nonzero(rec[psi] ^ X2) / len(X2))


def bmf_transfer_cost(Z1: np.ndarray, U: np.ndarray, X2: np.ndarray, mapping: np.ndarray
                      ) -> float:
    """Sect. 5 of Frank et al. 2011: R_i' = Σ_j |x²_i'j − ∨_t (z¹_ψ(i')t ∧ u_tj)|, averaged
    over X² (eq. 3): the bits of each held-out user that the Boolean factorization Z¹ ∨· U
    learned on X¹ gets wrong at the training user ψ(i') it is mapped to."""
    return hamming_transfer_cost(boolean_product(Z1, U), X2, mapping)


def svd_threshold_transfer_costs(solution: svd.SvdSolution, X2: np.ndarray,
                                 mapping: np.ndarray, k_max: int | None = None) -> np.ndarray:
    """Sect. 4.2 of Frank et al. 2011 for every rank k = 1..k_max from one SVD of X¹:
    R^T(k) = (1/N₂) Σ_i' Σ_j |x²_i'j − g(U_k S_k V_kᵀ)_ψ(i')j|, g = threshold at 0.5.

    Only the mapped rows of the reconstruction are needed: their running rank-k sums are
    updated by one rank-1 term per k (O(N₂·D) per rank). Entry k − 1 of the result.
    """
    X2 = np.asarray(X2, dtype=bool)
    psi = np.asarray(mapping)
    if X2.ndim != 2 or X2.shape[1] != solution.Vt.shape[1] or psi.shape != (len(X2),):
        raise ValueError(f"X2 {X2.shape} must have {solution.Vt.shape[1]} columns and the "
                         f"mapping {psi.shape} one entry per row of X2")
    k_max = solution.rank if k_max is None else min(k_max, solution.rank)
    rows, inverse = np.unique(psi, return_inverse=True)
    coef = solution.U[rows] * solution.s  # (m, r)
    running = np.zeros((len(rows), X2.shape[1]))
    out = np.empty(k_max)
    for k in range(k_max):
        running += np.outer(coef[:, k], solution.Vt[k])
        out[k] = np.count_nonzero(threshold(running)[inverse] ^ X2) / len(X2)
    return out
