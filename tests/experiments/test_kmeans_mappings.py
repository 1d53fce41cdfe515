"""k-means cost and its transfer costs (eqs. 11, 13, 14 of Frank et al. 2011), the
Gaussian generators, and the kmeans_mappings experiment end to end."""

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from scipy.spatial.distance import cdist
from sklearn.cluster import KMeans

from mtc_cli.core import mappings
from mtc_cli.core.criteria import kmeans_transfer as kt
from mtc_cli.core.datasets.gaussians import mixture_pairs
from mtc_cli.core.errors import MtcError
from mtc_cli.core.models import kmeans
from mtc_cli.run.params import build


@pytest.fixture
def data():
    rng = np.random.default_rng(3)
    X1, X2, labels = mixture_pairs(rng, 60, [[0, 0], [4, 0], [2, 3.5]], [1.0, 0.5, 1.0])
    return X1, X2, labels


@pytest.fixture
def solution(data):
    return kmeans.fit(data[0], 4, n_init=3, random_state=0)


def test_costs_match_cdist_and_sklearn_inertia(data):
    X1 = data[0]
    km = KMeans(3, n_init=3, random_state=1).fit(X1)
    sol = kmeans.fit(X1, 3, n_init=3, random_state=1)
    np.testing.assert_allclose(kmeans.squared_distances(sol.centroids, X1),
                               cdist(X1, sol.centroids, "sqeuclidean"), rtol=1e-12, atol=1e-12)
    assert kmeans.costs(sol, X1).sum() == pytest.approx(km.inertia_, rel=1e-6)


def test_transfer_costs_on_the_training_set_equal_the_training_cost(data, solution):
    X1 = data[0]
    cost = kmeans.costs(solution, X1).mean()
    # ψ_NN of X¹ onto itself and ψ^G are the identity; at convergence each object's nearest
    # centroid is its own, so ψ^s is too
    assert kt.nearest_neighbour_transfer_cost(
        solution, X1, mappings.nearest_neighbour(X1, X1)) == pytest.approx(cost)
    assert kt.generative_transfer_cost(solution, X1) == pytest.approx(cost)
    assert kt.structure_transfer_cost(solution, X1) == pytest.approx(cost)


def test_eq11_by_brute_force(data, solution):
    X1, X2, _ = data
    C, c = solution.centroids, solution.labels
    nn = [int(np.argmin([np.sum((x2 - x1) ** 2) for x1 in X1])) for x2 in X2]
    exact = np.mean([np.sum((x2 - C[c[i]]) ** 2) for x2, i in zip(X2, nn, strict=True)])
    assert kt.nearest_neighbour_transfer_cost(solution, X2, np.array(nn)) == pytest.approx(exact)
    approx = np.mean([min(np.sum((x2 - mu) ** 2) for mu in C) for x2 in X2])
    assert kt.structure_transfer_cost(solution, X2) == pytest.approx(approx)
    paired = np.mean([np.sum((X2[i] - C[c[i]]) ** 2) for i in range(len(X2))])
    assert kt.generative_transfer_cost(solution, X2) == pytest.approx(paired)


def test_eq14_by_brute_force_and_its_limits(data, solution):
    X2, C = data[1], solution.centroids
    beta = 0.3
    total = 0.0
    for x in X2:
        d = [np.sum((x - mu) ** 2) for mu in C]
        w = [np.exp(-beta * v) for v in d]
        total += sum(v * u for v, u in zip(d, w, strict=True)) / sum(w)
    assert kt.soft_transfer_cost(solution, X2, beta) == pytest.approx(total / len(X2))
    # β → ∞ is the structure mapping (eq. 11); β = 0 weighs all k centroids equally
    assert kt.soft_transfer_cost(solution, X2, 1e7) == pytest.approx(
        kt.structure_transfer_cost(solution, X2))
    assert kt.soft_transfer_cost(solution, X2, 0.0) == pytest.approx(
        cdist(X2, C, "sqeuclidean").mean())


