"""Path-Based Clustering (Fischer, Zöller, Buhmann 2001): the effective dissimilarity
against a brute-force minimax path search, the agglomeration against a naive greedy
search, the predictor against the cost increase computed directly."""

import numpy as np
import pytest
from scipy.spatial.distance import cdist

from mtc_cli.core.datasets import toy
from mtc_cli.core.models import clusterers as C


def minimax_brute(D):
    """Floyd–Warshall for the bottleneck path: M_ij = min_m max(M_im, M_mj)."""
    M = D.copy()
    for m in range(len(M)):
        M = np.minimum(M, np.maximum(M[:, [m]], M[[m], :]))
    np.fill_diagonal(M, 0.0)
    return M


@pytest.mark.parametrize("n", [2, 5, 12, 30])
def test_effective_dissimilarity_is_the_minimax_path(n):
    rng = np.random.default_rng(n)
    X = rng.standard_normal((n, 2))
    assert np.allclose(C.effective_dissimilarity(X), minimax_brute(cdist(X, X)))


def test_effective_dissimilarity_precomputed_graph():
    rng = np.random.default_rng(1)
    W = rng.random((9, 9))
    W = (W + W.T) / 2
    np.fill_diagonal(W, 0)
    assert np.allclose(C.effective_dissimilarity(W, precomputed=True), minimax_brute(W))


def test_effective_to_training_is_the_minimax_path_through_the_new_object():
    rng = np.random.default_rng(2)
    train, test = rng.standard_normal((15, 2)), rng.standard_normal((6, 2))
    got = C.effective_to_training(train, test)
    for o, x in enumerate(test):
        A = np.vstack([train, x])
        assert np.allclose(got[o], minimax_brute(cdist(A, A))[-1, :-1])


def naive_agglomerate(D, k):
    """Merge the pair of clusters with the least increase of the pairwise cost,
    recomputing the cost of every candidate partition from scratch."""
    clusters = [[i] for i in range(len(D))]

    def cost(cl):
        return sum(D[np.ix_(c, c)].sum() / len(c) for c in cl)
    while len(clusters) > k:
        best = None
        for a in range(len(clusters)):
            for b in range(a + 1, len(clusters)):
                trial = [c for j, c in enumerate(clusters) if j not in (a, b)]
                trial.append(clusters[a] + clusters[b])
                value = cost(trial)
                if best is None or value < best[0] - 1e-12:
                    best = (value, a, b)
        _, a, b = best
        clusters = ([c for j, c in enumerate(clusters) if j not in (a, b)]
                    + [clusters[a] + clusters[b]])
    labels = np.empty(len(D), dtype=int)
    for t, c in enumerate(clusters):
        labels[c] = t
    return labels


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_agglomerate_matches_naive_greedy_merging(seed):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((14, 2))
    D = C.effective_dissimilarity(X) + 0.01 * cdist(X, X)  # no ties between merges
    got = C.agglomerate(D, [2, 3, 5])
    for k in (2, 3, 5):
        want = naive_agglomerate(D, k)
        assert C.pairwise_cost(D, got[k]) == pytest.approx(C.pairwise_cost(D, want))
        assert len(np.unique(got[k])) == k


def test_merge_cost_is_the_cost_difference():
    rng = np.random.default_rng(3)
    D = rng.random((8, 8))
    D = D + D.T
    lab = np.array([0, 0, 0, 1, 1, 2, 2, 2])
    merged = np.where(lab == 1, 0, lab)
    a, b = lab == 0, lab == 1
    inc = C.merge_cost(D[np.ix_(a, a)].sum(), a.sum(), D[np.ix_(b, b)].sum(), b.sum(),
                       D[np.ix_(a, b)].sum())
    assert inc == pytest.approx(C.pairwise_cost(D, merged) - C.pairwise_cost(D, lab))


def test_pathbased_predict_minimises_the_cost_increase():
    rng = np.random.default_rng(4)
    train, test = rng.standard_normal((20, 2)), rng.standard_normal((7, 2))
    labels = {3: C.pathbased_cluster(train, [3])[3]}
    got = C.pathbased_predict(train, labels, test)[3]
    for o, x in enumerate(test):
        A = np.vstack([train, x])
        D = minimax_brute(cdist(A, A))
        costs = [C.pairwise_cost(D, np.append(labels[3], v)) for v in range(3)]
        assert got[o] == int(np.argmin(costs))


def test_pathbased_separates_concentric_rings():
    X, truth = toy.rings(np.random.default_rng(5), [60, 120, 180], [1, 2, 3], 0.05)
    labels = C.pathbased_cluster(X, [3])[3]
    assert np.unique(labels * 3 + truth).size == 3  # each ring is one cluster


def array_agglomerate(D, ks):
    """The merges of :func:`agglomerate` as array expressions (its form before the loop was
    compiled): the reference the compiled merges must reproduce exactly, ties included."""
    n = len(D)
    ks = sorted(set(ks))
    size, within, S = np.ones(n), np.zeros(n), D.copy()
    delta = C.merge_cost(within[:, None], size[:, None], within[None, :], size[None, :], S)
    np.fill_diagonal(delta, np.inf)
    best = delta.argmin(axis=1)
    best_cost = delta[np.arange(n), best]
    active, assign, out = np.ones(n, dtype=bool), np.arange(n), {}
    for m in range(n, ks[0] - 1, -1):
        if m in ks:
            out[m] = np.unique(assign, return_inverse=True)[1]
        if m == ks[0]:
            break
        a = int(best_cost.argmin())
        b = int(best[a])
        within[a] += within[b] + 2.0 * S[a, b]
        size[a] += size[b]
        S[a] += S[b]
        S[:, a] = S[a]
        active[b] = False
        assign[assign == b] = a
        delta[b, :] = delta[:, b] = np.inf
        best_cost[b] = np.inf
        row = np.where(active, C.merge_cost(within[a], size[a], within, size, S[a]), np.inf)
        row[a] = np.inf
        delta[a, :] = delta[:, a] = row
        best[a] = row.argmin()
        best_cost[a] = row[best[a]]
        stale = np.flatnonzero(active & ((best == a) | (best == b)))
        stale = stale[stale != a]
        if len(stale):
            best[stale] = delta[stale].argmin(axis=1)
            best_cost[stale] = delta[stale, best[stale]]
        better = active & (row < best_cost)
        best[better] = a
        best_cost[better] = row[better]
    return out


