"""Milligan's (1985) generator and the league-table designs
(mtc_cli.core.datasets.milligan_cooper)."""

import json

import numpy as np
import pytest

from mtc_cli.core.datasets import milligan_cooper as mc


def rng(seed=0):
    return np.random.default_rng(seed)


# Milligan's DENSITY table for 50 points (k = 2..5), as in the port of his program.
MILLIGAN_50 = {
    "equal": [[25, 25], [16, 17, 17], [12, 12, 13, 13], [10, 10, 10, 10, 10]],
    "one_10pct": [[5, 45], [5, 22, 23], [5, 15, 15, 15], [5, 11, 11, 11, 12]],
    "one_60pct": [[30, 20], [30, 10, 10], [30, 6, 7, 7], [30, 5, 5, 5, 5]],
}


@pytest.mark.parametrize("sizes", mc.SIZES)
def test_sizes_for_50_points_are_milligans_table(sizes):
    got = [mc.cluster_sizes(50, k, sizes).tolist() for k in (2, 3, 4, 5)]
    assert got == MILLIGAN_50[sizes]


@pytest.mark.parametrize("k", [2, 3, 4, 5])
@pytest.mark.parametrize("sizes", mc.SIZES)
@pytest.mark.parametrize("n", [200, 137])
def test_label_counts_per_size_pattern(k, sizes, n):
    X, y = mc.milligan_clusters(rng(k), k, 4, n_points=n, sizes=sizes)
    assert X.shape == (n, 4) and y.shape == (n,)
    counts = np.bincount(y, minlength=k)
    assert counts.sum() == n and len(counts) == k
    if sizes == "equal":
        rest = counts
    else:
        share = {"one_10pct": 0.10, "one_60pct": 0.60}[sizes]
        assert counts[0] == int(np.floor(share * n + 0.5))
        rest = counts[1:]
    assert rest.max() - rest.min() <= 1


def test_sizes_errors():
    with pytest.raises(ValueError):
        mc.cluster_sizes(200, 1, "one_10pct")
    with pytest.raises(ValueError):
        mc.cluster_sizes(200, 3, "bogus")
    with pytest.raises(ValueError):
        mc.cluster_sizes(3, 5, "equal")


@pytest.mark.parametrize("seed", range(20))
def test_truncation_and_first_dimension(seed):
    g = rng(seed)
    k, d = 2 + seed % 4, (4, 6, 8)[seed % 3]
    X, y, lay = mc.milligan_clusters(g, k, d, sizes=mc.SIZES[seed % 3], return_layout=True)
    assert X.shape == (200, d) and set(np.unique(y)) == set(range(k))
    # every point inside its cluster's ±1.5 sd box
    assert np.all(X >= lay.lower[y]) and np.all(X <= lay.upper[y])
    np.testing.assert_allclose(lay.upper - lay.lower, 3 * lay.sd)
    np.testing.assert_allclose(lay.mean, (lay.lower + lay.upper) / 2)
    # lengths U(10, 40)
    length = lay.upper - lay.lower
    assert np.all(length >= 10) and np.all(length <= 40)
    # dimension 1: boxes in ``order``, no overlap, gaps 0.25..0.75 × (sd_left + sd_right)
    o = lay.order
    assert sorted(o.tolist()) == list(range(k))
    assert lay.lower[o[0], 0] == 0.0
    gaps = lay.lower[o[1:], 0] - lay.upper[o[:-1], 0]
    factor = gaps / (lay.sd[o[1:], 0] + lay.sd[o[:-1], 0])
    np.testing.assert_allclose(factor, lay.gap_factors)
    assert np.all(factor >= 0.25) and np.all(factor <= 0.75)
    # ... and so the points do not overlap there either
    for left, right in zip(o[:-1], o[1:], strict=True):
        assert X[y == left, 0].max() < X[y == right, 0].min()
    # other dimensions: lower boundaries within [0, 0.67 · end of dimension 1]
    end = lay.upper[o[-1], 0]
    assert np.all(lay.lower[:, 1:] >= 0) and np.all(lay.lower[:, 1:] <= 0.67 * end)


def test_truncated_normal_shape():
    # one cluster, many points: standardised coordinates fill ±1.5 with the truncated
    # normal's sd (≈ 0.738), not a uniform's (≈ 0.866)
    X, y, lay = mc.milligan_clusters(rng(3), 1, 2, n_points=20000, return_layout=True)
    z = (X - lay.mean[y]) / lay.sd[y]
    assert np.abs(z).max() <= 1.5 + 1e-12
    np.testing.assert_allclose(z.std(axis=0), 0.7375, atol=0.01)
    np.testing.assert_allclose(z.mean(axis=0), 0.0, atol=0.02)


