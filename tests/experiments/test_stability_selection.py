"""Model-order selection of Lange et al. 2002 (Table 1): the batched k-means, the
resampled stability curve, the Gap statistic, Clest and Prediction Strength — each formula
against a brute-force route and each criterion on data with an obvious answer — the Golub
preprocessing, the table loader, and both configs end to end (quick profile)."""

import subprocess
import sys
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.cluster import KMeans

from experiments import _lange2002 as lange2002
from mtc_cli.core.criteria import clest, gap_statistic, prediction_strength, stability
from mtc_cli.core.criteria.stability_resampling import instability_curve
from mtc_cli.core.datasets import golub, toy
from mtc_cli.core.models import clusterers as C

ROOT = Path(__file__).resolve().parents[2]


def blobs(seed=0, n=40, k=3):
    """k tight, far apart clusters in the plane (the obvious answer is k)."""
    centres = [[0, 0], [10, 0], [5, 9], [15, 9]][:k]
    return toy.gaussian_clouds(np.random.default_rng(seed), [n] * k, centres, [0.5] * k)


def kmeans(X, ks, rng):
    return C.kmeans_cluster(X, ks, rng, n_init=5)


def pairs_together(labels):
    return {(i, j) for i, j in combinations(range(len(labels)), 2) if labels[i] == labels[j]}


# --- k-means ---------------------------------------------------------------------------------

def test_lloyd_reaches_a_local_optimum_as_good_as_sklearn():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((80, 5))
    for k in (2, 4, 7):
        labels, centres, cost = C.lloyd(X, k, rng, n_init=20)
        assert cost == pytest.approx(((X - centres[labels]) ** 2).sum())
        d = ((X[:, None] - centres[None]) ** 2).sum(axis=2)
        assert np.array_equal(labels, d.argmin(axis=1))  # assignment step has converged
        for t in np.unique(labels):  # update step has converged
            assert np.allclose(centres[t], X[labels == t].mean(axis=0))
        ref = KMeans(k, n_init=20, random_state=0).fit(X).inertia_
        assert cost <= 1.03 * ref


def test_nearest_centroid_predict_uses_training_cluster_names():
    X = np.array([[0.0], [1.0], [10.0], [11.0]])
    out = C.nearest_centroid_predict(X, {2: np.array([7, 7, 3, 3])}, np.array([[0.2], [9.0]]))
    assert out[2].tolist() == [7, 3]


# --- stability ---------------------------------------------------------------------------

def test_stability_curve_selects_the_number_of_blobs():
    X, _ = blobs()
    inst = instability_curve(X, [2, 3, 4, 5], kmeans, C.nearest_centroid_predict,
                             np.random.default_rng(1), n_resamples=5, n_draws=5)
    assert inst[1].score == 0.0
    assert stability.select_k([2, 3, 4, 5], [i.score for i in inst]) == 3


# --- Gap statistic -----------------------------------------------------------------------------

def test_within_sum_of_squares_is_the_pairwise_formula():
    rng = np.random.default_rng(2)
    X, lab = rng.standard_normal((15, 3)), rng.integers(4, size=15)
    pairwise = sum(((X[lab == r][:, None] - X[lab == r][None]) ** 2).sum() / (2 * (lab == r).sum())
                   for r in np.unique(lab))
    assert gap_statistic.within_sum_of_squares(X, lab) == pytest.approx(pairwise)


def test_gap_and_its_standard_error():
    ref = np.array([[1.0, 2.0], [3.0, 2.0], [2.0, 5.0]])
    g, s = gap_statistic.gap(np.array([0.5, 1.0]), ref)
    assert g == pytest.approx([1.5, 2.0])
    assert s == pytest.approx(np.std(ref, axis=0) * np.sqrt(4 / 3))


def test_one_standard_error_rule():
    assert gap_statistic.select_1se([1, 2, 3, 4], [0.1, 0.5, 0.9, 0.95], [0.1] * 4) == 3
    assert gap_statistic.select_1se([1, 2, 3], [0.5, 0.55, 0.7], [0.1] * 3) == 1
    assert gap_statistic.select_1se([1, 2, 3], [0.1, 0.5, 0.9], [0.01] * 3) == 3


def test_uniform_box_stays_in_the_bounding_box():
    X = np.array([[0.0, 5.0], [2.0, 7.0], [1.0, 6.0]])
    R = gap_statistic.uniform_box(np.repeat(X, 100, axis=0), np.random.default_rng(0))
    assert np.all(R.min(axis=0) >= [0, 5]) and np.all(R.max(axis=0) <= [2, 7])
    assert R.shape == (300, 2)


