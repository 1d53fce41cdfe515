"""ln Σ exp along an axis, bit for bit as ``scipy.special.logsumexp`` (SciPy ≥ 1.15, real
input) at a fraction of its array-API overhead — the E-steps of the EM fits and the wASC
search call it thousands of times on small arrays. Along the last axis of a C-ordered array
(every caller's case) the row reductions are compiled (:mod:`mtc_cli.core.short_rows`)."""

from __future__ import annotations

import numpy as np

from mtc_cli.core.short_rows import row_sum, shifted_by_max


def logsumexp(a: np.ndarray, axis: int) -> np.ndarray:
    """ln Σ exp(a) along ``axis`` by scipy's algorithm: the maximum m is taken out of the
    sum, ln(c·e^m (1 + s)) = m + ln c + log1p(s) with c the number of maxima and s the sum
    of the other terms over c; a non-finite result falls back to ln Σ exp(a). The same
    operations on arrays of the same memory layout, so the same bits (a reduction's
    rounding depends on the layout: a C-ordered copy of an F-ordered array sums in
    another order)."""
    a = np.asarray(a, dtype=np.float64)
    if a.ndim and axis in (-1, a.ndim - 1) and a.size and a.flags.c_contiguous:
        return _last_axis(a)
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


def _last_axis(a: np.ndarray) -> np.ndarray:
    """:func:`logsumexp` along the last axis of a C-ordered, non-empty array: the same
    operations, the maxima, their count and the row sums compiled (numpy's exp and log)."""
    rows = a.reshape(-1, a.shape[-1])
    shifted, top, count = shifted_by_max(rows)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        rest = row_sum(np.exp(shifted, out=shifted))
        rest = np.where(rest == 0, rest, rest / count)
        out = np.log1p(rest) + np.log(count) + top
        bad = ~np.isfinite(out)
        if bad.any():  # infinite or NaN entries: scipy's direct log Σ exp
            out = np.where(bad, np.log(np.sum(np.exp(rows), axis=1)), out)
    return out.reshape(a.shape[:-1])
