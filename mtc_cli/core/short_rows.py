"""Reductions along the rows of a C-ordered (n, K) matrix with few columns (K of 2 to a few
dozen, n large), compiled: numpy's own reductions there spend most of their time per row,
not per element.

Bit for bit numpy's: the maximum is exact, and :func:`row_sum` adds in the order of numpy's
pairwise summation (``pairwise_sum`` of numpy's ``loops_utils.h``), which ``np.sum(a,
axis=1)`` runs once per row of a C-ordered float64 matrix: below 8 terms one after the
other from −0.0; up to 128 terms eight running sums r₀…r₇ over the blocks of eight,
combined as ((r₀ + r₁) + (r₂ + r₃)) + ((r₄ + r₅) + (r₆ + r₇)), then the remaining terms
one by one; above 128 the two halves (the first rounded down to a multiple of 8)
recursively. numpy adds that to its initial value 0.0. The exponentials stay numpy's
(:func:`softmax`): its vector ``exp`` need not round like the one numba would compile.
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["row_max", "row_sum", "shifted_by_max", "softmax"]

#: numpy's PW_BLOCKSIZE: above it pairwise summation splits the terms in two
_BLOCK = 128


@numba.njit(cache=True, nogil=True)
def _pairwise(a, start, n):
    if n < 8:
        res = -0.0
        for i in range(start, start + n):
            res += a[i]
        return res
    if n <= _BLOCK:
        r0, r1, r2, r3 = a[start], a[start + 1], a[start + 2], a[start + 3]
        r4, r5, r6, r7 = a[start + 4], a[start + 5], a[start + 6], a[start + 7]
        end = start + n - n % 8
        i = start + 8
        while i < end:
            r0 += a[i]
            r1 += a[i + 1]
            r2 += a[i + 2]
            r3 += a[i + 3]
            r4 += a[i + 4]
            r5 += a[i + 5]
            r6 += a[i + 6]
            r7 += a[i + 7]
            i += 8
        res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
        while i < start + n:
            res += a[i]
            i += 1
        return res
    n2 = n // 2
    n2 -= n2 % 8
    return _pairwise(a, start, n2) + _pairwise(a, start + n2, n - n2)


@numba.njit(cache=True, nogil=True)
def _row_sum(a, out):
    flat = a.ravel()
    n, k = a.shape
    for i in range(n):
        out[i] = 0.0 + _pairwise(flat, i * k, k)


@numba.njit(cache=True, nogil=True)
def _row_max(a, out):
    n, k = a.shape
    for i in range(n):
        m = a[i, 0]
        for j in range(1, k):
            v = a[i, j]
            if v > m or np.isnan(v):
                m = v
            if np.isnan(m):
                break
        out[i] = m


@numba.njit(cache=True, nogil=True)
def _shifted_by_max(a, shifted, top, count):
    n, k = a.shape
    for i in range(n):
        # _row_max's loop, written again: a shared helper (even inline="always") made the
        # log-sum-exp's first pass 1.3-1.5x slower on rows of 8-12 (measured 2026-11-27)
        m = a[i, 0]
        for j in range(1, k):
            v = a[i, j]
            if v > m or np.isnan(v):
                m = v
            if np.isnan(m):
                break
        c = 0.0
        for j in range(k):
            v = a[i, j]
            if v == m:
                c += 1.0
                v = -np.inf
            shifted[i, j] = v - m
        top[i] = m
        count[i] = c


def _rows(a) -> np.ndarray:
    a = np.asarray(a)
    if a.dtype != np.float64 or a.ndim != 2 or not a.flags.c_contiguous or a.shape[1] == 0:
        raise ValueError("short-row reductions take a C-ordered float64 (n, K) matrix, K ≥ 1, "
                         f"got {a.dtype} {a.shape}")
    return a


def row_sum(a: np.ndarray) -> np.ndarray:
    """Σ_j a_ij for every row, (n,): the bits of ``np.sum(a, axis=1)``."""
    a = _rows(a)
    out = np.empty(a.shape[0])
    _row_sum(a, out)
    return out


def row_max(a: np.ndarray) -> np.ndarray:
    """max_j a_ij for every row, (n,): ``np.max(a, axis=1)`` (NaN if the row holds one)."""
    a = _rows(a)
    out = np.empty(a.shape[0])
    _row_max(a, out)
    return out


def shifted_by_max(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For every row: its maximum m_i (``row_max``), the number c_i of entries equal to it
    (a float), and a_ij − m_i with −∞ in place of the maxima — ``np.where(a == m, −inf, a)
    − m`` of numpy, the same bits (one subtraction each). The log-sum-exp's first pass."""
    a = _rows(a)
    n = a.shape[0]
    shifted, top, count = np.empty_like(a), np.empty(n), np.empty(n)
    _shifted_by_max(a, shifted, top, count)
    return shifted, top, count


def softmax(x: np.ndarray) -> np.ndarray:
    """exp(x_ij − max_j x_ij) / Σ_j exp(x_ij − max_j x_ij) along the rows: the operations of
    ``scipy.special.softmax(x, axis=1)`` (SciPy ≥ 1.15) on a C-ordered float64 matrix,
    the row reductions compiled, so the same bits."""
    x = _rows(x)
    shifted = np.exp(x - row_max(x)[:, None])
    return shifted / row_sum(shifted)[:, None]
