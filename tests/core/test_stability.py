"""Lange et al.'s instability: the Hungarian-matched disagreement against a brute-force
search over label permutations, the random-labelling baselines against exact or analytic
values, and the resampling estimate on data whose answer is known."""

from itertools import permutations

import numpy as np
import pytest
from sklearn.cluster import KMeans
from sklearn.neighbors import NearestCentroid

from mtc_cli.core.criteria import stability, stability_resampling


def brute_disagreement(a, b):
    """min over all bijections π of the label names of the fraction with π(a_i) ≠ b_i."""
    names_a, names_b = sorted(set(a)), sorted(set(b))
    m = max(len(names_a), len(names_b))
    slots = names_b + [None] * (m - len(names_b))
    best = len(a)
    for perm in permutations(slots):
        pi = dict(zip(names_a, perm, strict=False))
        best = min(best, sum(pi[x] != y for x, y in zip(a, b, strict=True)))
    return best / len(a)


@pytest.mark.parametrize("ka,kb", [(2, 2), (3, 3), (4, 4), (2, 4), (4, 3)])
def test_disagreement_matches_brute_force(ka, kb):
    rng = np.random.default_rng(ka * 10 + kb)
    for _ in range(5):
        a, b = rng.integers(ka, size=13), rng.integers(kb, size=13)
        assert stability.disagreement(a, b) == pytest.approx(brute_disagreement(a, b))


def test_identical_and_renamed_clusterings_have_zero_disagreement():
    rng = np.random.default_rng(0)
    a = rng.integers(5, size=200)
    assert stability.disagreement(a, a) == 0.0
    renamed = np.array(["x", "y", "z", "u", "v"])[(a + 2) % 5]  # any names, permuted
    assert stability.disagreement(a, renamed) == 0.0
    b = a.copy()
    b[:7] = (b[:7] + 1) % 5
    assert stability.disagreement(a, b) == pytest.approx(7 / 200)


def test_contingency_counts_by_hand():
    a = np.array([0, 0, 1, 1, 1, 2])
    b = np.array([5, 7, 7, 7, 5, 5])
    np.testing.assert_array_equal(stability.contingency(a, b), [[1, 1], [1, 2], [1, 0]])
    with pytest.raises(ValueError):
        stability.contingency(a, b[:-1])


def test_uniform_baseline_matches_binomial_limit():
    # two uniform 2-labellings: d = ½ − |A/n − ½| with A ~ Bin(n, ½), so for large n
    # E d ≈ ½ − (½/√n)·√(2/π)
    n = 2000
    value = stability.random_label_disagreement(n, 2, np.random.default_rng(1), n_draws=400)
    assert value == pytest.approx(0.5 - 0.5 / np.sqrt(n) * np.sqrt(2 / np.pi), abs=2e-3)


def test_permutation_baseline_matches_exact_mean_over_all_permutations():
    a = np.array([0, 0, 0, 1, 1, 2])
    b = np.array([0, 1, 1, 1, 2, 2])
    exact = np.mean([brute_disagreement(a, b[list(p)]) for p in permutations(range(6))])
    value = stability.permuted_label_disagreement(a, b, np.random.default_rng(2), n_draws=4000)
    assert value == pytest.approx(exact, abs=0.01)
    # a constant labelling looks the same under every permutation: baseline = d itself
    assert stability.permuted_label_disagreement(a, np.zeros(6), np.random.default_rng(0)) == 0.5


def test_random_disagreement_dispatch():
    rng = np.random.default_rng(3)
    a = np.zeros(50, dtype=int)
    # the uniform baseline ignores the actual labels; the permutation baseline keeps
    # the single cluster and is 0
    assert stability.random_disagreement(a, a, 4, rng, normalisation="uniform") > 0.3
    assert stability.random_disagreement(a, a, 4, rng, normalisation="permutation") == 0
    with pytest.raises(ValueError, match="normalisation"):
        stability.random_disagreement(a, a, 4, rng, normalisation="gaussian")


def test_split_halves_are_disjoint_and_equal():
    i1, i2 = stability.split_halves(11, np.random.default_rng(0))
    assert len(i1) == len(i2) == 5 and not set(i1) & set(i2)


def _kmeans(X, k, rng):
    return KMeans(k, n_init=5, random_state=int(rng.integers(2**31 - 1))).fit_predict(X)


def _nearest_centroid(X1, labels1, X2):
    return NearestCentroid().fit(X1, labels1).predict(X2)


def test_instability_selects_the_separated_clusters():
    rng = np.random.default_rng(4)
    centres = np.array([[0.0, 0.0], [10.0, 0.0], [0.0, 10.0]])
    X = np.concatenate([c + 0.5 * rng.standard_normal((60, 2)) for c in centres])
    results = {k: stability_resampling.instability(X, k, _kmeans, _nearest_centroid, rng,
                                                   n_resamples=4)
               for k in (2, 3, 4, 5)}
    assert results[3].score == 0.0 and (results[3].disagreements == 0).all()
    assert all(results[k].score > 0 for k in (2, 4, 5))
    assert (results[2].random > 0.4).all()  # uniform 2-labellings of 90 objects: d ≈ 0.46
    ks = sorted(results)
    assert stability.select_k(ks, [results[k].score for k in ks]) == 3


def test_both_estimates_draw_in_their_documented_order():
    """Bit for bit: one k draws split, clustering of X′, of X, baseline per resample;
    the curve draws every resample's split and clusterings, then the baselines k by k."""
    X = np.random.default_rng(0).standard_normal((41, 2))
    rng = np.random.default_rng(1)
    d, base = [], []
    for _ in range(3):
        i1, i2 = stability.split_halves(len(X), rng)
        own = _kmeans(X[i2], 3, rng)
        predicted = _nearest_centroid(X[i1], _kmeans(X[i1], 3, rng), X[i2])
        d.append(stability.disagreement(own, predicted))
        base.append(stability.random_disagreement(own, predicted, 3, rng, n_draws=5))
    one = stability_resampling.instability(X, 3, _kmeans, _nearest_centroid,
                                           np.random.default_rng(1), n_resamples=3, n_draws=5)
    assert one.disagreements.tolist() == d and one.random.tolist() == base

    def cluster(part, ks, g):
        return {k: _kmeans(part, k, g) for k in ks}

    def predict(train, labels, test):
        return {k: _nearest_centroid(train, labels[k], test) for k in labels}

    rng = np.random.default_rng(2)
    pairs = stability_resampling.resample_labels(X, [2, 3], cluster, predict, rng, 3)
    expected = [([stability.disagreement(r.own[k], r.predicted[k]) for r in pairs],
                 [stability.random_disagreement(r.own[k], r.predicted[k], k, rng,
                                                normalisation="permutation", n_draws=4)
                  for r in pairs]) for k in (2, 3)]
    curve = stability_resampling.instability_curve(
        X, [2, 3], cluster, predict, np.random.default_rng(2), n_resamples=3,
        normalisation="permutation", n_draws=4)
    assert [(i.disagreements.tolist(), i.random.tolist()) for i in curve] == expected


def test_select_k_ignores_k1_and_breaks_ties_as_asked():
    assert stability.select_k([1, 2, 3, 4], [0.0, 0.5, 0.1, 0.1]) == 3
    assert stability.select_k([1, 2, 3, 4], [0.0, 0.5, 0.1, 0.1], ties="largest") == 4
    assert stability.select_k([2, 3], [np.nan, 0.7]) == 3
    with pytest.raises(ValueError):
        stability.select_k([1], [0.0])
