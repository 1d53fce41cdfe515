"""Eq. 14's expected cost under the soft mapping (``soft_mapped_cost``) on cases worked by
hand and against a loop over objects and parts."""

import math

import numpy as np
import pytest

from mtc_cli.core.criteria.transfer_cost import soft_mapped_cost


def test_hand_worked_case():
    # row 1: β = ln 3 weighs the parts at d = 0 and d = 1 as 3 : 1, so 0·3/4 + 1·1/4;
    # row 2: equal costs, any β: the cost itself; the mean of 1/4 and 2
    D = np.array([[0.0, 1.0], [2.0, 2.0]])
    assert soft_mapped_cost(D, math.log(3)) == pytest.approx(1.125, rel=1e-15)


def test_limits_of_beta():
    D = np.array([[0.5, 3.0, 1.0], [4.0, 2.0, 6.0]])
    assert soft_mapped_cost(D, 0.0) == pytest.approx(D.mean(axis=1).mean(), rel=1e-15)
    assert soft_mapped_cost(D, 1e6) == pytest.approx(D.min(axis=1).mean(), rel=1e-12)


def test_equals_a_loop_over_objects_and_parts():
    rng = np.random.default_rng(0)
    D, beta = rng.uniform(0, 5, (7, 4)), 0.8
    expected = np.mean([sum(d[t] * math.exp(-beta * d[t]) for t in range(4))
                        / sum(math.exp(-beta * d[t]) for t in range(4)) for d in D])
    assert soft_mapped_cost(D, beta) == pytest.approx(expected, rel=1e-13)
