"""The selection engine: each criterion's rule on hand-made rows, the models' transfer
costs against independent formulas, the vote, and the scikit-learn style estimator."""

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from scipy.special import logsumexp
from sklearn.base import clone
from sklearn.datasets import make_blobs

from mtc_cli import OrderSelector
from mtc_cli.core.criteria import gap_statistic
from mtc_cli.core.criteria.kmeans_transfer import single_cluster_beta, soft_transfer_cost
from mtc_cli.core.models import gmm
from mtc_cli.selection import choice, voting
from mtc_cli.selection.estimator import DataRefused
from mtc_cli.selection.fitting import (
    Fit,
    Gmm,
    Kmeans,
    SphericalKmeans,
    SphericalKmeansSolution,
    unit_rows,
)
from mtc_cli.selection.settings import make_settings
from mtc_cli.selection.tasks import plan


def rows(criterion, table, **extra):
    """Tidy rows from {rep: [score at k = 1, 2, ...]}."""
    out = [{"criterion": criterion, "rep": rep, "k": k, "score": v, **extra}
           for rep, scores in table.items() for k, v in enumerate(scores, start=1)]
    return pd.DataFrame(out)


def test_min_rule_reads_the_mean_curve_and_gives_the_per_split_spread():
    # split 0 prefers k = 2, splits 1 and 2 prefer k = 3; the mean curve is lowest at 3
    r = rows("mtc", {0: [5, 1, 2, 4], 1: [5, 3, 1, 4], 2: [5, 3, 1, 4]})
    curve, chosen, per, _ = choice.evaluate(r, "mtc")
    assert chosen == 3 and per == [2, 3, 3]
    np.testing.assert_allclose(curve["value"], [5, 7 / 3, 4 / 3, 4])


def test_a_choice_outside_its_spread_is_explained():
    # bi-cross-validation: the k of the lowest median error over 4 permutations (Frank et
    # al. 2011, Sect. 4.2). Medians at k = 2: (2 + 3)/2 = 2.5; at k = 3: (1.9 + 9.9)/2 = 5.9,
    # so the curve chooses 2, while permutations 0–2 alone choose 3 and permutation 3
    # (lowest but one at k = 2, highest at k = 3) chooses 2: quartiles 2.75–3
    errors = {0: [20, 1, 0.9], 1: [20, 2, 1.9], 2: [20, 10, 9.9], 3: [20, 3, 30]}
    r = rows("bicross", errors).rename(columns={"rep": "permutation"}).assign(rep=0)
    curve, chosen, per, _ = choice.evaluate(r, "bicross")
    np.testing.assert_allclose(curve["value"], [20, 2.5, 5.9])
    assert chosen == 2 and per == [3, 3, 3, 2]
    s = make_settings("svd", (1, 3), ["bicross"], n=40, d=8)
    (row,) = choice.summarize(r, s)[0].to_dict("records")
    assert (row["selected_k"], row["selected_k_q25"], row["selected_k_q75"]) == (2, 2.75, 3)
    assert row["note"] == ("its choice 2 lies outside its spread: it is read off the median "
                           "curve of all 4 permutations; alone, they choose 3 (3 of 4), 2 (1 "
                           "of 4)")
    inside = rows("mtc", {0: [5, 1, 2, 4], 1: [5, 3, 1, 4], 2: [5, 3, 1, 4]})
    s = make_settings("kmeans", (1, 4), ["mtc"], n=40, d=2)
    assert choice.summarize(inside, s)[0]["note"].tolist() == [""]  # 3 within 2.5–3


def test_min_rule_ties_go_to_the_smallest_k():
    _, chosen, _, _ = choice.evaluate(rows("mtc", {0: [3, 1, 1, 2]}), "mtc")
    assert chosen == 2


