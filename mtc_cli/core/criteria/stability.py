"""Stability-based model-order selection (Lange, Braun, Roth, Buhmann 2002).

The instability of a clusterer A_k with a predictor φ: split the objects into two disjoint
halves X, X′; cluster both; train φ on (X, A_k(X)) and predict labels on X′; count the
fraction of X′ whose own cluster and predicted label disagree after the best matching of
label names (Hungarian method). Averaged over resamples and divided by the same statistic
for random labellings, it is comparable across k; the selected k minimises it (k ≥ 2).

Every function works on plain label vectors, so it applies to a user's own clusterings;
the resampling itself (splits, clusterings, predictions) is
:mod:`mtc_cli.core.criteria.stability_resampling`'s.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import linear_sum_assignment

from mtc_cli.core.labels import codes

NORMALISATIONS = ("uniform", "permutation")


def contingency(labels_a, labels_b) -> np.ndarray:
    """Counts n_uv of objects with label u in ``labels_a`` and v in ``labels_b``; the
    labels may be any hashable values (rows and columns in sorted label order)."""
    a, b = np.asarray(labels_a), np.asarray(labels_b)
    if a.ndim != 1 or a.shape != b.shape or len(a) == 0:
        raise ValueError(f"need two non-empty label vectors of equal length, got {a.shape} "
                         f"and {b.shape}")
    ia, ib = codes(a)[1], codes(b)[1]
    ka, kb = ia.max() + 1, ib.max() + 1
    return np.bincount(ia * kb + ib, minlength=ka * kb).reshape(ka, kb)


def disagreement(labels_a, labels_b) -> float:
    """d = min over label permutations π of (1/n) Σ_i 1{π(a_i) ≠ b_i}
    (Lange et al. 2002, Sect. 3: the stability cost of one resample).

    The best π maximises the matched counts of the contingency table, found by the
    Hungarian method (``scipy.optimize.linear_sum_assignment``); with unequal numbers of
    labels the unmatched ones count as disagreements.
    """
    table = contingency(labels_a, labels_b)
    rows, cols = linear_sum_assignment(table, maximize=True)
    return 1.0 - table[rows, cols].sum() / table.sum()


def _mean_disagreement(codes_a: np.ndarray, codes_b: np.ndarray, ka: int, kb: int) -> float:
    """The mean :func:`disagreement` of the labellings ``codes_a[d]`` and ``codes_b[d]``
    (rows: draws; codes 0..ka−1 and 0..kb−1): every draw's contingency table counted in one
    ``bincount``, each matched by the Hungarian method — the same values as
    :func:`disagreement` draw by draw (a label absent from a draw is a zero row or column,
    which adds nothing to the best matching), without its per-draw overhead."""
    draws, n = codes_a.shape
    cells = (np.arange(draws)[:, None] * ka + codes_a) * kb + codes_b
    tables = np.bincount(cells.ravel(), minlength=draws * ka * kb).reshape(draws, ka, kb)
    out = []
    for table in tables:
        rows, cols = linear_sum_assignment(table, maximize=True)
        out.append(1.0 - table[rows, cols].sum() / n)
    return float(np.mean(out))


def random_label_disagreement(n: int, k: int, rng: np.random.Generator,
                              n_draws: int = 20) -> float:
    """Mean :func:`disagreement` of two independent labellings of ``n`` objects with ``k``
    uniformly drawn labels: the baseline of Lange et al.'s normalised stability (eq. 6)."""
    if n < 1 or k < 1 or n_draws < 1:
        raise ValueError(f"need n, k, n_draws ≥ 1, got {n}, {k}, {n_draws}")
    draws = rng.integers(k, size=(n_draws, 2, n))
    return _mean_disagreement(draws[:, 0], draws[:, 1], k, k)


