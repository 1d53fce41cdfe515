"""Models of Boolean (access-control) matrices: the SVD-threshold denoiser of Molloy et al.
(Sect. 4.2 of Frank et al. 2011) and Boolean matrix factorization by multi-assignment
clustering (MAC, Streich et al. 2009; Sect. 5 of Frank et al. 2011).

MAC: each user i draws its permissions from the sources (roles) of its assignment set
L_i ⊆ {1..K}; source k emits a 0 at permission d with probability v_kd, and the set emits
the Boolean OR of its sources, so P(x_id = 0 | L) = v_Ld = Π_{k∈L} v_kd. With probability ε
a bit comes instead from a noise process that emits 1 with probability r (eq. 16 of
Buhmann et al. 2011). The parameters are fitted by deterministic annealing (Rose 1998):
at temperature T the assignments are the Gibbs distribution γ_iL ∝ exp(−R_iL / T) over
the admissible sets, the parameters minimise the expected cost Σ_i Σ_L γ_iL R_iL, and T
is lowered to 1 (the likelihood itself). With ``max_assignments=1`` the model is SAC,
and ``noise=False`` fixes ε = 0.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations

import numba
import numpy as np
from scipy.linalg import eigh
from scipy.special import softmax

from mtc_cli.core.logsumexp import logsumexp
from mtc_cli.core.models import svd

#: parameters v, ε, r are kept in [CLIP, 1 − CLIP] so that every log stays finite
CLIP = 1e-6


# --- SVD-threshold denoising -------------------------------------------------------------

def threshold(M: np.ndarray, at: float = 0.5) -> np.ndarray:
    """g of Sect. 4.2 of Frank et al. 2011: entries higher than ``at`` → 1, others → 0."""
    return np.asarray(M) > at


def svd_denoisings(solution: svd.SvdSolution, k_max: int | None = None
                   ) -> Iterator[np.ndarray]:
    """X̃_k = g(U_k S_k V_kᵀ) for k = 1..k_max in turn (Molloy et al. 2010; Sect. 4.2 of
    Frank et al. 2011), all from the one SVD ``solution`` of X: each step adds a rank-1
    term to the running reconstruction and thresholds it at 0.5. Boolean (N, D) arrays."""
    k_max = solution.rank if k_max is None else min(k_max, solution.rank)
    for k, Xk in enumerate(svd.reconstructions(solution), start=1):
        if k > k_max:
            return
        yield threshold(Xk)


def boolean_product(Z: np.ndarray, U: np.ndarray) -> np.ndarray:
    """(Z ∨· U)_ij = ∨_t (z_it ∧ u_tj): the Boolean matrix product (Sect. 5 of Frank
    et al. 2011), through an integer product (count of shared roles > 0)."""
    Z = np.asarray(Z, dtype=bool)
    U = np.asarray(U, dtype=bool)
    if Z.ndim != 2 or U.ndim != 2 or Z.shape[1] != U.shape[0]:
        raise ValueError(f"Z {Z.shape} and U {U.shape} do not chain")
    return (Z.astype(np.float32) @ U.astype(np.float32)) > 0


def hamming(A: np.ndarray, B: np.ndarray) -> int:
    """Number of entries in which two Boolean matrices (or vectors) differ."""
    return int(np.count_nonzero(np.asarray(A, dtype=bool) ^ np.asarray(B, dtype=bool)))


# --- multi-assignment clustering ------------------------------------------------------------

def assignment_sets(n_sources: int, max_assignments: int) -> np.ndarray:
    """The admissible assignment sets: all non-empty subsets of the K sources with at most
    ``max_assignments`` members, as an (L, K) Boolean matrix (singletons first)."""
    if n_sources < 1 or max_assignments < 1:
        raise ValueError(f"need n_sources >= 1 and max_assignments >= 1, got {n_sources}, "
                         f"{max_assignments}")
    rows = [c for m in range(1, min(max_assignments, n_sources) + 1)
            for c in combinations(range(n_sources), m)]
    sets = np.zeros((len(rows), n_sources), dtype=bool)
    for i, c in enumerate(rows):
        sets[i, list(c)] = True
    return sets


def set_parameters(v: np.ndarray, sets: np.ndarray) -> np.ndarray:
    """v_Ld = Π_{k∈L} v_kd (MAC, Buhmann et al. 2011 after eq. 16): the probability that
    assignment set L emits a 0 at d, the Boolean OR of its sources. (L, D)."""
    return np.exp(sets.astype(np.float64) @ np.log(v))


def emission_one(v: np.ndarray, sets: np.ndarray, epsilon: float, r: float,
                 vL: np.ndarray | None = None) -> np.ndarray:
    """P(x_d = 1 | L) = (1 − ε)(1 − v_Ld) + ε r: structure or, with probability ε, the
    noise process (eq. 16 of Buhmann et al. 2011). (L, D). ``vL``:
    :func:`set_parameters` (v, sets) when the caller has it already."""
    if vL is None:
        vL = set_parameters(v, sets)
    return (1.0 - epsilon) * (1.0 - vL) + epsilon * r


def costs(X: np.ndarray, v: np.ndarray, sets: np.ndarray, epsilon: float, r: float,
          vL: np.ndarray | None = None) -> np.ndarray:
    """R_iL of eq. 16 of Buhmann et al. 2011: the negative log-likelihood of user i under
    assignment set L, R_iL = −Σ_d log P(x_id | L), for every user and set. (N, L).

    One matrix product: R = −(X (log p₁ − log p₀)ᵀ + 1 (log p₀)ᵀ) with p₁ = P(x = 1 | L),
    p₀ = 1 − p₁. ``vL`` as in :func:`emission_one`.
    """
    p1 = emission_one(v, sets, epsilon, r, vL)
    log1, log0 = np.log(p1), np.log1p(-p1)
    X = np.asarray(X, dtype=np.float64)
    return -(X @ (log1 - log0).T + log0.sum(axis=1)[None, :])


@dataclass(frozen=True)
class MacSolution:
    """A fitted MAC model: source parameters ``v`` (K, D) = P(source emits 0), noise
    fraction ``epsilon`` and noise bit probability ``r``, the admissible ``sets`` (L, K),
    the users' soft assignments ``gamma`` (N, L) at T = 1, their hard (most probable)
    ``assignment`` (N,), and the final costs ``R`` (N, L)."""

    v: np.ndarray
    epsilon: float
    r: float
    sets: np.ndarray
    gamma: np.ndarray
    assignment: np.ndarray
    R: np.ndarray
    temperatures: int

    @property
    def U(self) -> np.ndarray:
        """Role–permission matrix: source k grants d when it emits 1 with probability > ½."""
        return self.v < 0.5

    @property
    def Z(self) -> np.ndarray:
        """User–role matrix of the hard assignments: z_ik = 1 iff k ∈ L_i. (N, K)."""
        return self.sets[self.assignment]

    def reconstruction(self) -> np.ndarray:
        """Z ∨· U: the Boolean matrix the factorization explains."""
        return boolean_product(self.Z, self.U)

    def neg_log_likelihood(self) -> float:
        """−Σ_i log Σ_L P(x_i | L) / |ℒ| under a uniform prior over the sets."""
        return float(-np.sum(logsumexp(-self.R, axis=1) - np.log(self.R.shape[1])))


def em_update(v, sets, m0, m1, epsilon, r, noise=True, vL=None):
    """One EM step for the parameters of eq. 16 (Buhmann et al. 2011) given the expected
    counts m1_Ld = Σ_i γ_iL x_id and m0_Ld = Σ_i γ_iL (1 − x_id).

    Latent variables: whether a bit came from the noise process, and which of the sources
    of L emitted 0 or 1 (the bit is their OR). Posterior that a 1 came from the noise
    q₁ = ε r / P(1 | L), a 0: q₀ = ε (1 − r) / P(0 | L). A structural 0 means every source of
    L emitted 0; given a structural 1, source k emitted 0 with probability
    (v_kd − v_Ld) / (1 − v_Ld) (it emitted 0 and another source of L emitted 1). Hence
    v_kd = Σ_{L∋k} [m0 (1 − q₀) + m1 (1 − q₁)(v_kd − v_Ld)/(1 − v_Ld)] /
    Σ_{L∋k} [m0 (1 − q₀) + m1 (1 − q₁)], ε = expected fraction of noise bits and
    r = expected fraction of ones among them; all closed form, the expected cost never
    rises. With ``noise=False`` ε stays 0. ``vL``: :func:`set_parameters` (v, sets) when
    the caller has it already. Returns (v, ε, r).
    """
    if vL is None:
        vL = set_parameters(v, sets)
    s0, s1, b, bvL, total = _structural_counts(vL, m0, m1, epsilon, r, CLIP)
    setsf = sets.astype(np.float64).T  # (K, L)
    num = setsf @ s0 + v * (setsf @ b) - setsf @ bvL
    den = setsf @ total
    v = np.clip(np.where(den > 0, num / np.where(den > 0, den, 1.0), v), CLIP, 1.0 - CLIP)
    if noise:
        noisy0 = float(m0.sum() - s0.sum())
        noisy1 = float(m1.sum() - s1.sum())
        epsilon = float(np.clip((noisy0 + noisy1) / float(m0.sum() + m1.sum()),
                                CLIP, 1.0 - CLIP))
        r = float(np.clip(noisy1 / max(noisy0 + noisy1, CLIP), CLIP, 1.0 - CLIP))
    return v, epsilon, r


@numba.njit(cache=True, error_model="numpy")
def _structural_counts(vL, m0, m1, epsilon, r, clip):
    """The element-wise part of :func:`em_update` in one pass over (L, D): with
    P₁ = (1 − ε)(1 − v_L) + ε r, the expected structural zeros s₀ = m₀ (1 − ε) v_L / (1 − P₁)
    and ones s₁ = m₁ (1 − ε)(1 − v_L) / P₁, b = s₁ / max(1 − v_L, clip), b v_L and s₀ + s₁.
    The same floating-point operations in the same order as the array expressions, so the
    results are those of NumPy bit for bit."""
    s0, s1 = np.empty_like(vL), np.empty_like(vL)
    b, bvL, total = np.empty_like(vL), np.empty_like(vL), np.empty_like(vL)
    keep, noise = 1.0 - epsilon, epsilon * r
    for i in range(vL.shape[0]):
        for j in range(vL.shape[1]):
            v = vL[i, j]
            free = 1.0 - v
            p1 = keep * free + noise
            s0[i, j] = m0[i, j] * (keep * v / (1.0 - p1))
            s1[i, j] = m1[i, j] * (keep * free / p1)
            b[i, j] = s1[i, j] / max(free, clip)
            bvL[i, j] = b[i, j] * v
            total[i, j] = s0[i, j] + s1[i, j]
    return s0, s1, b, bvL, total


def distinct_rows(X: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(rows, counts, inverse): the distinct rows of X in the order of their first
    occurrence, how often each occurs, and for every row of X the index of its distinct row
    (X == rows[inverse]). Without duplicates: X itself, ones and 0..N−1."""
    _, first, inverse, counts = np.unique(X, axis=0, return_index=True,
                                          return_inverse=True, return_counts=True)
    if len(first) == len(X):
        return X, np.ones(len(X)), np.arange(len(X))
    order = np.argsort(first)
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    return X[first[order]], counts[order].astype(np.float64), rank[inverse.ravel()]


