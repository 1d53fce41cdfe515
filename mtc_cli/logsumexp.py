"""ln Σ exp along an axis, bit for bit as ``scipy.special.logsumexp`` (SciPy ≥ 1.15, real
input) at a fraction of its array-API overhead — the E-steps of the EM fits and the wASC
search call it thousands of times on small arrays."""

from __future__ import annotations

import numpy as np


def logsumexp(a: np.ndarray, axis: int) -> np.ndarray:
    """ln Σ exp(a) along ``axis`` by scipy's algorithm: the maximum m is taken out of the
    sum, ln(c·e^m (1 + s)) = m + ln c + log1p(s) with c the number of maxima and s the sum
    of the other terms over c; a non-finite result falls back to ln Σ exp(a). The same
    operations on arrays of the same memory layout, so the same bits (a reduction's
    rounding depends on the layout: a C-ordered copy of an F-ordered array sums in
    another order)."""
    a = np.asarray(a, dtype=np.float64)
    top_value = np.max(a, axis=axis, keepdims=True)
    top = a == top_value
    count = np.sum(top, axis=axis, keepdims=True, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        rest = np.sum(np.exp(np.where(top, -np.inf, a) - top_value), axis=axis,
                      keepdims=True)
        rest = np.where(rest == 0, rest, rest / count)
        out = np.log1p(rest) + np.log(count) + top_value
        bad = ~np.isfinite(out)
        if bad.any():  # infinite or NaN entries: scipy's direct log Σ exp
            out = np.where(bad, np.log(np.sum(np.exp(a), axis=axis, keepdims=True)), out)
    return np.squeeze(out, axis=axis)
