"""Clustering algorithms beyond k-means in ``mtc select`` and ``--model auto`` (issue 26):
the label-only models against scikit-learn and brute force, the predictors, the vote of
the shape-free algorithms, the decision of ``auto`` worked by hand, and the answers on rings,
blobs and moons end to end."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.cluster import AgglomerativeClustering
from sklearn.datasets import make_blobs, make_moons
from sklearn.metrics import adjusted_rand_score

from mtc_cli.core.models import clusterers
from mtc_cli.selection import auto, voting
from mtc_cli.selection.catalog import (
    ALGORITHMS,
    applicable,
    auto_models,
)
from mtc_cli.selection.settings import make_settings
from mtc_cli.selection.tasks import plan, run_task

LABELS = [a.name for a in ALGORITHMS.values() if a.kind == "labels"]
SHAPE_FREE = [a.name for a in ALGORITHMS.values() if a.shape_free]


def rings(n_per_ring: int = 300, noise: float = 0.05, seed: int = 1) -> np.ndarray:
    """Three concentric rings of radii 1, 2, 3 with Gaussian noise."""
    rng = np.random.default_rng(seed)
    parts = []
    for r in (1.0, 2.0, 3.0):
        t = rng.uniform(0, 2 * np.pi, n_per_ring)
        parts.append(np.c_[r * np.cos(t), r * np.sin(t)] + rng.normal(0, noise, (n_per_ring, 2)))
    return np.vstack(parts)


@pytest.mark.parametrize("linkage", ["ward", "average", "complete", "single"])
def test_agglomerative_partitions_are_scikit_learns(linkage):
    X, _ = make_blobs(120, 3, centers=4, random_state=3)
    fits = ALGORITHMS[linkage].make().fit_all(X, [1, 2, 3, 4, 6], np.random.default_rng(0))
    for k, f in fits.items():
        assert len(np.unique(f.labels)) == k
        ref = AgglomerativeClustering(n_clusters=k, linkage=linkage).fit(X).labels_
        assert adjusted_rand_score(ref, f.labels) == pytest.approx(1.0)


def test_spectral_separates_rings_as_scikit_learn_and_one_embedding_serves_every_k():
    import warnings

    from sklearn.cluster import SpectralClustering

    X = rings(300)
    fits = ALGORITHMS["spectral"].make().fit_all(X, [1, 2, 3], np.random.default_rng(0))
    truth = np.repeat([0, 1, 2], 300)
    assert adjusted_rand_score(truth, fits[3].labels) == pytest.approx(1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = SpectralClustering(3, affinity="nearest_neighbors", random_state=0).fit(X)
    assert adjusted_rand_score(ref.labels_, fits[3].labels) == pytest.approx(1.0)
    assert set(np.unique(fits[1].labels)) == {0}
    assert len(np.unique(fits[2].labels)) == 2


def test_above_max_items_a_sample_is_fitted_and_the_rest_labelled_by_the_nearest_neighbour():
    X, _ = make_blobs(300, 2, centers=3, random_state=0)
    model = ALGORITHMS["average"].make(max_items=100)
    fits = model.fit_all(X, [2, 3], np.random.default_rng(5))
    f = fits[3]
    Xs, ls = f.solution.X, f.solution.labels
    assert len(Xs) == 100 and len(f.labels) == 300
    nearest = ((X[:, None, :] - Xs[None, :, :]) ** 2).sum(axis=2).argmin(axis=1)  # brute force
    np.testing.assert_array_equal(f.labels, ls[nearest])
    assert fits[2].solution.X is Xs  # one sample for every k


def test_the_nearest_neighbour_and_nearest_centroid_predictors_by_brute_force():
    X, _ = make_blobs(80, 2, centers=3, random_state=1)
    new = np.random.default_rng(2).normal(size=(30, 2)) * 4
    model = ALGORITHMS["complete"].make()
    fits = model.fit_all(X, [2, 3], np.random.default_rng(0))
    d = ((new[:, None, :] - X[None, :, :]) ** 2).sum(axis=2)
    for k, f in model.predict_all(fits, new).items():
        np.testing.assert_array_equal(f, fits[k].labels[d.argmin(axis=1)])
    for k, f in model.strength_predict_all(fits, new).items():
        centroids = np.array([X[fits[k].labels == c].mean(axis=0) for c in range(k)])
        dc = ((new[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=2)
        np.testing.assert_array_equal(f, dc.argmin(axis=1))


def test_pathbased_predicts_by_its_own_rule_in_blocks():
    X = rings(60)
    new = rings(700, seed=9)[::1]
    model = ALGORITHMS["pathbased"].make()
    fits = model.fit_all(X, [2, 3], np.random.default_rng(0))
    whole = clusterers.pathbased_predict(X, {k: f.labels for k, f in fits.items()}, new)
    got = model.predict_all(fits, new)  # 2 100 objects: three blocks of 1 000
    for k in fits:
        np.testing.assert_array_equal(got[k], whole[k])
    assert ALGORITHMS["pathbased"].predictors[0].startswith("path-based")


def test_label_only_models_get_the_criteria_that_need_labels_only():
    for m in LABELS:
        names = applicable(m)
        assert {"stability", "prediction_strength", "gap", "clest", "silhouette",
                "calinski_harabasz", "knee"} <= set(names)
        assert not {"mtc", "capacity", "bic", "aic"} & set(names)
    assert {"kmeans", "gmm"} <= set(auto_models()) and set(LABELS) <= set(auto_models())


def test_a_split_task_of_a_label_only_model():
    X, _ = make_blobs(200, 2, centers=3, random_state=0, cluster_std=0.5)
    s = make_settings("ward", (1, 5), None, n=200, d=2)
    split = next(t for t in plan(s) if t["family"] == "split")
    rows = pd.DataFrame(run_task(X, split, np.random.default_rng(0)))
    assert set(rows["criterion"]) == {"stability", "prediction_strength"}
    stab = rows[rows["criterion"] == "stability"].set_index("k")
    assert stab.loc[3, "score"] == 0.0  # separated blobs: both halves agree at k = 3
    assert (stab["permuted"] > 0).all() and (stab["random"] > 0).all()


def test_shape_free_algorithms_vote_by_the_stability_alone():
    criteria = applicable("pathbased")
    for m in SHAPE_FREE:
        rule = voting.rule_for(m, criteria)
        assert rule.weights == {"stability": 1.0}
        assert set(rule.reasons) == set(criteria) - {"stability"}
    assert voting.rule_for("ward", applicable("ward")) is voting.PLURALITY
    assert voting.rule_for("single", ["gap", "silhouette"]) is voting.PLURALITY


def test_normalised_stability_and_the_decision_by_hand():
    rows = pd.DataFrame({"criterion": ["stability"] * 4 + ["gap"],
                         "k": [2, 2, 3, 3, 2], "score": [0.1, 0.3, 0.0, 0.2, 5.0],
                         "permuted": [0.4, 0.4, 0.5, 0.3, np.nan]})
    curve = auto.normalised_stability(rows)
    assert curve.loc[2] == pytest.approx(0.2 / 0.4) and curve.loc[3] == pytest.approx(0.1 / 0.4)
    curves = {"a": pd.Series([0.5, 0.25], index=[2, 3]), "b": pd.Series([0.1, 0.1], index=[2, 4]),
              "c": pd.Series([0.1], index=[3]), "e": pd.Series([0.1], index=[4]),
              "d": pd.Series(dtype=float)}
    table = auto.standings(curves, {"a": 3, "b": 4, "c": 1, "e": 2})
    # b, c and e tie at 0.1; b (at its largest k, 4) and e reach it at k = 4: the first
    assert table["winner"].tolist() == [False, True, False, False, False]
    b = table.set_index("model").loc["b"]
    assert b["stability_k"] == 4 and b["margin"] == 0.0
    assert auto.winner(table) == ("b", 4.0)
    later = auto.standings({"c": curves["c"], "b": curves["b"]}, {"c": 1, "b": 4})
    assert auto.winner(later)[0] == "b"  # tied with c, at a larger k
    # an algorithm without a vote gives no answer: it cannot win
    assert auto.winner(auto.standings(curves, {"a": 3}))[0] == "a"
    assert auto.winner(auto.standings(curves, {}))[0] is None
    assert np.isnan(table.set_index("model").loc["d", "min_stability"])
    one = auto.standings({"a": curves["a"]}, {"a": 3})
    assert one["winner"].all() and np.isnan(one["margin"].iloc[0])


#: "a linkage or path-based algorithm" (issue 26)
LINKAGE_OR_PATH = {"ward", "average", "complete", "single", "pathbased"}


@pytest.mark.slow
@pytest.mark.parametrize("name, data, model_ok, k", [
    ("rings", rings(300), LINKAGE_OR_PATH, 3),
    # centres 6.5, 7.8 and 14.3 apart (random_state 2 puts two of them 3.3 apart: k-means votes 2)
    ("blobs", make_blobs(600, 2, centers=3, random_state=3)[0], set(auto_models()), 3),
    ("moons", make_moons(600, noise=0.06, random_state=0)[0], set(auto_models()), 2),
])
def test_mtc_select_auto_answers_rings_blobs_and_moons(cli, tmp_path, name, data, model_ok, k):
    path = tmp_path / f"{name}.csv"
    pd.DataFrame(data, columns=["x", "y"]).to_csv(path, index=False)
    out = tmp_path / "run"
    result = cli("select", path, "--model", "auto", "--k", "1..8", "-j", "2", "--out", out)
    assert result.exit_code == 0, result.output
    decision = pd.read_csv(out / "auto.csv")
    best = decision[decision["winner"]].iloc[0]
    assert best["model"] in model_ok and best["vote_k"] == k, decision
    assert f"Answer: {best['model']}, k = {k}.\n" in result.output
    assert (out / "select.png").is_file() and (out / "stability.csv").is_file()
    rows = pd.read_csv(out / "rows.csv")
    assert set(rows["model"]) == set(auto_models())


@pytest.mark.slow
@pytest.mark.parametrize("name, data, k", [
    ("rings", rings(300), 3),
    ("blobs", make_blobs(600, 2, centers=3, random_state=3)[0], 3),
    ("moons", make_moons(600, noise=0.06, random_state=0)[0], 2),
])
def test_the_default_answers_rings_blobs_and_moons(cli, tmp_path, name, data, k):
    """Issue 43: with no --model, mtc select answers with the league's rule (the shipped
    answer_rule.csv) — 3 rings, 3 blobs, 2 moons — and the JSON's ``answer`` says so; the
    estimator's default gives the same answer."""
    import json

    from mtc_cli.selection.estimator import OrderSelector

    path = tmp_path / f"{name}.csv"
    pd.DataFrame(data, columns=["x", "y"]).to_csv(path, index=False, float_format="%.17g")
    result = cli("select", path, "--k", "1..8", "-j", "2", "--json", "--out", tmp_path / "run")
    assert result.exit_code == 0, result.output
    said = json.loads(result.stdout)["answer"]
    assert said["k"] == k and said["model"] in auto_models(), said
    est = OrderSelector(k=(1, 8)).fit(pd.read_csv(path).to_numpy())
    assert (est.model_, est.k_) == (said["model"], k)