def test_stability_is_a_ratio_of_means_and_ties_go_to_the_largest_k():
    # S(k)/S_rand(k): k=2: (0 + 0)/(..) = 0, k=3: 0, k=4: (0.1+0.3)/(0.5+0.5) = 0.4
    r = pd.DataFrame([{"criterion": "stability", "rep": rep, "k": k, "score": d,
                       "random": 0.5} for rep, ds in {0: [0, 0, 0.1], 1: [0, 0, 0.3]}.items()
                      for k, d in zip((2, 3, 4), ds, strict=True)])
    curve, chosen, _, _ = choice.evaluate(r, "stability")
    np.testing.assert_allclose(curve["value"], [0, 0, 0.4])
    assert chosen == 3


def test_prediction_strength_takes_the_largest_k_above_the_threshold():
    r = rows("prediction_strength", {0: [1, 0.9, 0.85, 0.5], 1: [1, 0.9, 0.7, 0.9]})
    _, chosen, per, _ = choice.evaluate(r, "prediction_strength")
    assert chosen == 2  # mean strengths 1, 0.9, 0.775, 0.7
    assert per == [3, 4]


def test_gap_rows_reproduce_the_gap_statistic():
    rng = np.random.default_rng(0)
    observed = np.log([10.0, 4.0, 3.5, 3.2])
    refs = np.log([[10.5, 8.0, 6.5, 5.0], [10.4, 8.2, 6.4, 5.1], [10.6, 7.9, 6.6, 4.9]])
    r = pd.DataFrame(
        [{"criterion": "gap", "rep": 0, "reference": 0, "k": k + 1, "score": v}
         for k, v in enumerate(observed)]
        + [{"criterion": "gap", "rep": b + 1, "reference": 1, "k": k + 1, "score": v}
           for b in range(3) for k, v in enumerate(refs[b])])
    curve, chosen, _, _ = choice.evaluate(r.sample(frac=1, random_state=rng.integers(9)),
                                          "gap")
    g, s = gap_statistic.gap(observed, refs)
    np.testing.assert_allclose(curve["value"], g)
    assert chosen == gap_statistic.select_1se([1, 2, 3, 4], g, s)


def test_clest_reads_the_data_against_its_references():
    t = {2: 0.9, 3: 0.95, 4: 0.6}
    t0 = [{2: 0.5, 3: 0.5, 4: 0.7}, {2: 0.6, 3: 0.4, 4: 0.65}]
    r = pd.DataFrame([{"criterion": "clest", "rep": 0, "k": k, "score": v}
                      for k, v in t.items()]
                     + [{"criterion": "clest", "rep": b + 1, "k": k, "score": v}
                        for b, ref in enumerate(t0) for k, v in ref.items()])
    curve, chosen, _, _ = choice.evaluate(r, "clest")
    np.testing.assert_allclose(curve["value"], [0.35, 0.5, -0.075])
    assert chosen == 3  # d_3 largest with p_3 = 0; k = 4 has p = 1


def test_gmm_costs_give_the_negative_log_likelihood_and_the_bayes_rule():
    X, _ = make_blobs(80, 2, centers=2, random_state=0)
    fit = Gmm().fit(X, 2, np.random.default_rng(0))
    costs = Gmm().costs(fit, X)
    np.testing.assert_allclose(-logsumexp(-costs, axis=1),
                               gmm.negative_log_likelihood(fit.solution, X))
    from sklearn.mixture import GaussianMixture

    gm = GaussianMixture(2, random_state=0).fit(X)
    sol = gmm.GmmSolution(gm.weights_, gm.means_, gm.covariances_, "full")
    assert (np.argmin(gmm.component_costs(sol, X), axis=1) == gm.predict(X)).all()


def test_kmeans_transfer_cost_is_eq_14_with_the_one_cluster_temperature():
    X, _ = make_blobs(60, 2, centers=3, random_state=2)
    X1, X2 = X[:30], X[30:]
    model = Kmeans(n_init=2)
    fit = model.fit(X1, 3, np.random.default_rng(1))
    expected = soft_transfer_cost(fit.solution, X2, single_cluster_beta(X1))
    assert model.transfer_cost(fit, X1, X2) == pytest.approx(expected)


