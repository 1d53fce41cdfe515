"""Bi-cross-validation of the truncated SVD (Owen & Perry 2009, "Bi-cross-validation of
the SVD and the nonnegative matrix factorization", Ann. Appl. Stat. 3(2); "OP-CV" in
Sect. 4.2 of Frank et al. 2011).

With the rows and columns permuted so that the held-out block comes first,
X = [[A, B], [C, D]], A the p × q held-out block. The rank-k SVD of D predicts A by
Â_k = B (D_k)⁺ C; the error of rank k is ‖A − Â_k‖²_F. Random permutations give several
error curves; the rank with the lowest median error is selected (``mtc select``'s reader of
the curves, the ``bicross`` criterion of :mod:`mtc_cli.selection.criteria`).
"""

from __future__ import annotations

import numpy as np

from mtc_cli.core.models import svd


def holdout_errors(X: np.ndarray, rows: np.ndarray, cols: np.ndarray,
                   k_max: int | None = None) -> np.ndarray:
    """‖A − B (D_k)⁺ C‖²_F for k = 1..k_max (Owen & Perry 2009; the error score of
    Sect. 4.2 of Frank et al. 2011), entry k − 1.

    ``rows``/``cols`` are the held-out row and column indices (block A). One SVD of D
    serves every k: (D_k)⁺ = V_k S_k⁻¹ U_kᵀ, so Â_k = P_k Q_k with P = B V S⁻¹ and
    Q = Uᵀ C, and ‖A − Â_k‖² = ‖A‖² − 2 Σ_{l≤k} (Pᵀ A Qᵀ)_ll + Σ_{l,m≤k} (PᵀP)_lm (QQᵀ)_lm.
    Ranks are offered up to the numerical rank of D (singular values above
    max(D.shape) · eps · s₁).
    """
    X = np.asarray(X, dtype=np.float64)
    held_r = np.zeros(X.shape[0], dtype=bool)
    held_c = np.zeros(X.shape[1], dtype=bool)
    held_r[rows] = True
    held_c[cols] = True
    if held_r.all() or held_c.all() or not held_r.any() or not held_c.any():
        raise ValueError("the held-out block must leave at least one row and one column")
    A, B = X[np.ix_(held_r, held_c)], X[np.ix_(held_r, ~held_c)]
    C, D = X[np.ix_(~held_r, held_c)], X[np.ix_(~held_r, ~held_c)]
    sol = svd.fit(D)
    tol = max(D.shape) * np.finfo(float).eps * (sol.s[0] if sol.rank else 0.0)
    r = int(np.sum(sol.s > tol))
    k_max = r if k_max is None else min(k_max, r)
    P = (B @ sol.Vt[:k_max].T) / sol.s[:k_max]  # (p, k)
    Q = sol.U[:, :k_max].T @ C  # (k, q)
    cross = np.einsum("il,ij,lj->l", P, A, Q)  # diag(Pᵀ A Qᵀ)
    G = (P.T @ P) * (Q @ Q.T)
    quad = np.diagonal(np.cumsum(np.cumsum(G, axis=0), axis=1))
    return np.einsum("ij,ij->", A, A) - 2.0 * np.cumsum(cross) + quad


def bicross_validation(X: np.ndarray, rng: np.random.Generator, *, holdout: float = 0.5,
                       permutations: int = 20, k_max: int | None = None) -> np.ndarray:
    """Error curves of ``permutations`` random row/column permutations (Sect. 4.2 of
    Frank et al. 2011): each holds out the first ⌈holdout·n⌉ rows and ⌈holdout·d⌉ columns
    of the permuted matrix (Owen & Perry's p/n = q/d = ``holdout``).

    Returns a (permutations, k) array, k = 1.. the smallest rank every curve offers.
    """
    X = np.asarray(X)
    n, d = X.shape
    if not 0.0 < holdout < 1.0:
        raise ValueError(f"holdout must lie in (0, 1), got {holdout}")
    p = min(max(int(np.ceil(holdout * n)), 1), n - 1)
    q = min(max(int(np.ceil(holdout * d)), 1), d - 1)
    curves = [holdout_errors(X, rng.permutation(n)[:p], rng.permutation(d)[:q], k_max)
              for _ in range(permutations)]
    k = min(len(c) for c in curves)
    return np.array([c[:k] for c in curves])
