"""Agglomerative merge trees computed without holding Python's GIL: the linkage matrix of
single, complete, average and Ward linkage, the same matrix as scipy's ``linkage``.

scipy computes these trees in compiled code that holds the GIL, so ``mtc select``'s tasks,
run on threads, wait for one another there. Here the same algorithms run compiled with the
GIL released (numba, ``nogil``):

- single linkage: Prim's minimum spanning tree from object 0 (each step the first nearest
  object not yet in the tree, ties to the lowest index), its edges sorted by weight;
- complete, average and Ward linkage: the nearest-neighbour chain of Müllner (2011,
  "Modern hierarchical, agglomerative clustering algorithms", arXiv:1109.2378, Fig. 4 and
  the Lance–Williams updates of Fig. 2) — the chain starts at the first active cluster, a
  link prefers the chain's previous element among equally near ones, then the lowest
  index; the merged cluster takes the larger index —, the merges sorted by height.

Then both label the clusters in Müllner's format (row i joins clusters Z[i, 0] < Z[i, 1]
into cluster n + i, Z[i, 3] its size) with a union–find. These are scipy's conventions, and
each distance update performs the same floating-point operations in the same order, so the
trees are scipy's bit for bit (``tests/core/test_linkage.py`` compares them, ties
included). HDBSCAN's mutual-reachability distances, the input of its single-linkage tree
(:func:`mutual_reachability`), are computed compiled too.
"""

from __future__ import annotations

import math

import numba
import numpy as np
from scipy.spatial.distance import pdist

#: the linkages computed here
METHODS = ("single", "complete", "average", "ward")


def linkage(y: np.ndarray, method: str) -> np.ndarray:
    """The linkage matrix Z ((n − 1) × 4) of ``method`` (:data:`METHODS`) on ``y``: a
    condensed distance matrix (scipy's ``pdist`` order) or n observations as rows (their
    Euclidean distances). The same matrix as ``scipy.cluster.hierarchy.linkage(y,
    method)``."""
    if method not in METHODS:
        raise ValueError(f"unknown linkage {method!r}: one of {', '.join(METHODS)}")
    y = np.asarray(y, dtype=np.float64)
    if y.ndim == 2:
        y = pdist(y)
    elif y.ndim != 1:
        raise ValueError(f"y must be a condensed distance matrix or observations, got "
                         f"{y.ndim} dimensions")
    n = int(round((1 + math.sqrt(1 + 8 * len(y))) / 2))
    if n * (n - 1) // 2 != len(y) or n < 2:
        raise ValueError(f"{len(y)} distances are no condensed matrix of 2 or more objects")
    if not np.isfinite(y).all():
        raise ValueError("the distances must all be finite")
    y = np.ascontiguousarray(y)
    if method == "single":
        return _sorted_and_labelled(_prim(y, n), n)
    return _sorted_and_labelled(_nn_chain(y, n, METHODS.index(method)), n)


@numba.njit(cache=True, nogil=True, inline="always")
def _updated(method, d_xi, d_yi, d_xy, size_x, size_y, size_i):  # pragma: no cover
    """The Lance–Williams distance from cluster i to the union of x and y (Müllner 2011,
    Fig. 2): complete max(d_xi, d_yi); average (|x| d_xi + |y| d_yi)/(|x| + |y|); Ward
    √(((|i|+|x|) d_xi² + (|i|+|y|) d_yi² − |i| d_xy²)/(|x|+|y|+|i|)), each factor
    multiplied in from the left, the division as a product with 1/(|x|+|y|+|i|)."""
    if method == 1:
        return max(d_xi, d_yi)
    if method == 2:
        return (size_x * d_xi + size_y * d_yi) / (size_x + size_y)
    t = 1.0 / (size_x + size_y + size_i)
    return math.sqrt((size_i + size_x) * t * d_xi * d_xi
                     + (size_i + size_y) * t * d_yi * d_yi
                     - size_i * t * d_xy * d_xy)


