"""Boolean access-control data (MTC Sects. 4.2 and 5): loaders, role generators, noise,
the SVD-threshold denoiser, MAC, Molloy's rules and the Boolean transfer costs, each
checked by an independent route (loops, per-k factorizations, direct likelihoods), and
both configs end to end."""

import gzip
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from mtc_cli.core.criteria import molloy
from mtc_cli.core.criteria.boolean_transfer import (
    bmf_transfer_cost,
    hamming_transfer_cost,
    svd_threshold_transfer_costs,
)
from mtc_cli.core.datasets import access_control as ac
from mtc_cli.core.mappings import nearest_neighbour
from mtc_cli.core.models import boolean as bm
from mtc_cli.core.models import svd


def or_product(Z, U):
    """Boolean product by loops: x_ij = 1 iff some role t has z_it and u_tj."""
    out = np.zeros((Z.shape[0], U.shape[1]), bool)
    for i in range(Z.shape[0]):
        for t in np.flatnonzero(Z[i]):
            out[i] |= U[t].astype(bool)
    return out


def truncated(sol, k):
    """U_k S_k V_kᵀ from the first k singular triplets of an SVD."""
    return (sol.U[:, :k] * sol.s[:k]) @ sol.Vt[:k]


# --- loaders ----------------------------------------------------------------------------------

def test_load_pairs_and_user_lists(tmp_path):
    pairs = tmp_path / "p.txt.gz"
    with gzip.open(pairs, "wt") as fh:
        fh.write("10 3\n2 3\n\n10 7\n2 3\n")  # non-contiguous ids, a duplicate, a blank line
    X, users, perms = ac.load_user_permissions(pairs)
    assert users == ["2", "10"] and perms == ["3", "7"]  # numeric order, not "10" < "2"
    np.testing.assert_array_equal(X, [[True, False], [True, True]])
    lists = tmp_path / "u.rbac"
    lists.write_text("# a comment\nu_b p_x p_y\nu_a p_y\nu_b p_z\n")
    X, users, perms = ac.load_user_permissions(lists)
    assert users == ["u_a", "u_b"] and perms == ["p_x", "p_y", "p_z"]
    np.testing.assert_array_equal(X, [[False, True, False], [True, True, True]])
    bad = tmp_path / "bad.txt"
    bad.write_text("1 2\n3\n")
    with pytest.raises(ValueError, match="line 2"):
        ac.load_user_permissions(bad)


def test_shipped_hp_matrices(root):
    for name, shape, ones in (("hc", (46, 46), 1486), ("domino", (79, 231), 730),
                              ("fire1", (365, 709), 31951)):
        X = ac.load_user_permissions(root / "data" / "access_control_hp" / f"{name}.txt.gz")[0]
        assert X.shape == shape and X.sum() == ones  # SOURCE.md: lines = ones, shapes


# --- generators and noise ---------------------------------------------------------------------

@pytest.mark.parametrize("name", list(ac.GENERATORS))
def test_generators_are_reproduced_exactly_by_their_roles(name):
    rng = np.random.default_rng(7)
    small = {"flat": {"n_users": 60, "n_perms": 30, "n_roles": 5},
             "tree": {"n_users": 60, "n_perms": 30, "branching": 2, "depth": 2},
             "erbac": {"n_users": 60, "n_perms": 30, "n_functional": 8, "n_business": 5}}
    m = ac.GENERATORS[name](rng, **small[name])
    assert m.X.shape == (60, 30) and m.X.dtype == bool
    np.testing.assert_array_equal(m.X, or_product(m.Z, m.U))
    assert m.X.any(axis=0).all() and m.Z.any(axis=1).all()  # no empty permission or user
    assert m.Z.any(axis=0).all() and m.U.any(axis=1).all()  # every role used and non-empty
    if name == "tree":
        parent, own = m.parts["parent"], m.parts["own"]
        assert m.n_roles == 7 and parent[0] == -1
        assert own.sum(axis=0).tolist() == [1] * 30  # each permission owned by one role
        for r in range(m.n_roles):  # a role grants its own and all its ancestors' permissions
            expect, a = own[r].copy(), parent[r]
            while a >= 0:
                expect |= own[a]
                a = parent[a]
            np.testing.assert_array_equal(m.U[r], expect)
    if name == "erbac":
        np.testing.assert_array_equal(m.U, or_product(m.parts["B"], m.parts["F"]))


