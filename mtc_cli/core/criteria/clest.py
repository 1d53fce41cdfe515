"""Clest (Dudoit & Fridlyand 2002, Genome Biology 3(7):research0036): repeated
learning/test splits, a classifier trained on the learning set's clusters predicts the test
set, the agreement with the test set's own clustering (Fowlkes–Mallows index) is compared
with the same statistic on reference data (uniform in the bounding box, as the gap
statistic). Lange et al. 2002 use linear discriminant analysis as the classifier."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import scipy.linalg

from mtc_cli.core.criteria.gap_statistic import uniform_box
from mtc_cli.core.labels import codes

#: scikit-learn's LinearDiscriminantAnalysis tolerance: singular values above it (and, for
#: the centres, above it times the largest) span the discriminant space
TOL = 1e-4


def fowlkes_mallows(labels_a, labels_b) -> float:
    """FM = T_k / √(P_k Q_k) (Fowlkes & Mallows 1983): T_k = Σ_ij n_ij² − n the ordered pairs
    together in both partitions, P_k = Σ_j n_·j² − n and Q_k = Σ_i n_i·² − n those together
    in each (n_ij the contingency table of ``labels_a`` × ``labels_b``); evaluated as
    scikit-learn's ``fowlkes_mallows_score`` does, √(T/P)·√(T/Q) and 0 when T = 0, from a
    table counted with ``np.bincount`` (the counts are integers: the same value, without the
    per-call checks and sparse matrix that took most of Clest's time on small data)."""
    a, b = codes(labels_a)[1], codes(labels_b)[1]
    if len(a) != len(b):
        raise ValueError(f"labels of {len(a)} and {len(b)} objects")
    n = np.int64(len(a))
    cells = np.bincount(a * (int(b.max()) + 1) + b).astype(np.int64)
    tk = np.dot(cells, cells) - n
    pk = np.sum(np.bincount(b).astype(np.int64) ** 2) - n
    qk = np.sum(np.bincount(a).astype(np.int64) ** 2) - n
    return float(np.sqrt(tk / pk) * np.sqrt(tk / qk)) if tk != 0.0 else 0.0


def lda_predict(X_train, labels, X_test) -> np.ndarray:
    """Linear discriminant analysis trained on the learning clusters, applied to the test
    set: scikit-learn's ``LinearDiscriminantAnalysis()`` (SVD solver, which copes with more
    features than objects; priors the class frequencies; tol 1e-4) ``.fit(X_train,
    labels).predict(X_test)``, operation for operation — the same arrays, so the same
    labels — without its per-call validation, which took most of Clest's time on small data
    (a test holds the two equal on random cases). With one cluster, that label."""
    labels = np.asarray(labels)
    classes, y = np.unique(labels, return_inverse=True)
    y = y.ravel()
    if len(classes) < 2:
        return np.full(len(X_test), labels[0])
    X = np.asarray(X_train, dtype=np.float64)
    n, k = X.shape[0], len(classes)
    if n == k:
        raise ValueError("The number of samples must be more than the number of classes.")
    counts = np.bincount(y)
    priors = counts.astype(np.float64) / float(n)
    means = np.zeros((k, X.shape[1]))
    np.add.at(means, y, X)
    means /= counts[:, None]
    # within-class scaling: the centred data in the order of the classes
    Xc = np.concatenate([X[labels == g] - means[i, :] for i, g in enumerate(classes)], axis=0)
    xbar = priors @ means
    std = np.std(Xc, axis=0)
    std[std == 0] = 1.0
    _, S, Vt = scipy.linalg.svd(np.sqrt(np.asarray(1.0 / n)) * (Xc / std),
                                full_matrices=False)
    rank = np.sum((S > TOL).astype(np.int32))
    if rank == 0:  # scikit-learn fails on an empty discriminant space with an IndexError
        raise ValueError("every learning cluster is a single repeated point: linear "
                         "discriminant analysis has no within-cluster variance to scale by")
    scalings = (Vt[:rank, :] / std).T / S[:rank]
    # between-class scaling: the weighted centres in the within-scaled space
    centres = ((np.sqrt((n * priors) * (1.0 / (k - 1)))) * (means - xbar).T).T @ scalings
    _, S, Vt = scipy.linalg.svd(centres, full_matrices=False)
    rank = np.sum((S > TOL * S[0]).astype(np.int32))
    scalings = scalings @ Vt.T[:, :rank]
    coef = (means - xbar) @ scalings
    intercept = -0.5 * np.sum(coef**2, axis=1) + np.log(priors)
    coef = coef @ scalings.T
    intercept -= xbar @ coef.T
    T = np.asarray(X_test, dtype=np.float64)
    if k == 2:
        scores = T @ (coef[1, :] - coef[0, :]).reshape(1, -1).T \
            + np.reshape(intercept[1] - intercept[0], (1,))
        return classes[(scores.reshape(-1) > 0).astype(np.intp)]
    return classes[np.argmax(T @ coef.T + intercept, axis=1)]


def agreement_statistic(X: np.ndarray, ks, cluster: Callable, rng: np.random.Generator, *,
                        n_splits: int = 20, learn_fraction: float = 2 / 3,
                        predict: Callable = lda_predict) -> np.ndarray:
    """t_k = median over ``n_splits`` random learning/test splits of FM(C(test),
    φ(test)), C the clustering of the test set and φ the classifier trained on the
    learning set's clustering (Dudoit & Fridlyand 2002, steps 1–2). Returns t_k per k, NaN
    where k is beyond :func:`largest_k` of the splits."""
    ks = [int(k) for k in ks]
    n = len(X)
    n_learn = int(round(learn_fraction * n))
    if not 2 <= n_learn <= n - 2:
        raise ValueError(f"a learning/test split of {n} objects leaves fewer than 2 in one "
                         "of its sets")
    fit = [k for k in ks if k <= largest_k(n, learn_fraction)]
    s = np.full((n_splits, len(ks)), np.nan)
    for b in range(n_splits):
        perm = rng.permutation(n)
        learn, test = X[perm[:n_learn]], X[perm[n_learn:]]
        if not fit:
            continue
        c_learn, c_test = cluster(learn, fit, rng), cluster(test, fit, rng)
        for j, k in enumerate(ks):
            if k in c_test:
                s[b, j] = fowlkes_mallows(c_test[k], predict(learn, c_learn[k], test))
    return np.median(s, axis=0)


def largest_k(n: int, learn_fraction: float = 2 / 3) -> int:
    """The largest k a learning/test split of n objects can be clustered into: the test set
    must hold k objects, and the LDA needs more learning objects than clusters."""
    n_learn = int(round(learn_fraction * n))
    return min(n - n_learn, n_learn - 1)


def select(ks, d, p, *, p_max: float = 0.05, d_min: float = 0.05) -> int:
    """k̂ = argmax d_k over K⁻ = {k : p_k ≤ p_max and d_k ≥ d_min}, and 1 if K⁻ is empty
    (Dudoit & Fridlyand 2002, step 4)."""
    ks = np.asarray(ks)
    d, p = np.asarray(d), np.asarray(p)
    ok = (p <= p_max) & (d >= d_min)
    return int(ks[ok][d[ok].argmax()]) if ok.any() else 1


def clest(X: np.ndarray, ks, cluster: Callable, rng: np.random.Generator, *,
          n_splits: int = 20, n_references: int = 20, learn_fraction: float = 2 / 3,
          p_max: float = 0.05, d_min: float = 0.05) -> dict:
    """Clest for k in ``ks`` (k ≥ 2): t_k on the data (:func:`agreement_statistic`),
    t⁰_kb on ``n_references`` reference sets (:func:`uniform_box`); d_k = t_k − mean_b t⁰_kb
    and p_k = the fraction of t⁰_kb ≥ t_k (Dudoit & Fridlyand 2002, step 3). Returns
    arrays ``t``, ``t0``, ``d``, ``p`` and the selected k (:func:`select`)."""
    ks = [int(k) for k in ks]
    if min(ks) < 2:
        raise ValueError(f"Clest needs k ≥ 2, got {ks}")
    kw = {"n_splits": n_splits, "learn_fraction": learn_fraction}
    t = agreement_statistic(X, ks, cluster, rng, **kw)
    t0 = np.array([agreement_statistic(uniform_box(X, rng), ks, cluster, rng, **kw)
                   for _ in range(n_references)])
    d = t - t0.mean(axis=0)
    p = (t0 >= t).mean(axis=0)
    return {"t": t, "t0": t0.mean(axis=0), "d": d, "p": p,
            "selected": select(ks, d, p, p_max=p_max, d_min=d_min)}
