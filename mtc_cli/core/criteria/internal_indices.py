"""Classical internal cluster-validity indices, from scikit-learn: the silhouette
(Rousseeuw 1987, J. Comput. Appl. Math. 20:53–65), the Caliński–Harabasz variance ratio
(Caliński & Harabasz 1974, Commun. Stat. 3:1–27) and the Davies–Bouldin index (Davies &
Bouldin 1979, IEEE TPAMI 1:224–227)."""

from __future__ import annotations

import numpy as np
from sklearn import metrics


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


def silhouette(X, labels, *, max_items: int = 2000, random_state: int = 0,
               metric: str = "euclidean") -> float:
    """Mean silhouette width s = mean_i (b_i − a_i) / max(a_i, b_i), a_i the mean distance of
    i to its own cluster, b_i the smallest mean distance to another cluster, s_i = 0 for
    singletons (Rousseeuw 1987; ``sklearn.metrics.silhouette_score``; higher is better).

    The exact value needs all n² pairwise distances; when n > ``max_items`` it is estimated
    on a uniform subsample of ``max_items`` objects drawn with ``random_state``
    (deterministic). X may be a scipy sparse matrix (e.g. with ``metric="cosine"``)."""
    labels = _check_labels(X, labels)
    n = X.shape[0]
    if max_items < 2:
        raise ValueError(f"max_items must be at least 2, got {max_items}")
    if n > max_items:
        return float(metrics.silhouette_score(X, labels, metric=metric, sample_size=max_items,
                                              random_state=random_state))
    return float(metrics.silhouette_score(X, labels, metric=metric))


def calinski_harabasz(X, labels) -> float:
    """CH = [B / (k − 1)] / [W / (n − k)], B and W the between- and within-cluster sums of
    squares about the centroids (Caliński & Harabasz 1974;
    ``sklearn.metrics.calinski_harabasz_score``; higher is better). Dense X."""
    labels = _check_labels(X, labels)
    return float(metrics.calinski_harabasz_score(X, labels))


def davies_bouldin(X, labels) -> float:
    """DB = (1/k) Σ_i max_{j≠i} (s_i + s_j) / d(c_i, c_j), s_i the mean Euclidean distance of
    cluster i's members to its centroid c_i (Davies & Bouldin 1979;
    ``sklearn.metrics.davies_bouldin_score``; lower is better). Dense X."""
    labels = _check_labels(X, labels)
    return float(metrics.davies_bouldin_score(X, labels))
