"""Clusterers A_k with their natural predictors φ (Lange et al. 2002, Sect. 3): k-means
with the nearest-centroid rule, and Path-Based Clustering (Fischer, Zöller, Buhmann 2001)
with its nearest-neighbour-type rule on effective dissimilarities.

Every clusterer has the signature ``cluster(X, ks, rng) -> {k: labels}``: one call serves
all model orders, so work shared by the orders (one agglomeration for every k) is done
once. Every predictor has the signature ``predict(X_train, {k: labels}, X_test) ->
{k: labels}``, labels of the test objects named as the training clusters.
"""

from __future__ import annotations

import numpy as np
from scipy.cluster.hierarchy import cophenet, linkage
from scipy.spatial.distance import cdist, pdist, squareform

from mtc_cli.mappings import structure


def kmeans_plusplus(X: np.ndarray, k: int, n_init: int, rng: np.random.Generator) -> np.ndarray:
    """Greedy k-means++ seeding (Arthur & Vassilvitskii 2007; the greedy variant of
    scikit-learn) of ``n_init`` independent restarts at once: the first centre uniformly;
    for each further centre 2 + ⌊ln k⌋ candidates drawn with probability ∝ the squared
    distance to the nearest centre so far, keeping the candidate that lowers the summed
    squared distances most. Returns (n_init, k, d)."""
    n = len(X)
    trials = 2 + int(np.log(k))
    norms = np.einsum("ij,ij->i", X, X)
    gram = X @ X.T
    sq = np.maximum(norms[:, None] - 2.0 * gram + norms[None, :], 0.0)  # ‖x_i − x_j‖²
    first = rng.integers(n, size=n_init)
    chosen = np.empty((n_init, k), dtype=np.intp)
    chosen[:, 0] = first
    nearest = sq[first]  # (R, n)
    for t in range(1, k):
        cum = np.cumsum(nearest, axis=1)
        u = rng.random((n_init, trials)) * cum[:, -1:]
        pick = np.minimum((cum[:, None, :] < u[:, :, None]).sum(axis=2), n - 1)  # (R, L)
        cand = np.minimum(nearest[:, None, :], sq[pick])
        best = cand.sum(axis=2).argmin(axis=1)
        chosen[:, t] = pick[np.arange(n_init), best]
        nearest = cand[np.arange(n_init), best]
    return X[chosen]


def lloyd(X: np.ndarray, k: int, rng: np.random.Generator, *, n_init: int = 20,
          max_iter: int = 100) -> tuple[np.ndarray, np.ndarray, float]:
    """k-means: Lloyd's algorithm from ``n_init`` k-means++ seedings
    (:func:`kmeans_plusplus`), all restarts iterated together as one batch of matrix
    products; the restart of least cost Σ_i ‖x_i − μ_c(i)‖² is kept. An empty cluster
    keeps its previous centre. Returns (labels, centroids, cost). The algorithm of
    scikit-learn's ``KMeans`` (Lloyd, greedy k-means++), batched over restarts because
    the data here are small and the calls many (2–4× faster than ``KMeans``)."""
    X = np.asarray(X, dtype=np.float64)
    n = len(X)
    if not 1 <= k <= n:
        raise ValueError(f"need 1 ≤ k ≤ {n} objects, got k = {k}")
    centres = kmeans_plusplus(X, k, n_init, rng)
    norms = np.einsum("ij,ij->i", X, X)
    labels = None
    for _ in range(max_iter):
        d = (norms[None, :, None] - 2.0 * (X @ centres.transpose(0, 2, 1))
             + np.einsum("rkd,rkd->rk", centres, centres)[:, None, :])
        new = d.argmin(axis=2)
        if labels is not None and np.array_equal(new, labels):
            break
        labels = new
        onehot = (labels[:, :, None] == np.arange(k)).astype(np.float64)  # (R, n, k)
        counts = onehot.sum(axis=1)
        sums = onehot.transpose(0, 2, 1) @ X
        filled = counts > 0
        centres[filled] = sums[filled] / counts[filled][:, None]
    diff = X[None] - np.take_along_axis(centres, labels[:, :, None], axis=1)
    cost = np.einsum("rnd,rnd->r", diff, diff)
    best = int(cost.argmin())
    return labels[best].astype(np.intp), centres[best], float(cost[best])


def kmeans_cluster(X: np.ndarray, ks, rng: np.random.Generator, *,
                   n_init: int = 20) -> dict[int, np.ndarray]:
    """k-means (:func:`lloyd`, ``n_init`` k-means++ restarts, the restart of least cost
    kept) for every k in ``ks``; k = 1 is the one-cluster solution. Lange et al. used
    deterministic annealing; many restarts serve the same purpose, a near-global optimum
    of the k-means cost."""
    out = {}
    for k in ks:
        if k == 1:
            out[k] = np.zeros(len(X), dtype=np.intp)
        else:
            out[k] = lloyd(X, k, rng, n_init=n_init)[0]
    return out


