"""Classical internal cluster-validity indices: the silhouette (Rousseeuw 1987, J. Comput.
Appl. Math. 20:53–65), the Caliński–Harabasz variance ratio (Caliński & Harabasz 1974,
Commun. Stat. 3:1–27) and the Davies–Bouldin index (Davies & Bouldin 1979, IEEE TPAMI
1:224–227).

Each is scikit-learn's ``sklearn.metrics`` score, computed the same way (its sampling, its
Euclidean distances ‖x‖² − 2x·y + ‖y‖², its conventions for singletons and coinciding
centroids) with numpy on dense data — a test holds them equal to scikit-learn's within
rounding — because importing ``sklearn.metrics`` (through ``scipy.stats``) takes most of a
second of a small ``mtc select``; for sparse data or another metric, scikit-learn's own."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from mtc_cli.core.labels import codes


def _check_labels(X, labels) -> np.ndarray:
    """The labels as an array, after checking 2 ≤ #distinct labels < #objects."""
    labels = np.asarray(labels).ravel()
    n = X.shape[0]
    if labels.shape[0] != n:
        raise ValueError(f"got {labels.shape[0]} labels for {n} objects")
    k = np.unique(labels).size
    if not 2 <= k < n:
        raise ValueError(f"internal indices need 2 ≤ number of clusters < number of objects, "
                         f"got {k} clusters for {n} objects")
    return labels


def _codes(labels) -> tuple[np.ndarray, np.ndarray]:
    """The labels as 0..k−1 (sorted label values) and the size of each cluster."""
    inverse = codes(labels)[1]
    return inverse, np.bincount(inverse)


def euclidean_distances(A: np.ndarray, B: np.ndarray | None = None) -> np.ndarray:
    """‖a − b‖ for every row of A and of B (A itself if None: the diagonal 0), as
    scikit-learn computes them: √max(‖a‖² − 2a·b + ‖b‖², 0)."""
    same = B is None
    B = A if same else B
    d = -2.0 * (A @ B.T)
    d += np.einsum("ij,ij->i", A, A)[:, None]
    d += np.einsum("ij,ij->i", B, B)[None, :]
    np.maximum(d, 0.0, out=d)
    if same:
        np.fill_diagonal(d, 0.0)
    return np.sqrt(d, out=d)


def silhouette_sample(X: np.ndarray, max_items: int, random_state: int) -> tuple:
    """(keep, D): the objects :func:`silhouette` reads of the dense X — all (keep None),
    or above ``max_items`` objects scikit-learn's uniform subsample, the first
    ``max_items`` of ``RandomState(random_state).permutation(n)`` — and their Euclidean
    distances D: the same for every partition of X."""
    X = np.asarray(X, dtype=np.float64)
    n = X.shape[0]
    keep = np.random.RandomState(random_state).permutation(n)[:max_items] if n > max_items \
        else None
    return keep, euclidean_distances(X if keep is None else X[keep])


def silhouette(X, labels, *, max_items: int = 2000, random_state: int = 0,
               metric: str = "euclidean", sample: tuple | None = None) -> float:
    """Mean silhouette width s = mean_i (b_i − a_i) / max(a_i, b_i), a_i the mean distance of
    i to the others of its cluster, b_i the smallest mean distance to another cluster, s_i =
    0 for singletons (Rousseeuw 1987; ``sklearn.metrics.silhouette_score``; higher is
    better).

    The exact value needs all n² pairwise distances; when n > ``max_items`` it is estimated
    on a uniform subsample of ``max_items`` objects, scikit-learn's: the first of
    ``RandomState(random_state).permutation(n)`` (deterministic). X may be a scipy sparse
    matrix (e.g. with ``metric="cosine"``). ``sample``: the :func:`silhouette_sample` of the
    dense X at ``max_items`` and ``random_state``, to share between partitions."""
    labels = _check_labels(X, labels)
    n = X.shape[0]
    if max_items < 2:
        raise ValueError(f"max_items must be at least 2, got {max_items}")
    if sp.issparse(X) or metric != "euclidean":
        from sklearn import metrics

        sample = {"sample_size": max_items, "random_state": random_state} \
            if n > max_items else {}
        return float(metrics.silhouette_score(X, labels, metric=metric, **sample))
    keep, D = silhouette_sample(X, max_items, random_state) if sample is None else sample
    if keep is not None:
        labels = _check_labels(D, labels[keep])
    codes, sizes = _codes(labels)
    sums = D @ np.eye(sizes.size)[codes]  # Σ distances to each cluster
    own = sums[np.arange(len(codes)), codes]
    sums[np.arange(len(codes)), codes] = np.inf
    nearest = (sums / sizes).min(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        a = own / (sizes - 1)[codes]
        s = (nearest - a) / np.maximum(a, nearest)
    return float(np.mean(np.nan_to_num(s)))


def calinski_harabasz(X, labels) -> float:
    """CH = [B / (k − 1)] / [W / (n − k)], B and W the between- and within-cluster sums of
    squares about the centroids (Caliński & Harabasz 1974;
    ``sklearn.metrics.calinski_harabasz_score``, 1 where W = 0; higher is better)."""
    labels = _check_labels(X, labels)
    X = np.asarray(X, dtype=np.float64)
    codes, sizes = _codes(labels)
    centroids = np.stack([X[codes == c].mean(axis=0) for c in range(sizes.size)])
    between = float(np.sum(sizes * ((centroids - X.mean(axis=0)) ** 2).sum(axis=1)))
    within = float(np.sum((X - centroids[codes]) ** 2))
    n, k = len(codes), sizes.size
    return 1.0 if within == 0 else between * (n - k) / (within * (k - 1))


def davies_bouldin(X, labels) -> float:
    """DB = (1/k) Σ_i max_{j≠i} (s_i + s_j) / d(c_i, c_j), s_i the mean Euclidean distance of
    cluster i's members to its centroid c_i (Davies & Bouldin 1979;
    ``sklearn.metrics.davies_bouldin_score``: 0 where every s_i or every d(c_i, c_j) is 0,
    coinciding centroids left out; lower is better)."""
    labels = _check_labels(X, labels)
    X = np.asarray(X, dtype=np.float64)
    codes, sizes = _codes(labels)
    centroids = np.stack([X[codes == c].mean(axis=0) for c in range(sizes.size)])
    spread = np.array([euclidean_distances(X[codes == c], centroids[c:c + 1]).mean()
                       for c in range(sizes.size)])
    apart = euclidean_distances(centroids)
    if np.allclose(spread, 0) or np.allclose(apart, 0):
        return 0.0
    apart[apart == 0] = np.inf
    return float(np.mean(np.max((spread[:, None] + spread) / apart, axis=1)))