def test_generator_limits():
    m = ac.flat_roles(np.random.default_rng(1), n_users=200, n_perms=50, n_roles=8,
                      max_roles_per_user=2, max_perms_per_role=5)
    assert m.Z.sum(axis=1).max() <= 3  # ≤ 2 drawn, plus possibly one role no user drew
    assert np.all(m.Z.sum(axis=1) >= 1)
    with pytest.raises(ValueError, match="n_perms"):
        ac.role_tree(np.random.default_rng(0), n_perms=5, branching=2, depth=2)


def test_noise_relative_to_ones_flips_exact_counts():
    rng = np.random.default_rng(3)
    Xs = rng.random((40, 30)) < 0.2
    n1 = int(Xs.sum())
    X = ac.flip_noise(np.random.default_rng(4), Xs, additive=0.25, subtractive=0.1)
    assert np.count_nonzero(Xs & ~X) == round(0.1 * n1)  # removed ones
    assert np.count_nonzero(~Xs & X) == round(0.25 * n1)  # added at zeros of X*
    np.testing.assert_array_equal(ac.flip_noise(rng, Xs, 0.0, 0.0), Xs)
    with pytest.raises(ValueError):
        ac.flip_noise(rng, Xs, additive=10.0, subtractive=0.0)


def test_noise_per_entry_rates():
    Xs = np.zeros((400, 500), bool)
    Xs[:, :100] = True
    X = ac.flip_noise(np.random.default_rng(5), Xs, 0.02, 0.3, relative_to="entries")
    assert abs((~X[:, :100]).mean() - 0.3) < 0.01  # 40 000 ones, sd of the rate 0.0023
    assert abs(X[:, 100:].mean() - 0.02) < 0.002  # 160 000 zeros, sd 0.00035


# --- SVD-threshold denoiser and Molloy's rules ------------------------------------------------

def test_svd_denoisings_match_per_rank_reconstructions():
    X = np.random.default_rng(6).random((12, 9)) < 0.4
    sol = svd.fit(X)
    got = list(bm.svd_denoisings(sol))
    assert len(got) == 9
    for k, Xk in enumerate(got, start=1):
        np.testing.assert_array_equal(Xk, truncated(sol, k) > 0.5)
    assert len(list(bm.svd_denoisings(sol, 4))) == 4
    np.testing.assert_array_equal(got[-1], X)  # full rank reproduces X


def test_molloy_measures_and_rules_by_hand():
    X = np.array([[1, 1, 0], [0, 1, 1]], bool)
    Xk = np.array([[1, 0, 0], [1, 1, 1]], bool)
    assert molloy.coverage(Xk, X) == 3 / 4
    assert molloy.increment(Xk, X, X) == 2 / 4
    assert molloy.coverage_rule([0.2, 0.79, 0.8, 0.9], 0.8) == 3
    assert molloy.coverage_rule([0.2, 0.3], 0.8) == 2  # none reaches it: the largest rank
    assert molloy.increment_rule([0.1, 0.0005, 0.002, np.nan], 0.001) == 2
    assert molloy.increment_rule([0.1, 0.01, np.nan], 0.001) == 3


# --- transfer costs -------------------------------------------------------------------------

def test_svd_threshold_transfer_costs_match_brute_force():
    rng = np.random.default_rng(8)
    X = rng.random((40, 15)) < 0.3
    X1, X2 = X[:20], X[20:]
    psi = nearest_neighbour(X1, X2, metric="hamming")
    sol = svd.fit(X1)
    got = svd_threshold_transfer_costs(sol, X2, psi)
    assert len(got) == 15
    for k in range(1, 16):
        rec = truncated(sol, k) > 0.5
        brute = np.mean([np.sum(rec[psi[i]] != X2[i]) for i in range(len(X2))])
        assert got[k - 1] == pytest.approx(brute)
        assert hamming_transfer_cost(rec, X2, psi) == pytest.approx(brute)
    np.testing.assert_allclose(svd_threshold_transfer_costs(sol, X2, psi, 5), got[:5])


def test_bmf_transfer_cost_by_loops():
    rng = np.random.default_rng(9)
    Z1 = rng.random((10, 3)) < 0.4
    U = rng.random((3, 8)) < 0.5
    X2 = rng.random((6, 8)) < 0.5
    psi = rng.integers(0, 10, size=6)
    rec = or_product(Z1, U)
    brute = np.mean([np.sum(X2[i] != rec[psi[i]]) for i in range(6)])
    assert bmf_transfer_cost(Z1, U, X2, psi) == pytest.approx(brute)
    np.testing.assert_array_equal(bm.boolean_product(Z1, U), rec)


# --- multi-assignment clustering --------------------------------------------------------------

