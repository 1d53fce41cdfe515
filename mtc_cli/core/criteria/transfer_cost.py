"""Minimum transfer cost (Frank, Chehreghani, Buhmann 2011): the cost of a solution
learned on X¹ when it is transferred to X² by a mapping ψ."""

from __future__ import annotations

import numpy as np

from mtc_cli.core.mappings import soft
from mtc_cli.core.models.svd import SvdSolution


def transfer_cost(partial_costs: np.ndarray, mapping: np.ndarray | None = None) -> float:
    """Eq. 3 of Frank et al. 2011: R^T = (1/N₂) Σ_i' R_i'(s¹(ψ(i')), x²_i').

    ``partial_costs`` is either the vector of R_i' already evaluated at the structure
    each x²_i' is mapped to (length N₂), or an (N₂, N₁) matrix of costs of x²_i' under
    the part of the solution belonging to each object i of X¹, of which ``mapping``
    (ψ, length N₂) picks one entry per row.
    """
    c = np.asarray(partial_costs, dtype=np.float64)
    if mapping is None:
        if c.ndim != 1:
            raise ValueError("without a mapping, partial_costs must be a vector over X²")
        return float(c.mean())
    psi = np.asarray(mapping)
    if c.ndim != 2 or psi.shape != (c.shape[0],):
        raise ValueError("with a mapping, partial_costs must be (N2, N1) and mapping (N2,)")
    return float(c[np.arange(c.shape[0]), psi].mean())


def soft_mapped_cost(dissimilarities: np.ndarray, beta: float) -> float:
    """Eq. 14 of Frank et al. 2011: R^T = (1/N₂) Σ_i' Σ_t d_i't · softmax_t(−β d_i't), the
    cost of each x²_i' expected under the soft mapping (eq. 12) onto the k parts of a
    solution; ``dissimilarities`` is (N₂, k), d_i't = d(μ_t, x²_i'). k-means takes squared
    Euclidean distances, spherical k-means 1 − x²_i'ᵀμ_t."""
    D = np.asarray(dissimilarities, dtype=np.float64)
    return float(np.einsum("nt,nt->n", D, soft(D, beta)).mean())


def svd_transfer_costs(solution: SvdSolution, X2: np.ndarray, mapping: np.ndarray) -> np.ndarray:
    """Eq. 7 of Frank et al. 2011 for every rank k = 1..r from one SVD of X¹:
    R^T(k) = (1/N₂) Σ_i' ‖x²_i' − (U_k S_k V_kᵀ)_ψ(i')‖², entry k−1 of the result.

    ``solution`` is the SVD of X¹, ``mapping`` ψ (length N₂, e.g. the nearest neighbour
    of each x²_i' in X¹). With b = (U S)_ψ(i') (the mapped row's coordinates in the basis
    V) and a = V x²_i', ‖x²_i' − Σ_{l≤k} b_l v_l‖² = ‖x²_i'‖² + Σ_{l≤k} b_l (b_l − 2 a_l),
    so all ranks are one cumulative sum over l: O(N₂·D·r), no per-k reconstruction.
    """
    X2 = np.asarray(X2, dtype=np.float64)
    psi = np.asarray(mapping)
    if X2.ndim != 2 or X2.shape[1] != solution.Vt.shape[1] or psi.shape != (len(X2),):
        raise ValueError(f"X2 {X2.shape} must have {solution.Vt.shape[1]} columns and the "
                         f"mapping {psi.shape} one entry per row of X2")
    b = solution.U[psi] * solution.s  # (N₂, r)
    a = X2 @ solution.Vt.T  # (N₂, r)
    norms = np.einsum("ij,ij->", X2, X2) / len(X2)
    return norms + np.cumsum(np.einsum("ij,ij->j", b, b - 2.0 * a) / len(X2))