def test_spherical_transfer_cost_by_hand():
    # centroids along the axes; x² at 45° is 1 − cos 45° from both, so whatever β the soft
    # mapping splits it evenly and R^T = 1 − 1/√2; x² on an axis gets weights ∝ e^{−βd}
    model = SphericalKmeans()
    X1 = unit_rows(np.array([[1.0, 0.0], [1.0, 0.2], [0.0, 1.0], [0.2, 1.0]]))
    fit = Fit(2, SphericalKmeansSolution(np.eye(2)), np.array([0, 0, 1, 1]))
    diagonal = unit_rows(np.array([[1.0, 1.0]]))
    assert model.transfer_cost(fit, X1, diagonal) == pytest.approx(1 - 1 / np.sqrt(2))
    one = unit_rows(X1.sum(axis=0, keepdims=True))
    beta = 0.75 / float(np.mean(1.0 - X1 @ one.T))
    w = np.exp(-beta * np.array([0.0, 1.0]))
    axis = np.array([[1.0, 0.0]])  # d = (0, 1) to the two centroids
    assert model.transfer_cost(fit, X1, axis) == pytest.approx(w[1] / w.sum())
    sparse = model.transfer_cost(fit, sp.csr_matrix(X1), sp.csr_matrix(axis))
    assert sparse == pytest.approx(w[1] / w.sum())


def test_plan_runs_only_what_the_criteria_need():
    s = make_settings("kmeans", (1, 5), ["mtc", "gap"], n=100, d=2, references=4, splits=3)
    tasks = plan(s)
    families = [t["family"] for t in tasks]
    # 4 reference sets; the data's own W_k from the one fit of all objects
    assert families.count("gap") == 4 and families.count("split") == 3
    assert families.count("full") == 1 and "clest" not in families
    assert next(t for t in tasks if t["family"] == "full")["criteria"] == ["gap"]


def test_reference_sets_work_on_a_fixed_sample_above_max_items():
    from mtc_cli.selection.criteria import reference_sample

    X = np.zeros((50, 2))
    assert (reference_sample(X, 100) == np.arange(50)).all()
    a, b = reference_sample(X, 20), reference_sample(X, 20)
    assert len(a) == 20 and (a == b).all() and (np.diff(a) > 0).all()


def test_the_coarse_capacity_grid_finds_the_same_maximum():
    from mtc_cli.core.criteria.approximation_capacity import capacity
    from mtc_cli.selection.criteria import CAPACITY_GRID

    rng = np.random.default_rng(0)
    for k in (2, 5, 10):
        centres = rng.normal(0, 3, (k, 2))
        x1 = centres[rng.integers(k, size=400)] + rng.normal(size=(400, 2))
        x2 = x1 + rng.normal(0, 0.5, x1.shape)
        c1 = ((x1[:, None] - centres[None]) ** 2).sum(-1)
        c2 = ((x2[:, None] - centres[None]) ** 2).sum(-1)
        fine, coarse = capacity(c1, c2)[0], capacity(c1, c2, n_grid=CAPACITY_GRID)[0]
        assert coarse == pytest.approx(fine, abs=1e-4)
        # the vectorised grid refinement that mtc select uses finds the same maximum
        gridded = capacity(c1, c2, n_grid=CAPACITY_GRID, refine="grid")[0]
        assert gridded == pytest.approx(coarse, abs=1e-6)