def direct_cost(x, v, L, eps, r):
    """−log P(x | L) of eq. 16 (Buhmann et al. 2011), bit by bit with explicit products."""
    total = 0.0
    for d in range(len(x)):
        vL = np.prod([v[k, d] for k in L])
        structure = (1 - vL) if x[d] else vL
        noise = r if x[d] else 1 - r
        total -= np.log((1 - eps) * structure + eps * noise)
    return total


def test_mac_costs_and_likelihood_match_direct_computation():
    rng = np.random.default_rng(10)
    X = rng.random((5, 7)) < 0.5
    v = rng.uniform(0.1, 0.9, size=(3, 7))
    sets = bm.assignment_sets(3, 2)
    assert [tuple(np.flatnonzero(s)) for s in sets] == [
        (0,), (1,), (2,), (0, 1), (0, 2), (1, 2)]
    R = bm.costs(X, v, sets, 0.2, 0.7)
    for i in range(5):
        for j, s in enumerate(sets):
            assert R[i, j] == pytest.approx(direct_cost(X[i], v, np.flatnonzero(s), 0.2, 0.7))
    sol = bm.MacSolution(v, 0.2, 0.7, sets, np.full((5, 6), 1 / 6), np.zeros(5, int), R, 1)
    brute = -sum(np.log(np.mean([np.exp(-direct_cost(X[i], v, np.flatnonzero(s), 0.2, 0.7))
                                 for s in sets])) for i in range(5))
    assert sol.neg_log_likelihood() == pytest.approx(brute)
    assert len(bm.assignment_sets(5, 3)) == 5 + 10 + 10


def expected_cost(X, v, sets, eps, r, gamma):
    return float(np.sum(gamma * bm.costs(X, v, sets, eps, r)))


def test_em_update_never_raises_the_expected_cost():
    rng = np.random.default_rng(11)
    X = (rng.random((30, 12)) < 0.4).astype(float)
    sets = bm.assignment_sets(4, 2)
    v = rng.uniform(0.05, 0.95, size=(4, 12))
    gamma = rng.dirichlet(np.ones(len(sets)), size=30)
    m1 = gamma.T @ X
    m0 = gamma.sum(axis=0)[:, None] - m1
    eps, r = 0.3, 0.4
    before = expected_cost(X, v, sets, eps, r, gamma)
    for _ in range(5):
        v, eps, r = bm.em_update(v, sets, m0, m1, eps, r)
        after = expected_cost(X, v, sets, eps, r, gamma)
        assert after <= before + 1e-9
        before = after


def test_em_update_single_assignments_without_noise_is_the_weighted_mean():
    """SAC without noise: v_kd is the γ-weighted fraction of zeros (closed form)."""
    rng = np.random.default_rng(12)
    X = (rng.random((20, 6)) < 0.5).astype(float)
    gamma = rng.dirichlet(np.ones(3), size=20)
    m1 = gamma.T @ X
    m0 = gamma.sum(axis=0)[:, None] - m1
    v, eps, r = bm.em_update(np.full((3, 6), 0.5), bm.assignment_sets(3, 1), m0, m1, 0.0,
                             0.5, noise=False)
    np.testing.assert_allclose(v, np.clip(m0 / (m0 + m1), bm.CLIP, 1 - bm.CLIP))
    assert (eps, r) == (0.0, 0.5)


def test_fit_mac_recovers_planted_roles_and_combinations():
    rng = np.random.default_rng(13)
    U = np.zeros((3, 24), bool)
    U[0, :8], U[1, 8:16], U[2, 16:] = True, True, True
    sets = bm.assignment_sets(3, 2)
    Z = sets[rng.integers(0, len(sets), size=240)]
    X = ac.flip_noise(rng, or_product(Z, U), 0.05, 0.05)
    sol = bm.fit_mac(X, 3, np.random.default_rng(14))
    assert sol.epsilon > 0
    found = {tuple(np.flatnonzero(u)) for u in sol.U}
    assert found == {tuple(np.flatnonzero(u)) for u in U}
    np.testing.assert_array_equal(sol.reconstruction(), or_product(Z, U))  # noise removed
    np.testing.assert_allclose(sol.gamma.sum(axis=1), 1.0)
    assert bm.critical_temperature(X) > 1.0


def test_fit_mac_without_noise_model_and_single_assignment():
    rng = np.random.default_rng(15)
    U = np.zeros((2, 10), bool)
    U[0, :5], U[1, 5:] = True, True
    X = U[rng.integers(0, 2, size=50)]
    sol = bm.fit_mac(X, 2, np.random.default_rng(16), max_assignments=1, noise=False)
    assert sol.epsilon == 0.0 and sol.sets.shape == (2, 2)
    np.testing.assert_array_equal(sol.reconstruction(), X)



