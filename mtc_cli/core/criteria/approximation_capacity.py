"""Approximation capacity (weighted approximation set coding, wASC; Buhmann, Chehreghani,
Frank, Streich 2011): the mutual information between the Gibbs-weighted solution sets of
two data sets X¹, X² of the same source, maximised over the inverse temperature β.

For a model whose cost is a sum of object-wise costs ε_ik (object i, one of K admissible
assignments k: a cluster, a source set), the weight sums factorise over the objects
(eqs. 11–12), and everything here takes the two (n × K) cost matrices of the aligned
objects (row i of both belongs to the same object) and a β grid.
"""

from __future__ import annotations

import numpy as np
from scipy.special import softmax

from mtc_cli.core.logsumexp import logsumexp

#: memory bound of one vectorized block: β values × objects × assignments
_BLOCK = 2_000_000


def _validated(costs1, costs2) -> tuple[np.ndarray, np.ndarray]:
    c1 = np.asarray(costs1, dtype=np.float64)
    c2 = np.asarray(costs2, dtype=np.float64)
    if c1.ndim != 2 or c1.shape != c2.shape or c1.shape[0] == 0 or c1.shape[1] == 0:
        raise ValueError(f"costs1 {c1.shape} and costs2 {c2.shape} must be equal non-empty "
                         "(n, K) matrices")
    if not (np.all(np.isfinite(c1)) and np.all(np.isfinite(c2))):
        raise ValueError("costs must be finite")
    # ΔR of eq. 4: subtracting each object's minimum leaves I_β unchanged (it cancels
    # between the joint and the single weight sums) and keeps the exponentials in range
    return c1 - c1.min(axis=1, keepdims=True), c2 - c2.min(axis=1, keepdims=True)


def _betas(beta) -> tuple[np.ndarray, bool]:
    b = np.asarray(beta, dtype=np.float64)
    if np.any(~np.isfinite(b)) or np.any(b < 0):
        raise ValueError(f"beta must be finite and >= 0, got {beta}")
    return b.reshape(-1), b.ndim == 0