def test_determinism_and_seeds():
    a = mc.milligan_clusters(rng(7), 3, 6, sizes="one_60pct")
    b = mc.milligan_clusters(rng(7), 3, 6, sizes="one_60pct")
    c = mc.milligan_clusters(rng(8), 3, 6, sizes="one_60pct")
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])
    assert not np.allclose(a[0], c[0])
    for d in [mc.designs()[i] for i in (0, 1, 2, 110, 115, 121)]:
        X1, y1, k1 = mc.make(d, mc.design_rng(d, seed=5))
        X2, y2, k2 = mc.make(d, mc.design_rng(d, seed=5))
        X3, _, _ = mc.make(d, mc.design_rng(d, seed=6))
        np.testing.assert_array_equal(X1, X2)
        np.testing.assert_array_equal(y1, y2)
        assert k1 == k2 and not np.allclose(X1, X3)


def test_rows_are_shuffled():
    _, y = mc.milligan_clusters(rng(1), 2, 4)
    assert not np.all(np.diff(y) >= 0)


def test_designs_count_ids_and_json():
    ds = mc.designs()
    assert len(ds) == 108 + 6 + 6 + 6
    assert len({d["id"] for d in ds}) == len(ds)
    ds3 = mc.designs(reps=3, n_points=50)
    assert len(ds3) == 3 * 126 and len({d["id"] for d in ds3}) == len(ds3)
    assert all(d["n_points"] == 50 for d in ds3)
    assert json.loads(json.dumps(ds)) == ds
    by_family = {f: [d for d in ds if d["family"] == f] for f in mc.FAMILIES}
    assert [len(by_family[f]) for f in mc.FAMILIES] == [108, 6, 6, 6]
    assert all(d["true_k"] == 1 for d in by_family["one_cluster"])
    assert all(d["true_k"] == d["n_clusters"] for f in ("milligan_cooper", "elongated",
               "unequal_variance") for d in by_family[f])
    assert "mc-k3-d6-one_10pct-perturbed-r0" in {d["id"] for d in ds}
    mcd = by_family["milligan_cooper"]
    assert {(d["n_clusters"], d["n_dims"], d["sizes"], d["error"]) for d in mcd} == {
        (k, dd, s, e) for k in (2, 3, 4, 5) for dd in (4, 6, 8) for s in mc.SIZES
        for e in mc.ERRORS}


@pytest.mark.parametrize("design_id", [
    "mc-k3-d6-one_10pct-none-r0", "mc-k4-d4-one_60pct-perturbed-r0",
    "mc-k2-d8-equal-outliers-r0", "one-uniform-d4-r0", "one-gaussian-d8-r0",
    "elong-k3-d2-r0", "elong-k4-d4-r0", "uneqvar-k4-d2-r0", "uneqvar-k2-d4-r0"])
def test_make_one_design_of_each_family(design_id):
    d = next(d for d in mc.designs() if d["id"] == design_id)
    X, y, k = mc.make(d, mc.design_rng(d))
    assert X.shape == (200, d["n_dims"]) and y.shape == (200,)
    assert np.isfinite(X).all() and k == d["true_k"]
    assert set(np.unique(y[y >= 0])) == set(range(k))
    assert (y == -1).any() == (d.get("error") == "outliers")


def test_make_outliers_design():
    d = next(d for d in mc.designs() if d["id"] == "mc-k3-d4-equal-outliers-r0")
    X, y, k = mc.make(d, rng(0))
    n_out = int((y == -1).sum())
    assert n_out == 33 and len(y) == 200  # 167 clustered + 33 outliers ≈ 20 % of 167
    assert abs(n_out / (200 - n_out) - mc.OUTLIER_FRACTION) < 0.01


@pytest.mark.parametrize("seed", range(5))
def test_outliers(seed):
    X, y, lay = mc.milligan_clusters(rng(seed), 3, 4, sizes="one_10pct", return_layout=True)
    X2, y2 = mc.add_outliers(rng(seed + 100), X, y)
    n_out = (y2 == -1).sum()
    assert n_out == round(0.2 * len(X)) == 40 and len(X2) == len(X) + n_out
    # the clustered rows are kept (shuffled), with their labels
    assert np.bincount(y2[y2 >= 0]).tolist() == np.bincount(y).tolist()
    kept = X2[y2 >= 0]
    assert {tuple(r) for r in kept} == {tuple(r) for r in X}
    # every outlier lies outside every cluster's empirical box
    out = X2[y2 == -1]
    for g in range(3):
        lo, hi = X[y == g].min(axis=0), X[y == g].max(axis=0)
        assert not ((out >= lo) & (out <= hi)).all(axis=1).any()
    # with the layout's boxes, outside every true box
    X3, y3 = mc.add_outliers(rng(seed), X, y, fraction=0.4, boxes=(lay.lower, lay.upper))
    out3 = X3[y3 == -1]
    assert len(out3) == 80
    inside = ((out3[:, None, :] >= lay.lower) & (out3[:, None, :] <= lay.upper)).all(axis=2)
    assert not inside.any()
    # but not absurdly far: within 3 × 3 sd × a few of some cluster centre on every dim
    z = np.abs(out3[:, None, :] - lay.mean) / (mc.OUTLIER_SD_FACTOR * lay.sd)
    assert np.all(z.max(axis=2).min(axis=1) < 6)