@pytest.mark.parametrize("k", [1, 3])
def test_gap_statistic_on_obvious_data(k):
    if k == 1:
        X = np.random.default_rng(3).standard_normal((120, 2))
    else:
        X, _ = blobs(seed=3)
    r = gap_statistic.gap_statistic(X, range(1, 7), kmeans, gap_statistic.within_sum_of_squares,
                                    np.random.default_rng(4), n_references=8)
    assert r["selected"] == k


# --- Clest ---------------------------------------------------------------------------------

def test_fowlkes_mallows_by_pair_counting():
    rng = np.random.default_rng(5)
    a, b = rng.integers(3, size=25), rng.integers(4, size=25)
    pa, pb = pairs_together(a), pairs_together(b)
    assert clest.fowlkes_mallows(a, b) == pytest.approx(len(pa & pb) / np.sqrt(len(pa) * len(pb)))


def _random_lda_cases(n_cases):
    """Learning sets with cluster labels and test sets as Clest makes them, and the cases
    that strain the SVD solver: 2 and many classes, tiny classes, a constant feature, more
    features than objects, duplicated features (rank-deficient), labels not 0..k−1."""
    rng = np.random.default_rng(2002)
    for case in range(n_cases):
        n, d = int(rng.integers(4, 120)), int(rng.integers(1, 12))
        k = int(rng.integers(2, min(n - 1, 9) + 1))
        X = rng.normal(size=(n, d)) * rng.uniform(0.1, 5.0, size=d)
        if case % 5 == 1:
            X[:, 0] = 3.0
        if case % 7 == 2 and d > 1:
            X[:, -1] = X[:, 0]
        if case % 11 == 3:
            X = rng.normal(size=(n, n + 3))
        y = np.concatenate([np.arange(k), rng.integers(0, k, n - k)])
        X += y[:, None] * rng.uniform(0.0, 2.0)
        if case % 3 == 0:
            y = y * 7 + 5
        yield X, rng.permutation(y), rng.normal(size=(int(rng.integers(1, 60)), X.shape[1]))


def test_lda_predict_is_scikit_learns_lda_exactly():
    """Our LDA is scikit-learn's, operation for operation: equal predictions (and so equal
    Clest statistics) on 400 random cases; one cluster predicts its label; as many objects
    as clusters is refused with scikit-learn's error."""
    import warnings

    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

    for X, y, T in _random_lda_cases(400):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = LinearDiscriminantAnalysis().fit(X, y).predict(T)
        assert np.array_equal(clest.lda_predict(X, y, T), expected)
    assert (clest.lda_predict(np.ones((5, 2)), np.full(5, 4), np.zeros((3, 2))) == 4).all()
    with pytest.raises(ValueError, match="more than the number of classes"):
        clest.lda_predict(np.eye(3), [0, 1, 2], np.eye(3))


def test_fowlkes_mallows_is_scikit_learns_exactly():
    """FM from a bincount table equals scikit-learn's ``fowlkes_mallows_score`` to the last
    bit on 400 random pairs of labelings (and is 0 when no pair is together in both)."""
    from sklearn.metrics import fowlkes_mallows_score

    rng = np.random.default_rng(7)
    for _ in range(400):
        n = int(rng.integers(2, 300))
        a, b = rng.integers(0, rng.integers(1, 12), n), rng.integers(0, rng.integers(1, 12), n)
        if rng.random() < 0.3:
            b = a * 3 - 1
        assert clest.fowlkes_mallows(a, b) == fowlkes_mallows_score(a, b)
    assert clest.fowlkes_mallows([0, 1, 2], [0, 0, 1]) == 0.0


def test_clest_selection_rule():
    assert clest.select([2, 3, 4], [0.3, 0.5, 0.2], [0.0, 0.0, 0.0]) == 3
    assert clest.select([2, 3, 4], [0.3, 0.5, 0.2], [0.0, 0.5, 0.0]) == 2
    assert clest.select([2, 3], [0.01, 0.02], [0.0, 0.0]) == 1


def test_clest_on_separated_blobs():
    X, _ = blobs(seed=6, n=30)
    r = clest.clest(X, [2, 3, 4, 5], kmeans, np.random.default_rng(7), n_splits=5,
                    n_references=5)
    assert r["selected"] == 3
    assert r["t"][1] == pytest.approx(1.0)


# --- Prediction Strength ---------------------------------------------------------------------

def test_prediction_strength_by_pair_counting():
    rng = np.random.default_rng(8)
    own, pred = rng.integers(3, size=30), rng.integers(3, size=30)
    together = pairs_together(pred)
    want = min(len(pairs_together(np.where(own == j, 1, np.arange(30) + 2)) & together)
               / (np.sum(own == j) * (np.sum(own == j) - 1) / 2) for j in range(3))
    assert prediction_strength.prediction_strength(own, pred) == pytest.approx(want)


