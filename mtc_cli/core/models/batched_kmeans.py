"""k-means for every k and every restart of one data set in one compiled call: greedy
k-means++ seeding (Arthur & Vassilvitskii 2007) and Lloyd's iterations (Lloyd 1982) as
scikit-learn's ``KMeans(n_clusters=k, n_init=n_init)`` runs them, the restart of least
inertia kept per k.

Why: ``mtc select`` makes about 1 500 fits of 300–1 000 points; there a fit's time through
scikit-learn (even through :mod:`.sklearn_kmeans`, its kernels called directly) is mostly
what each call costs in Python, not the arithmetic. Here one call of :func:`fit_all` makes
all the fits of a data set.

What it computes, step by step scikit-learn's (``_kmeans_plusplus``, ``_kmeans_single_lloyd``,
``lloyd_iter_chunked_dense``, ``_relocate_empty_clusters_dense``; version 1.9):

* seeding: the first centre a uniformly drawn point; each next one the best (least
  potential Σᵢ minⱼ ‖xᵢ − cⱼ‖², the first on ties) of 2 + ⌊ln k⌋ candidates drawn with
  probability ∝ the squared distance to the nearest centre so far;
* Lloyd's iterations until the labels do not change, or the summed squared centre shift is
  ≤ tol = 1e-4 × the mean of the feature variances, or ``MAX_ITER``; then, unless the
  labels repeated, the labels of the final centres;
* a cluster left empty by an iteration takes the point farthest from its centre (the
  empty clusters in increasing order, the points in decreasing distance, ties: the first),
  which leaves its own cluster's sums but keeps its label until the next iteration; none
  is moved if every point sits on its centre (k above the number of distinct points); a
  cluster still empty is placed on the centre of the largest (scikit-learn's fallback);
* per k, the restart of least inertia Σᵢ ‖xᵢ − c_label(i)‖² (ties: the first).

It differs from scikit-learn in rounding only (and, when several clusters are empty at once,
in which far point goes to which): the squared distances are the sums of the squared
differences feature by feature, in order (not ‖x‖² − 2x·c + ‖c‖² by BLAS, and the data are
not centred first), the centres are the sums divided by the counts. Nothing is
reordered (no ``parallel``, no ``fastmath``), so the results are the same bits on every run
and CPU. Memory O(n·d + k·d) per fit (with a transposed copy of X, for the vectorized
distances), never an n × n matrix.

The draws: every random number is drawn before the compiled call, from the given
``numpy.random.Generator``: for each k of ``ks`` in increasing order (k = 1 draws nothing:
its centre is the mean), ``rng.random((n_init, 1 + (k − 1) · T))`` with T = 2 + ⌊ln k⌋;
row r is restart r: its entry 0 picks the first centre (point ⌊u·n⌋), entry 1 + (c − 1)·T + t
the t-th candidate for centre c (the first point whose running sum of squared distances
exceeds u × their total). So a result depends on X, ks, n_init and the generator's state
only, whatever else runs.

Where scikit-learn takes over: see :data:`SKLEARN_ABOVE`.
"""

from __future__ import annotations

import warnings

import numba
import numpy as np

__all__ = ["MAX_ITER", "SKLEARN_ABOVE", "TOL", "fit", "fit_all"]

#: KMeans' defaults: at most 300 iterations, tolerance 1e-4 × the mean feature variance
MAX_ITER, TOL = 300, 1e-4

#: n·d (points × features) above which to call scikit-learn instead: in
#: results/benchmarks/batched_kmeans.csv (k = 1..12 × 3 restarts, one thread) this is faster
#: than :func:`.sklearn_kmeans.fit` over k in every row below 10⁶ (≥ 2× up to 5·10⁴, 1.3× at
#: 20 000 × 20, 1.1–1.2× at 5·10⁵), and from 10⁶ to 2·10⁶ within 10 % of it either way
SKLEARN_ABOVE = 1_000_000

#: points per block of the assignment step (their distances to a centre held at once)
BLOCK = 256


