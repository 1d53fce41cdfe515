"""k-means: the squared-Euclidean cost function (ours) and scikit-learn's optimizer.

Frank, Chehreghani, Buhmann 2011, Sect. 7: a solution s is an assignment c ∈ {1..k}^N
and k centroids μ_t; the cost is R(s, X, k) = Σ_i d(μ_c(i), x_i) with d the squared
Euclidean distance.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class KmeansSolution:
    """A k-means solution s: centroids μ_t (k, d) and the assignment c(i) of X¹ (N₁,)."""

    centroids: np.ndarray
    labels: np.ndarray

    @property
    def k(self) -> int:
        return len(self.centroids)


def fit(X: np.ndarray, k: int, *, n_init: int = 10, random_state: int = 0) -> KmeansSolution:
    """Lloyd's algorithm with k-means++ seeding and ``n_init`` restarts (scikit-learn);
    the restart of lowest cost is kept."""
    from sklearn.cluster import KMeans  # here: importing scikit-learn takes a second

    X = np.asarray(X, dtype=np.float64)
    km = KMeans(n_clusters=k, n_init=n_init, random_state=random_state).fit(X)
    return KmeansSolution(km.cluster_centers_.copy(), km.labels_.astype(np.intp))


def squared_distances(centroids: np.ndarray, X: np.ndarray, *,
                      block: int = 4_000_000) -> np.ndarray:
    """d(μ_t, x_i) = ‖x_i − μ_t‖² for every object and centroid: an (N, k) matrix.

    Computed from the differences (not the ‖x‖² − 2x·μ + ‖μ‖² expansion), so it is exact
    and non-negative; the differences are formed for blocks of objects of at most
    ``block`` numbers each, so memory stays O(N·k + block) for large N.
    """
    X = np.asarray(X, dtype=np.float64)
    C = np.asarray(centroids, dtype=np.float64)
    rows = max(1, block // max(1, C.shape[0] * C.shape[1]))
    out = np.empty((len(X), len(C)))
    for s in range(0, len(X), rows):
        diff = X[s:s + rows, None, :] - C[None, :, :]
        out[s:s + rows] = np.einsum("ntd,ntd->nt", diff, diff)
    return out


def costs(solution: KmeansSolution, X: np.ndarray) -> np.ndarray:
    """Per-object costs R_i = d(μ_c(i), x_i) of the objects the solution was fitted on
    (Sect. 7 of Frank et al. 2011); their sum is R(s, X, k)."""
    D = squared_distances(solution.centroids, X)
    return D[np.arange(len(D)), solution.labels]