@pytest.mark.parametrize("kw", [{}, {"max_assignments": 1, "noise": False},
                                {"fixed_r": 0.75, "epsilon0": 0.5}])
def test_fit_mac_is_unchanged_by_the_fast_logsumexp(monkeypatch, kw):
    """The same fit, bit for bit, when the EM sweeps call scipy's logsumexp instead."""
    from scipy.special import logsumexp
    rng = np.random.default_rng(18)
    X = rng.random((60, 20)) < np.where(np.arange(20) < 10, 0.7, 0.2)[None, :]
    ours = bm.fit_mac(X, 3, np.random.default_rng(19), cooling=0.7, **kw)
    monkeypatch.setattr(bm, "logsumexp", logsumexp)
    theirs = bm.fit_mac(X, 3, np.random.default_rng(19), cooling=0.7, **kw)
    assert ours.temperatures == theirs.temperatures > 1
    for name in ("v", "gamma", "assignment", "R"):
        assert getattr(ours, name).tobytes() == getattr(theirs, name).tobytes()
    assert (ours.epsilon, ours.r) == (theirs.epsilon, theirs.r)


@pytest.mark.parametrize("epsilon, r", [(0.05, 0.3), (0.0, 0.5), (0.9, 0.99)])
def test_structural_counts_are_the_array_expressions_bit_for_bit(epsilon, r):
    """The compiled element-wise pass of em_update gives NumPy's values exactly, also where
    1 − v_L falls below the clip."""
    rng = np.random.default_rng(21)
    vL = rng.uniform(0.0, 1.0, (37, 53))
    vL[0, :5] = [1.0 - 1e-9, 1.0 - 1e-7, 1.0, 0.0, 1e-300]
    m1, m0 = rng.random((37, 53)) * 40.0, rng.random((37, 53)) * 40.0
    P1 = (1.0 - epsilon) * (1.0 - vL) + epsilon * r
    with np.errstate(divide="ignore", invalid="ignore"):
        s0 = m0 * ((1.0 - epsilon) * vL / (1.0 - P1))
        s1 = m1 * ((1.0 - epsilon) * (1.0 - vL) / P1)
        b = s1 / np.maximum(1.0 - vL, bm.CLIP)
        want = (s0, s1, b, b * vL, s0 + s1)
        got = bm._structural_counts(vL, m0, m1, epsilon, r, bm.CLIP)
    for g, w in zip(got, want, strict=True):
        assert g.tobytes() == w.tobytes()


def test_em_update_and_costs_reuse_given_set_parameters():
    rng = np.random.default_rng(22)
    sets = bm.assignment_sets(4, 2)
    v = rng.uniform(0.05, 0.95, (4, 30))
    X = rng.random((25, 30)) < 0.3
    m1, m0 = rng.random((len(sets), 30)), rng.random((len(sets), 30))
    vL = bm.set_parameters(v, sets)
    for a, b in zip(bm.em_update(v, sets, m0, m1, 0.1, 0.4, vL=vL),
                    bm.em_update(v, sets, m0, m1, 0.1, 0.4), strict=True):
        assert np.asarray(a).tobytes() == np.asarray(b).tobytes()
    assert (bm.costs(X, v, sets, 0.1, 0.4, vL).tobytes()
            == bm.costs(X, v, sets, 0.1, 0.4).tobytes())


# --- end to end -------------------------------------------------------------------------------

def run_quick(root, tmp_path, name):
    out = tmp_path / name
    proc = subprocess.run([sys.executable, "-m", "mtc_cli.cli", "run",
                           str(root / "configs" / f"{name}.yaml"), "--quick", "--out",
                           str(out)], capture_output=True, text=True, cwd=root)
    assert proc.returncode == 0, proc.stderr
    return out


def test_boolean_denoising_quick_profile(root, tmp_path):
    out = run_quick(root, tmp_path, "boolean_denoising")
    for name in ("rows.csv", "summary.csv", "choices.csv", "ranks.csv", "overall.csv",
                 "pooled.csv", "targets.csv", "run.json", "boolean_denoising.png"):
        assert (out / name).is_file(), name
    rows = pd.read_csv(out / "rows.csv")
    assert set(rows["criterion"]) == {"hamming", "coverage", "increment", "mtc", "op_cv_50",
                                      "op_cv_20"}
    summary = pd.read_csv(out / "summary.csv")
    assert {"selected_k", "oracle_k", "ratio", "hamming"} <= set(summary.columns)
    oracle = summary[summary["criterion"] == "oracle"]
    np.testing.assert_allclose(oracle["ratio"], 1.0)
    assert (summary["ratio"] >= 1.0 - 1e-12).all()  # no rank beats the oracle's error
    ranks = pd.read_csv(out / "ranks.csv")
    assert list(ranks["dataset"]) == ["hc", "flat"]