def test_eq13_by_brute_force_and_its_nearest_neighbour_limit(data, solution):
    X1, X2, _ = data
    beta = 0.5
    D12 = cdist(X2, X1, "sqeuclidean")
    p = mappings.soft(D12, beta)
    C, c = solution.centroids, solution.labels
    brute = np.mean([sum(p[j, i] * np.sum((X2[j] - C[c[i]]) ** 2) for i in range(len(X1)))
                     for j in range(len(X2))])
    assert kt.soft_object_transfer_cost(solution, X2, p) == pytest.approx(brute)
    hard = mappings.soft(D12, 1e7)
    assert kt.soft_object_transfer_cost(solution, X2, hard) == pytest.approx(
        kt.nearest_neighbour_transfer_cost(solution, X2, mappings.nearest_neighbour(X1, X2)))
    with pytest.raises(ValueError, match="N2, N1"):
        kt.soft_object_transfer_cost(solution, X2, p[:, :-1])


def test_beta_is_the_factor_over_the_single_cluster_cost_per_object(data):
    X1 = data[0]
    one = kmeans.fit(X1, 1, n_init=1)
    assert kt.single_cluster_beta(X1, 0.75) == pytest.approx(
        0.75 / kmeans.costs(one, X1).mean())
    with pytest.raises(ValueError):
        kt.single_cluster_beta(np.ones((4, 2)))


def test_mixture_pairs_share_components_and_respect_sigmas():
    rng = np.random.default_rng(5)
    X1, X2, labels = mixture_pairs(rng, 20000, [[0.0, 0.0], [100.0, 0.0]], [1.0, 3.0],
                                   [0.25, 0.75])
    assert abs(np.mean(labels == 1) - 0.75) < 0.02
    for X in (X1, X2):  # same component for x¹_i and x²_i
        np.testing.assert_array_equal(X[:, 0] > 50, labels == 1)
        assert X[labels == 1].std(axis=0) == pytest.approx([3.0, 3.0], rel=0.05)
        assert X[labels == 0].std(axis=0) == pytest.approx([1.0, 1.0], rel=0.05)


def test_settings_are_config_data_and_are_checked():
    from experiments.kmeans_mappings import Params, experiment

    four = [{"name": n, "centres": [[0, 0], [5, 0]], "sigmas": [1, 1]} for n in "abcd"]
    p = build(Params, {"settings": four, "reps": 2}, "test", "")
    experiment.check(p)
    assert sorted({t["setting"] for t in experiment.tasks(p)}) == list("abcd")
    assert len(experiment.tasks(p)) == 8
    bad = build(Params, {"settings": [{"name": "x", "centres": [[0, 0]], "sigmas": [1, 2]}]},
                "test", "")
    with pytest.raises(MtcError, match="sigmas"):
        experiment.check(bad)


def test_quick_profile_end_to_end(root, tmp_path):
    res = subprocess.run([sys.executable, "-m", "mtc_cli.cli", "run",
                          str(root / "configs" / "kmeans_mappings.yaml"), "--quick",
                          "--out", str(tmp_path)],
                         capture_output=True, text=True, cwd=root, timeout=120)
    assert res.returncode == 0, res.stderr
    for name in ("rows.csv", "summary.csv", "curves.csv", "monotone.csv", "sensitivity.csv",
                 "scatter.csv", "targets.csv", "run.json", "kmeans_mappings.png"):
        assert (tmp_path / name).is_file(), name
    rows = pd.read_csv(tmp_path / "rows.csv")
    assert {"cost", "nn", "nn_object", "generative", "soft", "soft_object"} <= set(
        rows["criterion"])
    assert np.isfinite(rows["score"]).all()
    summary = pd.read_csv(tmp_path / "summary.csv")
    assert set(summary["setting"]) == {"equidistant", "hierarchical", "heterogeneous"}
    # the training cost never rises with k (k-means with restarts, nested optimum)
    cost = rows[rows["criterion"] == "cost"].pivot(index=["setting", "rep"], columns="k",
                                                   values="score")
    assert (np.diff(cost.to_numpy(), axis=1) <= 1e-9).all()
    scatter = pd.read_csv(tmp_path / "scatter.csv")
    assert set(scatter["kind"]) == {"point", "centroid"}
