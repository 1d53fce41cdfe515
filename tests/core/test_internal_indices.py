"""Internal validity indices (sklearn): silhouette, Caliński–Harabasz and Davies–Bouldin on
tiny cases worked by hand, the silhouette's subsampling, sparse cosine input, and the label
checks."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.metrics import silhouette_score

from mtc_cli.core.criteria import internal_indices as ii

LINE = np.array([[0.0], [1.0], [10.0], [11.0]])
LINE_LABELS = [0, 0, 1, 1]


def test_two_pairs_on_a_line_by_hand():
    # Silhouette, s = (b − a) / max(a, b); a = 1 for every point (its partner is 1 away):
    #   x = 0:  b = (10 + 11)/2 = 10.5  →  s = 9.5/10.5 = 19/21
    #   x = 1:  b = (9 + 10)/2  = 9.5   →  s = 8.5/9.5  = 17/19
    #   x = 10: b = (10 + 9)/2  = 9.5   →  17/19;  x = 11: b = 10.5  →  19/21
    #   mean = (19/21 + 17/19)/2 = (361 + 357)/(2·399) = 359/399 ≈ 0.89975
    assert ii.silhouette(LINE, LINE_LABELS) == pytest.approx(359 / 399, rel=1e-12)
    # Caliński–Harabasz: grand mean 5.5, centroids 0.5 and 10.5.
    #   B = 2·(0.5 − 5.5)² + 2·(10.5 − 5.5)² = 50 + 50 = 100
    #   W = 4·0.5² = 1
    #   CH = [B/(k − 1)] / [W/(n − k)] = (100/1)/(1/2) = 200
    assert ii.calinski_harabasz(LINE, LINE_LABELS) == pytest.approx(200.0, rel=1e-12)
    # Davies–Bouldin: scatter s_i = mean distance to centroid = 0.5 for both clusters,
    #   centroid distance 10, R_01 = (0.5 + 0.5)/10 = 0.1, DB = (0.1 + 0.1)/2 = 0.1
    assert ii.davies_bouldin(LINE, LINE_LABELS) == pytest.approx(0.1, rel=1e-12)


def test_singleton_and_pair_by_hand():
    X, labels = np.array([[0.0], [2.0], [3.0]]), [0, 1, 1]
    # Silhouette: the singleton {0} has s = 0 (Rousseeuw's convention);
    #   x = 2: a = 1, b = 2 → s = 1/2;  x = 3: a = 1, b = 3 → s = 2/3
    #   mean = (0 + 1/2 + 2/3)/3 = 7/18
    assert ii.silhouette(X, labels) == pytest.approx(7 / 18, rel=1e-12)
    # CH: grand mean 5/3, centroids 0 and 5/2.
    #   B = 1·(5/3)² + 2·(5/2 − 5/3)² = 25/9 + 2·25/36 = 25/6
    #   W = 0 + 2·(1/2)² = 1/2;  CH = (25/6 / 1) / (1/2 / 1) = 25/3
    assert ii.calinski_harabasz(X, labels) == pytest.approx(25 / 3, rel=1e-12)
    # DB: s_0 = 0, s_1 = 1/2, centroid distance 5/2 → R = (1/2)/(5/2) = 1/5 for both
    #   clusters, DB = 1/5
    assert ii.davies_bouldin(X, labels) == pytest.approx(0.2, rel=1e-12)


def blobs(rng, n):
    centres = np.array([[0.0, 0.0], [3.0, 0.0], [0.0, 3.0]])
    labels = rng.integers(0, 3, size=n)
    return centres[labels] + rng.standard_normal((n, 2)), labels


def test_silhouette_subsampling_is_deterministic_and_full_when_small():
    rng = np.random.default_rng(0)
    X, labels = blobs(rng, 300)
    full = ii.silhouette(X, labels)
    assert full == pytest.approx(silhouette_score(X, labels), rel=1e-14)
    # n ≤ max_items: the exact value, whatever the random_state
    assert ii.silhouette(X, labels, max_items=300, random_state=7) == full
    # n > max_items: an estimate on 100 objects, repeatable for a fixed random_state
    a = ii.silhouette(X, labels, max_items=100, random_state=1)
    assert a == ii.silhouette(X, labels, max_items=100, random_state=1)
    assert a != full  # a subsample was used
    assert a != ii.silhouette(X, labels, max_items=100, random_state=2)
    assert abs(a - full) < 0.1  # and it estimates the full value


@pytest.mark.parametrize("max_items", [100, 2000])
def test_silhouette_of_a_shared_sample_is_its_own(max_items):
    """One silhouette_sample serves every partition: the same value, bit for bit, as the
    silhouette that draws its sample and computes its distances itself."""
    rng = np.random.default_rng(4)
    X, labels = blobs(rng, 300)
    sample = ii.silhouette_sample(X, max_items, 3)
    for k in (2, 3, 5):
        lab = labels % k if k <= 3 else rng.integers(0, k, 300)
        assert ii.silhouette(X, lab, max_items=max_items, random_state=3, sample=sample) \
            == ii.silhouette(X, lab, max_items=max_items, random_state=3)


def test_silhouette_sparse_cosine_matches_dense():
    rng = np.random.default_rng(3)
    # two "topics" over 40 terms, 60 documents of sparse counts
    topics = np.zeros((2, 40))
    topics[0, :20], topics[1, 20:] = 1.0, 1.0
    labels = np.repeat([0, 1], 30)
    dense = rng.poisson(0.6 * topics[labels] + 0.02).astype(float)
    dense[dense.sum(axis=1) == 0, 0] = 1.0  # no empty documents (cosine undefined)
    X = sp.csr_matrix(dense)
    s = ii.silhouette(X, labels, metric="cosine")
    assert s == pytest.approx(silhouette_score(dense, labels, metric="cosine"), rel=1e-10)
    assert s > 0.3  # the topics separate
    assert ii.silhouette(X, labels, metric="cosine", max_items=20, random_state=0) == \
        ii.silhouette(X, labels, metric="cosine", max_items=20, random_state=0)


@pytest.mark.parametrize("index", [ii.silhouette, ii.calinski_harabasz, ii.davies_bouldin])
def test_label_checks(index):
    with pytest.raises(ValueError, match="2 ≤ number of clusters"):
        index(LINE, [0, 0, 0, 0])  # k = 1
    with pytest.raises(ValueError, match="2 ≤ number of clusters"):
        index(LINE, [0, 1, 2, 3])  # k = n
    with pytest.raises(ValueError, match="labels for 4 objects"):
        index(LINE, [0, 1, 1])


def test_the_three_indices_are_scikit_learns_within_rounding():
    """Our numpy silhouette (with scikit-learn's subsample), Caliński–Harabasz and
    Davies–Bouldin against ``sklearn.metrics`` on 200 random labelled sets, with ties and
    duplicates (rounded data), singletons and subsamples; the same refusals."""
    from sklearn import metrics

    rng = np.random.default_rng(0)
    for t in range(200):
        n, d = int(rng.integers(5, 300)), int(rng.integers(1, 12))
        X = rng.normal(size=(n, d))
        X = np.round(X) if t % 3 == 0 else X
        labels = rng.integers(0, int(rng.integers(2, min(n - 1, 10) + 1)), n)
        if not 2 <= len(np.unique(labels)) < n:
            continue
        m = int(rng.integers(3, n + 5))
        try:
            expected = metrics.silhouette_score(X, labels, sample_size=m if n > m else None,
                                                random_state=7)
        except ValueError:
            with pytest.raises(ValueError):
                ii.silhouette(X, labels, max_items=m, random_state=7)
        else:
            got = ii.silhouette(X, labels, max_items=m, random_state=7)
            assert got == pytest.approx(expected, rel=1e-12, abs=1e-14)
        assert ii.calinski_harabasz(X, labels) == pytest.approx(
            metrics.calinski_harabasz_score(X, labels), rel=1e-12)
        assert ii.davies_bouldin(X, labels) == pytest.approx(
            metrics.davies_bouldin_score(X, labels), rel=1e-12)