def trials(k: int) -> int:
    """Candidates per centre of greedy k-means++: 2 + ⌊ln k⌋ (scikit-learn's default)."""
    return 2 + int(np.log(k))


def fit_all(X, ks, n_init: int, rng: np.random.Generator
            ) -> dict[int, tuple[np.ndarray, np.ndarray, float]]:
    """The best of ``n_init`` restarts of k-means for every k of ``ks`` (1 ≤ k ≤ n): {k:
    (centres (k, d), labels (n,) intp in 0..k−1, inertia)}, in increasing k. Warns
    (``ConvergenceWarning``, as ``KMeans``) when fewer than k clusters are found."""
    X = np.ascontiguousarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[0] == 0 or X.shape[1] == 0:
        raise ValueError(f"X must be a non-empty (n, d) matrix, got shape {X.shape}")
    if not np.isfinite(X).all():
        raise ValueError("X holds NaN or infinite values")
    n = len(X)
    ks = sorted({int(k) for k in ks})
    if not ks or ks[0] < 1 or ks[-1] > n:
        raise ValueError(f"every k must lie in 1..{n}, got {ks}")
    if n_init < 1:
        raise ValueError(f"n_init must be ≥ 1, got {n_init}")
    tol = float(np.mean(np.var(X, axis=0))) * TOL
    n_trials = np.array([trials(k) for k in ks], dtype=np.int64)
    draws = [rng.random((n_init, 1 + (k - 1) * t)) if k > 1 else np.empty((n_init, 0))
             for k, t in zip(ks, n_trials, strict=True)]
    offsets = np.cumsum([0] + [u.size for u in draws]).astype(np.int64)
    uniforms = np.concatenate([u.ravel() for u in draws])
    centres, labels, inertia = _fit_all(X, np.ascontiguousarray(X.T), np.array(ks), n_trials,
                                        n_init, uniforms, offsets, tol, MAX_ITER)
    out = {}
    for i, k in enumerate(ks):
        found = len(np.unique(labels[i]))
        if found < k:
            from sklearn.exceptions import ConvergenceWarning  # scikit-learn only here

            warnings.warn(f"Number of distinct clusters ({found}) found smaller than "
                          f"n_clusters ({k}). Possibly due to duplicate points in X.",
                          ConvergenceWarning, stacklevel=2)
        out[k] = (centres[i, :k].copy(), labels[i].copy(), float(inertia[i]))
    return out


def fit(X, k: int, n_init: int, rng: np.random.Generator
        ) -> tuple[np.ndarray, np.ndarray, float]:
    """:func:`fit_all` for one k: (centres (k, d), labels (n,) intp, inertia)."""
    return fit_all(X, [k], n_init, rng)[int(k)]


@numba.njit(cache=True, nogil=True)
def _sq(X, i, C, j):
    """‖X[i] − C[j]‖², the squared differences added feature by feature."""
    s = 0.0
    for f in range(X.shape[1]):
        t = X[i, f] - C[j, f]
        s += t * t
    return s


@numba.njit(cache=True, nogil=True)
def _to_point(XT, s, e, c, out):
    """out[i − s] = ‖x_i − c‖² for the points s ≤ i < e, each sum feature by feature in
    order; from XT = Xᵀ, so that the inner loop runs over the points (vectorized). The
    first d mod 4 features start the sums, the others follow four per pass."""
    d, m = XT.shape[0], e - s
    f = d % 4
    if f == 0:
        for i in range(m):
            out[i] = 0.0
    elif f == 1:
        x0, c0 = XT[0, s:e], c[0]
        for i in range(m):
            t0 = x0[i] - c0
            out[i] = t0 * t0
    elif f == 2:
        x0, x1, c0, c1 = XT[0, s:e], XT[1, s:e], c[0], c[1]
        for i in range(m):
            t0, t1 = x0[i] - c0, x1[i] - c1
            out[i] = t0 * t0 + t1 * t1
    else:
        x0, x1, x2, c0, c1, c2 = XT[0, s:e], XT[1, s:e], XT[2, s:e], c[0], c[1], c[2]
        for i in range(m):
            t0, t1, t2 = x0[i] - c0, x1[i] - c1, x2[i] - c2
            out[i] = (t0 * t0 + t1 * t1) + t2 * t2
    while f < d:
        x0, x1, x2, x3 = XT[f, s:e], XT[f + 1, s:e], XT[f + 2, s:e], XT[f + 3, s:e]
        c0, c1, c2, c3 = c[f], c[f + 1], c[f + 2], c[f + 3]
        for i in range(m):
            t0, t1, t2, t3 = x0[i] - c0, x1[i] - c1, x2[i] - c2, x3[i] - c3
            out[i] = (((out[i] + t0 * t0) + t1 * t1) + t2 * t2) + t3 * t3
        f += 4


