"""Lange et al.'s resampling estimate of the stability, for one model order or all at once.

Every resample (:func:`resample`) splits the objects into halves, clusters both and
predicts the second half from the first; its terms, the disagreement and the
random-labelling baseline, are those of :mod:`mtc_cli.core.criteria.stability`
(:func:`~mtc_cli.core.criteria.stability.disagreement_and_baseline`).

:func:`instability` estimates one k and draws each resample's baseline right after its
split. :func:`instability_curve` splits the objects once per resample for all k, with one
call of the clusterer per half returning the partitions of all k (one agglomeration serves
every k for Path-Based Clustering; the split is shared, so the curve over k is compared on
the same halves), and draws the baselines after all resamples. The clusterings of each
resample (:func:`resample_labels`) also serve Tibshirani & Walther's prediction strength.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from mtc_cli.core.criteria import stability


@dataclass(frozen=True)
class Resample:
    """One split into halves X (``train``, indices) and X′ (``test``) with the clusterings
    A_k(X) (``train_labels``) and A_k(X′) (``own``) and the predictions φ(X′)
    (``predicted``), each {k: labels}."""

    train: np.ndarray
    test: np.ndarray
    train_labels: dict
    own: dict
    predicted: dict


def resample(X, ks, cluster: Callable, predict: Callable,
             rng: np.random.Generator) -> Resample:
    """A_k(X′) and φ(X′) for every k of one resample: split the objects into halves X, X′
    (:func:`~mtc_cli.core.criteria.stability.split_halves`), cluster X′, then X, train φ
    on (X, A_k(X)) and predict X′ (Lange et al. 2002, Sect. 3, "Resampling Estimate").

    ``cluster(X_part, ks, rng)`` returns {k: labels of X_part}; ``predict(X_train,
    {k: labels_train}, X_test)`` returns {k: labels of X_test}.
    """
    i1, i2 = stability.split_halves(len(X), rng)
    X1, X2 = X[i1], X[i2]
    own = cluster(X2, ks, rng)
    train = cluster(X1, ks, rng)
    return Resample(i1, i2, train, own, predict(X1, train, X2))


def resample_labels(X, ks, cluster: Callable, predict: Callable, rng: np.random.Generator,
                    n_resamples: int = 20) -> list[Resample]:
    """``n_resamples`` of :func:`resample`, one after the other."""
    ks = [int(k) for k in ks]
    if n_resamples < 1:
        raise ValueError(f"need n_resamples ≥ 1, got {n_resamples}")
    return [resample(X, ks, cluster, predict, rng) for _ in range(n_resamples)]


def instabilities(pairs: list[Resample], ks, rng: np.random.Generator, *,
                  normalisation: str = "uniform",
                  n_draws: int = 20) -> list[stability.Instability]:
    """One :class:`~mtc_cli.core.criteria.stability.Instability` per k ≥ 2 from the labels of
    :func:`resample_labels`, the baselines drawn k by k, resample by resample."""
    ks = [int(k) for k in ks]
    if not ks or min(ks) < 2:
        raise ValueError(f"the instability needs k ≥ 2, got {ks}")
    out = []
    for k in ks:
        terms = [stability.disagreement_and_baseline(r.own[k], r.predicted[k], k, rng,
                                                     normalisation=normalisation,
                                                     n_draws=n_draws)
                 for r in pairs]
        out.append(stability.Instability.of(k, terms))
    return out


def instability_curve(X, ks, cluster: Callable, predict: Callable, rng: np.random.Generator,
                      *, n_resamples: int = 20, normalisation: str = "uniform",
                      n_draws: int = 20) -> list[stability.Instability]:
    """One :class:`~mtc_cli.core.criteria.stability.Instability` per k in ``ks`` (all k ≥ 2):
    :func:`resample_labels` followed by :func:`instabilities`."""
    ks = [int(k) for k in ks]
    if not ks or min(ks) < 2:
        raise ValueError(f"the instability needs k ≥ 2, got {ks}")
    pairs = resample_labels(X, ks, cluster, predict, rng, n_resamples)
    return instabilities(pairs, ks, rng, normalisation=normalisation, n_draws=n_draws)


def instability(X, k: int, cluster: Callable, predict: Callable, rng: np.random.Generator,
                *, n_resamples: int = 20, normalisation: str = "uniform",
                n_draws: int = 20) -> stability.Instability:
    """Lange et al. 2002's resampling estimate of the stability of clusterer + predictor
    for one k: per resample, :func:`resample` and then its terms
    (:func:`~mtc_cli.core.criteria.stability.disagreement_and_baseline`).

    ``X`` is anything indexable by an index array along its first axis (a data matrix;
    for pairwise data pass ``np.arange(n)`` and index the matrix inside the callables).
    ``cluster(X_part, k, rng)`` returns labels of ``X_part``; ``predict(X_train,
    labels_train, X_test)`` returns labels for ``X_test``.
    """
    if n_resamples < 1:
        raise ValueError(f"need n_resamples ≥ 1, got {n_resamples}")

    def cluster_k(part, ks, g):
        return {k: np.asarray(cluster(part, k, g))}

    def predict_k(train, labels, test):
        return {k: np.asarray(predict(train, labels[k], test))}

    terms = []
    for _ in range(n_resamples):
        r = resample(X, [k], cluster_k, predict_k, rng)
        terms.append(stability.disagreement_and_baseline(
            r.own[k], r.predicted[k], k, rng, normalisation=normalisation, n_draws=n_draws))
    return stability.Instability.of(k, terms)
