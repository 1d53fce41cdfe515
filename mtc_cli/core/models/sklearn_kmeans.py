"""scikit-learn's k-means for many small fits: ``KMeans(n_clusters=k, n_init=n_init,
random_state=seed).fit(X)`` on dense float64 data in one thread (as every task runs, under
``threadpool_limits(1)``) — greedy k-means++ seeding, Lloyd's iterations in scikit-learn's
compiled kernel, the restart of least inertia kept — operation for operation, so the same
labels, centres and inertia bit for bit (a test holds the two equal), without what a call
costs besides the arithmetic: the parameter and input validation, the array-API dispatch of
each distance computation in the seeding and the thread-pool switch around each restart. On
the 500-object halves of ``mtc select`` these took most of a fit's time.

It calls scikit-learn's private kernels (``lloyd_iter_chunked_dense``, ``_inertia_dense``,
``_is_same_clustering``); a release that changes them fails the equality test."""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.cluster._k_means_common import _inertia_dense, _is_same_clustering
from sklearn.cluster._k_means_lloyd import lloyd_iter_chunked_dense
from sklearn.exceptions import ConvergenceWarning

#: KMeans' defaults
MAX_ITER, TOL = 300, 1e-4


def fit(X, k: int, n_init: int, seed) -> tuple[np.ndarray, np.ndarray, float]:
    """``KMeans(n_clusters=k, n_init=n_init, random_state=seed).fit(X)`` in one thread:
    returns its ``cluster_centers_`` (k, d), ``labels_`` (int32) and ``inertia_``, with its
    warning when fewer than k clusters are found. ``seed``: an int, or a ``RandomState``
    that the draws advance (as ``KMeans`` does with one)."""
    X = np.array(X, dtype=np.float64, order="C", copy=True)
    n = len(X)
    if not 1 <= k <= n:
        raise ValueError(f"n_samples={n} should be >= n_clusters={k}.")
    tol = np.mean(np.var(X, axis=0)) * TOL
    random_state = (seed if isinstance(seed, np.random.RandomState)
                    else np.random.RandomState(seed))
    weight = np.ones(n, dtype=np.float64)
    X_mean = X.mean(axis=0)
    X -= X_mean
    norms = np.einsum("ij,ij->i", X, X)
    best_inertia = best_labels = best_centres = None
    for _ in range(n_init):
        centres = plusplus(X, k, norms, weight, random_state)
        labels, inertia, centres = lloyd(X, weight, centres, tol)
        if best_inertia is None or (inertia < best_inertia
                                    and not _is_same_clustering(labels, best_labels, k)):
            best_labels, best_centres, best_inertia = labels, centres, inertia
    best_centres += X_mean
    found = len(set(best_labels))
    if found < k:
        warnings.warn(f"Number of distinct clusters ({found}) found smaller than n_clusters "
                      f"({k}). Possibly due to duplicate points in X.", ConvergenceWarning,
                      stacklevel=2)
    return best_centres, best_labels, float(best_inertia)


def squared_distances(C: np.ndarray, X: np.ndarray, x_norms: np.ndarray) -> np.ndarray:
    """‖c − x‖² = −2 c·x + ‖c‖² + ‖x‖², clipped at 0, for every row c of C and x of X:
    ``sklearn.metrics.pairwise._euclidean_distances(C, X, Y_norm_squared=x_norms,
    squared=True)`` on float64 arrays, in its order of operations."""
    d = -2 * (C @ X.T)
    d += np.einsum("ij,ij->i", C, C)[:, None]
    d += x_norms.reshape(1, -1)
    np.maximum(d, 0, out=d)
    return d


def plusplus(X, k, norms, weight, random_state) -> np.ndarray:
    """Greedy k-means++ seeding (Arthur & Vassilvitskii 2007; 2 + ⌊ln k⌋ candidates per
    centre, the one of least potential kept): ``sklearn.cluster._kmeans._kmeans_plusplus``'s
    draws and arithmetic."""
    n = len(X)
    trials = 2 + int(np.log(k))
    centres = np.empty((k, X.shape[1]), dtype=X.dtype)
    first = random_state.choice(n, p=weight / weight.sum())
    centres[0] = X[first]
    closest = squared_distances(centres[0, np.newaxis], X, norms)
    potential = closest @ weight
    for c in range(1, k):
        draws = random_state.uniform(size=trials) * potential
        candidates = np.searchsorted(np.cumsum(weight * closest), draws)
        np.clip(candidates, None, closest.size - 1, out=candidates)
        dist = squared_distances(X[candidates], X, norms)
        np.minimum(closest, dist, out=dist)
        potentials = dist @ weight.reshape(-1, 1)
        best = np.argmin(potentials)
        potential, closest = potentials[best], dist[best]
        centres[c] = X[candidates[best]]
    return centres


def lloyd(X, weight, centres, tol) -> tuple[np.ndarray, float, np.ndarray]:
    """Lloyd's iterations from ``centres`` until the labels repeat, the centres move less
    than ``tol`` (squared, summed) or ``MAX_ITER``; then, unless the labels repeated, one
    more assignment to the final centres: ``sklearn.cluster._kmeans._kmeans_single_lloyd``
    with one thread. Returns (labels, inertia, centres)."""
    k = len(centres)
    new = np.zeros_like(centres)
    labels = np.full(len(X), -1, dtype=np.int32)
    previous = labels.copy()
    weight_in_clusters = np.zeros(k, dtype=X.dtype)
    shift = np.zeros(k, dtype=X.dtype)
    converged = False
    for _ in range(MAX_ITER):
        lloyd_iter_chunked_dense(X, weight, centres, new, weight_in_clusters, labels, shift, 1)
        centres, new = new, centres
        if np.array_equal(labels, previous):
            converged = True
            break
        if (shift**2).sum() <= tol:
            break
        previous[:] = labels
    if not converged:
        lloyd_iter_chunked_dense(X, weight, centres, centres, weight_in_clusters, labels,
                                 shift, 1, update_centers=False)
    return labels, _inertia_dense(X, weight, centres, labels, 1), centres