def critical_temperature(X: np.ndarray) -> float:
    """λ_max of the correlation matrix of the columns of X (constant columns left out).

    The analogue, for Bernoulli costs in logit parameters, of the critical temperature
    2 λ_max(covariance) at which the single-centroid solution of deterministic annealing
    splits under squared distortion (Rose 1998): the covariance of the cost gradient
    (x − p) whitened by the curvature p(1 − p). A heuristic scale: :func:`fit_mac` starts
    at twice this value (on the synthetic 2400 × 500 role matrix with 10 % flip noise,
    λ_max ≈ 57 and the sources split at T ≈ 25–45).
    """
    X = np.asarray(X, dtype=np.float64)
    sd = X.std(axis=0)
    Y = (X[:, sd > 0] - X[:, sd > 0].mean(axis=0)) / sd[sd > 0]
    if Y.shape[1] == 0:
        return 1.0
    small = Y.T if Y.shape[0] >= Y.shape[1] else Y
    G = small @ small.T / len(X)
    return float(eigh(G, eigvals_only=True, subset_by_index=[len(G) - 1, len(G) - 1])[0])


def fit_mac(X: np.ndarray, n_sources: int, rng: np.random.Generator, *,
            max_assignments: int = 2, noise: bool = True, t_start: float | None = None,
            cooling: float = 0.8, max_iter: int = 30, tol: float = 1e-4,
            epsilon0: float = 0.05, perturbation: float = 0.01,
            fixed_r: float | None = None) -> MacSolution:
    """Fit MAC (Streich et al. 2009; cost eq. 16 of Buhmann et al. 2011) by deterministic
    annealing.

    The sources start at the data's column means (P(emit 0) = 1 − x̄_d, the symmetric
    high-temperature solution) plus a small random perturbation that breaks the symmetry.
    At each temperature T, EM sweeps alternate γ = softmax(−R / T) and
    :func:`em_update` until the free energy −T Σ_i log Σ_L exp(−R_iL / T) changes by less
    than ``tol`` (relative) or after ``max_iter`` sweeps; then T ← ``cooling`` · T
    (sources re-perturbed so that they can split), down to T = 1. ``t_start`` defaults to
    2 · :func:`critical_temperature` (X), where every user's assignment is still nearly
    uniform. The hard assignment of each user is its most probable set at T = 1.
    ``noise=False`` fixes ε = 0; ``max_assignments=1`` gives SAC. ``epsilon0`` is the
    noise fraction the fit starts from; ``fixed_r`` holds the noise bits' P(1) at a given
    value instead of estimating it.

    Users with the same permissions have the same costs R_iL and responsibilities γ_iL at
    every sweep, so the sweeps run on the :func:`distinct_rows` of X, each weighted by its
    count c_u: the free energy −T Σ_u c_u log Σ_L exp(−R_uL / T), the expected counts
    m1 = Σ_u c_u γ_uL x_u and m0 = Σ_u c_u γ_uL − m1 (the sums of eq. 16's EM step over the
    users, grouped). Identical to the sweeps over all users up to the rounding of the
    grouped sums (bit for bit when X has no repeated row); the solution's ``gamma``,
    ``assignment`` and ``R`` have one row per user of X.
    """
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[0] < 1:
        raise ValueError(f"X must be a non-empty 2-D Boolean matrix, got shape {X.shape}")
    if not 0.0 < cooling < 1.0:
        raise ValueError(f"cooling must lie in (0, 1), got {cooling}")
    sets = assignment_sets(n_sources, max_assignments)
    mean = np.clip(X.mean(axis=0), 0.05, 0.95)
    base = np.clip(1.0 - mean, CLIP, 1.0 - CLIP)

    def perturb(v):
        return np.clip(v * np.exp(perturbation * rng.standard_normal(v.shape)),
                       CLIP, 1.0 - CLIP)

    v = perturb(np.tile(base, (n_sources, 1)))
    epsilon, r = (epsilon0, float(np.clip(X.mean(), CLIP, 1 - CLIP))) if noise else (0.0, 0.5)
    if noise and fixed_r is not None:
        r = float(fixed_r)
    rows, counts, inverse = distinct_rows(X)
    vL = set_parameters(v, sets)  # shared by the costs and the next EM step
    R = costs(rows, v, sets, epsilon, r, vL)
    T = max(critical_temperature(X) * 2.0 if t_start is None else float(t_start), 1.0)
    n_temperatures = 0
    while True:
        n_temperatures += 1
        free = np.inf
        for _ in range(max_iter):
            scaled = -R / T
            lse = logsumexp(scaled, axis=1)
            new = float(-T * (lse * counts).sum())  # free energy of the current parameters
            if abs(free - new) <= tol * abs(new):
                break
            free = new
            gamma = np.exp(scaled - lse[:, None]) * counts[:, None]
            m1 = gamma.T @ rows
            m0 = gamma.sum(axis=0)[:, None] - m1
            v, epsilon, r = em_update(v, sets, m0, m1, epsilon, r, noise, vL)
            if noise and fixed_r is not None:
                r = float(fixed_r)
            vL = set_parameters(v, sets)
            R = costs(rows, v, sets, epsilon, r, vL)
        if T <= 1.0:
            break
        T = max(T * cooling, 1.0)
        v = perturb(v)
        vL = set_parameters(v, sets)
        R = costs(rows, v, sets, epsilon, r, vL)
    R = R[inverse]
    gamma = softmax(-R, axis=1)
    return MacSolution(v, epsilon, r, sets, gamma, np.argmin(R, axis=1), R, n_temperatures)
