"""Truncated SVD (Frank et al. 2011, Sect. 4): the rank-k approximation U_k S_k V_kᵀ.

One thin SVD of X serves every rank: the rank-k solution keeps the first k singular
triplets, so reconstructions for k = 1..r are running sums of rank-1 terms.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
from scipy.linalg import svd as _lapack_svd


@dataclass(frozen=True)
class SvdSolution:
    """X = U diag(s) Vt with singular values ``s`` in decreasing order; r = len(s)."""

    U: np.ndarray  # (N, r)
    s: np.ndarray  # (r,)
    Vt: np.ndarray  # (r, D)

    @property
    def rank(self) -> int:
        """The largest rank offered, r = min(N, D)."""
        return len(self.s)


def fit(X: np.ndarray) -> SvdSolution:
    """The thin SVD of ``X`` (LAPACK ``gesdd`` through scipy), computed once for all ranks."""
    U, s, Vt = _lapack_svd(np.asarray(X, dtype=np.float64), full_matrices=False)
    return SvdSolution(U, s, Vt)


def reconstructions(solution: SvdSolution) -> Iterator[np.ndarray]:
    """U_k S_k V_kᵀ, the best rank-k approximation of X in Frobenius norm (Eckart–Young),
    for k = 1..r in turn, each the previous plus the rank-1 term s_k u_k v_kᵀ (one outer
    product per rank, no refactorization)."""
    Xk = np.zeros((solution.U.shape[0], solution.Vt.shape[1]))
    for k in range(solution.rank):
        Xk = Xk + np.outer(solution.U[:, k] * solution.s[k], solution.Vt[k])
        yield Xk