@pytest.mark.slow
def test_order_selector_auto_is_mtc_select_auto(cli, tmp_path):
    """One engine: OrderSelector(model="auto") decides as mtc select --model auto on the
    same matrix and seed, and takes the winner's attributes."""
    from mtc_cli.selection.estimator import OrderSelector

    X = make_moons(200, noise=0.06, random_state=1)[0]
    path = tmp_path / "moons.csv"
    pd.DataFrame(X, columns=["x", "y"]).to_csv(path, index=False, float_format="%.17g")
    out = tmp_path / "run"
    result = cli("select", path, "--model", "auto", "--k", "1..5", "--splits", "3",
                 "--set", "references=3", "--set", "clest_references=2",
                 "--set", "clest_splits=2", "--out", out)
    assert result.exit_code == 0, result.output
    est = OrderSelector(model="auto", k=(1, 5), splits=3, references=3, clest_references=2,
                        clest_splits=2).fit(pd.read_csv(path).to_numpy())
    pd.testing.assert_frame_equal(est.auto_, pd.read_csv(out / "auto.csv"),
                                  check_dtype=False)
    assert est.model_ == est.auto_.loc[est.auto_["winner"], "model"].iloc[0]
    assert est.k_ == est.selections_[est.model_].k_ and len(est.labels_) == 200


