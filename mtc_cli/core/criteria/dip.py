"""Hartigan's dip test of unimodality, written from the papers: J. A. Hartigan & P. M.
Hartigan (1985), "The dip test of unimodality", Annals of Statistics 13(1):70–84, and P. M.
Hartigan (1985), "Algorithm AS 217: computation of the dip statistic to test for
unimodality", Applied Statistics 34(3):320–325.

The dip of a distribution function F is its sup-norm distance to the nearest unimodal
distribution function, D(F) = inf_G sup_x |F(x) − G(x)| over the G that are convex on
(−∞, m] and concave on [m, ∞) for some mode m (an atom at the mode is allowed). This module
reports D itself for the empirical F_n of the sample (not 2D, nor n·D): a single repeated
value (or n = 1) has dip 0, any other sample of size n has 1/(2n) ≤ D ≤ 1/4 (n = 2
distinct points: 1/4; n = 3 distinct points: 1/6; n equally spaced points: 1/(2n)).

Algorithm (AS 217's scheme, in this module's own words). Let u_1 < … < u_K be the distinct
values and c_i the number of observations ≤ u_i; F_n jumps at u_i from the lower corner
(u_i, c_{i−1}) to the upper corner (u_i, c_i) (the distances below are in counts, halved and
divided by n at the end). A unimodal G is within d of F_n iff H = G − d, convex left of the
mode and concave right of it, has H ≤ F_n ≤ H + 2d: left of the mode the best such H is
the greatest convex minorant (GCM) of the lower corners, right of it the least concave
majorant (LCM) of the upper corners, less 2d. Starting from the modal interval [u_1, u_K]
and a lower bound D = 0 on 2n·dip, repeat: take the GCM and the LCM of F_n over the modal
interval; find their largest vertical gap at a vertex of either; if it is ≤ D stop, else
shrink the modal interval to the GCM vertex and the LCM vertex bracketing that gap, raise D
to the largest deviation of F_n from the GCM on the part cut off on the left and from the
LCM on the part cut off on the right, and repeat. The dip is D/(2n). Both hulls are
prefix/suffix hulls computed once by a stack walk (the modal interval's ends stay hull
vertices); the iterations then walk the hulls of a shrinking interval, in practice linear
work after sorting (about 20 ns per observation, n from 10³ to 10⁶).

The p-value is P(dip of n independent uniforms ≥ observed): Hartigan & Hartigan (1985)
show the uniform to be the least favourable unimodal null (asymptotically). It is read from
``dip_table.csv`` beside this module, the quantiles of √n·dip of uniform samples for a grid
of n, simulated once by :func:`calibrate` (``python -m mtc_cli.core.criteria.dip``
rewrites it; the header of the CSV records the seed, replicate count and running time).
"""

from __future__ import annotations

import functools
import math
import time
from pathlib import Path

import numba
import numpy as np

__all__ = ["TABLE_FILE", "calibrate", "dip", "dip_pvalue", "null_survival"]

#: quantiles of √n·dip under the uniform null, written by :func:`calibrate`
TABLE_FILE = Path(__file__).with_name("dip_table.csv")

#: the sample sizes of the table (√n·dip converges in law as n → ∞; beyond the last row the
#: last row is used, below the first the dip is 1/(2n) whatever the sample, so p = 1)
TABLE_NS = (4, 5, 6, 7, 8, 9, 10, 12, 15, 20, 30, 40, 50, 70, 100, 150, 200, 300, 500, 700,
            1000, 2000, 5000, 10000, 20000, 50000)

#: the probabilities at which the table gives the quantiles of √n·dip (0: the minimum)
TABLE_PROBS = tuple(
    [0.0, 0.01, 0.02] + [round(0.05 * i, 2) for i in range(1, 11)]
    + [round(0.5 + 0.02 * i, 2) for i in range(1, 21)]
    + [round(0.9 + 0.01 * i, 2) for i in range(1, 10)] + [0.995, 0.998, 0.999])

CALIBRATION_SEED = 20250217
CALIBRATION_REPLICATES = 50000


