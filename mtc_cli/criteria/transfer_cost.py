"""Minimum transfer cost (Frank, Chehreghani, Buhmann 2011): the cost of a solution
learned on X¹ when it is transferred to X² by a mapping ψ."""

from __future__ import annotations

import numpy as np


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