def test_estimator_finds_the_blobs_and_follows_sklearn_conventions():
    X, y = make_blobs(120, 3, centers=3, cluster_std=0.6, random_state=5)
    est = OrderSelector(model="kmeans", k=range(1, 6), splits=3, references=3,
                        clest_references=1, clest_splits=2, random_state=0)
    assert clone(est).get_params() == est.get_params()
    fitted = est.fit(pd.DataFrame(X), y)
    assert fitted is est and est.k_ == 3 and est.true_k_ == 3
    assert set(est.votes_) == set(est.summary_["criterion"])
    rule = voting.rule_for("kmeans", est.votes_)
    cast = voting.ballots({c: np.nan if k is None else k for c, k in est.votes_.items()},
                          rule, 5)
    assert sum(est.tally_.values()) == len(cast) > 0
    assert len(est.labels_) == 120 and len(np.unique(est.labels_)) == 3
    assert {"criterion", "k", "score", "rep", "family"} <= set(est.results_.columns)
    again = OrderSelector(**est.get_params()).set_params(n_jobs=2).fit(X)
    pd.testing.assert_frame_equal(again.summary_.drop(columns="true_k"),
                                  est.summary_.drop(columns="true_k"))
    assert est.plot() is not None


def test_estimator_refuses_a_label_column_of_a_frame():
    X, y = make_blobs(40, 2, centers=2, random_state=3)
    df = pd.DataFrame(X, columns=["a", "b"]).assign(**{"class": y})
    for model in ("kmeans", "auto"):
        with pytest.raises(DataRefused, match="'class'.*pass it as y, or drop it"):
            OrderSelector(model=model, k=(1, 3)).fit(df)
    est = OrderSelector(model="kmeans", k=(1, 3), criteria=["gap"], splits=2,
                        references=2).fit(df.drop(columns="class"), df["class"])
    assert est.true_k_ == 2


def test_estimator_accepts_sparse_input_for_spherical_kmeans_only():
    rng = np.random.default_rng(1)
    X = sp.random(60, 30, density=0.2, random_state=1, format="csr") + sp.eye(60, 30)
    est = OrderSelector(model="spkmeans", k=(1, 3), criteria=["mtc", "silhouette"],
                        splits=2, random_state=int(rng.integers(9))).fit(X)
    assert set(est.votes_) == {"mtc", "silhouette"}
    with pytest.raises(TypeError):
        OrderSelector(model="gmm").fit(X)
    with pytest.raises(ValueError, match="contiguous"):
        OrderSelector(model="kmeans", k=[1, 3, 5]).fit(np.eye(20))
    with pytest.raises(ValueError, match="does not apply"):
        OrderSelector(model="kmeans", criteria=["bic"]).fit(rng.random((30, 2)))


def test_spherical_seeds_spread_like_kmeans_plusplus():
    # three orthogonal groups of documents: once a group holds a seed, its documents are at
    # cosine dissimilarity 0 from it and are never drawn again, so k = 3 seeds hit 3 groups
    X = unit_rows(np.kron(np.eye(3), np.ones((10, 4))) + 1e-3 * np.arange(120).reshape(30, 4)
                  .repeat(3, axis=1)[:, :12])
    groups = np.repeat(np.arange(3), 10)
    for seed in range(20):
        picks = SphericalKmeans.seeds(X, 3, np.random.default_rng(seed))
        assert len(set(picks)) == 3 and set(groups[picks]) == {0, 1, 2}
    sparse = SphericalKmeans.seeds(sp.csr_matrix(X), 3, np.random.default_rng(0))
    assert (sparse == SphericalKmeans.seeds(X, 3, np.random.default_rng(0))).all()


@pytest.mark.parametrize("n, d", [(50, 3), (1000, 10), (30, 1), (5, 8)])
def test_the_projection_is_scikit_learns_pca(n, d):
    """pca_2d's numpy SVD with svd_flip's signs: PCA(2, svd_solver="full")'s scores."""
    from sklearn.decomposition import PCA

    from mtc_cli.selection.projection import pca_2d

    X = np.random.default_rng(n).normal(size=(n, d)) * np.linspace(0.5, 3, d)
    expected = PCA(min(2, d), svd_solver="full").fit_transform(X)
    got = pca_2d(X)
    np.testing.assert_allclose(got[:, :expected.shape[1]], expected, rtol=1e-12, atol=1e-12)
    assert got.shape == (n, 2)
