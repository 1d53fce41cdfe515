"""Transfer costs of a k-means solution (Frank, Chehreghani, Buhmann 2011, Sect. 7).

A solution s¹ learned on X¹ is transferred to X² by a mapping ψ (see
:mod:`mtc_cli.core.mappings`); each x²_i' is then costed against the centroid that ψ assigns
to it, d(μ, x) = ‖x − μ‖². Every function returns R^T per object of X² (a mean).
"""

from __future__ import annotations

import numpy as np

from mtc_cli.core import mappings
from mtc_cli.core.criteria.transfer_cost import soft_mapped_cost, transfer_cost
from mtc_cli.core.models.kmeans import KmeansSolution, squared_distances


def nearest_neighbour_transfer_cost(solution: KmeansSolution, X2: np.ndarray,
                                    psi: np.ndarray) -> float:
    """Eq. 11 of Frank et al. 2011, first line: R^T = (1/N₂) Σ_i' d(μ_c(ψ(i')), x²_i'),
    with ψ the nearest-neighbour mapping of X² to the objects of X¹ (eq. 1)."""
    return transfer_cost(squared_distances(solution.centroids, X2), solution.labels[psi])


def structure_transfer_cost(solution: KmeansSolution, X2: np.ndarray) -> float:
    """Eq. 11 of Frank et al. 2011, second line: each x²_i' is mapped to its nearest
    centroid by ψ^s (eq. 4), R^T = (1/N₂) Σ_i' min_t d(μ_t, x²_i')."""
    return transfer_cost(squared_distances(solution.centroids, X2),
                         mappings.structure(solution.centroids, X2))


def generative_transfer_cost(solution: KmeansSolution, X2: np.ndarray) -> float:
    """Eq. 3 with the generative mapping ψ^G (eq. 5 of Frank et al. 2011): x²_i' was drawn
    from the same component as x¹_i', so it is costed against x¹_i''s centroid."""
    psi = mappings.generative(len(solution.labels), len(X2))
    return transfer_cost(squared_distances(solution.centroids, X2), solution.labels[psi])


def soft_object_transfer_cost(solution: KmeansSolution, X2: np.ndarray,
                              p: np.ndarray) -> float:
    """Eq. 13 of Frank et al. 2011: R^T = (1/N₂) Σ_i' Σ_i p_i'i d(μ_c(i), x²_i').

    ``p`` (N₂, N₁) holds the probabilistic mapping of X² to the objects of X¹ (eq. 12,
    :func:`mtc_cli.core.mappings.soft` of d(x¹_i, x²_i')); it does not depend on k, so the
    caller computes it once. The object sum is grouped by cluster: p·onehot(c).
    """
    p = np.asarray(p, dtype=np.float64)
    if p.shape != (len(X2), len(solution.labels)):
        raise ValueError(f"p must be (N2, N1) = {(len(X2), len(solution.labels))}, got {p.shape}")
    mass = p @ np.eye(solution.k)[solution.labels]  # (N₂, k): probability of each cluster
    return float(np.einsum("nt,nt->n", mass, squared_distances(solution.centroids, X2)).mean())


def soft_transfer_cost(solution: KmeansSolution, X2: np.ndarray, beta: float) -> float:
    """Eq. 14 of Frank et al. 2011 (eq. 13 with the object-to-centroid approximation):
    R^T = (1/N₂) Σ_i' Σ_t d(μ_t, x²_i') · softmax_t(−β d(μ_t, x²_i')), d the squared
    Euclidean distance (:func:`~mtc_cli.core.criteria.transfer_cost.soft_mapped_cost`)."""
    return soft_mapped_cost(squared_distances(solution.centroids, X2), beta)


def single_cluster_beta(X1: np.ndarray, factor: float = 0.75) -> float:
    """The inverse temperature of Sect. 7 of Frank et al. 2011, β = factor / R(s¹, X¹, 1),
    with R(s¹, X¹, 1) per object: the mean squared distance of X¹ to its centroid."""
    X1 = np.asarray(X1, dtype=np.float64)
    r1 = float(((X1 - X1.mean(axis=0)) ** 2).sum(axis=1).mean())
    if r1 <= 0:
        raise ValueError("R(s¹, X¹, 1) = 0: all objects of X¹ coincide")
    return factor / r1
