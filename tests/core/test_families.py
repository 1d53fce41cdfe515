"""The benchmark league's families of data sets (mtc_cli.core.datasets.families): designs
spread and reproducible, data consistent with their designs, every family's stated ranges,
rings (and the other shapes) resolvable by a random half, and a fast oracle per family."""

from __future__ import annotations

import functools
import json

import numpy as np
import pytest
from scipy.cluster.hierarchy import fcluster, linkage
from scipy.spatial.distance import cdist
from scipy.special import fdtri

from mtc_cli.core.datasets import families as F
from mtc_cli.core.datasets import shapes
from mtc_cli.core.datasets.shapes import embedded

FAMILIES = list(F.FAMILIES)
N_SETS = 16


@functools.cache
def made(family: str, seed: int = 0) -> tuple:
    """(design, X, truth, true_k) of the family's 16 designs."""
    return tuple((d, *F.make(d)) for d in F.designs(family, N_SETS, seed))


def ari(a, b) -> float:
    from sklearn.metrics import adjusted_rand_score

    return adjusted_rand_score(a, b)


def kmeans(X, k) -> np.ndarray:
    from sklearn.cluster import KMeans
    from threadpoolctl import threadpool_limits

    with threadpool_limits(1):  # the cores are shared: no oversubscription
        return KMeans(k, n_init=10, random_state=0).fit_predict(X)


def test_the_families_in_order_each_with_a_one_line_description():
    assert FAMILIES == ["milligan_cooper", "many_clusters", "high_dim", "shapes",
                        "densities", "one_cluster", "sizes"]
    assert all(isinstance(v, str) and v and "\n" not in v for v in F.FAMILIES.values())
    with pytest.raises(ValueError):
        F.designs("bogus", 4, 0)
    with pytest.raises(ValueError):
        F.make({"family": "bogus", "seed": 0})


@pytest.mark.parametrize("family", FAMILIES)
def test_designs_distinct_json_and_deterministic(family):
    ds = F.designs(family, N_SETS, 0)
    assert [d["id"] for d in ds] == [f"{family}-{i:02d}" for i in range(N_SETS)]
    assert ds == F.designs(family, N_SETS, 0) and ds != F.designs(family, N_SETS, 1)
    assert json.loads(json.dumps(ds)) == ds
    for d in ds:
        assert d["family"] == family and isinstance(d["seed"], int)
        assert {"true_k", "n", "d", "n_noise"} <= set(d)
    assert len({d["seed"] for d in ds}) == N_SETS
    # spread: not 16 copies of one design
    assert len({(d["true_k"], d["n"], d["d"]) for d in ds}) >= N_SETS // 2


@pytest.mark.parametrize("family", FAMILIES)
def test_make_is_consistent_with_the_design(family):
    lo, hi = F.SIZES_N_RANGE if family == "sizes" else F.N_RANGE
    for d, X, y, k in made(family):
        assert X.dtype == np.float64 and X.shape == (d["n"], d["d"]) and np.isfinite(X).all()
        assert y.shape == (d["n"],) and k == d["true_k"]
        assert set(np.unique(y[y >= 0])) == set(range(k))
        assert (y == -1).sum() == d["n_noise"] and (y >= -1).all()
        assert np.bincount(y[y >= 0]).min() >= F.MIN_CLUSTER == 15
        assert lo <= d["n"] <= hi
    d = made(family)[0][0]
    X1, y1, _ = F.make(d)
    X2, y2, _ = F.make(json.loads(json.dumps(d)))  # the design alone determines the data
    np.testing.assert_array_equal(X1, X2)
    np.testing.assert_array_equal(y1, y2)
    assert not np.array_equal(X1, F.make({**d, "seed": d["seed"] + 1})[0])


@pytest.mark.parametrize("k,n,ratio,lo,hi", [(12, 200, 10.0, 200, 1500), (2, 200, 10.0, 200, 1500),
                                             (7, 105, 1.0, 100, 10_000), (6, 9000, 3, 100, 10_000)])
def test_cluster_sizes(k, n, ratio, lo, hi):
    s = F.cluster_sizes(k, n, ratio, lo, hi)
    assert len(s) == k and min(s) >= F.MIN_CLUSTER and max(s) / min(s) <= ratio + 1e-12
    assert lo <= sum(s) <= hi


def test_milligan_cooper_ranges_and_oracle():
    from sklearn.discriminant_analysis import QuadraticDiscriminantAnalysis

    rows = made("milligan_cooper")
    assert {d["true_k"] for d, *_ in rows} == {2, 3, 4, 5}
    assert all(4 <= d["d"] <= 8 for d, *_ in rows)
    assert {d["size_pattern"] for d, *_ in rows} == set(F.mc.SIZES)
    assert {d["error"] for d, *_ in rows} == set(F.mc.ERRORS)
    for d, X, y, _ in rows:
        assert (d["n_noise"] > 0) == (d["error"] == "outliers")
        keep = y >= 0  # a supervised QDA tells Milligan's clusters apart, errors and all
        qda = QuadraticDiscriminantAnalysis(reg_param=1e-6).fit(X[keep], y[keep])
        assert qda.score(X[keep], y[keep]) >= 0.95, d["id"]