@numba.njit(cache=True, nogil=True)
def _seed(X, XT, k, n_trials, u, centres, closest, cum, cand, cand_idx):
    """Greedy k-means++: the first k rows of ``centres`` from the uniforms ``u``."""
    n, d = X.shape
    first = min(int(u[0] * n), n - 1)
    centres[0] = X[first]
    _to_point(XT, 0, n, centres[0], closest)
    for c in range(1, k):
        total = 0.0
        for i in range(n):
            total += closest[i]
            cum[i] = total
        best, best_pot = 0, np.inf
        for t in range(n_trials):
            draw = u[1 + (c - 1) * n_trials + t]
            if total > 0.0:
                value = draw * total
                lo, hi = 0, n  # the first i with cum[i] > value
                while lo < hi:
                    mid = (lo + hi) // 2
                    if cum[mid] > value:
                        hi = mid
                    else:
                        lo = mid + 1
                if lo == n:  # rounding: the last point off the centres
                    lo = n - 1
                    while closest[lo] == 0.0:
                        lo -= 1
            else:  # every point on a centre: D² sampling is undefined, draw uniformly
                lo = min(int(draw * n), n - 1)
            cand_idx[t] = lo
            row = cand[t]
            _to_point(XT, 0, n, X[lo], row)
            pot = 0.0
            for i in range(n):
                row[i] = min(closest[i], row[i])
                pot += row[i]
            if pot < best_pot:
                best, best_pot = t, pot
        closest[:] = cand[best]
        centres[c] = X[cand_idx[best]]


@numba.njit(cache=True, nogil=True)
def _assign(XT, k, centres, labels, nearest, row, block_d, block_l):
    """Label every point with its nearest centre (the first on ties), ``nearest`` its
    squared distance; by blocks of ``BLOCK`` points. Returns whether any label changed."""
    n = XT.shape[1]
    changed = False
    for s in range(0, n, BLOCK):
        e = min(s + BLOCK, n)
        m = e - s
        _to_point(XT, s, e, centres[0], block_d)
        block_l[:m] = 0
        for j in range(1, k):
            _to_point(XT, s, e, centres[j], row)
            for i in range(m):
                if row[i] < block_d[i]:
                    block_d[i] = row[i]
                    block_l[i] = j
        for i in range(m):
            nearest[s + i] = block_d[i]
            if labels[s + i] != block_l[i]:
                labels[s + i] = block_l[i]
                changed = True
    return changed


