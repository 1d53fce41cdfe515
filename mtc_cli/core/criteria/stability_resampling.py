"""Lange et al.'s resampling estimate of the stability for all model orders at once.

:func:`mtc_cli.core.criteria.stability.instability` draws new splits for every k and calls the
clusterer once per k. Here every resample splits the objects once and one call of the
clusterer per half returns the partitions of all k (one agglomeration serves every k for
Path-Based Clustering; the split is shared, so the curve over k is compared on the same
halves). The clusterings of each resample (:func:`resample_labels`) also serve Tibshirani &
Walther's prediction strength. The disagreement,
its random-labelling baseline and the splits are those of :mod:`mtc_cli.core.criteria.stability`.
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


def resample_labels(X, ks, cluster: Callable, predict: Callable, rng: np.random.Generator,
                    n_resamples: int = 20) -> list[Resample]:
    """Per resample, A_k(X′) and φ(X′) for every k: split the objects into halves X, X′
    (:func:`~mtc_cli.core.criteria.stability.split_halves`), cluster both, train φ on
    (X, A_k(X)) and predict X′ (Lange et al. 2002, Sect. 3, "Resampling Estimate").

    ``cluster(X_part, ks, rng)`` returns {k: labels of X_part}; ``predict(X_train,
    {k: labels_train}, X_test)`` returns {k: labels of X_test}.
    """
    ks = [int(k) for k in ks]
    if n_resamples < 1:
        raise ValueError(f"need n_resamples ≥ 1, got {n_resamples}")
    out = []
    for _ in range(n_resamples):
        i1, i2 = stability.split_halves(len(X), rng)
        X1, X2 = X[i1], X[i2]
        own = cluster(X2, ks, rng)
        train = cluster(X1, ks, rng)
        out.append(Resample(i1, i2, train, own, predict(X1, train, X2)))
    return out


def instabilities(pairs: list[Resample], ks, rng: np.random.Generator, *,
                  normalisation: str = "uniform",
                  n_draws: int = 20) -> list[stability.Instability]:
    """One :class:`~mtc_cli.core.criteria.stability.Instability` per k ≥ 2 from the labels of
    :func:`resample_labels`: d = :func:`~mtc_cli.core.criteria.stability.disagreement`
    (A_k(X′), φ(X′)) and its baseline
    (:func:`~mtc_cli.core.criteria.stability.random_disagreement`)."""
    ks = [int(k) for k in ks]
    if not ks or min(ks) < 2:
        raise ValueError(f"the instability needs k ≥ 2, got {ks}")
    out = []
    for k in ks:
        d = np.array([stability.disagreement(r.own[k], r.predicted[k]) for r in pairs])
        base = np.array([stability.random_disagreement(r.own[k], r.predicted[k], k, rng,
                                                       normalisation=normalisation,
                                                       n_draws=n_draws)
                         for r in pairs])
        out.append(stability.Instability(k, d, base))
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