@numba.njit(cache=True, nogil=True)
def _square(y, n):  # pragma: no cover - compiled
    """The condensed matrix y of n objects as a full symmetric n × n matrix (rows are
    contiguous: the scans below read rows): the upper triangle row by row, the lower one
    mirrored in tiles."""
    D = np.zeros((n, n))
    p = 0
    for i in range(n):
        for j in range(i + 1, n):
            D[i, j] = y[p]
            p += 1
    tile = 64
    for bi in range(0, n, tile):
        for bj in range(bi, n, tile):
            for i in range(bi, min(bi + tile, n)):
                for j in range(max(bj, i + 1), min(bj + tile, n)):
                    D[j, i] = D[i, j]
    return D


@numba.njit(cache=True, nogil=True)
def _drop(members, count, v):  # pragma: no cover - compiled
    """Remove v from the increasing ``members[:count]``; the new count."""
    t = np.searchsorted(members[:count], v)
    members[t:count - 1] = members[t + 1:count]
    return count - 1


@numba.njit(cache=True, nogil=True)
def _nn_chain(y, n, method):  # pragma: no cover - compiled
    """The merges (x, y, height, size) of the nearest-neighbour chain, in the order made;
    the scans and updates go over the active clusters (``alive``, increasing) only."""
    D = _square(y, n)
    size = np.ones(n, dtype=np.int64)
    alive = np.arange(n)
    live = n
    chain = np.empty(n, dtype=np.int64)
    Z = np.empty((n - 1, 4))
    length = 0
    for step in range(n - 1):
        if length == 0:
            chain[0] = alive[0]
            length = 1
        while True:
            x = chain[length - 1]
            if length > 1:
                nearest = chain[length - 2]
                low = D[x, nearest]
            else:
                nearest = -1
                low = np.inf
            row = D[x]
            for t in range(live):
                i = alive[t]
                if i != x and row[i] < low:
                    low = row[i]
                    nearest = i
            if length > 1 and nearest == chain[length - 2]:
                break
            chain[length] = nearest
            length += 1
        length -= 2
        a, b = (x, nearest) if x < nearest else (nearest, x)
        na, nb = size[a], size[b]
        Z[step, 0] = a
        Z[step, 1] = b
        Z[step, 2] = low
        Z[step, 3] = na + nb
        size[a] = 0
        size[b] = na + nb
        live = _drop(alive, live, a)
        row_a, row_b = D[a], D[b]
        for t in range(live):
            i = alive[t]
            if i != b:
                d = _updated(method, row_a[i], row_b[i], low, na, nb, size[i])
                row_b[i] = d
                D[i, b] = d
    return Z


@numba.njit(cache=True, nogil=True)
def _prim(y, n):  # pragma: no cover - compiled
    """The edges (x, y, weight) of the minimum spanning tree grown from object 0, in the
    order added: each step the first object outside the tree nearest to it (``outside``,
    increasing)."""
    D = _square(y, n)
    Z = np.empty((n - 1, 4))
    reach = np.full(n, np.inf)
    outside = np.arange(n)
    left = n
    x = 0
    for step in range(n - 1):
        left = _drop(outside, left, x)
        low = np.inf
        nearest = 0
        row = D[x]
        for t in range(left):
            i = outside[t]
            if reach[i] > row[i]:
                reach[i] = row[i]
            if reach[i] < low:
                low = reach[i]
                nearest = i
        Z[step, 0] = x
        Z[step, 1] = nearest
        Z[step, 2] = low
        x = nearest
    return Z


