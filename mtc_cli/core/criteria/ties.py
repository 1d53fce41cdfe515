"""Values recorded at a resolution (counts, scores on a scale, rounded measurements) as the
tests of k = 1 need them: continuous. Hartigan & Hartigan's (1985) dip test and the tests
built on it compare an empirical distribution function with continuous unimodal ones; tied
values make it a staircase whose steps look like modes (on two Likert items of one
population the dip's p falls to 1e-19). Each value is spread uniformly within its
resolution — the smallest gap between two distinct values of its column — which keeps every
value's rounding interval and the order of distinct values, and removes the ties."""

from __future__ import annotations

import numpy as np


def resolution(x) -> float:
    """The smallest positive gap between two distinct values of ``x`` (inf with fewer than
    two distinct values)."""
    distinct = np.unique(np.asarray(x, dtype=np.float64))
    return float(np.diff(distinct).min()) if len(distinct) > 1 else np.inf


def distinct_rows(X) -> int:
    """The number of distinct rows of X (n, d): rows equal value for value count once
    (−0.0 equal to 0.0), by one sort of the rows' bytes."""
    X = np.ascontiguousarray(X, dtype=np.float64) + 0.0  # −0.0 + 0.0 is 0.0
    if X.shape[0] == 0:
        return 0
    rows = X.view(np.dtype((np.void, X.dtype.itemsize * X.shape[1]))).ravel()
    return len(np.unique(rows))


def dequantized(X, rng: np.random.Generator):
    """X with each column that holds tied values spread by U(−r/2, r/2), r its
    :func:`resolution` (columns without ties, of one value, or a sparse X as they are)."""
    import scipy.sparse as sp

    if sp.issparse(X):
        return X
    X = np.array(X, dtype=np.float64)
    for j in range(X.shape[1]):
        column = X[:, j]
        r = resolution(column)
        if np.isfinite(r) and len(np.unique(column)) < len(column):
            X[:, j] = column + rng.uniform(-r / 2, r / 2, len(column))
    return X