@pytest.mark.parametrize("seed", range(6))
def test_compiled_merges_are_the_array_merges(seed):
    """Effective dissimilarities are full of ties (every pair joined through the same
    bottleneck edge): the compiled merges break them as the array expressions did."""
    rng = np.random.default_rng(seed)
    X = np.concatenate([rng.normal(c, 0.4, (60, 2)) for c in ((0, 0), (3, 0), (0, 4))])
    D = C.effective_dissimilarity(X) if seed % 2 else np.round(cdist(X, X), 1)
    ks = [1, 2, 3, 4, 7, 10]
    got, want = C.agglomerate(D, ks), array_agglomerate(D, ks)
    for k in ks:
        np.testing.assert_array_equal(got[k], want[k])


def brute_predict(train, labels, test):
    """Path-based clustering's rule from its definition: D^eff on the training set by the
    bottleneck Floyd–Warshall, D^eff(o, j) = min_i max(‖x_o − x_i‖, D^eff_ij) by a minimum
    over all training objects, and for each cluster ν the increase of H^pbc when o joins
    it, (W_ν + 2 Σ_{j∈ν} D^eff(o, j))/(n_ν + 1) − W_ν/n_ν, W_ν summed over the cluster's
    block of D^eff. Returns the label of least increase and that increase's margin over
    the runner-up, per test object."""
    D = minimax_brute(cdist(train, train))
    to_train = np.maximum(cdist(test, train)[:, :, None], D[None, :, :]).min(axis=1)
    names = np.unique(labels)
    increase = np.empty((len(test), len(names)))
    for c, v in enumerate(names):
        members = labels == v
        within, size = D[np.ix_(members, members)].sum(), members.sum()
        increase[:, c] = ((within + 2.0 * to_train[:, members].sum(axis=1)) / (size + 1)
                          - within / size)
    ordered = np.sort(increase, axis=1)
    margin = ordered[:, 1] - ordered[:, 0] if len(names) > 1 else np.full(len(test), np.inf)
    return names[increase.argmin(axis=1)], margin


def shapes(seed):
    rng = np.random.default_rng(seed)
    return {
        "clouds": toy.gaussian_clouds(rng, [30, 25, 20], [(0, 0), (4, 0), (0, 5)],
                                      [0.6, 0.9, 0.5])[0],
        "rings": toy.rings(rng, [25, 35, 45], [1.0, 2.0, 3.0], 0.08)[0],
        "spirals": toy.spirals(rng, [40, 40], 1.5, 0.05)[0],
        "uniform 4-d": rng.random((90, 4)),
    }


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("shape", ["clouds", "rings", "spirals", "uniform 4-d"])
def test_predictor_labels_blocks_as_the_rule_by_brute_force(shape, seed):
    """The predictor built once labels blocks of any size (1 object up to all of them) as
    the rule computed from its definition, for path-based solutions and for arbitrary
    labellings with arbitrary names, every k of a range at once."""
    X = shapes(seed)[shape]
    rng = np.random.default_rng(seed + 10)
    order = rng.permutation(len(X))
    train, test = X[order[:45]], X[order[45:]]
    ks = [1, 2, 3, 4, 6]
    solutions = C.pathbased_cluster(train, ks)
    solutions.update({10 + k: 7 * rng.integers(0, k, len(train)) + 3 for k in (2, 3, 5)})
    predict = C.PathBasedPredictor(train, solutions)
    cuts = [0, 1, 8, 21, len(test)]
    blocks = [predict(test[a:b]) for a, b in zip(cuts[:-1], cuts[1:], strict=True)]
    whole = C.pathbased_predict(train, solutions, test)
    for k, lab in solutions.items():
        want, margin = brute_predict(train, lab, test)
        assert margin.min() > 1e-9  # no near-tie: the label is determined
        np.testing.assert_array_equal(np.concatenate([b[k] for b in blocks]), want)
        np.testing.assert_array_equal(whole[k], want)


def test_within_sums_are_the_sums_over_each_cluster_block():
    rng = np.random.default_rng(6)
    D = C.effective_dissimilarity(rng.standard_normal((70, 3)))
    for k in (1, 2, 5, 9):
        labels = rng.integers(0, k, len(D))
        labels[:k] = np.arange(k)
        want = [D[np.ix_(labels == c, labels == c)].sum() for c in range(k)]
        np.testing.assert_allclose(C._within_sums(D, labels, k), want, rtol=1e-13)


def test_effective_to_training_takes_the_tree_it_would_build():
    rng = np.random.default_rng(7)
    train, test = rng.standard_normal((25, 3)), rng.standard_normal((9, 3))
    np.testing.assert_array_equal(
        C.effective_to_training(train, test, tree=C.single_linkage(train)),
        C.effective_to_training(train, test))