def test_many_clusters_ranges_and_kmeans_recovers_the_separated_ones():
    rows = made("many_clusters")
    ratios, seps, separated = [], [], 0
    for d, X, y, k in rows:
        assert 6 <= k <= 12 and 2 <= d["d"] <= 10 and 200 <= d["n"] <= 1500
        counts = np.bincount(y)
        ratios.append(counts.max() / counts.min())
        seps.append(d["separation"])
        assert counts.max() / counts.min() <= 10.0 and 2.0 <= d["separation"] <= 5.0
        if d["separation"] >= 3.5:
            separated += 1
            assert ari(y, kmeans(X, k)) > 0.9, d["id"]
    assert max(ratios) >= 5 and min(ratios) < 2      # sizes from near equal to ≥ 5:1
    assert min(seps) < 2.5 and max(seps) > 4.5       # from touching to well separated
    assert separated >= 4
    assert len({d["true_k"] for d, *_ in rows}) == 7


def test_high_dim_only_the_informative_dims_separate_the_clusters():
    for d, X, y, k in made("high_dim"):
        assert 20 <= d["d"] <= 100 and 2 <= k <= 6 and 200 <= d["n"] <= 1000
        inf = d["informative"]
        assert 2 <= len(inf) <= 5 and len(set(inf)) == len(inf) and max(inf) < d["d"]
        # one-way ANOVA F per column: the noise columns' stay small
        groups = [X[y == g] for g in range(k)]
        between = sum(len(g) * (g.mean(axis=0) - X.mean(axis=0)) ** 2 for g in groups) / (k - 1)
        within = sum(((g - g.mean(axis=0)) ** 2).sum(axis=0) for g in groups) / (len(X) - k)
        f = between / within
        noise = np.setdiff1d(np.arange(d["d"]), inf)
        assert f[noise].max() < fdtri(k - 1, len(X) - k, 1 - 1e-6), d["id"]
        assert f[inf].min() > 30, d["id"]
        assert ari(y, kmeans(X[:, inf], k)) > 0.9, d["id"]


def test_shapes_ranges():
    rows = made("shapes")
    shape_counts = {s: sum(d["shape"] == s for d, *_ in rows) for s in F.SHAPES}
    assert min(shape_counts.values()) >= 3
    assert sum(d["n_noise"] > 0 for d, *_ in rows) == N_SETS // 2
    assert sum(d["embedded"] for d, *_ in rows) == N_SETS // 2
    for d, *_, k in rows:
        (k_lo, k_hi), own_d, (m_lo, m_hi), _ = F.SHAPES[d["shape"]]
        assert k_lo <= k <= k_hi and m_lo <= d["n"] - d["n_noise"] <= m_hi
        assert d["d"] == (F.EMBED_DIMS if d["embedded"] else own_d)
        if d["n_noise"]:
            assert 0.045 <= d["n_noise"] / d["n"] <= 0.105