def test_prediction_strength_selection():
    assert prediction_strength.select([1, 2, 3, 4], [1.0, 0.9, 0.85, 0.3]) == 3
    assert prediction_strength.select([1, 2, 3], [1.0, 0.5, 0.6]) == 1


@pytest.mark.parametrize("clusterer", ["kmeans", "pathbased"])
def test_all_criteria_select_three_on_separated_blobs(clusterer):
    X, _ = blobs(seed=9, n=30)
    c = lange2002.Criteria(k_max=5, n_resamples=4, n_random=4, n_references=4,
                             kmeans_n_init=5)
    rows = pd.DataFrame(lange2002.evaluate(X, clusterer, c, np.random.default_rng(10)))
    chosen = rows.groupby("criterion")["selected"].first().to_dict()
    assert chosen == {"stability": 3, "gap": 3, "clest": 3, "prediction_strength": 3}


# --- data -------------------------------------------------------------------------------------

def test_golub_preprocessing():
    g = golub.load(ROOT / "data" / "golub_leukemia")
    assert g.X.shape == (72, 7129)
    assert g.samples.tolist() == list(range(1, 73))
    assert {s: int((g.subtype == s).sum()) for s in ("ALL_B", "ALL_T", "AML")} == \
        {"ALL_B": 38, "ALL_T": 9, "AML": 25}
    X, keep = golub.dudoit_filter(g.X)
    assert X.shape == (72, 3571) and keep.sum() == 3571
    Z = golub.standardise_samples(X)
    assert np.allclose(Z.mean(axis=1), 0) and np.allclose(Z.std(axis=1), 1)
    top = golub.top_variance(Z, 100)
    v = Z.var(axis=0)
    assert len(top) == 100 and v[top].min() >= np.delete(v, top).max()


def test_toy_generators():
    rng = np.random.default_rng(11)
    X, lab = toy.rings(rng, [10, 20], [1.0, 3.0], 0.0)
    assert np.allclose(np.hypot(*X.T), np.where(lab == 0, 1.0, 3.0))
    X, lab = toy.gaussian_clouds(rng, [500, 500], [[0, 0], [5, 5]], [1.0, 0.5])
    assert np.allclose(X[lab == 1].mean(axis=0), [5, 5], atol=0.1)
    assert X[lab == 1].std() == pytest.approx(0.5, rel=0.1)
    X, lab = toy.spirals(rng, [30, 30, 30], 1.0, 0.0)
    assert X.shape == (90, 2) and np.bincount(lab).tolist() == [30, 30, 30]


# --- end to end --------------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("config", ["stability_leukemia", "stability_toy"])
def test_quick_profile_end_to_end(config, tmp_path):
    proc = subprocess.run([sys.executable, "-m", "mtc_cli.cli", "run",
                           str(ROOT / "configs" / f"{config}.yaml"), "--quick", "--out",
                           str(tmp_path)], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    files = {p.name for p in tmp_path.rglob("*") if p.is_file()}
    assert {"rows.csv", "summary.csv", "targets.csv", "table1.csv", "curves.csv",
            f"{config}.png"} <= files
    t1 = pd.read_csv(next(tmp_path.rglob("table1.csv")))
    assert {"stability", "gap", "clest", "prediction_strength", "paper_stability"} <= set(t1)


def test_user_table_replaces_golub(tmp_path):
    X, lab = blobs(seed=12, n=20)
    df = pd.DataFrame(X, columns=["u", "v"]).assign(group=lab)
    df.to_csv(tmp_path / "mine.csv", index=False)
    cfg = tmp_path / "mine.yaml"
    cfg.write_text(f"experiment: stability_leukemia\nseed: 1\ndataset:\n  path: "
                   f"{tmp_path / 'mine.csv'}\n  label_column: group\nstandardise: false\n"
                   "n_features: null\nruns: 1\ncriteria:\n  k_max: 5\n  n_resamples: 4\n"
                   "  n_references: 3\n  n_random: 4\n  kmeans_n_init: 3\n")
    proc = subprocess.run([sys.executable, "-m", "mtc_cli.cli", "run", str(cfg), "--out",
                           str(tmp_path / "out")], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    t1 = pd.read_csv(next((tmp_path / "out").rglob("table1.csv")))
    assert t1["dataset"].tolist() == ["mine"] and t1["stability"].tolist() == [3]
    # Lange et al.'s Golub claims are not evaluated on a user's table; its labels give k
    assert not (tmp_path / "out" / "targets.csv").exists() and "Paper targets" not in proc.stdout
    assert (pd.read_csv(tmp_path / "out" / "summary.csv")["true_k"] == 3).all()
