"""The composition of ``mtc select``'s split rows, pinned by a fake model with known costs:
MTC is the mean of both transfer directions, and the capacity's halves are aligned (each
solution costed on its own half, the mapping from the other half onto it, both directions
averaged). The math primitives are tested elsewhere; these tests fail when the rows are
assembled wrongly (one direction dropped, a direction costed on the other half)."""

import numpy as np
import pytest

from mtc_cli.core.criteria.approximation_capacity import capacity
from mtc_cli.core.criteria.soft_capacity import alignment, soft_capacity
from mtc_cli.selection import catalog, criteria, tasks
from mtc_cli.selection.fitting import Fit, _PerK
from mtc_cli.selection.settings import make_settings
from mtc_cli.selection.spec import Algorithm


class FakeModel(_PerK):
    """Fits nothing: a solution is the half it was given, the object-wise costs of object i
    under cluster c are known numbers (|x_i0 − c| + 0.1 c), the transfer cost of a
    solution to other objects names both (sum of the fitted half · 1000 + sum of the other)
    and every call is recorded."""

    metric = "euclidean"
    name = "fake"

    def __init__(self):
        self.transfers, self.costed = [], []

    def fit(self, X, k, rng):
        return Fit(k, np.array(X), np.argmin(self._costs(k, X), axis=1))

    @staticmethod
    def _costs(k, X):
        return np.abs(X[:, :1] - np.arange(k)[None, :]) + 0.1 * np.arange(k)[None, :]

    def costs(self, fit, X):
        self.costed.append((fit.solution, np.array(X)))
        return self._costs(fit.k, X)

    def predict(self, fit, X):
        return np.argmin(self._costs(fit.k, X), axis=1)

    def transfer_cost(self, fit, X1, X2):
        value = float(fit.solution.sum()) * 1000.0 + float(np.asarray(X2).sum())
        self.transfers.append((fit.k, fit.solution, np.array(X2), value))
        return value


def rows_of(X, names, k_hi=3):
    """The rows of the split task of ``names`` on X, of an algorithm whose model is one
    :class:`FakeModel` (registered for the test), and that model."""
    fake = FakeModel()
    with catalog.extended(Algorithm("fake", "fakes", "costs", lambda **_: fake)):
        s = make_settings("fake", (1, k_hi), names, n=len(X), d=X.shape[1])
        task = next(t for t in tasks.plan(s) if t["family"] == "split")
        return tasks.run_task(X, task, np.random.default_rng(5)), fake


def as_set(A):
    return {tuple(r) for r in np.asarray(A)}


@pytest.fixture
def X():
    rng = np.random.default_rng(0)
    return np.c_[rng.uniform(0, 3, 40), rng.normal(size=40)]


def test_mtc_is_the_mean_of_both_transfer_directions(X):
    rows, fake = rows_of(X, ["mtc"])
    for r in rows:
        calls = [c for c in fake.transfers if c[0] == r["k"]]
        assert len(calls) == 2
        (_, fit_a, to_a, va), (_, fit_b, to_b, vb) = calls
        # X¹'s solution to X², and X²'s to X¹: two disjoint halves that make up X
        assert as_set(fit_a) == as_set(to_b) and as_set(fit_b) == as_set(to_a)
        assert not as_set(fit_a) & as_set(fit_b) and as_set(fit_a) | as_set(fit_b) == as_set(X)
        assert r["score"] == 0.5 * (va + vb) and va != vb


def test_capacity_costs_each_solution_on_its_own_half_and_averages_both_mappings(X):
    rows, fake = rows_of(X, ["capacity"])
    assert [r["k"] for r in rows] == [1, 2, 3]
    for fitted_on, costed in fake.costed:
        assert as_set(costed) <= as_set(fitted_on)     # never the other half's objects
    # the k = 3 row recomputed by hand from the two costed halves
    (half1, A), (half2, B) = fake.costed[-2:]
    assert not as_set(half1) & as_set(half2)
    forward, backward = alignment(A, B, "euclidean")
    c1, c2 = FakeModel._costs(3, A), FakeModel._costs(3, B)
    one_way = capacity(forward @ c1, c2, n_grid=criteria.CAPACITY_GRID, refine="grid")[0]
    other_way = capacity(backward @ c2, c1, n_grid=criteria.CAPACITY_GRID, refine="grid")[0]
    assert one_way != other_way
    assert rows[-1]["score"] == pytest.approx(0.5 * (one_way + other_way), abs=1e-12)


def test_soft_capacity_matches_clusters_and_averages_the_two_directions():
    """Two halves of the same three tight groups, the second solution's clusters numbered
    the other way round: matched, both directions carry log₂ 3 bits."""
    rng = np.random.default_rng(1)
    centres = np.array([[0.0, 0.0], [5.0, 0.0], [0.0, 5.0]])
    A = np.repeat(centres, 10, axis=0) + 0.01 * rng.standard_normal((30, 2))
    B = np.repeat(centres, 12, axis=0) + 0.01 * rng.standard_normal((36, 2))

    class Centroids:
        def costs(self, fit, X):
            M = centres[fit.solution]
            return ((X[:, None, :] - M[None]) ** 2).sum(axis=2)

        def predict(self, fit, X):
            return np.argmin(self.costs(fit, X), axis=1)

    model = Centroids()
    f1 = Fit(3, np.array([0, 1, 2]), np.empty(0))
    f2 = Fit(3, np.array([2, 0, 1]), np.empty(0))          # the same clusters renamed
    got = soft_capacity(A, B, f1, f2, model, alignment(A, B, "euclidean"))
    assert got == pytest.approx(np.log2(3), abs=1e-6)


def test_an_algorithm_without_a_tally_keeps_an_empty_vote_table():
    """auto's JSON reads each algorithm's vote table out of the stacked vote.csv: one
    without a row (no criterion cast a vote) is an empty table with its columns, not a
    KeyError on ``voted``."""
    import pandas as pd

    from mtc_cli.selection.output import _own_vote

    stacked = pd.DataFrame({"model": ["kmeans", "kmeans"], "k": [2, 3], "votes": [3, 1],
                            "weight": [3.0, 1.0], "leading": [True, False],
                            "finalist": [float("nan")] * 2, "voted": [True, False]})
    kmeans = _own_vote(stacked, "kmeans")
    assert list(kmeans["k"][kmeans["voted"]]) == [2] and "finalist" not in kmeans
    none = _own_vote(stacked, "gmm")
    assert none.empty and {"k", "voted", "leading"} <= set(none.columns)
    assert list(none.loc[none["voted"], "k"]) == []