def _halves(rng, n, reps):
    return [rng.permutation(n)[: n // 2] for _ in range(reps)]


def _single_linkage(X, k):
    return fcluster(linkage(X, "single"), k, "maxclust")


def _ring_gaps(X, y, radii):
    """The largest angular gap along each ring as a chord of its radius, and the smallest
    distance between points of neighbouring rings."""
    chords = []
    for j, r in enumerate(radii):
        a = np.sort(np.arctan2(X[y == j, 1], X[y == j, 0]))
        chords.append(2 * r * np.sin(np.diff(np.r_[a, a[0] + 2 * np.pi]).max() / 2))
    gap = min(cdist(X[y == j], X[y == j + 1]).min() for j in range(len(radii) - 1))
    return max(chords), gap


RING_FACTOR = 1.75  # largest chord along a ring × this < gap between neighbouring rings


def test_rings_are_resolvable_by_a_random_half():
    """In 20 random halves of the smallest ring set and of the league's ring designs, the
    largest angular gap along every ring (as a chord) is smaller than the gap between the
    rings by a clear factor, and single linkage on the half recovers the rings."""
    rng = np.random.default_rng(0)
    n_min = F.SHAPES["rings"][2][0]
    sets = [F.rings(np.random.default_rng(s), n_min) for s in range(3)]
    sets += [(X[y >= 0, :2], y[y >= 0]) for d, X, y, _ in made("shapes")
             if d["shape"] == "rings" and not d["embedded"]]
    assert len(sets) >= 4
    for X, y in sets:
        for idx in _halves(rng, len(X), 20):
            chord, gap = _ring_gaps(X[idx], y[idx], F.RING_RADII)
            assert gap > RING_FACTOR * chord, (chord, gap)
            assert ari(y[idx], _single_linkage(X[idx], 2)) == 1.0


def test_the_old_rings_are_not_resolvable_by_a_half():
    """Why the league has its own rings: shapes.rings (radii 1, 2, 3, 133 points each) has,
    in a half, gaps along the outer ring wider than the gap between rings."""
    rng = np.random.default_rng(0)
    X, y = shapes.rings(rng, 400)
    ratios = [np.divide(*_ring_gaps(X[i], y[i], (1, 2, 3))[::-1]) for i in _halves(rng, 400, 20)]
    assert min(ratios) < 1


@pytest.mark.parametrize("shape", ["moons", "rings", "spirals", "chainlink"])
@pytest.mark.parametrize("emb", [False, True])
def test_every_curve_shape_is_resolvable_by_a_random_half(shape, emb):
    rng = np.random.default_rng(1)
    X, y = getattr(F, shape)(rng, F.SHAPES[shape][2][0])
    if emb:
        X = embedded(rng, X, F.EMBED_DIMS)
    for idx in _halves(rng, len(X), 5):
        assert ari(y[idx], _single_linkage(X[idx], len(np.unique(y)))) == 1.0


def test_anisotropic_blobs_are_sheared_but_separated():
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

    for d, X, y, _ in made("shapes"):
        if d["shape"] == "anisotropic":  # k-means' trap, a linear discriminant's delight
            keep = y >= 0
            lda = LinearDiscriminantAnalysis().fit(X[keep], y[keep])
            assert lda.score(X[keep], y[keep]) >= 0.97, d["id"]
            sv = np.linalg.svd(X[y == 0] - X[y == 0].mean(axis=0), compute_uv=False)
            assert sv[0] / sv[1] > 2


def test_densities_ranges_and_oracle():
    from sklearn.discriminant_analysis import QuadraticDiscriminantAnalysis

    rows = made("densities")
    assert {d["true_k"] for d, *_ in rows} == {2, 3, 4, 5}
    for d, X, y, k in rows:
        assert 2 <= d["d"] <= 5 and d["n_noise"] > 0
        assert 0.045 <= d["n_noise"] / d["n"] <= 0.105
        assert 3.0 - 1e-6 <= max(d["sds"]) / min(d["sds"]) <= 10.0 + 1e-6
        keep = y >= 0
        spread = [X[y == g].std(axis=0).mean() for g in range(k)]
        assert max(spread) / min(spread) > 2.0, d["id"]
        qda = QuadraticDiscriminantAnalysis(reg_param=1e-6).fit(X[keep], y[keep])
        assert qda.score(X[keep], y[keep]) >= 0.97, d["id"]


def test_one_cluster_is_one_cluster():
    rows = made("one_cluster")
    assert {d["kind"] for d, *_ in rows} == set(F.ONE_KINDS)
    for d, X, y, k in rows:
        assert k == 1 and d["n_noise"] == 0 and set(np.unique(y)) == {0}
        assert 2 <= d["d"] <= 10 and 200 <= d["n"] <= 1500
        sv = np.linalg.svd(X - X.mean(axis=0), compute_uv=False)
        if d["kind"] == "elongated":
            assert 3 <= d["elongation"] <= 10 and sv[0] / sv[1] > 2
        if d["kind"] == "student_t":
            assert 2 <= d["df"] <= 3
        if d["kind"] == "uniform_box":
            assert sv[0] / sv[-1] < 4
    # heavy tails: pooled over the sets, the share of rows beyond 3 × the median distance
    # from the centre (a spherical Gaussian's is ≤ 0.2 % in 2 dims and falls with the
    # dims; the elongated one's, ~1-dimensional, ~3 %; the t's ~6 %)
    far = {kind: np.concatenate([np.linalg.norm(X - np.median(X, axis=0), axis=1) /
                                 np.median(np.linalg.norm(X - np.median(X, axis=0), axis=1))
                                 for d, X, *_ in rows if d["kind"] == kind]) > 3
           for kind in F.ONE_KINDS}
    assert far["student_t"].mean() > 0.035
    assert max(far["uniform_box"].mean(), far["gaussian"].mean()) < 0.005


def test_sizes_ranges_and_kmeans_recovers_them():
    rows = made("sizes")
    ns = [d["n"] for d, *_ in rows]
    assert min(ns) < 200 and max(ns) > 5000
    assert {d["true_k"] for d, *_ in rows} == set(range(2, 9))
    for d, X, y, k in rows:
        assert 100 <= d["n"] <= 10_000 and 2 <= k <= 8 and 2 <= d["d"] <= 16
        if d["n"] > F.SIZES_WIDE_N:
            assert d["d"] <= F.SIZES_WIDE_DIMS
        counts = np.bincount(y)
        assert counts.max() / counts.min() <= F.SIZES_RATIO + 1e-9
        assert ari(y, kmeans(X, k)) > 0.9, d["id"]