@pytest.mark.slow
def test_auto_leaves_out_an_algorithm_that_refuses_the_data(cli, tmp_path):
    """Blobs at the scale of 10⁶ (variances ≈ 10¹², beyond what a GMM's covariance
    regularisation survives): auto leaves the GMM out and says why, the others decide; the
    estimator does the same, and the same table comes out."""
    from mtc_cli.selection.estimator import OrderSelector

    X = make_blobs(120, 2, centers=3, random_state=3)[0] * 1e6
    path = tmp_path / "wide.csv"
    pd.DataFrame(X, columns=["x", "y"]).to_csv(path, index=False, float_format="%.17g")
    out = tmp_path / "run"
    fast = ("--k", "1..4", "--splits", "3", "--set", "references=3", "--set",
            "clest_references=2", "--set", "clest_splits=2")
    result = cli("select", path, "--model", "auto", *fast, "--out", out)
    assert result.exit_code == 0, result.output
    assert "Left out: gmm, which does not take these data:" in result.output
    assert "--standardize" in result.output
    decision = pd.read_csv(out / "auto.csv")
    assert "gmm" not in set(decision["model"]) and len(decision) == len(auto_models()) - 1
    est = OrderSelector(model="auto", k=(1, 4), splits=3, references=3, clest_references=2,
                        clest_splits=2).fit(pd.read_csv(path).to_numpy())
    assert list(est.left_out_) == ["gmm"] and "gmm" not in est.selections_
    pd.testing.assert_frame_equal(est.auto_, decision, check_dtype=False)
