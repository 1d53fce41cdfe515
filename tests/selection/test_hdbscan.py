"""HDBSCAN in ``mtc select`` (mtc_cli/selection/fitting.py, tasks.py, catalog.py): the
mutual-reachability distance by brute force, the hierarchy's cuts at k against scipy's
single linkage cut by height, and the ``hdbscan_count`` criterion against scikit-learn's
``HDBSCAN`` through the criteria catalog."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.cluster.hierarchy import fcluster, linkage
from scipy.spatial.distance import pdist, squareform
from sklearn.cluster import HDBSCAN
from sklearn.datasets import make_blobs
from sklearn.metrics import adjusted_rand_score

from mtc_cli.core.errors import MtcError
from mtc_cli.core.models.linkage import mutual_reachability
from mtc_cli.selection import choice, shipped
from mtc_cli.selection.catalog import ALGORITHMS, CRITERIA, applicable, models_of
from mtc_cli.selection.criteria import reference_sample
from mtc_cli.selection.fitting import Hdbscan
from mtc_cli.selection.settings import make_settings
from mtc_cli.selection.tasks import plan, run_task


def brute_mutual_reachability(X: np.ndarray, min_samples: int) -> np.ndarray:
    """The square matrix of max(core(a), core(b), ‖a − b‖) by a double loop: core(x) the
    distance to the min_samples-th nearest object, x itself the first (at most n)."""
    n = len(X)
    d = np.array([[np.sqrt(np.sum((X[a] - X[b]) ** 2)) for b in range(n)] for a in range(n)])
    m = min(min_samples, n)
    core = [sorted(d[a])[m - 1] for a in range(n)]
    out = np.zeros((n, n))
    for a in range(n):
        for b in range(n):
            if a != b:
                out[a, b] = max(core[a], core[b], d[a, b])
    return out


@pytest.mark.parametrize("min_samples", [1, 2, 3, 5, 11, 12, 30])
def test_mutual_reachability_by_brute_force(min_samples):
    X = np.random.default_rng(7).normal(size=(12, 3))
    got = mutual_reachability(X, min_samples)
    assert got.shape == (12 * 11 // 2,)  # pdist's condensed order
    np.testing.assert_allclose(squareform(got), brute_mutual_reachability(X, min_samples),
                               rtol=1e-12, atol=0)


def test_mutual_reachability_of_one_sample_is_the_distance_and_of_n_the_farthest():
    X = np.random.default_rng(8).normal(size=(12, 2))
    np.testing.assert_allclose(mutual_reachability(X, 1), pdist(X), rtol=1e-12)
    far = squareform(pdist(X)).max(axis=1)  # core at n: the farthest object
    for m in (12, 13, 100):
        np.testing.assert_allclose(squareform(mutual_reachability(X, m)),
                                   np.maximum.outer(far, far) * (1 - np.eye(12)), rtol=1e-12)


def test_mutual_reachability_is_scikit_learns():
    reach = pytest.importorskip("sklearn.cluster._hdbscan._reachability")
    X = np.random.default_rng(9).normal(size=(12, 2))
    for m in (2, 5, 12):
        theirs = reach.mutual_reachability_graph(squareform(pdist(X)), min_samples=m)
        np.testing.assert_allclose(squareform(mutual_reachability(X, m)),
                                   theirs * (1 - np.eye(12)), rtol=1e-12)


def test_the_cuts_are_single_linkage_of_the_brute_force_distance_cut_by_height():
    X = np.random.default_rng(3).normal(size=(40, 2))
    n, ks = len(X), list(range(1, 11))
    parts = Hdbscan(min_samples=5).partitions(X, ks, np.random.default_rng(0))
    Z = linkage(squareform(brute_mutual_reachability(X, 5), checks=False), method="single")
    h = Z[:, 2]
    # k clusters are unambiguous by height where the (n − k)-th merge is lower than the next
    clear = [k for k in ks if k == 1 or h[n - k - 1] < h[n - k]]
    assert len(clear) >= 8
    for k in ks:
        assert sorted(np.unique(parts[k])) == list(range(k))
    for k in clear:
        ref = fcluster(Z, k, criterion="maxclust")
        assert len(np.unique(ref)) == k
        assert adjusted_rand_score(ref, parts[k]) == 1.0


def test_two_far_blobs_with_a_thin_bridge_are_separated_at_k2():
    rng = np.random.default_rng(0)
    A, B = rng.normal([0, 0], 0.5, (50, 2)), rng.normal([10, 0], 0.5, (50, 2))
    bridge = np.c_[np.linspace(1.5, 8.5, 8), np.zeros(8)]
    labels = ALGORITHMS["hdbscan"].make().fit_all(np.r_[A, B, bridge], [2], rng)[2].labels
    assert len(set(labels[:50])) == 1 and len(set(labels[50:100])) == 1
    assert labels[0] != labels[50]


def test_fewer_than_two_objects_are_one_cluster():
    parts = Hdbscan().partitions(np.zeros((1, 2)), [1], np.random.default_rng(0))
    np.testing.assert_array_equal(parts[1], [0])


# --- hdbscan_count ---------------------------------------------------------------------------

def sklearn_count(X, m: int) -> int:
    labels = HDBSCAN(min_cluster_size=m, copy=True).fit_predict(X)
    return len(set(labels.tolist()) - {-1})


def count_through_select(X, m: int | None, k=(1, 4)) -> tuple[float, str]:
    """hdbscan_count's chosen k and note as ``mtc select`` computes it: the planned ``full``
    task run, its rows summarised."""
    s = make_settings("hdbscan", k, ["hdbscan_count"], n=len(X), d=X.shape[1],
                      hdbscan_min_cluster_size=m)
    (task,) = [t for t in plan(s) if t["family"] == "full"]
    assert task["hdbscan_min_cluster_size"] == s.hdbscan_min_cluster_size
    rows = pd.DataFrame(run_task(X, task, np.random.default_rng(0)))
    table, _ = choice.summarize(rows, s)
    row = table.set_index("criterion").loc["hdbscan_count"]
    return row["selected_k"], row["note"]


def count_rows(X, s) -> dict:
    """The one row hdbscan_count adds to the full task of ``s`` on X."""
    (task,) = [t for t in plan(s) if t["family"] == "full"]
    (row,) = [r for r in run_task(X, task, np.random.default_rng(0))
              if r["criterion"] == "hdbscan_count"]
    return row


def test_hdbscan_count_is_a_full_task_criterion_of_hdbscan_alone():
    c = CRITERIA["hdbscan_count"]
    assert (models_of("hdbscan_count"), c.family, c.k_min) == (("hdbscan",), "full", 1)
    assert "hdbscan_count" in applicable("hdbscan")
    assert "hdbscan_count" not in applicable("kmeans")
    with pytest.raises(MtcError, match="hdbscan_count does not apply to model kmeans"):
        make_settings("kmeans", (1, 4), ["hdbscan_count"], n=100, d=2)


@pytest.mark.parametrize("centers,std", [(3, 0.5), (4, 1.0), (5, 0.6)])
@pytest.mark.parametrize("m", [5, 10, 25])
def test_hdbscan_count_is_scikit_learns_number_of_clusters(centers, std, m):
    X, _ = make_blobs(200, 2, centers=centers, cluster_std=std, random_state=1)
    k, note = count_through_select(X, m)
    want = sklearn_count(X, m)
    assert want >= 2  # the blobs are found: the test compares a count, not k = 1 on both
    assert k == want
    assert note.endswith("of the objects left as noise")


def test_hdbscan_count_default_min_cluster_size_is_the_shipped_one():
    X, _ = make_blobs(200, 2, centers=3, cluster_std=0.5, random_state=1)
    m = int(shipped.answer_rule()["hdbscan_min_cluster_size"])
    s = make_settings("hdbscan", (1, 4), ["hdbscan_count"], n=200, d=2)
    assert s.hdbscan_min_cluster_size == m
    assert count_rows(X, s)["k"] == max(sklearn_count(X, m), 1)


def test_hdbscan_count_above_max_items_counts_the_reference_sample():
    X, _ = make_blobs(300, 2, centers=4, cluster_std=0.6, random_state=2)
    s = make_settings("hdbscan", (1, 4), ["hdbscan_count"], n=300, d=2,
                      hdbscan_min_cluster_size=10, max_items=120)
    got = count_rows(X, s)
    want = sklearn_count(X[reference_sample(X, 120)], 10)
    assert (got["k"], got["score"]) == (max(want, 1), float(want))


def test_on_fewer_objects_than_min_cluster_size_hdbscan_count_is_one():
    X = np.random.default_rng(4).normal(size=(8, 2))
    with pytest.raises(ValueError, match="min_samples"):
        HDBSCAN(min_cluster_size=10, copy=True).fit(X)  # what the criterion avoids
    k, note = count_through_select(X, 10)
    assert k == 1 and note == "fewer objects than min_cluster_size 10"
    s = make_settings("hdbscan", (1, 4), ["hdbscan_count"], n=8, d=2,
                      hdbscan_min_cluster_size=10)
    assert count_rows(X, s)["score"] == 0.0


def test_at_exactly_min_cluster_size_objects_all_noise_is_one():
    X = np.random.default_rng(4).normal(size=(10, 2))
    assert sklearn_count(X, 10) == 0  # scikit-learn runs, and leaves every object as noise
    k, note = count_through_select(X, 10)
    assert k == 1 and note == "100% of the objects left as noise"
