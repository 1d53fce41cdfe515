"""PAC-MDL bounds on the test error of a clustering used as a transductive classifier
(Banerjee & Langford 2004, "An objective evaluation criterion for clustering", KDD).

Cluster all m + n points (train and test together, labels unseen); give every cluster the
majority train label (:func:`transductive_labels`); count the train errors a. With
probability ≥ 1 − δ over the draw of the train and test sets, the number of test errors is
at most ``bmax(m, n, a, δ / 2^|σ|)`` (Theorem 1, after Blum & Langford 2003), where |σ| is
the length in bits of the labelling in a prefix-free description language
(:func:`description_length`: Simple, Init, Cluster, Algo — eqs. 1–4 of the paper).

Every function works on plain arrays, so it applies to a user's own clusterings.
"""

from __future__ import annotations

import numpy as np
from scipy.stats import hypergeom

#: the four description languages of Sect. 3, simplest first
LANGUAGES = ("Simple", "Init", "Cluster", "Algo")
#: relative tolerance of the test Bucket ≥ δ in :func:`bmax_log` (floating-point ties)
LOG_TOLERANCE = 1e-12


def log_bucket(m, n, a, b) -> np.ndarray:
    """Natural log of Bucket(m, n, a, b) (Sect. 2 of Banerjee & Langford 2004):

        Bucket(m, n, a, b) = Σ_{t=b}^{a+b} C(n, t) C(m, a+b−t) / C(m+n, a+b),

    the probability that at least b of a + b balls drawn without replacement from m red
    and n blue balls are blue — equivalently that at most a of them are red. Computed as
    the hypergeometric log-CDF ``hypergeom.logcdf(a, m+n, m, a+b)`` of scipy, which sums
    the probability terms in log space (exact to rounding for the tiny tails used here).
    Broadcasts over its arguments; requires 0 ≤ a ≤ m, 0 ≤ b ≤ n.
    """
    m, n, a, b = np.broadcast_arrays(*(np.asarray(v, dtype=np.int64) for v in (m, n, a, b)))
    if np.any((a < 0) | (a > m) | (b < 0) | (b > n)):
        raise ValueError("Bucket(m, n, a, b) needs 0 ≤ a ≤ m and 0 ≤ b ≤ n")
    return hypergeom.logcdf(a, m + n, m, a + b)


def bmax_log(m, n, a, log_delta) -> np.ndarray:
    """bmax(m, n, a, δ) = max{b : Bucket(m, n, a, b) ≥ δ} (Sect. 2), with δ given as ln δ
    so that δ / 2^|σ| never underflows.

    Bucket is non-increasing in b (one more ball drawn can only add a red one), and
    Bucket(m, n, a, 0) = 1 ≥ δ, so bmax is found by bisection on b ∈ [0, n], vectorized
    over broadcast arrays of (m, n, a, ln δ): about log₂ n calls of :func:`log_bucket`.
    Integer array of the shape of the broadcast arguments. The comparison Bucket ≥ δ
    allows a relative rounding error of 10⁻¹² (``LOG_TOLERANCE``), so that an exact tie
    Bucket = δ (e.g. Bucket(1, 9, 0, 9) = 1/10) counts as it does in exact arithmetic.
    """
    m, n, a, log_delta = np.broadcast_arrays(*(np.asarray(v, dtype=np.int64) for v in (m, n, a)),
                                             np.asarray(log_delta, dtype=float))
    if np.any(log_delta > 0):
        raise ValueError("bmax needs δ ≤ 1")
    shape = m.shape
    m, n, a, log_delta = (v.ravel() for v in (m, n, a, log_delta))
    lo = np.zeros(m.shape, dtype=np.int64)      # Bucket(lo) ≥ δ always holds
    hi = n + 1                                  # Bucket(hi) < δ (hi = n + 1: sentinel)
    while True:
        idx = np.flatnonzero(hi - lo > 1)
        if not len(idx):
            return lo.reshape(shape)
        mid = (lo[idx] + hi[idx]) // 2
        ok = log_bucket(m[idx], n[idx], a[idx], mid) >= log_delta[idx] - LOG_TOLERANCE
        lo[idx] = np.where(ok, mid, lo[idx])
        hi[idx] = np.where(ok, hi[idx], mid)


