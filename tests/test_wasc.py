"""The wASC experiments (Buhmann et al. 2011, Figs. 2–5): the two-source Boolean data,
the helpers of the three experiments checked by independent routes, and each config end
to end with ``--quick``."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from experiments.wasc_boolean_mac import fit, profile_mismatch
from experiments.wasc_gmm_annealing import mds_axis, sample_aligned
from experiments.wasc_phase_transitions import order_parameters, sources
from mtc_cli.criteria.approximation_capacity import capacity
from mtc_cli.datasets import boolean_sources as bs
from mtc_cli.models import boolean

ROOT = Path(__file__).resolve().parents[1]


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


@pytest.mark.parametrize("name, figure, tables", [
    ("wasc_gmm_annealing", "wasc_gmm_annealing.png", ["optima.csv"]),
    ("wasc_boolean_mac", "wasc_boolean_mac.png", ["curves.csv", "ranking.csv"]),
    ("wasc_phase_transitions", "wasc_phase_transitions.png", ["curves.csv", "phases.csv"]),
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