def permuted_label_disagreement(labels_a, labels_b, rng: np.random.Generator,
                                n_draws: int = 20) -> float:
    """Mean :func:`disagreement` of ``labels_a`` and a random permutation of
    ``labels_b``: a random-labelling baseline that keeps both sets of cluster sizes
    (empty clusters stay empty), so that offering unused clusters does not lower it. (The
    permutations are ``rng.permutation(n)`` applied to ``labels_b``: the draws of
    ``rng.permutation(labels_b)``.)"""
    a, b = np.asarray(labels_a), np.asarray(labels_b)
    if n_draws < 1:
        raise ValueError(f"need n_draws ≥ 1, got {n_draws}")
    contingency(a, b)  # the same checks of the two label vectors
    codes_a, codes_b = codes(a)[1], codes(b)[1]
    shuffled = np.stack([codes_b[rng.permutation(len(b))] for _ in range(n_draws)])
    return _mean_disagreement(np.broadcast_to(codes_a, shuffled.shape), shuffled,
                              int(codes_a.max()) + 1, int(codes_b.max()) + 1)


def random_disagreement(labels_a, labels_b, k: int, rng: np.random.Generator, *,
                        normalisation: str = "uniform", n_draws: int = 20) -> float:
    """The random-labelling baseline of one resample: ``"uniform"`` (k uniformly drawn
    labels, Lange et al. 2002) or ``"permutation"`` (the actual labels shuffled)."""
    if normalisation == "uniform":
        return random_label_disagreement(len(labels_a), k, rng, n_draws)
    if normalisation == "permutation":
        return permuted_label_disagreement(labels_a, labels_b, rng, n_draws)
    raise ValueError(f"unknown normalisation {normalisation!r}: expected one of "
                     f"{', '.join(NORMALISATIONS)}")


def split_halves(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Two disjoint random halves of ``range(n)`` of equal size (one object is left out
    when n is odd)."""
    perm = rng.permutation(n)
    half = n // 2
    return perm[:half], perm[half:2 * half]


def disagreement_and_baseline(own, predicted, k: int, rng: np.random.Generator, *,
                              normalisation: str = "uniform",
                              n_draws: int = 20) -> tuple[float, float]:
    """One resample's terms of the normalised instability: d = :func:`disagreement`
    (A_k(X′), φ(X′)) of the clustering ``own`` of the second half and the labels
    ``predicted`` for it by the first half's solution, and its random-labelling baseline
    (:func:`random_disagreement`, the only one of the two that draws from ``rng``)."""
    return (disagreement(own, predicted),
            random_disagreement(own, predicted, k, rng, normalisation=normalisation,
                                n_draws=n_draws))


@dataclass(frozen=True)
class Instability:
    """Per resample: the disagreement d and its random-labelling baseline; ``score`` is
    Lange et al.'s normalised stability S̄(k) = S(k) / S_rand(k) with S the mean of d
    over resamples and S_rand the mean baseline."""

    k: int
    disagreements: np.ndarray
    random: np.ndarray

    @classmethod
    def of(cls, k: int, terms: list[tuple[float, float]]) -> Instability:
        """From each resample's (d, baseline) of :func:`disagreement_and_baseline`."""
        return cls(k, np.array([d for d, _ in terms]), np.array([b for _, b in terms]))

    @property
    def score(self) -> float:
        """S̄(k): the mean disagreement over the mean baseline."""
        return float(np.mean(self.disagreements) / np.mean(self.random))


def select_k(k_values, scores, *, ties: str = "smallest") -> int:
    """The k ≥ 2 of least normalised instability; ``ties`` to the ``"smallest"`` or
    ``"largest"`` such k (k = 1 is always perfectly stable and never chosen)."""
    k = np.asarray(k_values)
    s = np.asarray(scores, dtype=np.float64)
    ok = (k >= 2) & np.isfinite(s)
    if not ok.any():
        raise ValueError("no finite instability for any k ≥ 2")
    best = k[ok][s[ok] == s[ok].min()]
    if ties not in ("smallest", "largest"):
        raise ValueError(f"ties must be 'smallest' or 'largest', got {ties!r}")
    return int(best.min() if ties == "smallest" else best.max())