def _blocks(n_beta: int, n: int, K: int):
    step = max(1, _BLOCK // max(1, n * K))
    for start in range(0, n_beta, step):
        yield slice(start, min(start + step, n_beta))


def mutual_information(costs1, costs2, beta):
    """I_β of eq. 13 of Buhmann et al. 2011, in bits:

    I_β = log₂ K + (1/n) Σ_i [ log₂ Σ_k e^{−β(ε¹_ik + ε²_ik)}
                               − log₂ Σ_k e^{−β ε¹_ik} − log₂ Σ_k e^{−β ε²_ik} ],

    with |{τ_s}| = Kⁿ (every object may take any of the K assignments). ``costs1``,
    ``costs2``: the (n, K) object-wise costs ε¹, ε² of the aligned objects of X¹ and X²
    under one solution. ``beta``: a scalar or an array (a whole grid, evaluated in
    vectorized blocks); returns a float or an array of the same shape. Log-sum-exp
    throughout. I_0 = 0, and I_β ≤ log₂ K for every β (the joint sum is at most the
    product of the single ones).

    The count |{τ_s}| = Kⁿ includes assignments that no object takes: an assignment that
    is much dearer than the others for every object of both sets leaves the bracket
    unchanged and so adds its share of log₂ K. Merge coinciding centroids and mind unused
    assignments before reading I_β as information.
    """
    c1, c2 = _validated(costs1, costs2)
    b, scalar = _betas(beta)
    n, K = c1.shape
    out = np.empty(len(b))
    for blk in _blocks(len(b), n, K):
        nb = -b[blk, None, None]
        per_object = (logsumexp(nb * (c1 + c2), axis=2) - logsumexp(nb * c1, axis=2)
                      - logsumexp(nb * c2, axis=2))  # (β, n), each term ≤ 0
        out[blk] = np.log(K) + per_object.mean(axis=1)
    out /= np.log(2.0)
    return float(out[0]) if scalar else out.reshape(np.shape(beta))


def beta_grid(costs1, costs2, n_grid: int = 121) -> np.ndarray:
    """An automatic β grid for :func:`capacity`: 0 and ``n_grid − 1`` values spaced
    geometrically over six decades, from 10⁻²/g to 10⁴/g, g the median over the objects (of
    both data sets) of the mean excess cost ε_ik − min_k ε_ik — the scale on which the Gibbs
    weights of eq. 4 leave the uniform distribution (β ≪ 1/g); the upper end leaves room for
    objects whose two cheapest assignments are much closer than g."""
    c1, c2 = _validated(costs1, costs2)
    excess = np.concatenate([c1.mean(axis=1), c2.mean(axis=1)])
    excess = excess[excess > 0]
    if c1.shape[1] < 2 or excess.size == 0:
        return np.zeros(1)
    return np.concatenate([[0.0], np.logspace(-2, 4, n_grid - 1) / float(np.median(excess))])


#: points of each round of the grid refinement of :func:`capacity` (``refine="grid"``), and
#: its rounds: each narrows the bracket around the best point to 2/(REFINE_POINTS + 1) of it
REFINE_POINTS, REFINE_ROUNDS = 7, 4


def capacity(costs1, costs2, betas=None, *, n_grid: int = 121,
             refine: str = "bounded") -> tuple[float, float]:
    """Approximation capacity, eq. 9 of Buhmann et al. 2011: max_β I_β (eq. 13), in bits.

    Returns (max I_β, its β). ``betas`` is the grid searched (default :func:`beta_grid`
    of ``n_grid`` points); with the default grid the maximum is then refined in log β
    between the neighbours of the best grid point: by a bounded scalar search (``refine=
    "bounded"``, scipy's, to 1e-4 in log β), or by :data:`REFINE_ROUNDS` rounds of a grid
    of :data:`REFINE_POINTS` (``"grid"``: one vectorised evaluation of eq. 13 per round
    instead of about nine scalar ones; the bracket, 0.8 decades on a 16-point grid,
    narrows to 3·10⁻³ of a decade). If no β > 0 beats I_0 = 0 (e.g. all costs of an object
    equal), the capacity is 0 at β = 0.
    """
    auto = betas is None
    grid = (beta_grid(costs1, costs2, n_grid) if auto
            else np.sort(np.asarray(betas, dtype=np.float64)))
    values = mutual_information(costs1, costs2, grid)
    j = int(np.argmax(values))
    best, best_beta = float(values[j]), float(grid[j])
    if not (auto and 0 < j < len(grid) - 1 and grid[j - 1] > 0):
        return best, best_beta
    lo, hi = np.log(grid[j - 1]), np.log(grid[j + 1])
    if refine == "grid":
        for _ in range(REFINE_ROUNDS):
            points = np.linspace(lo, hi, REFINE_POINTS + 2)[1:-1]
            values = mutual_information(costs1, costs2, np.exp(points))
            i = int(np.argmax(values))
            if values[i] > best:
                best, best_beta = float(values[i]), float(np.exp(points[i]))
            step = points[1] - points[0]
            lo, hi = points[i] - step, points[i] + step
        return best, best_beta
    from scipy.optimize import minimize_scalar  # a quarter of a second to import

    res = minimize_scalar(lambda lb: -mutual_information(costs1, costs2, np.exp(lb)),
                          bounds=(lo, hi), method="bounded", options={"xatol": 1e-4})
    if -res.fun > best:
        best, best_beta = float(-res.fun), float(np.exp(res.x))
    return best, best_beta


def expected_transfer_cost(costs1, costs2, beta):
    """Expected transfer cost of eq. 15 of Buhmann et al. 2011:
    ⟨R(c¹, X²)⟩ = (1/n) Σ_i Σ_k p(k | x¹_i) ε²_ik with the Gibbs assignment probabilities
    of X¹, p(k | x¹_i) ∝ exp(−β ε¹_ik) (eq. 14). ``beta`` a scalar or an array; returns a
    float or an array of its shape. β = 0 spreads each object uniformly over the K
    assignments; β → ∞ puts it on its cheapest assignment in X¹."""
    c1 = np.asarray(costs1, dtype=np.float64)
    c2 = np.asarray(costs2, dtype=np.float64)
    _validated(c1, c2)
    b, scalar = _betas(beta)
    n, K = c1.shape
    out = np.empty(len(b))
    for blk in _blocks(len(b), n, K):
        p = softmax(-b[blk, None, None] * (c1 - c1.min(axis=1, keepdims=True)), axis=2)
        out[blk] = np.einsum("bnk,nk->b", p, c2) / n
    return float(out[0]) if scalar else out.reshape(np.shape(beta))
