"""Clest (Dudoit & Fridlyand 2002, Genome Biology 3(7):research0036): repeated
learning/test splits, a classifier trained on the learning set's clusters predicts the test
set, the agreement with the test set's own clustering (Fowlkes–Mallows index) is compared
with the same statistic on reference data (uniform in the bounding box, as the gap
statistic). Lange et al. 2002 use linear discriminant analysis as the classifier."""

from __future__ import annotations

import warnings
from collections.abc import Callable

import numpy as np
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.metrics import fowlkes_mallows_score

from mtc_cli.criteria.gap_statistic import uniform_box


def fowlkes_mallows(labels_a, labels_b) -> float:
    """FM = T_k / √(P_k Q_k): pairs together in both partitions over the geometric mean of
    the pairs together in each (Fowlkes & Mallows 1983; scikit-learn's
    ``fowlkes_mallows_score``)."""
    return float(fowlkes_mallows_score(np.asarray(labels_a), np.asarray(labels_b)))


def lda_predict(X_train: np.ndarray, labels, X_test: np.ndarray) -> np.ndarray:
    """Linear discriminant analysis (scikit-learn, SVD solver, which copes with more
    features than objects) trained on the learning clusters, applied to the test set."""
    labels = np.asarray(labels)
    if len(np.unique(labels)) < 2:
        return np.full(len(X_test), labels[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return LinearDiscriminantAnalysis().fit(X_train, labels).predict(X_test)


def agreement_statistic(X: np.ndarray, ks, cluster: Callable, rng: np.random.Generator, *,
                        n_splits: int = 20, learn_fraction: float = 2 / 3,
                        predict: Callable = lda_predict) -> np.ndarray:
    """t_k = median over ``n_splits`` random learning/test splits of FM(C(test),
    φ(test)), C the clustering of the test set and φ the classifier trained on the
    learning set's clustering (Dudoit & Fridlyand 2002, steps 1–2). Returns t_k per k."""
    ks = [int(k) for k in ks]
    n = len(X)
    n_learn = int(round(learn_fraction * n))
    if not 2 <= n_learn <= n - 2:
        raise ValueError(f"learn_fraction {learn_fraction} leaves too few objects of {n}")
    s = np.empty((n_splits, len(ks)))
    for b in range(n_splits):
        perm = rng.permutation(n)
        learn, test = X[perm[:n_learn]], X[perm[n_learn:]]
        c_learn, c_test = cluster(learn, ks, rng), cluster(test, ks, rng)
        for j, k in enumerate(ks):
            s[b, j] = fowlkes_mallows(c_test[k], predict(learn, c_learn[k], test))
    return np.median(s, axis=0)


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