def class_means(X: np.ndarray, labels) -> tuple[np.ndarray, np.ndarray]:
    """The distinct labels and the mean of X over the objects of each (the centroids)."""
    names, inverse = np.unique(np.asarray(labels), return_inverse=True)
    counts = np.bincount(inverse)
    sums = np.zeros((len(names), X.shape[1]))
    np.add.at(sums, inverse, X)
    return names, sums / counts[:, None]


def nearest_centroid_predict(X_train: np.ndarray, labels: dict, X_test: np.ndarray) -> dict:
    """φ of k-means: each test object gets the label of the nearest centroid (squared
    Euclidean) of the training clusters (:func:`mtc_cli.mappings.structure`)."""
    X_train = np.asarray(X_train, dtype=np.float64)
    out = {}
    for k, lab in labels.items():
        names, centroids = class_means(X_train, lab)
        out[k] = names[structure(centroids, X_test)]
    return out


# --- Path-Based Clustering ------------------------------------------------------------------

def single_linkage(X: np.ndarray, *, precomputed: bool = False) -> np.ndarray:
    """The single-linkage merge tree of X (scipy's linkage matrix): its merge heights are
    the edge weights of the minimum spanning tree of the complete graph with Euclidean
    (or, ``precomputed``, the given symmetric) dissimilarities, merged in Kruskal order."""
    if precomputed:
        return linkage(squareform(np.asarray(X, dtype=np.float64), checks=False),
                       method="single")
    return linkage(pdist(np.asarray(X, dtype=np.float64)), method="single")


def effective_dissimilarity(X: np.ndarray, *, precomputed: bool = False) -> np.ndarray:
    """D^eff_ij = min over paths p from i to j of the largest dissimilarity along p — the
    effective (minimax path) dissimilarity of Fischer, Zöller, Buhmann 2001 (Sect. 2).

    A minimax path between two vertices runs along the minimum spanning tree, so D^eff is
    the height at which i and j join in the single-linkage tree (its cophenetic distance).
    Computed over all objects given; Fischer et al. restrict the paths to the objects of
    one cluster, which gives the same values for every pair whose minimax path stays
    inside its cluster (e.g. clusters that are unions of MST components).
    """
    n = len(X)
    if n < 2:
        return np.zeros((n, n))
    return squareform(cophenet(single_linkage(X, precomputed=precomputed)))


def pairwise_cost(D: np.ndarray, labels) -> float:
    """H^pbc = Σ_ν (1/|O_ν|) Σ_{i,j ∈ O_ν} D_ij — the path-based clustering cost of
    Fischer et al. 2001 (eq. 2) when D holds effective dissimilarities; the pairwise
    clustering cost of Hofmann & Buhmann 1997 for general D (each pair counted twice)."""
    lab = np.asarray(labels)
    return float(sum(D[np.ix_(lab == v, lab == v)].sum() / np.count_nonzero(lab == v)
                     for v in np.unique(lab)))


def merge_cost(within_a, size_a, within_b, size_b, cross):
    """Increase of H when clusters a and b merge: (W_a + W_b + 2 S_ab)/(n_a + n_b) −
    W_a/n_a − W_b/n_b, with W the within-cluster sums and S_ab the cross sum of D."""
    return ((within_a + within_b + 2.0 * cross) / (size_a + size_b)
            - within_a / size_a - within_b / size_b)


