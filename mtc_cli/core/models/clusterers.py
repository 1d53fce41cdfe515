"""Clusterers A_k with their natural predictors φ (Lange et al. 2002, Sect. 3): k-means
with the nearest-centroid rule, and Path-Based Clustering (Fischer, Zöller, Buhmann 2001)
with its nearest-neighbour-type rule on effective dissimilarities.

Every clusterer has the signature ``cluster(X, ks, rng) -> {k: labels}``: one call serves
all model orders, so work shared by the orders (one agglomeration for every k) is done
once. Every predictor has the signature ``predict(X_train, {k: labels}, X_test) ->
{k: labels}``, labels of the test objects named as the training clusters.
"""

from __future__ import annotations

import numba
import numpy as np
from scipy.spatial.distance import cdist, squareform

from mtc_cli.core.labels import codes
from mtc_cli.core.mappings import structure
from mtc_cli.core.models.linkage import cophenetic_square, linkage

#: k-means++ computes the whole n × n matrix of squared distances up to this many objects
#: (faster there) and beyond it only the rows of the objects drawn (O(n) memory).
FULL_DISTANCES_MAX = 500
#: k-means++ and Lloyd's iterations treat the restarts in batches whose largest array
#: (restarts × objects × candidates, clusters or features) holds at most this many numbers.
BATCH_ELEMENTS = 2**23


def squared_distances(X: np.ndarray, *, full: bool):
    """``rows(idx)`` → ‖x_i − x_j‖² for every i in ``idx`` (any shape) and every object j,
    as ‖x_i‖² − 2 x_i·x_j + ‖x_j‖² clipped at 0: from the whole n × n matrix (``full``) or
    row by row. The rows are computed in blocks of 16 (padded): BLAS then rounds them bit for
    bit as it rounds the rows of the whole matrix X Xᵀ (its kernels for a last odd row or
    two do not), so both ways give the same k-means++ draws."""
    norms = np.einsum("ij,ij->i", X, X)
    if full:
        sq = np.maximum(norms[:, None] - 2.0 * (X @ X.T) + norms[None, :], 0.0)
        return lambda idx: sq[idx]

    def rows(idx):
        flat = np.ravel(idx)
        block = np.concatenate([flat, np.zeros(-len(flat) % 16, dtype=flat.dtype)])
        gram = (X[block] @ X.T)[:len(flat)]
        sq = np.maximum(norms[flat][:, None] - 2.0 * gram + norms[None, :], 0.0)
        return sq.reshape(*np.shape(idx), len(X))
    return rows


