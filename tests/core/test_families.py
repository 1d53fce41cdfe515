"""The benchmark league's families of data sets (mtc_cli.core.datasets.families): designs
spread and reproducible, data consistent with their designs (the first seven families' data
pinned by hashes), every family's stated ranges, rings (and the other shapes) resolvable by a
random half, a fast oracle per family, and the separation rule of scenes and symmetric, with
the geometry of their groups and arrangements."""

from __future__ import annotations

import functools
import hashlib
import json

import numpy as np
import pytest
from scipy.cluster.hierarchy import fcluster, linkage
from scipy.spatial.distance import cdist, pdist
from scipy.special import fdtri

from mtc_cli.core.datasets import families as F
from mtc_cli.core.datasets import toy

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
                        "densities", "one_cluster", "sizes", "scenes", "symmetric",
                        "two_curves"]
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


def fingerprint(family: str) -> str:
    """A hash of the family's 16 designs of seed 0 and their data (X to 6 decimals, so that a
    last-bit difference of another platform's BLAS does not move it)."""
    h = hashlib.sha256(json.dumps([d for d, *_ in made(family)], sort_keys=True).encode())
    for _, X, y, _ in made(family):
        h.update((np.round(X, 6) + 0.0).tobytes())  # + 0.0: −0.0 as 0.0
        h.update(y.tobytes())
    return h.hexdigest()[:16]


#: the first seven families as they were when scenes and symmetric joined (main at 23bd8da)
PINNED = {"milligan_cooper": "67f175bf8254f548", "many_clusters": "819e78f9bad70a47",
          "high_dim": "9a51aa504eff079b", "shapes": "27ac0a35f648e2b5",
          "densities": "69b234f2d1a97377", "one_cluster": "0db53dcf6330204f",
          "sizes": "3d2a88d563e6224d"}


@pytest.mark.parametrize("family", list(PINNED))
def test_the_existing_families_designs_and_data_are_unchanged(family):
    assert fingerprint(family) == PINNED[family]


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
    """Why the league has its own rings: three rings of radii 1, 2, 3 with 133 points each
    and noise sd 0.08 have, in a half, gaps along the outer ring wider than the gap between
    rings."""
    rng = np.random.default_rng(0)
    X, y = toy.rings(rng, (134, 133, 133), (1.0, 2.0, 3.0), 0.08)
    ratios = [np.divide(*_ring_gaps(X[i], y[i], (1, 2, 3))[::-1]) for i in _halves(rng, 400, 20)]
    assert min(ratios) < 1


@pytest.mark.parametrize("shape", ["moons", "rings", "spirals", "chainlink"])
@pytest.mark.parametrize("emb", [False, True])
def test_every_curve_shape_is_resolvable_by_a_random_half(shape, emb):
    rng = np.random.default_rng(1)
    X, y = getattr(F, shape)(rng, F.SHAPES[shape][2][0])
    if emb:
        X = F.embedded(rng, X, F.EMBED_DIMS)
    for idx in _halves(rng, len(X), 5):
        assert ari(y[idx], _single_linkage(X[idx], len(np.unique(y)))) == 1.0


def test_embedding_appends_small_noise_dims_and_rotates():
    """:func:`F.embedded`: EMBED_DIMS columns; a rotation keeps distances and the noise
    dims (sd EMBED_NOISE × the mean sd) add little to them."""
    rng = np.random.default_rng(3)
    X, _ = F.moons(rng, 400)
    E = F.embedded(rng, X)
    assert E.shape == (400, F.EMBED_DIMS)
    d0, d1 = pdist(X[:50]), pdist(E[:50])
    assert np.median(np.abs(d1 - d0)) < 0.1 * np.median(d0)


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


# --- scenes and symmetric: the separation rule, the groups' shapes, the arrangements -------

LEAGUE = {"scenes": 48, "symmetric": 16}


@functools.cache
def league(family: str) -> tuple:
    """(design, X, truth, true_k) of the family's sets in the league (seed 2027), drawn once."""
    return tuple((d, *F.make(d)) for d in F.designs(family, LEAGUE[family], 2027))


def test_connectivity_scale_and_separation_by_hand():
    line = np.array([[0.0], [1.0], [3.0], [7.0]])  # spanning tree 0–1–3–7: edges 1, 2, 4
    assert F.connectivity_scale(line) == 4.0 and F.connectivity_scale(line[:1]) == 0.0
    X = np.array([[0.0], [1.0], [5.0], [6.5], [3.0]])
    y = np.array([0, 0, 1, 1, -1])  # the noise point at 3 counts for nothing
    assert F.separation(X, y) == 4.0 / 1.5  # gap 1 → 5, largest ε 1.5


