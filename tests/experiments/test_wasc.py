"""The wASC experiments (Buhmann et al. 2011, Figs. 2–5): the two-source Boolean data,
the helpers of the three experiments checked by independent routes, and each config end
to end with ``--quick``."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from experiments.wasc_boolean_mac import capacity_in_use, fit, profile_mismatch
from experiments.wasc_gmm_annealing import mds_axis, sample_aligned
from experiments.wasc_phase_transitions import Params, order_parameters, separation, sources
from mtc_cli.core.criteria.approximation_capacity import capacity
from mtc_cli.core.datasets import boolean_sources as bs
from mtc_cli.core.models import annealing, boolean, gibbs
from mtc_cli.core.models.resolution import distinct_at

ROOT = Path(__file__).resolve().parents[2]


def test_two_sources_have_the_asked_hamming_distance_and_distinct_or():
    rng = np.random.default_rng(0)
    U = bs.two_sources(rng, 150, 40)
    assert U.shape == (2, 150) and U.dtype == bool
    assert np.count_nonzero(U[0] ^ U[1]) == 40
    P = bs.set_profiles(U, boolean.assignment_sets(2, 2))
    np.testing.assert_array_equal(P, [U[0], U[1], U[0] | U[1]])
    assert np.count_nonzero(P[2] ^ P[0]) == 20 and np.count_nonzero(P[2] ^ P[1]) == 20


def test_sample_noise_fraction():
    rng = np.random.default_rng(1)
    P = np.array([[True, False] * 50, [False] * 100])
    labels = np.repeat([0, 1], 2000)
    np.testing.assert_array_equal(bs.sample(rng, P, labels, 0.0, 0.75), P[labels])
    pure = bs.sample(rng, P, labels, 1.0, 0.75)
    assert pure.mean() == pytest.approx(0.75, abs=0.01)
    # ε = 0.4: a zero survives with P = 1 − ε·r, a one with P = 1 − ε(1 − r)
    X = bs.sample(rng, P, labels, 0.4, 0.75)
    zeros, ones = ~P[labels], P[labels]
    assert X[zeros].mean() == pytest.approx(0.4 * 0.75, abs=0.01)
    assert X[ones].mean() == pytest.approx(1 - 0.4 * 0.25, abs=0.01)


def test_profile_mismatch_is_permutation_invariant():
    rng = np.random.default_rng(2)
    P = rng.random((3, 20)) < 0.5
    assert profile_mismatch(P[[2, 0, 1]], P) == 0.0
    Q = P[[1, 2, 0]].copy()
    Q[0, :3] ^= True
    assert profile_mismatch(Q, P) == pytest.approx(3 / 60)


def test_four_models_recover_noise_free_sources_at_log2_3_bits():
    rng = np.random.default_rng(3)
    U = bs.two_sources(rng, 60, 20)
    P = bs.set_profiles(U, boolean.assignment_sets(2, 2))
    labels = np.repeat(np.arange(3), 30)
    X1, X2 = (bs.sample(rng, P, labels, 0.0, 0.75).astype(float) for _ in range(2))
    for model in ("MAC", "MAC-mix", "SAC", "SAC-mix"):
        sol = fit(X1, model, rng, restarts=1, cooling=0.8, max_iter=30)
        assert len(sol.sets) == 3
        assert profile_mismatch(boolean.set_parameters(sol.v, sol.sets) < 0.5, P) == 0.0
        cap, _ = capacity(boolean.costs(X1, sol.v, sol.sets, sol.epsilon, sol.r),
                          boolean.costs(X2, sol.v, sol.sets, sol.epsilon, sol.r))
        assert cap == pytest.approx(np.log2(3), abs=1e-3)


def test_capacity_in_use_drops_the_sets_no_object_takes():
    # three perfectly separated sets in use and a fourth no object prefers: eq. 13 over all
    # sets tends to log₂ 4 = 2 bits at large β, over the sets in use to log₂ 3
    R = np.full((30, 4), 50.0)
    R[np.arange(30), np.repeat(np.arange(3), 10)] = 0.0
    R[:, 3] = 40.0
    assert capacity(R, R)[0] == pytest.approx(2.0, abs=1e-6)
    assert capacity_in_use(R, R)[0] == pytest.approx(np.log2(3), abs=1e-6)


def test_sac_noise_fraction_is_not_identifiable_but_mac_is():
    # SAC: every set is one source, so (v, ε, r) and (v', 0) with 1 − v' = P(x = 1 | L)
    # give the same costs for every X: the likelihood cannot tell ε. MAC ties the
    # combined set to its sources (v_L = v₁v₂), so the same move changes its costs.
    rng = np.random.default_rng(5)
    X = (rng.random((40, 12)) < 0.5).astype(float)
    v = rng.uniform(0.1, 0.9, (3, 12))
    eps, r = 0.4, 0.75
    sac = boolean.assignment_sets(3, 1)
    v0 = 1.0 - boolean.emission_one(v, sac, eps, r)
    np.testing.assert_allclose(boolean.costs(X, v, sac, eps, r),
                               boolean.costs(X, v0, sac, 0.0, r))
    mac = boolean.assignment_sets(2, 2)
    singles = 1.0 - boolean.emission_one(v[:2], boolean.assignment_sets(2, 1), eps, r)
    assert not np.allclose(boolean.costs(X, v[:2], mac, eps, r),
                           boolean.costs(X, singles, mac, 0.0, r))


def test_fit_mac_holds_a_fixed_noise_r():
    rng = np.random.default_rng(6)
    P = bs.set_profiles(bs.two_sources(rng, 40, 12), boolean.assignment_sets(2, 2))
    X = bs.sample(rng, P, np.repeat(np.arange(3), 20), 0.3, 0.75).astype(float)
    assert boolean.fit_mac(X, 2, rng, cooling=0.7, max_iter=20, fixed_r=0.6).r == 0.6
    assert boolean.fit_mac(X, 2, rng, cooling=0.7, max_iter=20).r != 0.6


def test_gibbs_draws_follow_the_probabilities():
    rng = np.random.default_rng(7)
    p = np.tile([0.2, 0.5, 0.3], (60000, 1))
    counts = np.bincount(gibbs.sample_assignments(p, rng), minlength=3) / len(p)
    np.testing.assert_allclose(counts, [0.2, 0.5, 0.3], atol=0.01)  # s.e. ≤ 0.002
    assert np.array_equal(gibbs.sample_assignments(np.eye(3), rng), [0, 1, 2])


def test_gibbs_centroid_means_by_brute_force():
    rng = np.random.default_rng(8)
    X = rng.standard_normal((50, 3))
    c = rng.integers(2, size=50)  # cluster 2 stays empty
    prev = np.full((3, 3), 7.0)
    M = gibbs.centroid_means(X, c, prev)
    for k in range(2):
        np.testing.assert_allclose(M[k], X[c == k].mean(axis=0))
    np.testing.assert_array_equal(M[2], prev[2])


def test_annealed_gibbs_splits_two_clouds_and_is_deterministic():
    rng = np.random.default_rng(9)
    means = np.array([[-3.0, 0.0], [3.0, 0.0]])
    labels = np.repeat([0, 1], 100)
    X = means[labels] + 0.3 * rng.standard_normal((200, 2))
    run = [gibbs.annealed_gibbs(X, 2, np.random.default_rng(1), t_start=100.0, t_stop=0.05,
                                cooling=0.7) for _ in range(2)]
    assert np.array_equal(run[0].centroids, run[1].centroids)
    path = run[0]
    # T = 100 ≫ T_c = 2·λ_max ≈ 18; at T = 0.05 the means 6 apart are resolved (36 > 0.1)
    assert path.k_hat[0] == 1 and path.k_hat[-1] == 2
    truth = np.array([X[labels == k].mean(axis=0) for k in range(2)])
    found = path.centroids[-1][np.argsort(path.centroids[-1][:, 0])]
    np.testing.assert_allclose(found, truth, atol=1e-9)  # no object is ambiguous at T = 0.05


def test_distinct_at_merges_centroids_within_the_resolution_of_t():
    pair = np.array([[0.0, 0.0], [1.0, 0.0]])  # d² = 1: one group iff 2T ≥ 1
    assert list(distinct_at(pair, 0.6)) == [0, 0]  # 2T = 1.2 ≥ 1
    assert list(distinct_at(pair, 0.4)) == [0, 1]  # 2T = 0.8 < 1
    # T → 0 merges only coinciding centroids; a large T merges everything
    assert list(distinct_at(np.array([[0.0, 0.0], [1e-3, 0.0], [0.0, 0.0]]), 1e-9)) == [0, 1, 0]
    assert list(distinct_at(np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 5.0]]), 1e6)) == [0, 0, 0]
    # single linkage: a chain 1 apart is one group at 2T = 1.2; the point 4 away is not
    line = np.array([[0.0], [1.0], [2.0], [6.0]])
    assert list(distinct_at(line, 0.6)) == [0, 0, 0, 1]
    # the distance is Euclidean in any dimension: 0.1 in each of 100 coordinates is d² = 1
    far = np.vstack([np.zeros(100), np.full(100, 0.1)])
    assert list(distinct_at(far, 0.6)) == [0, 0] and list(distinct_at(far, 0.4)) == [0, 1]
    with pytest.raises(ValueError):
        distinct_at(pair, 0.0)


def test_resolution_bound_is_where_annealing_splits_two_point_clusters():
    """Points at ±a (d = 2a): eq. 14's fixed point y = a·tanh(2ay/T) splits iff T < 2a²."""
    X = np.repeat([[-1.0], [1.0]], 50, axis=0)  # a = 1: split iff T < 2
    start = np.array([[-1e-3], [1e-3]])
    for T, split in ((2.2, False), (1.8, True)):
        M = annealing.fixed_point(X, start, T, tol=1e-12, max_iter=100000)[0]
        assert (abs(M[0, 0] - M[1, 0]) > 1e-3) == split
    # the true pair is unresolved above T = d²/2 = 2 and resolved below it
    truth = np.array([[-1.0], [1.0]])
    assert distinct_at(truth, 2.2).max() == 0 and distinct_at(truth, 1.8).max() == 1