@numba.njit(cache=True, nogil=True)
def _update(X, k, centres, new, counts, labels, nearest):
    """The means of the clusters into ``new`` (empty ones relocated, see the module's
    docstring); returns the summed squared shift Σⱼ ‖newⱼ − centresⱼ‖²."""
    n, d = X.shape
    for j in range(k):
        counts[j] = 0.0
        for f in range(d):
            new[j, f] = 0.0
    for i in range(n):
        j = labels[i]
        counts[j] += 1.0
        for f in range(d):
            new[j, f] += X[i, f]
    empty = 0
    for j in range(k):
        if counts[j] == 0.0:
            empty += 1
    if empty > 0 and nearest.max() > 0.0:
        for j in range(k):
            if counts[j] != 0.0:
                continue
            far = 0  # the farthest point from its centre not yet moved (the first on ties)
            for i in range(1, n):
                if nearest[i] > nearest[far]:
                    far = i
            nearest[far] = -1.0
            old = labels[far]
            for f in range(d):
                new[old, f] -= X[far, f]
                new[j, f] = X[far, f]
            counts[j] = 1.0
            counts[old] -= 1.0
    largest = 0
    for j in range(1, k):
        if counts[j] > counts[largest]:
            largest = j
    for f in range(d):
        new[largest, f] /= counts[largest]
    for j in range(k):
        if j == largest:
            continue
        for f in range(d):
            new[j, f] = new[j, f] / counts[j] if counts[j] > 0.0 else new[largest, f]
    shift = 0.0
    for j in range(k):
        shift += _sq(new, j, centres, j)
    return shift


@numba.njit(cache=True, nogil=True)
def _lloyd(X, XT, k, centres, new, counts, labels, nearest, blocks, block_l, tol, max_iter):
    """Lloyd's iterations from the first k rows of ``centres``; returns the array holding
    the final centres and the inertia, ``labels`` filled. ``blocks``, ``block_l``: scratch
    of (2, BLOCK) and (BLOCK,)."""
    labels[:] = -1
    strict = False
    for _ in range(max_iter):
        changed = _assign(XT, k, centres, labels, nearest, blocks[0], blocks[1], block_l)
        shift = _update(X, k, centres, new, counts, labels, nearest)
        centres, new = new, centres
        if not changed:
            strict = True
            break
        if shift <= tol:
            break
    if not strict:
        _assign(XT, k, centres, labels, nearest, blocks[0], blocks[1], block_l)
    inertia = 0.0
    for i in range(X.shape[0]):
        inertia += _sq(X, i, centres, labels[i])
    return centres, inertia


@numba.njit(cache=True, nogil=True)
def _fit_all(X, XT, ks, n_trials, n_init, uniforms, offsets, tol, max_iter):
    """Every k of ``ks`` (increasing) × ``n_init`` restarts; returns centres (len(ks),
    max k, d), labels (len(ks), n) and inertias (len(ks),) of each k's best restart."""
    n, d = X.shape
    kmax = ks.max()
    out_centres = np.zeros((len(ks), kmax, d))
    out_labels = np.zeros((len(ks), n), dtype=np.intp)
    out_inertia = np.empty(len(ks))
    a, b = np.empty((kmax, d)), np.empty((kmax, d))
    counts = np.empty(kmax)
    labels = np.empty(n, dtype=np.intp)
    nearest, closest, cum = np.empty(n), np.empty(n), np.empty(n)
    cand = np.empty((n_trials.max(), n))
    cand_idx = np.empty(n_trials.max(), dtype=np.intp)
    blocks, block_l = np.empty((2, BLOCK)), np.empty(BLOCK, dtype=np.intp)
    for m in range(len(ks)):
        k = ks[m]
        if k == 1:
            for i in range(n):
                for f in range(d):
                    out_centres[m, 0, f] += X[i, f]
            for f in range(d):
                out_centres[m, 0, f] /= n
            inertia = 0.0
            for i in range(n):
                inertia += _sq(X, i, out_centres[m], 0)
            out_inertia[m] = inertia
            continue
        width = 1 + (k - 1) * n_trials[m]
        best = np.inf
        for r in range(n_init):
            u = uniforms[offsets[m] + r * width: offsets[m] + (r + 1) * width]
            _seed(X, XT, k, n_trials[m], u, a, closest, cum, cand, cand_idx)
            final, inertia = _lloyd(X, XT, k, a, b, counts, labels, nearest, blocks, block_l,
                                    tol, max_iter)
            if inertia < best:
                best = inertia
                out_inertia[m] = inertia
                out_labels[m] = labels
                out_centres[m, :k] = final[:k]
    return out_centres, out_labels, out_inertia