def test_place_groups_keeps_the_gap_in_every_dim_and_packs():
    rng = np.random.default_rng(0)
    parts = [F.scene_group(rng, kind, 60, 1.0, 2) for kind in F.SCENE_KINDS]
    parts = F._with_noise_dims(rng, parts, 5, 0.05)
    shifts = F.place_groups(rng, parts, 2, 0.5)
    assert shifts.shape == (len(parts), 2)
    np.testing.assert_allclose(shifts.mean(axis=0), 0.0, atol=1e-12)
    placed = F._shifted(parts, shifts)
    gaps = [cdist(a, b).min() for i, a in enumerate(placed) for b in placed[i + 1:]]
    assert 0.5 <= min(gaps) < 1.0  # kept, and crowded: the closest pair near the gap


def test_spread_to_separation_by_hand():
    pair = np.array([[0.0, -0.5], [0.0, 0.5]])  # ε 1; at scale λ the groups are 2λ apart
    scale = F.spread_to_separation([pair, pair], np.array([[-1.0, 0.0], [1.0, 0.0]]), 2.5)
    assert 1.25 <= scale <= 1.25 * 1.01


@pytest.mark.parametrize("name,k,edge,degree", [
    ("triangle", 3, np.sqrt(3), 2), ("square", 4, np.sqrt(2), 2),
    ("pentagon", 5, 2 * np.sin(np.pi / 5), 2), ("hexagon", 6, 1.0, 2),
    ("tetrahedron", 4, np.sqrt(8 / 3), 3), ("octahedron", 6, np.sqrt(2), 4),
    ("cube", 8, 2 / np.sqrt(3), 3)])
def test_polytope_vertices_are_regular(name, k, edge, degree):
    """Circumradius 1, centred, every vertex with ``degree`` neighbours at the edge length."""
    V = F.polytope_vertices(name)
    assert V.shape == (k, F.POLYTOPES[name])
    np.testing.assert_allclose(np.linalg.norm(V, axis=1), 1.0)
    np.testing.assert_allclose(V.mean(axis=0), 0.0, atol=1e-12)
    D = cdist(V, V) + np.diag(np.full(k, np.inf))
    np.testing.assert_allclose(D.min(axis=1), edge)
    assert (np.isclose(D, edge).sum(axis=1) == degree).all()


def test_band_offsets():
    np.testing.assert_allclose(F.band_offsets(2, 2, 3.0), [[-1.5], [1.5]])  # D07c's ±1.5
    np.testing.assert_allclose(F.band_offsets(3, 2, 3.0), [[-3.0], [0.0], [3.0]])
    for b in (2, 3, 4):  # in 3-D: a regular b-gon of side 3
        O = F.band_offsets(b, 3, 3.0)
        np.testing.assert_allclose(np.sort(cdist(O, O), axis=1)[:, 1], 3.0)


def _circle_radius(P):
    """The radius of the circle nearest the points P (m × 2) in the least-squares sense,
    started from Kåsa's algebraic fit x² + y² = 2ax + 2by + c, r² = c + a² + b² (biased on
    short arcs, hence the refinement)."""
    from scipy.optimize import least_squares

    (a, b, c), *_ = np.linalg.lstsq(np.c_[2 * P, np.ones(len(P))], (P ** 2).sum(axis=1),
                                    rcond=None)
    fit = least_squares(lambda q: np.linalg.norm(P - q[:2], axis=1) - q[2],
                        [a, b, np.sqrt(c + a * a + b * b)])
    return fit.x[2]


def _cylinder(X, direction):
    """(radius, positions along the axis) of the cylinder nearest the points X (m × 3) in the
    least-squares sense, its axis started at ``direction`` through the origin."""
    from scipy.optimize import least_squares

    def parts(q):
        axis = q[3:6] / np.linalg.norm(q[3:6])
        along = (X - q[:3]) @ axis
        return np.linalg.norm(X - q[:3] - np.outer(along, axis), axis=1), along

    fit = least_squares(lambda q: parts(q)[0] - q[6], np.r_[np.zeros(3), direction, 1.0])
    return fit.x[6], parts(fit.x)[1]


