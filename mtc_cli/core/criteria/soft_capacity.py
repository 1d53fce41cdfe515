"""Approximation capacity of two halves aligned by the soft mapping of Frank, Chehreghani
& Buhmann 2011 (MTC), eq. 12, instead of the nearest neighbour ψ_NN.

Derivation. wASC (Buhmann, Chehreghani, Frank & Streich 2011) needs the objects of X¹ and
X² aligned (Sect. 5.2: "with a mapping function as, for instance, in Frank et al.").
ψ_NN pairs nearly identical objects, so any partition coarser than the data's granularity
transfers intact and I_β grows like log₂ k (MTC paper, Sect. 7). Instead:

1. Mapping (MTC eq. 12): object i' of X² is object i of X¹ with probability
   p_i'i ∝ exp(−β_ψ d(x¹_i, x²_i')), d the squared Euclidean distance (``cosine``
   models: 1 − x¹ᵀx²), at the paper's own temperature (MTC Sect. 7)
   β_ψ = 0.75 / R(s¹, X¹, 1), R(s¹, X¹, 1) the per-object cost of X¹ as one cluster.
   It depends on the halves only, not on k: every k is measured over the same alignment
   (:func:`alignment`, computed once per pair of halves).
2. Solutions: ε¹ = costs of X¹ under its own solution, ε² = costs of X² under its own.
   The clusters of the second solution are renamed to those of the first by the
   Hungarian matching (``linear_sum_assignment``) of most agreement of the two solutions'
   labels on both halves (:func:`_matching`).
3. Information: the first instance's cost of object i' is the expected cost of its image
   under the mapping, ε̃¹_i'k = Σ_i p_i'i ε¹_ik — as MTC eq. 14 takes the expected cost
   under the mapping — and wASC eqs. 9 and 13 are computed on the aligned pair
   (ε̃¹, ε²) by :func:`~mtc_cli.core.criteria.approximation_capacity.capacity`. With p the
   identity this is eq. 13 on ψ = id.
4. Both directions (X² mapped onto X¹ and X¹ onto X²) are computed and their capacities
   averaged. I_β is a mean over objects: the caller may pass a sample of each half.

What it gives where the answer is known (``tests/core/test_soft_capacity.py``): separated,
noise-free clusters at k = K carry log₂ K bits (the expected cost keeps every object's
cheapest cluster as long as most of its mapping mass stays in its own cluster). Pure noise
does *not* carry ≈ 0 bits: a k-means tessellation of noise is reproducible, and the
expected cost of the mapped image keeps its cells (1.7 bits at k = 4 on 200 uniform
points). Nor is eq. 13 maximal at the true K of equal separated blobs: splitting one of K
blobs into two halves that the mapping scrambles costs (1/K) bit and adds log₂((K+1)/K),
more for K ≥ 2 (k-means: 2.06 against 2.00 bits for K = 4).
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import linear_sum_assignment
from scipy.special import softmax

from mtc_cli.core.criteria.approximation_capacity import capacity

__all__ = ["alignment", "soft_capacity"]

#: the factor of the mapping temperature β_ψ = 0.75 / R(s¹, X¹, 1) (MTC paper, Sect. 7)
MAPPING_FACTOR = 0.75
#: memory bound of one block of the mapping: pairs of objects
_BLOCK = 2_000_000


def _dense(M) -> np.ndarray:
    return np.asarray(M.toarray() if hasattr(M, "toarray") else M, dtype=np.float64)


def _row_norms2(X) -> np.ndarray:
    return np.asarray(X.multiply(X).sum(axis=1)).ravel() if hasattr(X, "multiply") \
        else np.einsum("ij,ij->i", X, X)


def _dissimilarities(X1, X2, metric: str) -> np.ndarray:
    """d(x¹_i, x²_i') for every pair, (n₂, n₁): ‖x¹ − x²‖² or, for ``cosine`` (unit
    rows, dense or sparse), 1 − x¹ᵀx²."""
    inner = _dense(X2 @ X1.T)
    if metric == "cosine":
        return 1.0 - inner
    return np.maximum(_row_norms2(X2)[:, None] - 2.0 * inner + _row_norms2(X1)[None, :], 0.0)


def _mapping_beta(X1, metric: str) -> float:
    """β_ψ = 0.75 / R(s¹, X¹, 1) of MTC Sect. 7, R per object: the mean squared distance
    of X¹ to its mean (``cosine``: the mean 1 − xᵀμ to the normalised mean direction)."""
    mean = np.asarray(X1.mean(axis=0), dtype=np.float64).ravel()
    if metric == "cosine":
        norm = np.linalg.norm(mean)
        r1 = float(np.mean(1.0 - _dense(X1 @ (mean / norm)))) if norm > 0 else 1.0
    else:
        centred = _dense(X1) - mean
        r1 = float(np.mean(np.einsum("ij,ij->i", centred, centred)))
    if not r1 > 0:
        raise ValueError("R(s¹, X¹, 1) = 0: all objects of X¹ coincide")
    return MAPPING_FACTOR / r1


def _soft_mapping(X1, X2, beta_psi: float, metric: str) -> np.ndarray:
    """p_i'i of MTC eq. 12: softmax over the objects i of X¹ of −β_ψ d(x¹_i, x²_i'),
    an (n₂, n₁) row-stochastic matrix, built for blocks of X² rows."""
    rows = max(1, _BLOCK // max(1, X1.shape[0]))
    return np.vstack([softmax(-beta_psi * _dissimilarities(X1, X2[s:s + rows], metric), axis=1)
                      for s in range(0, X2.shape[0], rows)])


def _matching(pairs, k: int) -> np.ndarray:
    """The renaming of the second solution's clusters that maximises agreement: from
    (labels by solution 1, labels by solution 2) pairs of the same objects, the
    contingency table C_ab = #{a by 1, b by 2} and the Hungarian assignment on −C.
    Returns perm with cluster a of solution 1 ↔ cluster perm[a] of solution 2."""
    table = np.zeros((k, k))
    for a, b in pairs:
        np.add.at(table, (a, b), 1.0)
    rows, cols = linear_sum_assignment(-table)
    perm = np.empty(k, dtype=np.intp)
    perm[rows] = cols
    return perm


def alignment(A, B, metric: str) -> tuple[np.ndarray, np.ndarray]:
    """The soft mappings of the objects of B onto A (n_B, n_A) and of A onto B (n_A, n_B),
    each at the β_ψ of its target (:func:`_mapping_beta`): computed once per pair of
    halves (or of their samples), for every k."""
    return (_soft_mapping(A, B, _mapping_beta(A, metric), metric),
            _soft_mapping(B, A, _mapping_beta(B, metric), metric))


def soft_capacity(A, B, fit1, fit2, model, mappings, *, n_grid: int = 31,
                  refine: str = "bounded") -> float:
    """Approximation capacity in bits of one k (see the module docstring) on objects A of
    the first half and B of the second, ``fit1`` fitted on the first half, ``fit2`` on the
    second, ``mappings`` their :func:`alignment`: wASC eqs. 9 and 13 on the expected costs
    of the mapped images (MTC eq. 12), the second solution's clusters matched to the
    first's on A and B; the two directions averaged. ``model`` needs ``costs`` and
    ``predict``; ``refine``: how the maximum over β is refined (:func:`capacity`)."""
    k = fit1.k
    if k < 2:
        return 0.0
    forward, backward = mappings
    perm = _matching([(model.predict(fit1, A), model.predict(fit2, A)),
                      (model.predict(fit1, B), model.predict(fit2, B))], k)
    costs1 = model.costs(fit1, A)
    costs2 = model.costs(fit2, B)[:, perm]
    return 0.5 * (capacity(forward @ costs1, costs2, n_grid=n_grid, refine=refine)[0]
                  + capacity(backward @ costs2, costs1, n_grid=n_grid, refine=refine)[0])
