"""The gap statistic's k rules of R's cluster::maxSE (mtc_cli.core.criteria.gap_rules)."""

import math

import numpy as np
import pytest

from mtc_cli.core.criteria.gap_rules import METHODS, choose
from mtc_cli.core.criteria.gap_statistic import select_1se

KS = np.arange(1, 9)
# positions:   k=1   k=2   k=3   k=4   k=5   k=6   k=7   k=8
GAP = np.array([0.30, 0.45, 0.50, 0.48, 0.60, 0.80, 1.00, 0.95])
SE = np.array([0.01, 0.01, 0.25, 0.01, 0.01, 0.01, 0.30, 0.01])


@pytest.mark.parametrize("method, expected", [
    # first local maximum: Gap rises to k=3 (0.50), falls at k=4 (0.48)
    ("firstmax", 3),
    # global maximum: Gap(7) = 1.00
    ("globalmax", 7),
    # smallest k with Gap(k) ≥ Gap(k+1) − s_{k+1}: k=1: 0.30 ≥ 0.44 no; k=2: 0.45 ≥ 0.25 yes
    ("Tibs2001SEmax", 2),
    # first local max k*=3, Gap(3) − s_3 = 0.25; leftmost k < 3 with Gap ≥ 0.25 is k=1
    ("firstSEmax", 1),
    # global max k*=7, Gap(7) − s_7 = 0.70; leftmost k < 7 with Gap ≥ 0.70 is k=6 (0.80)
    ("globalSEmax", 6),
])
def test_each_rule_on_a_curve_that_separates_them(method, expected):
    assert choose(KS, GAP, SE, method) == expected


def test_increasing_curve_falls_back_to_the_largest_k():
    ks, gap, s = np.arange(1, 6), np.array([0.0, 1.0, 2.0, 3.0, 4.0]), np.full(5, 0.1)
    for method in METHODS:
        assert choose(ks, gap, s, method) == 5, method


def test_ks_need_not_start_at_one():
    assert choose(KS + 1, GAP, SE, "firstSEmax") == 2
    assert choose(KS + 1, GAP, SE, "globalmax") == 8


def test_tibs2001_agrees_with_select_1se():
    rng = np.random.default_rng(3)
    for _ in range(300):
        m = int(rng.integers(1, 10))
        ks = np.arange(1, m + 1)
        gap = np.cumsum(rng.normal(0.1, 0.3, m))
        s = rng.uniform(0.0, 0.3, m)
        assert choose(ks, gap, s, "Tibs2001SEmax") == select_1se(ks, gap, s)


def test_first_max_ties_count_as_a_stop_and_global_ties_take_the_first():
    # maxSE: diff(f) <= 0 stops at a plateau; which.max takes the first of equal maxima
    ks, gap, s = np.arange(1, 5), np.array([0.2, 0.5, 0.5, 0.1]), np.zeros(4)
    assert choose(ks, gap, s, "firstmax") == 2
    assert choose(ks, gap, s, "globalmax") == 2


def test_nan_or_empty_curve_gives_nan_and_bad_input_raises():
    gap = GAP.copy()
    gap[4] = np.nan
    assert all(math.isnan(choose(KS, gap, SE, m)) for m in METHODS)
    assert math.isnan(choose([], [], [], "globalmax"))
    with pytest.raises(ValueError, match="unknown method"):
        choose(KS, GAP, SE, "Tibs2001")
    with pytest.raises(ValueError, match="ks"):
        choose(KS[:-1], GAP, SE, "globalmax")
