"""k-means of mtc_cli.core.models.clusterers: k-means++ and Lloyd against straightforward
one-restart-at-a-time references, the same results whether the distances are computed as
a whole matrix or row by row and whatever the batches of restarts, and memory O(n) for
n = 20 000 objects."""

import tracemalloc

import numpy as np
import pytest

from mtc_cli.core.models import clusterers as C


def reference_kmeans_plusplus(X, k, n_init, rng):
    """Greedy k-means++ one restart at a time, distances as explicit differences; the same
    random numbers in the same order as :func:`C.kmeans_plusplus`."""
    n, trials = len(X), 2 + int(np.log(k))
    first = rng.integers(n, size=n_init)
    draws = [rng.random((n_init, trials)) for _ in range(1, k)]
    sq = ((X[:, None, :] - X[None, :, :]) ** 2).sum(axis=2)
    out = []
    for r in range(n_init):
        chosen = [first[r]]
        nearest = sq[first[r]]
        for t in range(1, k):
            cum = np.cumsum(nearest)
            best = None
            for u in draws[t - 1][r] * cum[-1]:
                cand = min(int(np.searchsorted(cum, u, side="left")), n - 1)
                pot = np.minimum(nearest, sq[cand])
                if best is None or pot.sum() < best[1].sum():
                    best = (cand, pot)
            chosen.append(best[0])
            nearest = best[1]
        out.append(X[chosen])
    return np.array(out)


def reference_lloyd(X, centres, max_iter=100):
    """Plain Lloyd's algorithm from one set of centres: (labels, centres, cost)."""
    centres, labels = centres.copy(), None
    for _ in range(max_iter):
        new = ((X[:, None, :] - centres[None]) ** 2).sum(axis=2).argmin(axis=1)
        if labels is not None and np.array_equal(new, labels):
            break
        labels = new
        for j in range(len(centres)):
            if np.any(labels == j):
                centres[j] = X[labels == j].mean(axis=0)
    return labels, centres, float(((X - centres[labels]) ** 2).sum())


@pytest.fixture(params=["whole matrix, one batch", "rows, one batch", "rows, batches of 2"])
def mode(request, monkeypatch):
    """The three ways of computing: n × n distances or rows, all restarts or batches."""
    if request.param != "whole matrix, one batch":
        monkeypatch.setattr(C, "FULL_DISTANCES_MAX", 0)
    if request.param == "rows, batches of 2":
        monkeypatch.setattr(C, "BATCH_ELEMENTS", 1)
    return request.param


def data(seed, n=60, d=3):
    rng = np.random.default_rng(seed)
    centres = rng.normal(scale=3.0, size=(4, d))
    return centres[rng.integers(4, size=n)] + rng.standard_normal((n, d))


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("k,n_init", [(1, 3), (2, 5), (5, 7), (9, 4)])
def test_kmeans_plusplus_matches_the_reference(mode, seed, k, n_init):
    X = data(seed)
    got = C.kmeans_plusplus(X, k, n_init, np.random.default_rng(seed))
    want = reference_kmeans_plusplus(X, k, n_init, np.random.default_rng(seed))
    assert np.array_equal(got, want)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("k,n_init", [(1, 2), (3, 5), (6, 7)])
def test_lloyd_keeps_the_best_restart_of_the_reference(mode, seed, k, n_init):
    X = data(seed, n=80)
    labels, centres, cost = C.lloyd(X, k, np.random.default_rng(seed), n_init=n_init)
    seeds = reference_kmeans_plusplus(X, k, n_init, np.random.default_rng(seed))
    runs = [reference_lloyd(X, s) for s in seeds]
    best = runs[int(np.argmin([r[2] for r in runs]))]
    assert np.array_equal(labels, best[0])
    assert np.allclose(centres, best[1]) and cost == pytest.approx(best[2])


def test_rows_and_batches_give_the_same_clustering(monkeypatch):
    """Row-by-row distances and batches of restarts change no label, draw or generator
    state, and centres and cost only within rounding: BLAS picks its kernel by the product's
    shape and the CPU, so the bits agree on some kernels (Haswell) but not on all (AVX-512's
    small-matrix kernels round the rows of a 16-row product unlike those of X Xᵀ)."""
    X = data(7, n=1003, d=10)
    runs = []
    for full_max, budget in [(np.inf, 2**23), (0, 2**23), (0, 1), (np.inf, 3000)]:
        monkeypatch.setattr(C, "FULL_DISTANCES_MAX", full_max)
        monkeypatch.setattr(C, "BATCH_ELEMENTS", budget)
        rng = np.random.default_rng(3)
        labels, centres, cost = C.lloyd(X, 6, rng, n_init=9)
        runs.append((labels, centres, cost, rng.random()))
    for labels, centres, cost, state in runs[1:]:
        assert np.array_equal(labels, runs[0][0]) and state == runs[0][3]
        np.testing.assert_allclose(centres, runs[0][1], rtol=1e-12, atol=1e-12)
        assert cost == pytest.approx(runs[0][2], rel=1e-12)


@pytest.mark.parametrize("n,d", [(203, 2), (517, 10)])
def test_distance_rows_equal_the_rows_of_the_whole_matrix(n, d):
    """Equal within rounding (relative to the row's largest distance): the two ways are
    BLAS products of other shapes (see above)."""
    X = np.random.default_rng(n).standard_normal((n, d))
    whole, rows = C.squared_distances(X, full=True), C.squared_distances(X, full=False)
    for m in (1, 3, 5, 17, 40):
        idx = np.random.default_rng(m).integers(n, size=m)
        got, want = rows(idx), whole(idx)
        scale = want.max(axis=-1, keepdims=True)
        assert np.all(np.abs(got - want) <= 1e-13 * scale)
    idx = np.array([[0, 5, 7], [1, 1, 2]])
    assert rows(idx).shape == (2, 3, n)
    np.testing.assert_allclose(rows(idx), whole(idx), rtol=0, atol=1e-13 * whole(idx).max())
    assert np.allclose(whole(np.arange(n)), ((X[:, None] - X[None]) ** 2).sum(axis=2))


@pytest.mark.parametrize("n_restarts,per,budget,sizes", [
    (20, 10, 2**23, [20]), (20, 10, 50, [5, 5, 5, 5]), (7, 10, 30, [3, 4]),
    (5, 10, 1, [2, 3]), (1, 10, 1, [1]), (4, 10, 1, [2, 2])])
def test_batches_cover_the_restarts_two_at_least(monkeypatch, n_restarts, per, budget, sizes):
    monkeypatch.setattr(C, "BATCH_ELEMENTS", budget)
    parts = C.batches(n_restarts, per)
    assert [p.stop - p.start for p in parts] == sizes
    assert parts[0].start == 0 and parts[-1].stop == n_restarts
    assert all(a.stop == b.start for a, b in zip(parts, parts[1:], strict=False))


def test_twenty_thousand_points_without_an_n_by_n_matrix():
    """n = 20 000: an n × n matrix would take 3.2 GB; the peak stays under 200 MB."""
    rng = np.random.default_rng(0)
    X = np.repeat(rng.normal(scale=5.0, size=(4, 3)), 5000, axis=0) + rng.standard_normal(
        (20000, 3))
    tracemalloc.start()
    try:
        labels, centres, _ = C.lloyd(X, 4, np.random.default_rng(1), n_init=20)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 200e6 < 8 * len(X) ** 2 / 10
    assert sorted(np.bincount(labels)) == pytest.approx([5000] * 4, abs=50)