@pytest.mark.parametrize("d", [2, 3])
@pytest.mark.parametrize("kind", list(F.SCENE_KINDS))
def test_scene_groups_have_their_shape(kind, d):
    """Each kind's defining size, read off its principal axes (sds of a uniform on a side 2e
    are e/√3) or a circle fitted in its plane."""
    e, m = 2.0, 4000
    X = F.scene_group(np.random.default_rng(3), kind, m, e, d)
    assert X.shape == (m, d)
    np.testing.assert_allclose(X.mean(axis=0), 0.0, atol=1e-9)
    _, sv, vt = np.linalg.svd(X, full_matrices=False)
    sd, noise = sv / np.sqrt(m), F.CURVE_NOISE * e
    if kind == "blob":
        assert sd[0] == pytest.approx(e / 2, rel=0.05)
        assert sd[-1] > 0.95 * F.BLOB_AXIS * e / 2
    elif kind == "box":
        assert sd[0] == pytest.approx(e / np.sqrt(3), rel=0.05)
        assert sd[-1] > 0.95 * F.BOX_SIDE * e / np.sqrt(3)
    elif kind == "segment":
        assert sd[0] == pytest.approx(e / np.sqrt(3), rel=0.05)
        np.testing.assert_allclose(sd[1:], noise, rtol=0.1)
    elif kind in ("ring", "arc"):
        assert _circle_radius(X @ vt[:2].T) == pytest.approx(e, rel=0.02)
        assert sd[-1] == pytest.approx(noise, rel=0.1) if d == 3 else True
    elif d == 2:  # spiral arm, out to radius e: the widest span is 1.73 e to 2 e
        assert 1.6 * e < pdist(X).max() < 2 * e + 6 * noise
    else:  # helix: on a cylinder of radius e/2, uniform over 2e along its axis
        radius, along = _cylinder(X, vt[0])
        assert radius == pytest.approx(e / 2, rel=0.02)
        assert along.std() == pytest.approx(2 * e / np.sqrt(12), rel=0.03)


def test_scenes_ranges_and_spread():
    from collections import Counter

    rows = league("scenes")
    ks = np.bincount([k for *_, k in rows])[2:]
    assert len(ks) == 11 and ks.min() >= 4 and ks.max() <= 5  # k = 2..12, stratified
    cells = Counter((d["own_d"], d["embedded"], d["n_noise"] > 0) for d, *_ in rows)
    assert len(cells) == 8 and set(cells.values()) == {6}  # 2-D, 3-D, each in 10 × noise
    assert Counter(d["mix"] for d, *_ in rows) == {mix: 16 for mix in F.SCENE_MIXES}
    assert {kind for d, *_ in rows for kind in d["kinds"]} == set(F.SCENE_KINDS)
    for d, X, y, k in rows:
        assert X.shape == (d["n"], d["d"]) and 200 <= d["n"] <= 1500
        assert d["d"] == (F.EMBED_DIMS if d["embedded"] else d["own_d"])
        assert set(d["kinds"]) <= set(F.SCENE_MIXES[d["mix"]]) and len(d["kinds"]) == k
        counts = np.bincount(y[y >= 0])
        assert counts.tolist() == d["sizes"]
        assert all(c >= max(F.MIN_CLUSTER, F.SCENE_KINDS[kind][0])
                   for c, kind in zip(counts, d["kinds"], strict=True))
        if d["n_noise"]:
            assert 0.015 <= d["n_noise"] / d["n"] <= 0.105
        if d["embedded"]:  # the scene spans its own dims (≳ a group's sd in each), the
            # others hold isotropic noise of a tenth of a typical group's sd
            sv = np.linalg.svd(X - X.mean(axis=0), compute_uv=False)
            own = d["own_d"]
            assert sv[own] < 0.3 * sv[own - 1] and sv[own:].max() < 1.5 * sv[-1], d["id"]


def _shells(means):
    """The groups' means' distances from their centroid, over the largest."""
    r = np.linalg.norm(means - means.mean(axis=0), axis=1)
    return np.sort(r / r.max())