def test_role_mining_bmf_quick_profile(root, tmp_path):
    out = run_quick(root, tmp_path, "role_mining_bmf")
    for name in ("rows.csv", "summary.csv", "curve.csv", "shape.csv", "targets.csv",
                 "run.json", "role_mining_bmf.png"):
        assert (out / name).is_file(), name
    summary = pd.read_csv(out / "summary.csv")
    assert {"selected_k", "selected_k_mean_curve", "true_k"} <= set(summary.columns)
    rows = pd.read_csv(out / "rows.csv")
    assert set(rows["criterion"]) == {"transfer_cost", "training_cost"}
    assert sorted(rows["k"].unique()) == list(range(1, 7))


def test_distinct_rows_in_order_of_first_occurrence():
    X = np.array([[1, 0], [0, 1], [1, 0], [1, 1], [0, 1], [1, 0]], dtype=float)
    rows, counts, inverse = bm.distinct_rows(X)
    np.testing.assert_array_equal(rows, [[1, 0], [0, 1], [1, 1]])
    np.testing.assert_array_equal(counts, [3.0, 2.0, 1.0])
    np.testing.assert_array_equal(inverse, [0, 1, 0, 2, 1, 0])
    unique = np.eye(3)
    rows, counts, inverse = bm.distinct_rows(unique)
    assert rows is unique and counts.tolist() == [1.0] * 3 and inverse.tolist() == [0, 1, 2]


def _every_user(X):
    """distinct_rows as if no row repeated: the sweeps over every user, one by one."""
    return X, np.ones(len(X)), np.arange(len(X))


@pytest.mark.parametrize("kw", [{}, {"max_assignments": 1, "noise": False}])
def test_fit_mac_on_distinct_rows_is_the_fit_on_every_user(monkeypatch, kw):
    """Users with equal rows weighted by their count: the fit over every user up to the
    rounding of the grouped sums (rtol 1e-9), the same assignments, roles and sweeps."""
    rng = np.random.default_rng(23)
    U = np.zeros((3, 24), bool)
    U[0, :8], U[1, 8:16], U[2, 16:] = True, True, True
    sets = bm.assignment_sets(3, 2)
    X = ac.flip_noise(rng, or_product(sets[rng.integers(0, len(sets), size=40)], U), 0.02, 0.02)
    X = X[rng.integers(0, len(X), size=150)]              # 150 users, at most 40 distinct
    assert len(bm.distinct_rows(X.astype(float))[0]) < 50
    grouped = bm.fit_mac(X, 3, np.random.default_rng(24), cooling=0.7, **kw)
    monkeypatch.setattr(bm, "distinct_rows", _every_user)
    every = bm.fit_mac(X, 3, np.random.default_rng(24), cooling=0.7, **kw)
    assert grouped.temperatures == every.temperatures
    np.testing.assert_array_equal(grouped.assignment, every.assignment)
    np.testing.assert_array_equal(grouped.U, every.U)
    for name in ("v", "gamma", "R"):
        np.testing.assert_allclose(getattr(grouped, name), getattr(every, name), rtol=1e-9,
                                   atol=1e-12)
    assert grouped.epsilon == pytest.approx(every.epsilon, rel=1e-9, abs=1e-15)
    assert grouped.neg_log_likelihood() == pytest.approx(every.neg_log_likelihood(), rel=1e-12)


def test_fit_mac_without_repeated_rows_is_the_fit_on_every_user_bit_for_bit(monkeypatch):
    rng = np.random.default_rng(25)
    X = rng.random((60, 20)) < np.where(np.arange(20) < 10, 0.7, 0.2)[None, :]
    assert len(bm.distinct_rows(X.astype(float))[0]) == 60
    ours = bm.fit_mac(X, 3, np.random.default_rng(26), cooling=0.7)
    monkeypatch.setattr(bm, "distinct_rows", _every_user)
    theirs = bm.fit_mac(X, 3, np.random.default_rng(26), cooling=0.7)
    for name in ("v", "gamma", "assignment", "R"):
        assert getattr(ours, name).tobytes() == getattr(theirs, name).tobytes()
    assert (ours.epsilon, ours.r, ours.temperatures) == (theirs.epsilon, theirs.r,
                                                         theirs.temperatures)
