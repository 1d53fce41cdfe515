"""Hartigan's dip (mtc_cli/core/criteria/dip.py): values worked out by hand from the
definition (the sup distance from the empirical distribution function F_n to the closest
unimodal distribution function), the dip of small samples against a linear program that
searches over unimodal distribution functions directly, invariances, and the simulated
p-value table (its reproduction from the seed and its calibration on fresh uniforms)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.optimize import linprog

from mtc_cli.core.criteria.dip import (
    CALIBRATION_SEED,
    TABLE_FILE,
    TABLE_PROBS,
    calibrate,
    dip,
    dip_pvalue,
    null_survival,
)


def _constraint_appender(nv, rows, rhs):
    """at_most(terms, bound) appends the row Σ c·v_j ≤ bound, terms = [(j, c), …]."""

    def at_most(terms, bound):
        row = np.zeros(nv)
        for j, c in terms:
            row[j] += c
        rows.append(row)
        rhs.append(bound)

    return at_most


def dip_by_linear_programs(x) -> float:
    """The dip from its definition, by one linear program per candidate mode.

    For distinct values u_0 < … < u_{K−1} with F_n(u_i−) = P_i, F_n(u_i) = P_{i+1}, a
    unimodal G may be taken piecewise linear between the u_i (with a mode at some u_k
    where it may jump: a mode strictly between two values can be moved to one of them),
    so the dip is min over k of: minimise d over g_i = G(u_i) and h = G(u_k−) subject to
    P_{i+1} − d ≤ g_i ≤ P_i + d (i ≠ k; G continuous at u_i meets both sides of the jump),
    |g_k − P_{k+1}| ≤ d, |h − P_k| ≤ d, h ≤ g_k, the points (u_0, g_0) … (u_k, h) convex
    and nondecreasing, (u_k, g_k) … (u_{K−1}, g_{K−1}) concave and nondecreasing, and
    0 ≤ G ≤ 1. Nothing of the hull walk of the module is used."""
    x = np.sort(np.asarray(x, dtype=float))
    u, counts = np.unique(x, return_counts=True)
    big_k = u.size
    if big_k == 1:
        return 0.0
    cum = np.concatenate([[0.0], np.cumsum(counts) / x.size])
    nv, ih, idd = big_k + 2, big_k, big_k + 1
    best = math.inf
    for k in range(big_k):
        rows, rhs = [], []
        at_most = _constraint_appender(nv, rows, rhs)

        for i in range(big_k):
            below, above = cum[i], cum[i + 1]
            if i != k:
                at_most([(i, -1.0), (idd, -1.0)], -above)
                at_most([(i, 1.0), (idd, -1.0)], below)
            else:
                at_most([(i, -1.0), (idd, -1.0)], -above)
                at_most([(i, 1.0), (idd, -1.0)], above)
                at_most([(ih, -1.0), (idd, -1.0)], -below)
                at_most([(ih, 1.0), (idd, -1.0)], below)
                at_most([(ih, 1.0), (i, -1.0)], 0.0)
        left = [(u[i], i) for i in range(k)] + [(u[k], ih)]
        right = [(u[i], i) for i in range(k, big_k)]
        for chain, sign in ((left, 1.0), (right, -1.0)):  # convex, then concave
            for (x0, v0), (x1, v1), (x2, v2) in zip(chain, chain[1:], chain[2:], strict=False):
                c0, c2 = 1.0 / (x1 - x0), 1.0 / (x2 - x1)
                at_most([(v1, sign * (c0 + c2)), (v0, -sign * c0), (v2, -sign * c2)], 0.0)
        if len(left) >= 2:
            at_most([(left[0][1], 1.0), (left[1][1], -1.0)], 0.0)
        if len(right) >= 2:
            at_most([(right[-2][1], 1.0), (right[-1][1], -1.0)], 0.0)
        cost = np.zeros(nv)
        cost[idd] = 1.0
        res = linprog(cost, A_ub=np.array(rows), b_ub=np.array(rhs),
                      bounds=[(0.0, 1.0)] * (big_k + 1) + [(0.0, None)], method="highs")
        assert res.status == 0
        best = min(best, res.fun)
    return best


# --- values worked out by hand -------------------------------------------------------


def test_degenerate_samples_are_unimodal():
    # a point mass is unimodal (convex on (−∞, m], concave on [m, ∞)): dip 0
    assert dip([3.0]) == 0.0
    assert dip([2.5] * 7) == 0.0
    assert dip_pvalue([1.0] * 5) == (0.0, 1.0)


def test_two_and_three_distinct_points():
    # n = 2: G continuous at one of the two jumps of 1/2 misses one side by ≥ 1/4, and
    # G = 1/4 up to u_0, linear to 3/4 at u_1, then 1 meets 1/4: the dip is 1/4
    for x in ([0.0, 1.0], [-5.0, 1e6], [1e-9, 2e-9]):
        assert dip(x) == pytest.approx(0.25, abs=1e-15)
    # n = 3: ≥ 1/(2n) = 1/6 (a jump of 1/3 away from the mode); 1/6 is reached with the
    # mode at the middle point, wherever it lies
    for x in ([0.0, 1.0, 2.0], [0.0, 1.0, 100.0], [0.0, 99.0, 100.0]):
        assert dip(x) == pytest.approx(1.0 / 6.0, abs=1e-15)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 10, 37, 100, 1000])
def test_equally_spaced_points(n):
    # the line through the midpoints of the jumps is within 1/(2n) of F_n, the least
    # possible: the dip is 1/(2n)
    assert dip(np.arange(n) * 0.3 - 7.0) == pytest.approx(1.0 / (2 * n), rel=1e-12)


@pytest.mark.parametrize("m1, m2", [(1, 1), (3, 3), (50, 50), (1, 4), (7, 2), (10, 30)])
def test_two_atoms(m1, m2):
    # atoms of m1/n and m2/n: the larger is the mode (an atom there is allowed), G is
    # continuous at the smaller, whose jump it splits: dip = min(m1, m2)/(2n). Two values
    # repeated m times each give exactly 1/4 for every m (F_n does not depend on m).
    x = np.r_[np.zeros(m1), np.ones(m2)]
    assert dip(x) == pytest.approx(min(m1, m2) / (2 * (m1 + m2)), abs=1e-15)


@pytest.mark.parametrize("m, gap", [(2, 3), (2, 10), (2, 1000), (3, 10), (5, 5), (5, 40),
                                    (20, 500)])
def test_two_equally_spaced_clusters(m, gap):
    """m points at 0, 1, …, w (w = m − 1) and m at L, …, L + w (L ≥ m), n = 2m.

    Lower bound: the convex piece of G runs over one cluster and up to the other's start
    (or, with the mode in the gap, the same bound follows from both pieces); on the left,
    G(0) ≤ d (F_n(0−) = 0), G(w) ≥ 1/2 − d (F_n(w) = 1/2), G(L−) ≤ 1/2 + d
    (F_n(L−) = 1/2), and convexity G(w) ≤ (1 − w/L)·G(0) + (w/L)·G(L−) give
    d ≥ 1/4 − w/(4L). It is reached by G = d + x/(2L) on the left cluster and the gap, a
    jump at L and the line through the midpoints of the right cluster's jumps (which needs
    only 1/(2n) ≤ 1/4 − w/(4L)). So dip = 1/4 − (m − 1)/(4L), → 1/4 as L → ∞."""
    x = np.r_[np.arange(m), gap + np.arange(m)].astype(float)
    assert dip(x) == pytest.approx(0.25 - (m - 1) / (4.0 * gap), abs=1e-14)
    assert dip(-x) == pytest.approx(0.25 - (m - 1) / (4.0 * gap), abs=1e-14)


# --- against the definition, by linear programming -----------------------------------


def test_agrees_with_linear_programs_on_small_samples():
    rng = np.random.default_rng(20250301)
    for trial in range(80):
        n = int(rng.integers(2, 13))
        if trial % 4 == 0:  # ties
            x = rng.integers(0, int(rng.integers(2, 7)), n).astype(float)
        elif trial % 4 == 1:  # two groups
            x = np.r_[rng.normal(0.0, 1.0, n // 2),
                      rng.normal(rng.uniform(0.0, 8.0), rng.uniform(0.2, 2.0), n - n // 2)]
        elif trial % 4 == 2:  # skewed, heavy-tailed
            x = rng.exponential(size=n) ** rng.uniform(-2.0, 2.0)
        else:  # equally spaced subsets (collinear corners)
            x = np.sort(rng.choice(np.arange(20.0), n, replace=False))
        assert dip(x) == pytest.approx(dip_by_linear_programs(x), abs=1e-7), x


# --- invariances ---------------------------------------------------------------------


def test_invariant_under_order_and_affine_maps():
    rng = np.random.default_rng(7)
    for n in (5, 30, 400):
        x = np.r_[rng.normal(0.0, 1.0, n), rng.normal(3.0, 0.5, n // 2)]
        d = dip(x)
        assert dip(rng.permutation(x)) == d
        for scale, shift in ((2.5, -3.0), (2.0**-20, 0.0), (-1.0, 0.0), (-40.0, 7.0)):
            assert dip(scale * x + shift) == pytest.approx(d, abs=1e-12)
        # 1e-6·x + 1e3 rounds the data themselves (ulp 1e-13 against gaps of ~1e-8)
        assert dip(1e-6 * x + 1e3) == pytest.approx(d, abs=1e-8)


def test_bounds_and_input_checks():
    rng = np.random.default_rng(3)
    for n in (4, 50, 2000):
        d = dip(rng.standard_cauchy(n))
        assert 1.0 / (2 * n) <= d <= 0.25
    with pytest.raises(ValueError):
        dip([])
    with pytest.raises(ValueError):
        dip([1.0, np.nan])
    with pytest.raises(ValueError):
        dip(np.ones((3, 2)))


# --- the p-value table ---------------------------------------------------------------


def test_table_is_small_monotone_and_reproduced_from_its_seed():
    assert TABLE_FILE.stat().st_size < 100_000
    assert f"seed={CALIBRATION_SEED}" in TABLE_FILE.read_text()
    lines = [ln for ln in TABLE_FILE.read_text().splitlines() if not ln.startswith("#")]
    assert [float(v) for v in lines[0].split(",")[2:]] == list(TABLE_PROBS)
    rows = {int(ln.split(",")[0]): ln.split(",") for ln in lines[1:]}
    for row in rows.values():
        q = np.array(row[2:], dtype=float)
        assert np.all(np.diff(q) >= 0.0)
    # rows are drawn from default_rng([seed, n]) independently: n = 4 and n = 50 again
    replicates = int(rows[50][1])
    again = calibrate(path=None, replicates=replicates, ns=(4, 50))
    for n, q in zip((4, 50), again, strict=True):
        np.testing.assert_allclose(q, np.array(rows[n][2:], dtype=float), rtol=1e-5)


def test_null_survival_edges():
    assert null_survival(3, 0.2) == 1.0  # n ≤ 3: no test
    assert null_survival(100, 1.0 / 200) == 1.0  # the least possible dip
    for n in (4, 11, 100, 250, 10**6):
        dips = np.linspace(0.0, 2.0, 401) / math.sqrt(n)  # √n·dip from 0 to 2
        p = np.array([null_survival(n, d) for d in dips])
        assert np.all((0.0 <= p) & (p <= 1.0)) and np.all(np.diff(p) <= 0.0)
        assert p[0] == 1.0 and p[-1] < 1e-6


def test_uniform_samples_give_large_p_values():
    rng = np.random.default_rng(11)
    p = [dip_pvalue(rng.uniform(size=200))[1] for _ in range(50)]
    assert np.median(p) > 0.3


def test_two_well_separated_gaussians_give_small_p_values():
    rng = np.random.default_rng(12)
    for _ in range(5):
        x = np.r_[rng.normal(0.0, 1.0, 100), rng.normal(6.0, 1.0, 100)]
        d, p = dip_pvalue(x)
        assert d > 0.05 and p < 0.01


@pytest.mark.parametrize("n", [100, 250])
def test_rejection_rate_at_five_percent_on_fresh_uniforms(n):
    # seeds unrelated to the table's; n = 250 lies between the rows 200 and 300
    rng = np.random.default_rng([99, n])
    p = np.array([dip_pvalue(rng.uniform(size=n))[1] for _ in range(500)])
    assert 0.02 <= np.mean(p < 0.05) <= 0.08
