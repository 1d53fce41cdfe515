"""MTC Fig. 4 (role mining): the skewed-popularity generator with exceptions, checked by
independent counts; the per-dataset k grids; the U-shape statistics on hand-made curves;
the lazy plotting imports; the config's quick profile end to end."""

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from experiments import role_mining_bmf as rm
from mtc_cli.core.datasets import access_control as ac
from mtc_cli.core.errors import MtcError
from mtc_cli.run.params import build


def test_skewed_roles_structure():
    n_users, n_perms, n_roles, max_roles, max_perms, max_exc = 120, 40, 6, 2, 12, 7
    m = ac.skewed_roles(np.random.default_rng(3), n_users=n_users, n_perms=n_perms,
                        n_roles=n_roles, max_roles_per_user=max_roles,
                        max_perms_per_role=max_perms, popularity=1.0, exception_users=0.3,
                        max_exceptions=max_exc)
    n_exc = round(0.3 * n_users)
    assert m.parts["shared"] == n_roles
    assert m.X.shape == (n_users, n_perms)
    assert m.Z.shape == (n_users, n_roles + n_exc) and m.U.shape == (n_roles + n_exc, n_perms)
    Zs, Us, Ze, Ue = m.Z[:, :n_roles], m.U[:n_roles], m.Z[:, n_roles:], m.U[n_roles:]
    # shared roles: none empty, every permission covered, every role held, each user
    # holds 1..max_roles of them
    assert Us.any(axis=1).all() and Us.any(axis=0).all() and Zs.any(axis=0).all()
    assert {int(sum(row)) for row in Zs} <= set(range(1, max_roles + 1))
    # exceptions: one role per exception user, held by that user alone, 1..max_exc
    # permissions that the user's shared roles do not grant
    holders = [int(np.flatnonzero(col)[0]) for col in Ze.T]
    assert all(int(col.sum()) == 1 for col in Ze.T) and len(set(holders)) == n_exc
    assert (Ze.sum(axis=1) <= 1).all()
    for e, i in enumerate(holders):
        granted = set()
        for t in range(n_roles):
            if Zs[i, t]:
                granted |= set(np.flatnonzero(Us[t]))
        own = set(np.flatnonzero(Ue[e]))
        assert 1 <= len(own) <= max_exc and not own & granted
        assert set(np.flatnonzero(m.X[i])) == granted | own
    for i in set(range(n_users)) - set(holders):
        granted = set().union(*(set(np.flatnonzero(Us[t])) for t in np.flatnonzero(Zs[i])))
        assert set(np.flatnonzero(m.X[i])) == granted
    again = ac.skewed_roles(np.random.default_rng(3), n_users=n_users, n_perms=n_perms,
                            n_roles=n_roles, max_roles_per_user=max_roles,
                            max_perms_per_role=max_perms, popularity=1.0,
                            exception_users=0.3, max_exceptions=max_exc)
    assert np.array_equal(again.X, m.X) and np.array_equal(again.Z, m.Z)


@pytest.mark.parametrize("popularity", [0.0, 1.0, 2.0])
def test_skewed_roles_popularity(popularity):
    """One role per user: apart from the n_roles guaranteed holders, role t is held by a
    Binomial(n − n_roles, w_t) count, w_t ∝ (t + 1)^−popularity."""
    n, k = 20000, 5
    m = ac.skewed_roles(np.random.default_rng(7), n_users=n, n_perms=30, n_roles=k,
                        max_roles_per_user=1, popularity=popularity, exception_users=0.0)
    assert m.Z.shape == (n, k)
    counts = np.zeros(k)
    for i in range(n):
        roles = np.flatnonzero(m.Z[i])
        assert len(roles) == 1
        counts[roles[0]] += 1
    w = np.arange(1, k + 1) ** -popularity
    w /= w.sum()
    expected = (n - k) * w + 1
    assert np.all(np.abs(counts - expected) < 5 * np.sqrt((n - k) * w * (1 - w)))


def test_skewed_roles_rejects_bad_sizes():
    with pytest.raises(ValueError, match="n_roles"):
        ac.skewed_roles(np.random.default_rng(0), n_users=3, n_roles=5)
    with pytest.raises(ValueError, match="exception_users"):
        ac.skewed_roles(np.random.default_rng(0), exception_users=1.5)