@numba.njit(cache=True, nogil=True)
def _sorted_and_labelled(Z, n):  # pragma: no cover - compiled
    """The merges sorted by height (stable), their clusters named in Müllner's format: a
    union–find over the 2n − 1 clusters, each merge's roots as (smaller, larger) and the
    size of their union."""
    Z = Z[np.argsort(Z[:, 2], kind="mergesort")]
    parent = np.arange(2 * n - 1)
    size = np.ones(2 * n - 1, dtype=np.int64)
    for step in range(n - 1):
        r, q = _root(parent, int(Z[step, 0])), _root(parent, int(Z[step, 1]))
        a, b = min(r, q), max(r, q)
        new = n + step
        parent[a] = new
        parent[b] = new
        size[new] = size[a] + size[b]
        Z[step, 0] = a
        Z[step, 1] = b
        Z[step, 3] = size[new]
    return Z


@numba.njit(cache=True, nogil=True, inline="always")
def _root(parent, r):  # pragma: no cover - compiled
    """The root of r in the union–find ``parent``, halving the path on the way."""
    while parent[r] != r:
        parent[r] = parent[parent[r]]
        r = parent[r]
    return r


def cophenetic_square(Z: np.ndarray) -> np.ndarray:
    """The n × n matrix of the heights at which each pair of objects joins in the merge
    tree Z (the square form of scipy's ``cophenet(Z)``, the same values)."""
    Z = np.asarray(Z, dtype=np.float64)
    return _cophenetic_square(np.ascontiguousarray(Z), Z.shape[0] + 1)


@numba.njit(cache=True, nogil=True)
def _cophenetic_square(Z, n):  # pragma: no cover - compiled
    """Each merge writes its height for every pair (an object of one side, one of the
    other); each cluster's objects are a linked list (``head``, ``tail``, ``after``)."""
    out = np.zeros((n, n))
    head = np.empty(2 * n - 1, dtype=np.int64)
    tail = np.empty(2 * n - 1, dtype=np.int64)
    after = np.full(n, -1)
    head[:n] = np.arange(n)
    tail[:n] = np.arange(n)
    for step in range(n - 1):
        a, b = int(Z[step, 0]), int(Z[step, 1])
        h = Z[step, 2]
        i = head[a]
        while i != -1:
            j = head[b]
            while j != -1:
                out[i, j] = h
                out[j, i] = h
                j = after[j]
            i = after[i]
        after[tail[a]] = head[b]
        head[n + step] = head[a]
        tail[n + step] = tail[b]
    return out


def mutual_reachability(X: np.ndarray, min_samples: int) -> np.ndarray:
    """The condensed matrix (scipy's ``pdist`` order) of d_mr(a, b) = max(core(a),
    core(b), ‖a − b‖), core(x) the Euclidean distance of x to its ``min_samples``-th nearest
    object, x itself the first (scikit-learn's ``HDBSCAN`` counts so; at most n objects)."""
    X = np.asarray(X, dtype=np.float64)
    n = len(X)
    d = pdist(X)
    return _mutual_reachability(d, n, min(max(int(min_samples), 1), n))


@numba.njit(cache=True, nogil=True)
def _mutual_reachability(d, n, m):  # pragma: no cover - compiled
    """d_mr from the condensed distances d: each object's m smallest distances (itself at
    0 first) kept in order while the pairs go by once, then max(d, max(core(a), core(b)))
    pair by pair — order statistics, minima and maxima: exactly the values of a partition
    of the square matrix and its maxima."""
    smallest = np.full((n, m), np.inf)
    smallest[:, 0] = 0.0
    p = 0
    for i in range(n):
        for j in range(i + 1, n):
            v = d[p]
            p += 1
            for o in (i, j):
                keep = smallest[o]
                if v < keep[m - 1]:
                    t = m - 1
                    while t > 0 and keep[t - 1] > v:
                        keep[t] = keep[t - 1]
                        t -= 1
                    keep[t] = v
    core = smallest[:, m - 1].copy()
    out = np.empty_like(d)
    p = 0
    for i in range(n):
        for j in range(i + 1, n):
            out[p] = max(d[p], max(core[i], core[j]))
            p += 1
    return out
