"""wASC criteria (Buhmann et al. 2011, eqs. 9, 11–15): I_β checked against the weight sums
over every clustering (brute force before factorising), its limits and bounds, the
vectorized β grid against a loop, and the expected transfer cost against a loop."""

from itertools import product

import numpy as np
import pytest

from mtc_cli.core.criteria.approximation_capacity import (
    beta_grid,
    capacity,
    expected_transfer_cost,
    mutual_information,
)


def brute_force_information(c1, c2, beta):
    """Eq. 8 with the weight sums of eqs. 11–12 summed over all Kⁿ clusterings c (no
    factorisation over objects): I = (1/n)(log Kⁿ + log Z₁₂ − log Z₁ − log Z₂), in bits."""
    n, K = c1.shape
    z1 = z2 = z12 = 0.0
    for c in product(range(K), repeat=n):
        r1 = sum(c1[i, c[i]] for i in range(n))
        r2 = sum(c2[i, c[i]] for i in range(n))
        z1 += np.exp(-beta * r1)
        z2 += np.exp(-beta * r2)
        z12 += np.exp(-beta * (r1 + r2))
    return (n * np.log(K) + np.log(z12) - np.log(z1) - np.log(z2)) / n / np.log(2)


@pytest.fixture
def costs():
    rng = np.random.default_rng(0)
    return rng.random((4, 3)) * 3, rng.random((4, 3)) * 3


@pytest.mark.parametrize("beta", [0.0, 0.3, 1.0, 4.0])
def test_mutual_information_matches_sum_over_all_clusterings(costs, beta):
    c1, c2 = costs
    assert mutual_information(c1, c2, beta) == pytest.approx(
        brute_force_information(c1, c2, beta), abs=1e-10)


def test_zero_at_beta_zero_and_bounded_by_log_k():
    rng = np.random.default_rng(1)
    c1, c2 = rng.random((50, 5)) * 10, rng.random((50, 5)) * 10
    assert mutual_information(c1, c2, 0.0) == pytest.approx(0.0, abs=1e-12)
    values = mutual_information(c1, c2, np.logspace(-3, 3, 40))
    assert np.all(values <= np.log2(5) + 1e-12)


def test_vectorized_grid_equals_loop(costs, monkeypatch):
    c1, c2 = costs
    grid = np.concatenate([[0.0], np.logspace(-2, 2, 25)])
    loop = np.array([mutual_information(c1, c2, float(b)) for b in grid])
    np.testing.assert_allclose(mutual_information(c1, c2, grid), loop, atol=1e-12)
    # the same with blocks of one β each (the memory bound of the vectorized path)
    monkeypatch.setattr("mtc_cli.core.criteria.approximation_capacity._BLOCK", 1)
    np.testing.assert_allclose(mutual_information(c1, c2, grid), loop, atol=1e-12)
    assert mutual_information(c1, c2, grid[1:].reshape(5, 5)).shape == (5, 5)


def test_capacity_of_separated_noise_free_clusters_is_log_k():
    K, n = 4, 40
    labels = np.arange(n) % K
    c = np.where(np.arange(K)[None, :] == labels[:, None], 0.0, 5.0)  # own cluster free
    cap, beta = capacity(c, c)
    assert cap == pytest.approx(np.log2(K), abs=1e-6)
    assert beta > 0


def test_capacity_is_the_maximum_over_its_grid(costs):
    c1, c2 = costs
    grid = np.logspace(-2, 2, 50)
    cap, beta = capacity(c1, c2, grid)
    values = mutual_information(c1, c2, grid)
    assert cap == pytest.approx(values.max())
    assert beta == grid[np.argmax(values)]
    # the automatic grid plus refinement is at least as good as any grid point near it
    auto, _ = capacity(c1, c2)
    assert auto >= mutual_information(c1, c2, beta_grid(c1, c2)).max() - 1e-12


def test_uninformative_costs_give_zero_capacity():
    rng = np.random.default_rng(2)
    equal = np.tile(rng.random((30, 1)), (1, 3))  # all assignments of an object cost the same
    cap, beta = capacity(equal, equal)
    assert cap == pytest.approx(0.0, abs=1e-12) and beta == 0.0
    # independent random costs: no β carries information on average
    c1, c2 = rng.random((4000, 3)), rng.random((4000, 3))
    assert capacity(c1, c2)[0] < 0.01


def test_object_wise_shift_leaves_information_unchanged(costs):
    c1, c2 = costs
    shift = np.arange(4.0)[:, None] * 7
    for beta in (0.5, 2.0):
        assert mutual_information(c1 + shift, c2 - shift, beta) == pytest.approx(
            mutual_information(c1, c2, beta), abs=1e-12)


def test_expected_transfer_cost_matches_loop(costs):
    c1, c2 = costs
    for beta in (0.0, 0.7, 3.0):
        want = 0.0
        for i in range(len(c1)):
            w = np.exp(-beta * c1[i])
            want += (w / w.sum()) @ c2[i]
        assert expected_transfer_cost(c1, c2, beta) == pytest.approx(want / len(c1))
    # limits: β = 0 spreads uniformly, β → ∞ takes X¹'s cheapest assignment
    assert expected_transfer_cost(c1, c2, 0.0) == pytest.approx(c2.mean())
    hard = c2[np.arange(len(c1)), c1.argmin(axis=1)].mean()
    assert expected_transfer_cost(c1, c2, 1e6) == pytest.approx(hard)
    grid = np.array([0.0, 0.7, 3.0])
    np.testing.assert_allclose(expected_transfer_cost(c1, c2, grid),
                               [expected_transfer_cost(c1, c2, b) for b in grid])


def test_rejects_bad_input():
    with pytest.raises(ValueError):
        mutual_information(np.zeros((3, 2)), np.zeros((3, 3)), 1.0)
    with pytest.raises(ValueError):
        mutual_information(np.zeros((3, 2)), np.zeros((3, 2)), -1.0)
    with pytest.raises(ValueError):
        capacity(np.full((3, 2), np.nan), np.zeros((3, 2)))