def agglomerate(D: np.ndarray, ks) -> dict[int, np.ndarray]:
    """Greedy agglomerative optimisation of :func:`pairwise_cost`: start from singletons
    and repeatedly merge the two clusters whose union increases the cost least
    (:func:`merge_cost`, the lowest index pair on ties); the partition with k clusters is
    recorded for every k in ``ks``. One agglomeration serves every k.

    The within and cross sums are updated in O(n) per merge (S_{a∪b, c} = S_ac + S_bc)
    and each row keeps its cheapest partner, so the whole hierarchy costs O(n²) memory
    and about O(n²) time.
    """
    D = np.asarray(D, dtype=np.float64)
    n = len(D)
    ks = sorted(set(int(k) for k in ks))
    if not ks or ks[0] < 1 or ks[-1] > n:
        raise ValueError(f"every k must lie in 1..{n}, got {ks}")
    size = np.ones(n)
    within = np.zeros(n)
    S = D.copy()
    delta = merge_cost(within[:, None], size[:, None], within[None, :], size[None, :], S)
    np.fill_diagonal(delta, np.inf)
    best = delta.argmin(axis=1)
    best_cost = delta[np.arange(n), best]
    active = np.ones(n, dtype=bool)
    assign = np.arange(n)
    out = {}
    for m in range(n, ks[0] - 1, -1):
        if m in ks:
            out[m] = np.unique(assign, return_inverse=True)[1]
        if m == ks[0]:
            break
        a = int(best_cost.argmin())
        b = int(best[a])
        within[a] += within[b] + 2.0 * S[a, b]
        size[a] += size[b]
        S[a] += S[b]
        S[:, a] = S[a]
        active[b] = False
        assign[assign == b] = a
        delta[b, :] = delta[:, b] = np.inf
        best_cost[b] = np.inf
        row = np.where(active, merge_cost(within[a], size[a], within, size, S[a]), np.inf)
        row[a] = np.inf
        delta[a, :] = delta[:, a] = row
        best[a] = row.argmin()
        best_cost[a] = row[best[a]]
        stale = np.flatnonzero(active & ((best == a) | (best == b)))
        stale = stale[stale != a]
        if len(stale):
            best[stale] = delta[stale].argmin(axis=1)
            best_cost[stale] = delta[stale, best[stale]]
        better = active & (row < best_cost)
        best[better] = a
        best_cost[better] = row[better]
    return out


def pathbased_cluster(X: np.ndarray, ks, rng: np.random.Generator | None = None) -> dict:
    """Path-Based Clustering (Fischer, Zöller, Buhmann 2001): the pairwise clustering cost
    on effective dissimilarities (:func:`effective_dissimilarity`), optimised by the
    agglomerative heuristic (:func:`agglomerate`) for all k at once. Deterministic (``rng``
    is accepted for the common signature and not used)."""
    return agglomerate(effective_dissimilarity(X), ks)


def effective_to_training(X_train: np.ndarray, X_test: np.ndarray) -> np.ndarray:
    """D^eff(o, j) = min over training objects i of max(‖x_o − x_i‖, D^eff_ij): the
    effective dissimilarity from a new object o to each training object j along paths
    that enter the training set once (an (n_test, n_train) matrix).

    D^eff on the training set is the single-linkage ultrametric, so the minimum over i
    is a minimum over the ancestors A of j in the single-linkage tree of
    max(height(A), min_{i ∈ A} ‖x_o − x_i‖): one pass up the tree (the nearest member of
    every subtree) and one pass down (the running minimum), vectorised over o.
    """
    X_train = np.asarray(X_train, dtype=np.float64)
    d = cdist(np.asarray(X_test, dtype=np.float64), X_train)
    n = len(X_train)
    if n == 1:
        return d
    Z = single_linkage(X_train)
    left, right = Z[:, 0].astype(np.intp), Z[:, 1].astype(np.intp)
    height = np.concatenate([np.zeros(n), Z[:, 2]])
    nearest = np.empty((2 * n - 1, len(d)))
    nearest[:n] = d.T
    for t in range(n - 1):
        np.minimum(nearest[left[t]], nearest[right[t]], out=nearest[n + t])
    down = np.empty_like(nearest)
    down[2 * n - 2] = np.maximum(height[2 * n - 2], nearest[2 * n - 2])
    for t in range(n - 2, -1, -1):
        for child in (left[t], right[t]):
            np.minimum(down[n + t], np.maximum(height[child], nearest[child]),
                       out=down[child])
    return down[:n].T.copy()


def pathbased_predict(X_train: np.ndarray, labels: dict, X_test: np.ndarray) -> dict:
    """φ of Path-Based Clustering, a nearest-neighbour-type rule: each test object o
    joins the training cluster ν whose cost (:func:`pairwise_cost`) increases least,
    (W_ν + 2 Σ_{j∈ν} D^eff(o, j))/(n_ν + 1) − W_ν/n_ν, with the effective dissimilarities
    of :func:`effective_to_training` (o's own term D^eff(o, o) = 0). One dissimilarity
    matrix serves every k."""
    D_train = effective_dissimilarity(X_train)
    D_test = effective_to_training(X_train, X_test)
    out = {}
    for k, lab in labels.items():
        names, inverse = np.unique(np.asarray(lab), return_inverse=True)
        onehot = np.zeros((len(inverse), len(names)))
        onehot[np.arange(len(inverse)), inverse] = 1.0
        size = onehot.sum(axis=0)
        within = np.einsum("it,ij,jt->t", onehot, D_train, onehot)
        increase = merge_cost(within[None, :], size[None, :], 0.0, 1.0, D_test @ onehot)
        out[k] = names[increase.argmin(axis=1)]
    return out


#: clusterer name → (cluster, predict)
CLUSTERERS = {
    "kmeans": (kmeans_cluster, nearest_centroid_predict),
    "pathbased": (pathbased_cluster, pathbased_predict),
}