def test_outliers_count_override_and_determinism():
    X, y = mc.milligan_clusters(rng(0), 2, 4)
    a = mc.add_outliers(rng(1), X, y, n_outliers=7)
    b = mc.add_outliers(rng(1), X, y, n_outliers=7)
    assert (a[1] == -1).sum() == 7
    np.testing.assert_array_equal(a[0], b[0])
    X0, y0 = mc.add_outliers(rng(1), X, y, fraction=0.0)
    assert len(X0) == len(X) and (y0 >= 0).all()


@pytest.mark.parametrize("level", [0.5, 1.0, 2.0])
def test_perturb_scale_and_labels(level):
    X, y = mc.milligan_clusters(rng(2), 4, 6, n_points=4000)
    s = mc.pooled_within_sd(X, y)
    Xp = mc.perturb(rng(3), X, y, level=level)
    assert Xp.shape == X.shape
    E = Xp - X
    np.testing.assert_allclose(E.std(axis=0, ddof=1) / (level * s), 1.0, atol=0.05)
    np.testing.assert_allclose(E.mean(axis=0) / (level * s), 0.0, atol=0.06)
    # pooled within-cluster sd of a Milligan cluster ≈ 0.7375 × the clusters' sds
    _, _, lay = mc.milligan_clusters(rng(2), 4, 6, n_points=4000, return_layout=True)
    assert np.all(s > 0.5 * lay.sd.min(axis=0)) and np.all(s < lay.sd.max(axis=0))


def test_perturb_default_level_in_make():
    d = next(d for d in mc.designs() if d["id"] == "mc-k3-d6-one_10pct-perturbed-r0")
    X, y, k = mc.make(d, rng(11))
    X0, y0, _ = mc.milligan_clusters(rng(11), 3, 6, 200, "one_10pct", return_layout=True)
    np.testing.assert_array_equal(y, y0)  # labels kept
    E = X - X0
    ratio = E.std(axis=0, ddof=1) / (mc.PERTURB_LEVEL * mc.pooled_within_sd(X0, y0))
    assert np.all(np.abs(ratio - 1) < 0.2)


@pytest.mark.parametrize("gen", [mc.null_uniform, mc.null_gaussian])
def test_null(gen):
    X, y = gen(rng(0), 6, 300)
    assert X.shape == (300, 6) and np.all(y == 0)
    if gen is mc.null_uniform:
        assert X.min() >= 0 and X.max() <= 1
    else:
        np.testing.assert_allclose(X.std(axis=0), 1.0, atol=0.15)


@pytest.mark.parametrize("k,d", [(2, 2), (3, 2), (4, 4)])
def test_elongated(k, d):
    X, y = mc.elongated(rng(k), k, d, 600)
    assert X.shape == (600, d)
    assert np.bincount(y).max() - np.bincount(y).min() <= 1
    for g in range(k):
        ev = np.linalg.eigvalsh(np.cov(X[y == g].T))
        assert np.sqrt(ev[-1] / ev[0]) > 5  # strongly anisotropic (nominal ratio 10)
    # the bars are separated: centres far apart across the bars
    means = np.array([X[y == g].mean(axis=0) for g in range(k)])
    dist = np.linalg.norm(means[:, None] - means[None], axis=2)[np.triu_indices(k, 1)]
    assert dist.min() > 0.5 * mc.ELONG_SPACING
    with pytest.raises(ValueError):
        mc.elongated(rng(0), 2, 1, 100)


@pytest.mark.parametrize("k,d", [(2, 2), (3, 4), (4, 2)])
def test_unequal_variance(k, d):
    X, y = mc.unequal_variance(rng(k + d), k, d, 2000)
    assert X.shape == (2000, d)
    sds = np.array([X[y == g].std(axis=0).mean() for g in range(k)])
    assert sds.max() / sds.min() > 0.7 * mc.UNEQ_SD_RATIO  # several-fold different
    means = np.array([X[y == g].mean(axis=0) for g in range(k)])
    for i in range(k):
        for j in range(i + 1, k):
            gap = np.linalg.norm(means[i] - means[j])
            assert gap > 0.9 * mc.UNEQ_SEPARATION * (sds[i] + sds[j])


def test_make_rejects_unknown():
    with pytest.raises(ValueError):
        mc.make({"family": "bogus", "true_k": 1}, rng(0))
    with pytest.raises(ValueError):
        mc.make({"family": "one_cluster", "distribution": "cauchy", "n_dims": 2, "true_k": 1},
                rng(0))