@numba.njit(cache=True, nogil=True)
def _segment(v, nv, s, i):
    """The first s' ≥ s whose hull segment v[s']..v[s'+1] holds corner i (v: the nv vertices
    of a hull, increasing)."""
    while s + 1 < nv and v[s + 1] < i:
        s += 1
    return s


@numba.njit(cache=True, nogil=True)
def _on_hull(v, s, i, y, u):
    """The hull through the vertices v of the corners (u, y), at corner i of segment s."""
    if v[s] == i:
        return y[i]
    i0 = v[s]
    i1 = v[s + 1]
    return y[i0] + (y[i1] - y[i0]) * (u[i] - u[i0]) / (u[i1] - u[i0])


@numba.njit(cache=True, nogil=True)
def _dip_of_sorted(x):
    """The dip of the sorted finite sample ``x`` (length n ≥ 1): the AS 217 walk over the
    greatest convex minorant of the lower corners and the least concave majorant of the
    upper corners of the empirical distribution function, in counts (D below is 2n·dip;
    see the module docstring)."""
    n = x.size
    u = np.empty(n)
    hi = np.empty(n)  # c_i: observations ≤ u_i (upper corner); lo_i = c_{i−1}
    k = 0
    for i in range(n):
        if k > 0 and x[i] == u[k - 1]:
            hi[k - 1] += 1.0
        else:
            u[k] = x[i]
            hi[k] = (hi[k - 1] if k > 0 else 0.0) + 1.0
            k += 1
    if k == 1:
        return 0.0
    lo = np.empty(k)
    lo[0] = 0.0
    for i in range(1, k):
        lo[i] = hi[i - 1]

    # prefix GCM of the lower corners: gpred[j] is the vertex before j in the GCM of 0..j
    gpred = np.empty(k, np.int64)
    stack = np.empty(k, np.int64)
    top = 0
    for j in range(k):
        while top >= 2:
            i0 = stack[top - 2]
            i1 = stack[top - 1]
            turn = (u[i1] - u[i0]) * (lo[j] - lo[i0]) - (lo[i1] - lo[i0]) * (u[j] - u[i0])
            if turn <= 0.0:  # i1 on or above the chord i0–j: not a vertex
                top -= 1
            else:
                break
        gpred[j] = stack[top - 1] if top > 0 else j
        stack[top] = j
        top += 1
    # suffix LCM of the upper corners: lsucc[j] is the vertex after j in the LCM of j..k−1
    lsucc = np.empty(k, np.int64)
    top = 0
    for j in range(k - 1, -1, -1):
        while top >= 2:
            i0 = stack[top - 2]
            i1 = stack[top - 1]  # j < i1 < i0
            turn = (u[i1] - u[j]) * (hi[i0] - hi[j]) - (hi[i1] - hi[j]) * (u[i0] - u[j])
            if turn >= 0.0:  # i1 on or below the chord j–i0: not a vertex
                top -= 1
            else:
                break
        lsucc[j] = stack[top - 1] if top > 0 else j
        stack[top] = j
        top += 1

    gv = np.empty(k, np.int64)  # GCM vertices of the modal interval, increasing
    lv = np.empty(k, np.int64)  # LCM vertices of the modal interval, increasing
    a = 0
    b = k - 1
    big_d = 0.0
    while a < b:
        ng = 0
        j = b
        stack[ng] = j
        ng += 1
        while j > a:
            j = max(gpred[j], a)
            stack[ng] = j
            ng += 1
        for t in range(ng):
            gv[t] = stack[ng - 1 - t]
        nl = 0
        j = a
        lv[nl] = j
        nl += 1
        while j < b:
            j = min(lsucc[j], b)
            lv[nl] = j
            nl += 1

        # largest gap LCM − GCM at a vertex of either: GCM vertices first, then LCM's
        gap = -1.0
        at = -1
        at_gcm = True
        s = 0  # LCM segment lv[s]..lv[s+1] holding the current GCM vertex
        for t in range(ng):
            i = gv[t]
            s = _segment(lv, nl, s, i)
            lval = _on_hull(lv, s, i, hi, u)
            if lval - lo[i] > gap:
                gap = lval - lo[i]
                at = i
        s = 0
        for t in range(nl):
            i = lv[t]
            s = _segment(gv, ng, s, i)
            gval = _on_hull(gv, s, i, lo, u)
            if hi[i] - gval > gap:
                gap = hi[i] - gval
                at = i
                at_gcm = False
        if gap <= big_d:
            break
        if at_gcm:  # the gap is at a GCM vertex: the next LCM vertex closes the interval
            a_new = at
            b_new = b
            for t in range(nl):
                if lv[t] >= at:
                    b_new = lv[t]
                    break
        else:  # at an LCM vertex: the previous GCM vertex opens it
            b_new = at
            a_new = a
            for t in range(ng - 1, -1, -1):
                if gv[t] <= at:
                    a_new = gv[t]
                    break

        # deviations of F_n from the GCM left of a_new and from the LCM right of b_new
        s = 0
        for i in range(a, a_new):
            while gv[s + 1] <= i:
                s += 1
            i0 = gv[s]
            i1 = gv[s + 1]
            gval = lo[i0] + (lo[i1] - lo[i0]) * (u[i] - u[i0]) / (u[i1] - u[i0])
            if hi[i] - gval > big_d:
                big_d = hi[i] - gval
        s = nl - 1
        for i in range(b, b_new, -1):
            while lv[s - 1] >= i:
                s -= 1
            i0 = lv[s - 1]
            i1 = lv[s]
            lval = hi[i0] + (hi[i1] - hi[i0]) * (u[i] - u[i0]) / (u[i1] - u[i0])
            if lval - lo[i] > big_d:
                big_d = lval - lo[i]
        a = a_new
        b = b_new
    return big_d / (2.0 * n)