def batches(n_restarts: int, per_restart: int) -> list[slice]:
    """Slices of the restarts, each batch holding at most :data:`BATCH_ELEMENTS` numbers
    (``per_restart`` each) but at least two restarts: numpy's einsum sums the cost of a
    lone restart in another order than within a batch, so a batch of one would change the
    last bits of the costs compared with one batch of all the restarts."""
    size = max(2, BATCH_ELEMENTS // max(per_restart, 1))
    starts = list(range(0, n_restarts, size))
    if len(starts) > 1 and n_restarts - starts[-1] == 1:
        starts.pop()
    return [slice(lo, hi) for lo, hi in zip(starts, [*starts[1:], n_restarts], strict=True)]


def kmeans_plusplus(X: np.ndarray, k: int, n_init: int, rng: np.random.Generator) -> np.ndarray:
    """Greedy k-means++ seeding (Arthur & Vassilvitskii 2007; the greedy variant of
    scikit-learn) of ``n_init`` independent restarts: the first centre uniformly; for each
    further centre 2 + ⌊ln k⌋ candidates drawn with probability ∝ the squared distance to
    the nearest centre so far, keeping the candidate that lowers the summed squared
    distances most. Returns (n_init, k, d).

    All random numbers are drawn first (the first centres, then one (n_init, candidates)
    block per further centre), so batching the restarts (:func:`batches`) and computing
    only the distances of the drawn objects (above :data:`FULL_DISTANCES_MAX` objects)
    leave the result unchanged."""
    n = len(X)
    trials = 2 + int(np.log(k))
    first = rng.integers(n, size=n_init)
    draws = [rng.random((n_init, trials)) for _ in range(1, k)]
    rows = squared_distances(X, full=n <= FULL_DISTANCES_MAX)
    chosen = np.empty((n_init, k), dtype=np.intp)
    chosen[:, 0] = first
    for part in batches(n_init, trials * n):
        size = part.stop - part.start
        nearest = rows(first[part])  # (R, n)
        for t in range(1, k):
            cum = np.cumsum(nearest, axis=1)
            u = draws[t - 1][part] * cum[:, -1:]
            pick = np.minimum((cum[:, None, :] < u[:, :, None]).sum(axis=2), n - 1)  # (R, L)
            cand = np.minimum(nearest[:, None, :], rows(pick))
            best = cand.sum(axis=2).argmin(axis=1)
            chosen[part, t] = pick[np.arange(size), best]
            nearest = cand[np.arange(size), best]
    return X[chosen]


def lloyd(X: np.ndarray, k: int, rng: np.random.Generator, *, n_init: int = 20,
          max_iter: int = 100) -> tuple[np.ndarray, np.ndarray, float]:
    """k-means: Lloyd's algorithm from ``n_init`` k-means++ seedings
    (:func:`kmeans_plusplus`), the restarts iterated together in batches of matrix
    products (:func:`batches`: a restart's iterations do not depend on its batch, so the
    memory stays O(n·(k + d)) per batch); the restart of least cost Σ_i ‖x_i − μ_c(i)‖² is
    kept. An empty cluster keeps its previous centre. Returns (labels, centroids, cost).

    The algorithm of scikit-learn's ``KMeans`` (Lloyd, greedy k-means++), batched over
    restarts. Only the Lange et al. (2002) stability experiments use it (through
    :func:`kmeans_cluster`), for two reasons a head-to-head benchmark against ``KMeans``
    measures (``tests/benchmarks/bench_lloyd.py``, ``results/benchmarks/lloyd.csv``):

    - bit-exact reproduction: it recomputes their committed rows byte for byte, which
      ``KMeans`` cannot (it draws its k-means++ centres from numpy's legacy
      ``RandomState``, this from the task's ``Generator`` in another order; with ``KMeans``
      in its place the quick profile's scores and selected k move);
    - speed at the papers' sizes: a task makes about 900 calls on 24–600 objects (mostly
      Clest's learning and test sets of reference data), where the batched restarts beat
      ``KMeans``' per-fit overhead — several times faster over a task's calls, one thread
      each (roughly 3× on the 600-point rings up to 12× on the Golub subsets in the
      committed run), and faster than scikit-learn's kernels called directly
      (:mod:`mtc_cli.core.models.sklearn_kmeans`) too.

    From a couple of thousand objects on ``KMeans``' compiled loops are faster (already at
    2 000 × 10, several times at 20 000 × 10; see the CSV), and the two find lower costs
    about equally often (neither is the better optimiser), so everything else fits
    scikit-learn's ``KMeans`` or :mod:`mtc_cli.core.models.sklearn_kmeans`."""
    X = np.asarray(X, dtype=np.float64)
    n = len(X)
    if not 1 <= k <= n:
        raise ValueError(f"need 1 ≤ k ≤ {n} objects, got k = {k}")
    centres = kmeans_plusplus(X, k, n_init, rng)
    labels = np.empty((n_init, n), dtype=np.intp)
    cost = np.empty(n_init)
    for part in batches(n_init, n * max(k, X.shape[1])):
        labels[part], cost[part] = lloyd_batch(X, centres[part], max_iter)
    best = int(cost.argmin())
    return labels[best].copy(), centres[best], float(cost[best])


def lloyd_batch(X: np.ndarray, centres: np.ndarray, max_iter: int):
    """Lloyd's iterations of a batch of restarts from ``centres`` (R, k, d), updated in
    place, each until no label changes or ``max_iter``. A restart whose labels no longer
    change is at a fixed point (its centres are the means of the same labels again), so it
    leaves the batch: the result is that of iterating all restarts until none changes.
    Returns the labels (R, n) and costs (R,)."""
    n_restarts, k, _ = centres.shape
    norms = np.einsum("ij,ij->i", X, X)
    labels = np.empty((n_restarts, len(X)), dtype=np.intp)
    active = np.arange(n_restarts)
    for it in range(max_iter):
        c = centres[active]
        d = X @ c.transpose(0, 2, 1)  # (A, n, k): ‖x‖² − 2 x·μ + ‖μ‖², in that order
        d *= -2.0
        d += norms[None, :, None]
        d += np.einsum("rkd,rkd->rk", c, c)[:, None, :]
        new = d.argmin(axis=2)
        if it:
            moved = (new != labels[active]).any(axis=1)
            if not moved.any():
                break
            active, new, c = active[moved], new[moved], c[moved]
        labels[active] = new
        onehot = np.eye(k)[new]  # (A, n, k)
        counts = np.bincount((new + k * np.arange(len(new))[:, None]).ravel(),
                             minlength=k * len(new)).reshape(-1, k)
        sums = onehot.transpose(0, 2, 1) @ X
        filled = counts > 0
        c[filled] = sums[filled] / counts[filled][:, None]
        centres[active] = c
    diff = X[None] - np.take_along_axis(centres, labels[:, :, None], axis=1)
    return labels, np.einsum("rnd,rnd->r", diff, diff)


def kmeans_cluster(X: np.ndarray, ks, rng: np.random.Generator, *,
                   n_init: int = 20) -> dict[int, np.ndarray]:
    """k-means (:func:`lloyd`, ``n_init`` k-means++ restarts, the restart of least cost
    kept) for every k in ``ks``; k = 1 is the one-cluster solution. Lange et al. used
    deterministic annealing; many restarts serve the same purpose, a near-global optimum
    of the k-means cost. The k-means of the Lange et al. stability experiments only (and
    of their committed results, which it reproduces bit for bit); why this and not
    scikit-learn's ``KMeans`` there — reproduction and speed at those sizes, measured in
    ``results/benchmarks/lloyd.csv`` — see :func:`lloyd`."""
    out = {}
    for k in ks:
        if k == 1:
            out[k] = np.zeros(len(X), dtype=np.intp)
        else:
            out[k] = lloyd(X, k, rng, n_init=n_init)[0]
    return out


def class_means(X: np.ndarray, labels) -> tuple[np.ndarray, np.ndarray]:
    """The distinct labels and the mean of X over the objects of each (the centroids)."""
    names, inverse = codes(labels)
    counts = np.bincount(inverse)
    sums = np.zeros((len(names), X.shape[1]))
    np.add.at(sums, inverse, X)
    return names, sums / counts[:, None]


def nearest_centroid_predict(X_train: np.ndarray, labels: dict, X_test: np.ndarray) -> dict:
    """φ of k-means: each test object gets the label of the nearest centroid (squared
    Euclidean) of the training clusters (:func:`mtc_cli.core.mappings.structure`)."""
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
        return linkage(squareform(np.asarray(X, dtype=np.float64), checks=False), "single")
    return linkage(np.asarray(X, dtype=np.float64), "single")


def effective_dissimilarity(X: np.ndarray, *, precomputed: bool = False) -> np.ndarray:
    """D^eff_ij = min over paths p from i to j of the largest dissimilarity along p — the
    effective (minimax path) dissimilarity of Fischer, Zöller, Buhmann 2001 (Sect. 2).

    A minimax path between two vertices runs along the minimum spanning tree, so D^eff is
    the height at which i and j join in the single-linkage tree (its cophenetic distance,
    :func:`tree_dissimilarity`). Computed over all objects given; Fischer et al. restrict
    the paths to the objects of one cluster, which gives the same values for every pair
    whose minimax path stays inside its cluster (e.g. clusters that are unions of MST
    components).
    """
    return tree_and_dissimilarity(X, precomputed=precomputed)[1]


def tree_and_dissimilarity(X: np.ndarray, *, precomputed: bool = False):
    """(the single-linkage tree of X, None below 2 objects; its effective dissimilarities
    D^eff, :func:`effective_dissimilarity`): one tree for the fit and the predictor."""
    n = len(X)
    if n < 2:
        return None, np.zeros((n, n))
    tree = single_linkage(X, precomputed=precomputed)
    return tree, tree_dissimilarity(tree)


def tree_dissimilarity(Z: np.ndarray) -> np.ndarray:
    """The cophenetic distances of the merge tree Z (scipy's linkage matrix) as a square
    matrix: the height at which each pair of objects joins."""
    return cophenetic_square(Z)


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
    and about O(n²) time; the merges run compiled (:func:`_merges`).
    """
    D = np.asarray(D, dtype=np.float64)
    n = len(D)
    ks = sorted(set(int(k) for k in ks))
    if not ks or ks[0] < 1 or ks[-1] > n:
        raise ValueError(f"every k must lie in 1..{n}, got {ks}")
    snapshots = _merges(D.copy(), np.array(ks[::-1]))
    return dict(zip(ks[::-1], snapshots, strict=True))


_merge_cost = numba.njit(cache=True, nogil=True)(merge_cost)


@numba.njit(cache=True, nogil=True)
def _first_min(values, alive, live):
    """(the first position of the least of ``values`` at the positions ``alive[:live]``
    (increasing), that value); (0, +∞) if none is finite — ``np.argmin`` of the row with
    +∞ elsewhere."""
    low = np.inf
    at = 0
    for t in range(live):
        v = values[alive[t]]
        if v < low:
            low = v
            at = alive[t]
    return at, low


@numba.njit(cache=True, nogil=True)
def _merges(S, ks_down):
    """The merges of :func:`agglomerate` on S = a copy of D (updated in place) from n
    singletons down to ``ks_down[-1]`` clusters; returns the labels 0..k−1 (clusters
    numbered in the order of their lowest-index member's cluster index, as
    ``np.unique(..., return_inverse=True)`` numbers them) at every k of ``ks_down``
    (decreasing). Element for element the operations of the array expressions it replaced
    (merge costs, argmins: the first minimum), so the same merges. Each merge reads and
    writes the entries of active clusters only (``alive``): those of clusters merged away
    were +∞ in the array expressions' rows, which no minimum picks while an active
    cluster's cost is finite."""
    n = len(S)
    size = np.ones(n)
    within = np.zeros(n)
    delta = np.empty((n, n))
    best = np.empty(n, dtype=np.int64)
    best_cost = np.empty(n)
    for i in range(n):
        for j in range(n):
            delta[i, j] = np.inf if i == j else _merge_cost(0.0, 1.0, 0.0, 1.0, S[i, j])
        best[i] = np.argmin(delta[i])
        best_cost[i] = delta[i, best[i]]
    alive = np.arange(n)  # the active clusters, increasing: the first ``live`` entries
    live = n
    assign = np.arange(n)
    out = np.empty((len(ks_down), n), dtype=np.int64)
    row = np.empty(n)
    rank = np.empty(n, dtype=np.int64)
    recorded = 0
    for m in range(n, ks_down[-1] - 1, -1):
        if m == ks_down[recorded]:
            rank[:] = -1
            for j in range(n):
                rank[assign[j]] = 0
            count = 0
            for c in range(n):
                if rank[c] == 0:
                    rank[c] = count
                    count += 1
            for j in range(n):
                out[recorded, j] = rank[assign[j]]
            recorded += 1
        if m == ks_down[-1]:
            break
        a = np.argmin(best_cost)
        b = best[a]
        within[a] += within[b] + 2.0 * S[a, b]
        size[a] += size[b]
        for j in range(n):
            if assign[j] == b:
                assign[j] = a
        best_cost[b] = np.inf
        t = 0  # b leaves the list of active clusters (increasing)
        while alive[t] != b:
            t += 1
        live -= 1
        alive[t:live] = alive[t + 1:live + 1]
        for t in range(live):
            j = alive[t]
            S[a, j] += S[b, j]
            S[j, a] = S[a, j]
        for t in range(live):
            j = alive[t]
            row[j] = _merge_cost(within[a], size[a], within[j], size[j], S[a, j])
        row[a] = np.inf
        best[a], best_cost[a] = _first_min(row, alive, live)
        for t in range(live):
            j = alive[t]
            delta[a, j] = row[j]
            delta[j, a] = row[j]
        for t in range(live):
            i = alive[t]
            if i != a and (best[i] == a or best[i] == b):
                best[i], best_cost[i] = _first_min(delta[i], alive, live)
        for t in range(live):
            i = alive[t]
            if row[i] < best_cost[i]:
                best[i] = a
                best_cost[i] = row[i]
    return out


def pathbased_cluster(X: np.ndarray, ks, rng: np.random.Generator | None = None) -> dict:
    """Path-Based Clustering (Fischer, Zöller, Buhmann 2001): the pairwise clustering cost
    on effective dissimilarities (:func:`effective_dissimilarity`), optimised by the
    agglomerative heuristic (:func:`agglomerate`) for all k at once. Deterministic (``rng``
    is accepted for the common signature and not used)."""
    return agglomerate(effective_dissimilarity(X), ks)


def pathbased_fit(X: np.ndarray, ks) -> tuple[dict, PathBasedPredictor]:
    """:func:`pathbased_cluster` of X at every k of ``ks`` and the
    :class:`PathBasedPredictor` of those partitions, both from one single-linkage tree and
    one matrix of effective dissimilarities."""
    X = np.asarray(X, dtype=np.float64)
    tree, D = tree_and_dissimilarity(X)
    parts = agglomerate(D, ks)
    return parts, PathBasedPredictor(X, parts, tree=tree, D_train=D)


def effective_to_training(X_train: np.ndarray, X_test: np.ndarray, *,
                          tree: np.ndarray | None = None) -> np.ndarray:
    """D^eff(o, j) = min over training objects i of max(‖x_o − x_i‖, D^eff_ij): the
    effective dissimilarity from a new object o to each training object j along paths
    that enter the training set once (an (n_test, n_train) matrix).

    D^eff on the training set is the single-linkage ultrametric, so the minimum over i
    is a minimum over the ancestors A of j in the single-linkage tree of
    max(height(A), min_{i ∈ A} ‖x_o − x_i‖): one pass up the tree (the nearest member of
    every subtree) and one pass down (the running minimum), compiled
    (:func:`_minimax_walk`). ``tree``: the single-linkage tree of X_train
    (:func:`single_linkage`) if already built.
    """
    X_train = np.asarray(X_train, dtype=np.float64)
    d = cdist(np.asarray(X_test, dtype=np.float64), X_train)
    n = len(X_train)
    if n == 1:
        return d
    Z = single_linkage(X_train) if tree is None else tree
    height = np.concatenate([np.zeros(n), Z[:, 2]])
    return _minimax_walk(d, Z[:, 0].astype(np.intp), Z[:, 1].astype(np.intp), height)


@numba.njit(cache=True, nogil=True)
def _minimax_walk(d, left, right, height):
    """The two passes of :func:`effective_to_training` for each row o of d (distances of
    the new objects to the n training objects), merges t = 0..n−2 of the tree joining
    nodes ``left[t]`` and ``right[t]`` into node n + t at ``height[n + t]`` (leaves at 0):
    nearest[A] = min over A's children, then down[c] = min(down[parent], max(height[c],
    nearest[c])) from the root, written over nearest[c] (read by nothing else). The rows
    go through in tiles of 32, each node holding its values for the tile's rows side by
    side. Minima and maxima only, so exactly the values of the array passes it replaced."""
    m, n = d.shape
    out = np.empty((m, n))
    tile = 32
    node = np.empty((2 * n - 1, tile))
    root = 2 * n - 2
    for r0 in range(0, m, tile):
        rows = min(tile, m - r0)
        for j in range(n):
            for r in range(rows):
                node[j, r] = d[r0 + r, j]
        for t in range(n - 1):
            a, b, up = node[left[t]], node[right[t]], node[n + t]
            for r in range(rows):
                up[r] = min(a[r], b[r])
        top = node[root]
        for r in range(rows):
            top[r] = max(height[root], top[r])
        for t in range(n - 2, -1, -1):
            parent = node[n + t]
            for child in (left[t], right[t]):
                h, c = height[child], node[child]
                for r in range(rows):
                    c[r] = min(parent[r], max(h, c[r]))
        for r in range(rows):
            for j in range(n):
                out[r0 + r, j] = node[j, r]
    return out


@numba.njit(cache=True, nogil=True)
def _within_sums(D, inverse, n_clusters):
    """W_ν = Σ_{i,j ∈ ν} D_ij for every cluster ν (``inverse``: each object's cluster
    0..n_clusters−1), added one term at a time in the order of (i, j): the order of
    numpy's ``einsum("it,ij,jt->t", onehot, D, onehot)``, the expression it replaced,
    with two or more clusters (the same sums bit for bit; one cluster takes every object
    whatever its sum), in Σ_ν n_ν² additions instead of n² per cluster."""
    n = len(D)
    within = np.zeros(n_clusters)
    order = np.argsort(inverse, kind="mergesort")
    starts = np.zeros(n_clusters + 1, dtype=np.int64)
    for i in range(n):
        starts[inverse[i] + 1] += 1
    for c in range(n_clusters):
        starts[c + 1] += starts[c]
    for i in range(n):
        c = inverse[i]
        acc = within[c]
        for p in range(starts[c], starts[c + 1]):
            acc += D[i, order[p]]
        within[c] = acc
    return within


class PathBasedPredictor:
    """φ of Path-Based Clustering for the solutions ``labels`` ({k: labels of X_train}),
    a nearest-neighbour-type rule: each new object o joins the training cluster ν whose
    cost (:func:`pairwise_cost`) increases least, (W_ν + 2 Σ_{j∈ν} D^eff(o, j))/(n_ν + 1)
    − W_ν/n_ν (:func:`merge_cost` with a singleton; o's own term D^eff(o, o) = 0), with
    the effective dissimilarities of :func:`effective_to_training`.

    What does not depend on the new objects is computed once: the single-linkage tree of
    X_train, its effective dissimilarities (``tree`` and ``D_train``, given where a fit on
    X_train has them) and, per k, the cluster names, sizes n_ν and within sums W_ν
    (:func:`_within_sums`). Calling it on a block of new objects
    computes only that block's D^eff to the training objects (one matrix for every k)
    and the argmin of the increase."""

    def __init__(self, X_train: np.ndarray, labels: dict, *, tree: np.ndarray | None = None,
                 D_train: np.ndarray | None = None):
        self.X_train = np.asarray(X_train, dtype=np.float64)
        if D_train is None:
            tree, D_train = tree_and_dissimilarity(self.X_train)
        self.tree = tree
        self.terms = {}
        for k, lab in labels.items():
            names, inverse = codes(lab)
            onehot = np.zeros((len(inverse), len(names)))
            onehot[np.arange(len(inverse)), inverse] = 1.0
            within = _within_sums(D_train, inverse.astype(np.int64), len(names))
            self.terms[k] = (names, onehot, onehot.sum(axis=0), within)

    def __call__(self, X_test: np.ndarray) -> dict:
        """{k: the labels of the objects X_test}, named as the training clusters."""
        D_test = effective_to_training(self.X_train, X_test, tree=self.tree)
        out = {}
        for k, (names, onehot, size, within) in self.terms.items():
            increase = merge_cost(within[None, :], size[None, :], 0.0, 1.0, D_test @ onehot)
            out[k] = names[increase.argmin(axis=1)]
        return out


def pathbased_predict(X_train: np.ndarray, labels: dict, X_test: np.ndarray) -> dict:
    """φ of Path-Based Clustering (:class:`PathBasedPredictor`) applied once: the labels
    of X_test under every solution of ``labels``. To label several blocks of new objects,
    build the predictor once and call it on each block."""
    return PathBasedPredictor(X_train, labels)(X_test)


#: clusterer name → (cluster, predict)
CLUSTERERS = {
    "kmeans": (kmeans_cluster, nearest_centroid_predict),
    "pathbased": (pathbased_cluster, pathbased_predict),
}