def test_adapted_separation_falls_as_one_over_root_d():
    p = Params(u=1.5, u_adapted=3.2, reference_dim=100)
    assert separation("fixed", 3000, p) == 1.5
    assert separation("adapted", 100, p) == pytest.approx(3.2)
    assert separation("adapted", 400, p) == pytest.approx(1.6)


def test_phase_sources_and_order_parameters():
    mu = sources(50, 0.5, 1.5)
    assert mu[0] @ mu[1] == 0 and np.linalg.norm(mu[0]) == pytest.approx(np.linalg.norm(mu[1]))
    assert np.linalg.norm(mu[0] - mu[1]) / np.sqrt(2 * 0.5) == pytest.approx(1.5)
    assert order_parameters(mu, mu) == pytest.approx((1.0, 1.0))
    assert order_parameters(mu[::-1], mu) == pytest.approx((1.0, 1.0))
    assert order_parameters(np.zeros((2, 50)), mu) == (0.0, 0.0)
    # orthogonal to the true separation: s > 0, r = 0 (the random split phase)
    M = np.zeros((2, 50))
    M[0, 5], M[1, 5] = 1.0, -1.0
    s, r = order_parameters(M, mu)
    assert s > 0 and r == 0
    # with 4 centroids the two farthest apart define the estimated separation
    four = np.vstack([mu, mu.mean(axis=0), mu.mean(axis=0)])
    assert order_parameters(four, mu) == pytest.approx((1.0, 1.0))