def test_symmetric_arrangements():
    """Read off the groups' means: polytope vertices and rings equidistant from the centre
    with equal nearest neighbours (a centre group at the centre); two rings at radii 1 : 2;
    raw bands apart only across the direction of largest variance; D07c and D07b as the
    review drew them (D07b z-scored)."""
    from collections import Counter

    rows = league("symmetric")
    assert Counter(d["arrangement"] for d, *_ in rows) == {a: 4 for a in F.SYM_ARRANGEMENTS}
    layouts = {d["layout"] for d, *_ in rows}
    assert set(F.BANDS) | set(F.NESTED) <= layouts and "circle" in layouts
    polytopes = [d for d, *_ in rows if d["arrangement"] == "polytope"]
    assert {d["own_d"] for d in polytopes} == {2, 3} and {d["centre"] for d in polytopes} == {
        False, True}
    assert {d["own_d"] for d, *_ in rows} == {2, 3}
    assert 0 < sum(d["embedded"] for d, *_ in rows) < len(rows)
    for d, X, y, k in rows:
        assert X.shape == (d["n"], d["d"]) and 200 <= d["n"] <= 1500 and d["n_noise"] == 0
        assert np.bincount(y).tolist() == d["sizes"] and len(set(d["sizes"])) == 1
        means = np.array([X[y == g].mean(axis=0) for g in range(k)])
        if d["arrangement"] == "bands":  # (z-scored, every direction has variance ~1)
            if d["standardize"]:
                np.testing.assert_allclose(X.std(axis=0), 1.0)
                continue
            i, j = np.triu_indices(k, 1)
            apart = (means[i] - means[j]).T / np.linalg.norm(means[i] - means[j], axis=1)
            largest = np.linalg.svd(X - X.mean(axis=0), compute_uv=False)[0] ** 2 / len(X)
            assert (X @ apart).var(axis=0).max() < 0.5 * largest, d["id"]
            continue
        centre = int(d.get("centre", False) or d["layout"] == "centre_ring")
        if d["layout"] == "two_rings":
            inner, outer = d["rings"]
            expect = np.r_[np.full(inner, 1 / F.OUTER_RADIUS), np.ones(outer)]
        else:
            expect = np.r_[np.zeros(centre), np.ones(k - centre)]
        np.testing.assert_allclose(_shells(means), expect, atol=0.06, err_msg=d["id"])
        if d["layout"] != "two_rings":  # equal nearest neighbours on the outer shell
            outer = means[np.argsort(np.linalg.norm(means - means.mean(axis=0), axis=1))]
            near = np.sort(cdist(outer[centre:], outer[centre:]), axis=1)[:, 1]
            assert near.max() / near.min() < 1.12, d["id"]
    by_layout = {d["layout"]: (d, X, y) for d, X, y, _ in rows}
    d, X, y = by_layout["d07c"]  # raw: x1 ~ U(−10, 10), x2 = ±1.5 + N(0, 0.3²)
    assert not d["standardize"] and np.abs(X[:, 0]).max() <= 10
    np.testing.assert_allclose(sorted(X[y == g, 1].mean() for g in (0, 1)), [-1.5, 1.5],
                               atol=0.05)
    np.testing.assert_allclose([X[y == g, 1].std() for g in (0, 1)], 0.3, rtol=0.12)
    d, X, y = by_layout["d07b"]  # z-scored N(0, 10²) and ±1 + N(0, 0.1²)
    assert d["standardize"]
    np.testing.assert_allclose(X.mean(axis=0), 0.0, atol=1e-12)
    np.testing.assert_allclose(X.std(axis=0), 1.0)
    np.testing.assert_allclose(sorted(X[y == g, 1].mean() for g in (0, 1)), [-1, 1], atol=0.03)


@pytest.mark.parametrize("family", list(LEAGUE))
def test_the_separation_rule_holds_on_every_league_set(family):
    """By another route: single linkage's last merge within a group is its MST's longest
    edge, and the gap the smallest of all distances between two groups' points."""
    for d, X, y, k in league(family):
        groups = [X[y == g] for g in range(k)]
        eps = max(linkage(g, "single")[-1, 2] for g in groups)
        gap = min(cdist(a, b).min() for i, a in enumerate(groups) for b in groups[i + 1:])
        rule = F.BAND_SEPARATION if d.get("arrangement") == "bands" else F.SEPARATION
        assert gap >= rule * eps * (1 - 1e-12), (d["id"], gap / eps)
        assert F.separation(X, y) == pytest.approx(gap / eps, rel=1e-9)


@pytest.mark.parametrize("family", list(LEAGUE))
def test_single_linkage_on_a_random_half_finds_the_groups(family):
    rng = np.random.default_rng(0)
    for d, X, y, k in league(family):
        grouped = np.flatnonzero(y >= 0)
        idx = rng.permutation(grouped)[: len(grouped) // 2]
        assert ari(y[idx], _single_linkage(X[idx], k)) >= 0.95, d["id"]
