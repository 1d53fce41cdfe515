"""The gap statistic (Tibshirani, Walther & Hastie 2001, JRSS B 63:411–423): the log
within-cluster dispersion of the data against its mean over reference data drawn
uniformly from the data's bounding box, and the one-standard-error rule."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from mtc_cli.core.labels import codes


def uniform_box(X: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Reference data: as many points as X, uniform over the range of each feature (the
    axis-aligned bounding box; option (a) of Tibshirani et al. 2001, Sect. 3)."""
    X = np.asarray(X, dtype=np.float64)
    lo, hi = X.min(axis=0), X.max(axis=0)
    return lo + (hi - lo) * rng.random(X.shape)


def within_sum_of_squares(X: np.ndarray, labels) -> float:
    """W_k = Σ_r (1/(2 n_r)) Σ_{i,i' ∈ C_r} ‖x_i − x_i'‖² = Σ_r Σ_{i ∈ C_r} ‖x_i − x̄_r‖²
    (Tibshirani et al. 2001, eq. 2 with squared Euclidean distances)."""
    X = np.asarray(X, dtype=np.float64)
    inv = codes(labels)[1]
    sums = np.zeros((inv.max() + 1, X.shape[1]))
    np.add.at(sums, inv, X)
    counts = np.bincount(inv)
    return float(np.einsum("ij,ij->", X, X) - (np.einsum("rj,rj->r", sums, sums)
                                                 / counts).sum())


def gap(log_w: np.ndarray, log_w_reference: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Gap(k) = (1/B) Σ_b log W*_kb − log W_k and s_k = sd_k √(1 + 1/B), sd_k the
    standard deviation (divisor B) of log W*_kb over the B reference sets (Tibshirani et
    al. 2001, eq. 3 and step 3 of Sect. 3). ``log_w_reference`` is (B, n_k)."""
    ref = np.asarray(log_w_reference, dtype=np.float64)
    b = ref.shape[0]
    return ref.mean(axis=0) - np.asarray(log_w), ref.std(axis=0) * np.sqrt(1.0 + 1.0 / b)


def select_1se(ks, gaps, s) -> int:
    """The smallest k with Gap(k) ≥ Gap(k+1) − s_{k+1} (Tibshirani et al. 2001, step 3),
    over consecutive k; the largest k offered when no k qualifies."""
    ks = [int(k) for k in ks]
    for j in range(len(ks) - 1):
        if gaps[j] >= gaps[j + 1] - s[j + 1]:
            return ks[j]
    return ks[-1]


def gap_statistic(X: np.ndarray, ks, cluster: Callable, dispersion: Callable,
                  rng: np.random.Generator, *, n_references: int = 20) -> dict:
    """Gap(k) and s_k for every k in ``ks`` (1 allowed): ``cluster(X, ks, rng)`` →
    {k: labels}; ``dispersion(X, labels)`` → W_k (:func:`within_sum_of_squares` for
    k-means). Each of the ``n_references`` reference sets (:func:`uniform_box`) is
    clustered by the same algorithm. Returns arrays ``gap``, ``s``, ``log_w`` and the
    selected k (:func:`select_1se`)."""
    ks = [int(k) for k in ks]
    if n_references < 2:
        raise ValueError(f"need n_references ≥ 2, got {n_references}")

    def log_w(data):
        labels = cluster(data, ks, rng)
        return np.log([dispersion(data, labels[k]) for k in ks])

    observed = log_w(X)
    reference = np.array([log_w(uniform_box(X, rng)) for _ in range(n_references)])
    g, s = gap(observed, reference)
    return {"gap": g, "s": s, "log_w": observed, "selected": select_1se(ks, g, s)}