def test_gmm_helpers():
    rng = np.random.default_rng(4)
    means = np.array([[0.0, 0.0], [10.0, 0.0]])
    X1, X2, labels = sample_aligned(rng, means, 0.1, 200)
    assert np.all(np.abs(X1 - means[labels]) < 1) and np.all(np.abs(X2 - means[labels]) < 1)
    assert not np.allclose(X1, X2)
    axis = mds_axis(np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]]))
    assert abs(axis @ np.array([1.0, 1.0]) / np.sqrt(2)) == pytest.approx(1.0)


@pytest.mark.slow
@pytest.mark.parametrize("name, figure, tables", [
    ("wasc_gmm_annealing", "wasc_gmm_annealing.png", ["optima.csv"]),
    ("wasc_boolean_mac", "wasc_boolean_mac.png", ["curves.csv", "ranking.csv", "starts.csv"]),
    ("wasc_phase_transitions", "wasc_phase_transitions.png",
     ["curves.csv", "phases.csv", "wasc_phase_transitions_fig5.png"]),
])
def test_config_runs_quick_end_to_end(tmp_path, name, figure, tables):
    cfg = ROOT / "configs" / f"{name}.yaml"
    proc = subprocess.run([sys.executable, "-m", "mtc_cli.cli", "run", str(cfg), "--quick",
                           "--out", str(tmp_path)], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    for f in ["rows.csv", "summary.csv", "targets.csv", "run.json", figure, *tables]:
        assert (tmp_path / f).is_file(), f
    targets = pd.read_csv(tmp_path / "targets.csv")
    assert len(targets) > 0 and not targets["observed"].astype(str).str.startswith("error").any()