@numba.njit(cache=True, nogil=True)
def _dip_of_sorted_rows(rows, out):
    """:func:`_dip_of_sorted` of every (sorted) row of ``rows`` into ``out``."""
    for r in range(rows.shape[0]):
        out[r] = _dip_of_sorted(rows[r])


def _standardised(n, d):
    """√n·dip, the statistic the table holds (its law settles as n grows)."""
    return np.sqrt(n) * d


def _sorted_sample(x) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 1:
        raise ValueError(f"the dip needs a 1-D sample, got shape {x.shape}")
    if x.size == 0:
        raise ValueError("the dip of an empty sample is undefined")
    if not np.isfinite(x).all():
        raise ValueError("the dip needs finite values (found NaN or ±inf)")
    return np.sort(x)


def dip(x) -> float:
    """Hartigan & Hartigan's (1985) dip of the 1-D sample ``x``: the sup-norm distance
    sup_t |F_n(t) − G(t)| from the empirical distribution function F_n to the closest
    unimodal distribution function G (D itself, in [0, 1/4]: 0 iff all values are equal,
    else ≥ 1/(2n)). Invariant under increasing or decreasing affine maps of ``x``."""
    return float(_dip_of_sorted(_sorted_sample(x)))


@functools.lru_cache(maxsize=1)
def _table() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(n, probabilities, quantiles of √n·dip with one row per n) from TABLE_FILE."""
    rows = [line for line in TABLE_FILE.read_text().splitlines()
            if line.strip() and not line.startswith("#")]
    probs = np.array([float(v) for v in rows[0].split(",")[2:]])
    body = np.array([[float(v) for v in line.split(",")] for line in rows[1:]])
    return body[:, 0], probs, body[:, 2:]


def null_survival(n: int, d: float) -> float:
    """P(dip ≥ ``d``) for n independent uniforms, from the table of s = √n·dip: its quantile
    curve at n (linear in 1/√n between the rows bracketing n; the last row beyond it),
    inverted by linear interpolation (a monotone, piecewise-linear distribution function
    through the tabulated quantiles); above the top quantile q_top (probability p_top) an
    exponential tail (1 − p_top)·exp(−(s − q_top)/λ) fitted to the two top quantiles;
    clipped to [0, 1]. p = 1 at or below the smallest possible dip 1/(2n), and for n ≤ 3
    (where the dip of any sample of distinct values is exactly 1/(2n)); NaN for a NaN dip."""
    if math.isnan(d):
        return math.nan
    ns, probs, quant = _table()
    if n < ns[0] or d <= (1.0 + 1e-9) / (2.0 * n):
        return 1.0
    statistic = _standardised(n, d)
    if n >= ns[-1]:
        q = quant[-1]
    else:
        j = int(np.searchsorted(ns, n, side="right")) - 1
        if ns[j] == n:
            q = quant[j]
        else:
            w = (1.0 / math.sqrt(n) - 1.0 / math.sqrt(ns[j])) \
                / (1.0 / math.sqrt(ns[j + 1]) - 1.0 / math.sqrt(ns[j]))
            q = (1.0 - w) * quant[j] + w * quant[j + 1]
    q = np.maximum.accumulate(q)
    if statistic > q[-1]:
        tail = 1.0 - probs[-1]
        lam = (q[-1] - q[-2]) / math.log((1.0 - probs[-2]) / tail)
        p = tail * math.exp(-(statistic - q[-1]) / lam) if lam > 0 else 0.0
    else:
        p = 1.0 - float(np.interp(statistic, q, probs))
    return min(1.0, max(0.0, p))


def dip_pvalue(x) -> tuple[float, float]:
    """(dip, p-value) of the sample ``x``: the p-value P(dip of n uniforms ≥ dip(x)) of
    Hartigan & Hartigan's test against the uniform, the least favourable unimodal null,
    from the simulated table (:func:`null_survival`). Small p: evidence of more than one
    mode. The table resolves p down to about 1e-3; below that the p-value is an
    exponential-tail extrapolation, to be read as "< 1e-3"."""
    x = _sorted_sample(x)
    d = float(_dip_of_sorted(x))
    return d, null_survival(x.size, d)


def calibrate(path: Path | str | None = TABLE_FILE, seed: int = CALIBRATION_SEED,
              replicates: int = CALIBRATION_REPLICATES, ns=TABLE_NS, probs=TABLE_PROBS,
              batch_numbers: int = 4_000_000) -> np.ndarray:
    """Simulate the null table: for each n in ``ns``, ``replicates`` samples of n uniforms
    (sorted, as partial sums of n standard exponentials: the uniform order statistics up
    to a common scale, to which the dip is invariant), drawn from
    ``np.random.default_rng([seed, n])``; their √n·dip quantiles at ``probs`` (numpy's
    default linear quantile). Writes the CSV to ``path`` unless it is None; returns the
    (len(ns), len(probs)) quantiles."""
    start = time.perf_counter()
    quant = np.empty((len(ns), len(probs)))
    for r, n in enumerate(ns):
        rng = np.random.default_rng([seed, n])
        stats = np.empty(replicates)
        per_batch = max(1, batch_numbers // n)
        for lo in range(0, replicates, per_batch):
            m = min(per_batch, replicates - lo)
            rows = np.cumsum(rng.standard_exponential((m, n)), axis=1)
            _dip_of_sorted_rows(rows, stats[lo:lo + m])
        quant[r] = np.quantile(_standardised(n, stats), probs)
    elapsed = time.perf_counter() - start
    if path is not None:
        lines = [
            "# Null distribution of Hartigan's dip: quantiles of sqrt(n)*dip of n i.i.d.",
            "# uniforms (dip = sup-distance of the empirical CDF to the closest unimodal CDF).",
            f"# Written by mtc_cli.core.criteria.dip.calibrate(seed={seed}, "
            f"replicates={replicates}): {replicates} samples per n,",
            f"# drawn from numpy.random.default_rng([{seed}, n]); {elapsed:.0f} s on one core.",
            "# Regenerate: python -m mtc_cli.core.criteria.dip",
            "n,replicates," + ",".join(f"{p:g}" for p in probs),
        ]
        for n, row in zip(ns, quant, strict=True):
            lines.append(f"{n},{replicates}," + ",".join(f"{v:.6g}" for v in row))
        Path(path).write_text("\n".join(lines) + "\n")
        _table.cache_clear()
    return quant


if __name__ == "__main__":
    t0 = time.perf_counter()
    calibrate()
    print(f"wrote {TABLE_FILE} in {time.perf_counter() - t0:.0f} s")