def test_k_grids_per_dataset():
    hc = str(rm.HP / "hc.txt.gz")
    p = build(rm.Params, {"synthetic": None, "skewed": {"k_max": 3}, "k_max": 2, "folds": 2,
                          "real": [{"file": hc}, {"file": str(rm.HP / "fire1.txt.gz"),
                                                  "k": [5, 1]}]}, "test", "")
    ks = {}
    for t in rm.experiment.tasks(p):
        ks.setdefault(t["dataset"], []).append(t["k"])
    assert ks == {"skewed": [1, 2, 3] * 2, "hc": [1, 2] * 2, "fire1": [1, 5] * 2}
    bad = build(rm.Params, {"synthetic": None, "real": [{"file": hc, "k": [2, 2]}]}, "t", "")
    with pytest.raises(MtcError, match="repeated k"):
        rm.experiment.check(bad)


def _rows(curves: dict) -> pd.DataFrame:
    """Transfer-cost rows of hand-made per-fold curves {fold: {k: score}}."""
    return pd.DataFrame([{"dataset": "d", "rep": f, "k": k, "criterion": "transfer_cost",
                          "score": s, "clean_error": np.nan, "roles_used": k,
                          "copy_cost": 9.0}
                         for f, c in curves.items() for k, s in c.items()])


def test_shape_table_u_and_l():
    p = rm.Params(synthetic=None, real=[])
    u = rm.shape_table(_rows({0: {1: 10, 2: 4, 3: 6, 5: 8}, 1: {1: 12, 2: 6, 3: 7, 5: 9}}), p)
    row = u.iloc[0]
    assert row["k_min_mean"] == 2 and row["k_max"] == 5 and row["cost_min"] == 5
    assert row["rise_after_min"] == 3.5 and row["rise_in_sd"] == pytest.approx(3.5 / np.sqrt(2))
    assert row["sd_below"] == pytest.approx(np.sqrt(2)) and row["copy_cost"] == 9
    assert row["u_shape"]
    flat = rm.shape_table(_rows({0: {1: 10, 2: 4, 3: 4}, 1: {1: 12, 2: 5, 3: 4}}), p)
    assert flat.iloc[0]["k_min_mean"] == 3 and not flat.iloc[0]["u_shape"]
    small = rm.shape_table(_rows({0: {1: 10, 2: 4, 3: 4.5}, 1: {1: 12, 2: 6, 3: 6.5}}), p)
    assert small.iloc[0]["rise_in_sd"] < 1 and not small.iloc[0]["u_shape"]


def test_import_does_not_load_pyplot(root):
    code = "import experiments.role_mining_bmf, sys; print('matplotlib.pyplot' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=root, check=True)
    assert out.stdout.strip() == "False"


def test_quick_profile(root, tmp_path):
    out = tmp_path / "quick"
    proc = subprocess.run([sys.executable, "-m", "mtc_cli.cli", "run",
                           str(root / "configs" / "role_mining_bmf.yaml"), "--quick",
                           "--out", str(out), "-j", "1"], capture_output=True, text=True,
                          cwd=root)
    assert proc.returncode == 0, proc.stderr
    rows = pd.read_csv(out / "rows.csv")
    assert set(rows["dataset"]) == {"synthetic", "skewed"}
    for name, g in rows.groupby("dataset"):
        assert sorted(g["k"].unique()) == list(range(1, 7)), name
        assert g["rep"].nunique() == 3
        # the memorizing cost is one number per fold, the same for every k
        assert (g.groupby("rep")["copy_cost"].nunique() == 1).all()
    shape = pd.read_csv(out / "shape.csv").set_index("dataset")
    assert shape.loc["synthetic", "true_k"] == 4 and shape.loc["skewed", "true_k"] == 3
    tc = rows[rows["criterion"] == "transfer_cost"]
    for name, g in tc.groupby("dataset"):
        mean = g.groupby("k")["score"].mean()
        assert shape.loc[name, "k_min_mean"] == mean.idxmin()
        assert shape.loc[name, "cost_min"] == pytest.approx(mean.min())
        err = g.groupby("k")["clean_error"].mean()
        assert shape.loc[name, "oracle_k"] == err.idxmin()
    targets = pd.read_csv(out / "targets.csv")
    # the overfitting claims are scored on both stand-ins alike (no "not testable")
    assert "not testable" not in set(targets["status"])
    fire = targets[targets["where"].str.contains("fire1")]
    assert len(fire) == 2 and (fire["observed"] == "no rows selected").all()
    assert (out / "role_mining_bmf.png").is_file()