def bmax(m, n, a, delta) -> np.ndarray:
    """bmax(m, n, a, δ) = max{b : Bucket(m, n, a, b) ≥ δ} (Sect. 2); see :func:`bmax_log`."""
    with np.errstate(divide="ignore"):
        return bmax_log(m, n, a, np.log(np.asarray(delta, dtype=float)))


def description_length(language: str, c, n_labels: int, r: int = 1, s: int = 1):
    """|σ| in bits of the labelling of a clustering with c clusters and ℓ labels, in the
    description languages of Sect. 3 of Banerjee & Langford 2004:

    - ``Simple`` (eq. 1): c log₂ ℓ — one label per cluster;
    - ``Init`` (eq. 2): + log₂ r — which of r random initialisations;
    - ``Cluster`` (eq. 3): + log₂ (c(c−1)) — which number of clusters c ≥ 2;
    - ``Algo`` (eq. 4): + log₂ s — which of s clustering algorithms.
    """
    c = np.asarray(c, dtype=float)
    bits = c * np.log2(n_labels)
    if language == "Simple":
        return bits
    bits = bits + np.log2(r)
    if language == "Init":
        return bits
    if np.any(c < 2):
        raise ValueError("the Cluster and Algo languages need c ≥ 2 clusters")
    bits = bits + np.log2(c * (c - 1))
    if language == "Cluster":
        return bits
    if language == "Algo":
        return bits + np.log2(s)
    raise ValueError(f"unknown description language {language!r} (one of {LANGUAGES})")


def test_error_bound(m, n, train_errors, bits, delta: float = 0.1) -> np.ndarray:
    """The PAC-MDL bound on the test error rate (Theorem 1 of Banerjee & Langford 2004):
    with probability ≥ 1 − δ, test errors / n ≤ bmax(m, n, a, δ 2^−|σ|) / n, with a the
    train errors and |σ| = ``bits`` (:func:`description_length`). Broadcasts."""
    log_delta = np.log(delta) - np.asarray(bits, dtype=float) * np.log(2.0)
    return bmax_log(m, n, train_errors, log_delta) / np.asarray(n, dtype=float)


def transductive_labels(clusters, train_idx, train_labels, n_labels: int,
                        rng: np.random.Generator, n_clusters: int | None = None) -> np.ndarray:
    """The label of every cluster when a clustering of all m + n points is turned into a
    transductive classifier (Sect. 3 of Banerjee & Langford 2004): (i) the most common
    train label of the cluster; (ii) a tie between labels is broken uniformly at random;
    (iii) a cluster without train points gets a uniformly random label. Rule (iii) is rule
    (ii) with all ℓ labels tied at count 0, and is computed that way.

    ``clusters``: cluster index in 0..k−1 of each of the m + n points; ``train_idx``: the
    indices of the train points; ``train_labels``: their labels in 0..ℓ−1. Returns the
    (k,) array of cluster labels; the prediction for point i is ``result[clusters[i]]``.
    """
    clusters = np.asarray(clusters, dtype=np.int64)
    k = int(clusters.max()) + 1 if n_clusters is None else int(n_clusters)
    y = np.asarray(train_labels, dtype=np.int64)
    if len(y) and (y.min() < 0 or y.max() >= n_labels):
        raise ValueError(f"train labels must lie in 0..{n_labels - 1}")
    counts = np.bincount(clusters[train_idx] * n_labels + y,
                         minlength=k * n_labels).reshape(k, n_labels)
    tied = counts == counts.max(axis=1, keepdims=True)
    return np.argmax(np.where(tied, rng.random((k, n_labels)), -1.0), axis=1)
