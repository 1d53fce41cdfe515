"""PAC-MDL bound (Banerjee & Langford 2004): Bucket and bmax against exact fractions, the
description languages by hand, the transductive labelling, and the config end to end."""

import json
import subprocess
import sys
from fractions import Fraction
from math import comb, log2

import numpy as np
import pandas as pd
import pytest

from mtc_cli.core.criteria import pac_mdl


def bucket_exact(m, n, a, b) -> Fraction:
    """Bucket(m, n, a, b) of Sect. 2 as an exact fraction, term by term."""
    return Fraction(sum(comb(n, t) * comb(m, a + b - t) for t in range(b, a + b + 1)),
                    comb(m + n, a + b))


def bmax_exact(m, n, a, delta: Fraction) -> int:
    return max(b for b in range(n + 1) if bucket_exact(m, n, a, b) >= delta)


@pytest.mark.parametrize("m,n", [(1, 1), (3, 5), (7, 4), (9, 9), (12, 6)])
def test_bucket_matches_exact_fractions(m, n):
    a, b = np.meshgrid(np.arange(m + 1), np.arange(n + 1), indexing="ij")
    got = np.exp(pac_mdl.log_bucket(m, n, a, b))
    want = np.array([[float(bucket_exact(m, n, i, j)) for j in range(n + 1)]
                     for i in range(m + 1)])
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=0)


def test_bmax_matches_brute_force_with_exact_fractions():
    deltas = [Fraction(1, 10), Fraction(1, 1000), Fraction(1, 2**30)]
    for m in range(1, 9):
        for n in range(1, 9):
            a = np.arange(m + 1)
            for d in deltas:
                want = [bmax_exact(m, n, int(i), d) for i in a]
                assert pac_mdl.bmax(m, n, a, float(d)).tolist() == want, (m, n, d)


def test_bmax_exact_tie_counts_as_reached():
    # Bucket(1, 9, 0, 9) = C(9,9)C(1,0)/C(10,9) = 1/10 exactly
    assert bucket_exact(1, 9, 0, 9) == Fraction(1, 10)
    assert int(pac_mdl.bmax(1, 9, 0, 0.1)) == 9


def test_bmax_known_limit_zero_train_errors():
    """a = 0, m = n → ∞: Bucket(m, n, 0, b) = C(n, b)/C(2n, b) → 2^−b, so bmax → ⌊log₂ 1/δ⌋."""
    n = 100_000
    for delta, want in [(0.1, 3), (0.01, 6), (2.0**-20, 19)]:
        assert int(pac_mdl.bmax(n, n, 0, delta)) == want


def test_bmax_monotone_in_train_errors_and_delta_random_cases():
    """Property test over random (m, n, a, a', δ, δ'): more train errors or a smaller δ
    never lower the bound; a bound never exceeds n; it is reached (Bucket(bmax) ≥ δ) and
    the next b fails."""
    rng = np.random.default_rng(9)
    size = 150
    m = rng.integers(1, 1500, size)
    n = rng.integers(1, 1500, size)
    a1 = (rng.random(size) * (m + 1)).astype(int)
    a2 = np.minimum(m, a1 + rng.integers(0, 50, size))
    log_d1 = -rng.exponential(20, size)
    log_d2 = log_d1 - rng.exponential(20, size)
    b11 = pac_mdl.bmax_log(m, n, a1, log_d1)
    assert np.all(pac_mdl.bmax_log(m, n, a2, log_d1) >= b11)
    assert np.all(pac_mdl.bmax_log(m, n, a1, log_d2) >= b11)
    assert np.all((0 <= b11) & (b11 <= n))
    assert np.all(pac_mdl.log_bucket(m, n, a1, b11) >= log_d1 - 1e-9)
    below = b11 < n
    nxt = pac_mdl.log_bucket(m[below], n[below], a1[below], b11[below] + 1)
    assert np.all(nxt < log_d1[below])


def test_bmax_tiny_delta_does_not_underflow():
    # δ 2^−|σ| with |σ| = 2000 bits is below the smallest double; given as ln δ it works
    b = pac_mdl.bmax_log(5000, 5000, 100, np.log(0.1) - 2000 * np.log(2))
    assert 100 < int(b) < 5000


def test_bucket_rejects_impossible_counts():
    with pytest.raises(ValueError):
        pac_mdl.log_bucket(3, 3, 4, 0)


def test_description_lengths_by_hand():
    c, ell, r, s = 5, 3, 10, 6
    simple = c * log2(ell)
    assert pac_mdl.description_length("Simple", c, ell) == pytest.approx(simple)
    assert pac_mdl.description_length("Init", c, ell, r=r) == pytest.approx(simple + log2(r))
    cluster = simple + log2(r) + log2(c * (c - 1))
    assert pac_mdl.description_length("Cluster", c, ell, r=r) == pytest.approx(cluster)
    assert pac_mdl.description_length("Algo", c, ell, r=r, s=s) == pytest.approx(
        cluster + log2(s))
    with pytest.raises(ValueError):
        pac_mdl.description_length("Cluster", 1, ell)
    with pytest.raises(ValueError):
        pac_mdl.description_length("Bogus", 3, ell)


def test_cluster_language_is_a_prefix_code():
    """Σ_c 2^−log₂(c(c−1)) = Σ_{c≥2} 1/(c(c−1)) = 1 (telescoping): a valid language."""
    c = np.arange(2, 200_001, dtype=float)
    assert np.sum(1.0 / (c * (c - 1))) == pytest.approx(1.0, abs=1e-5)


def test_test_error_bound_uses_delta_over_two_to_the_bits():
    m, n, a, bits = 50, 40, 7, 6.0
    want = bmax_exact(m, n, a, Fraction(1, 10) / 2**6) / n
    assert float(pac_mdl.test_error_bound(m, n, a, bits, 0.1)) == want


def test_transductive_labels_majority_ties_and_empty_clusters():
    clusters = np.array([0, 0, 0, 1, 1, 2, 2, 3])
    train = np.array([0, 1, 2, 3, 4, 5, 6])          # point 7 (cluster 3) is a test point
    y = np.array([1, 1, 0, 2, 0, 2, 2])
    seen_tie, seen_empty = set(), set()
    for seed in range(200):
        lab = pac_mdl.transductive_labels(clusters, train, y, 3, np.random.default_rng(seed),
                                          n_clusters=5)
        assert lab[0] == 1 and lab[2] == 2           # majorities
        seen_tie.add(int(lab[1]))                    # tie 2 vs 0
        seen_empty.add(int(lab[3]))                  # no train points
        assert 0 <= lab[4] < 3                       # cluster 4 is empty altogether
    assert seen_tie == {0, 2}
    assert seen_empty == {0, 1, 2}


@pytest.mark.slow
def test_quick_profile_end_to_end(tmp_path, root):
    cfg = root / "configs" / "pac_mdl_text.yaml"
    res = subprocess.run([sys.executable, "-m", "mtc_cli.cli", "run", str(cfg), "--quick",
                          "--out", str(tmp_path)], capture_output=True, text=True, cwd=root)
    assert res.returncode == 0, res.stderr[-2000:]
    for name in ("rows.csv", "summary.csv", "targets.csv", "run.json", "paper_comparison.csv",
                 "fig1_runs.png", "fig2_best_per_k.png", "fig3_best_per_algorithm.png",
                 "fig45_best_overall.png", "fig6_languages.png"):
        assert (tmp_path / name).is_file(), name
    timing = json.loads((tmp_path / "run.json").read_text())["timing"]
    assert timing[-1]["algorithm"] == "all" and timing[-1]["seconds"] > 0
    rows = pd.read_csv(tmp_path / "rows.csv")
    assert "fit_seconds" not in rows.columns      # timings live in run.json, not the CSVs
    assert set(rows["criterion"]) == set(pac_mdl.LANGUAGES)
    assert rows["score"].between(0, 1).all()
    # each bound holds with probability ≥ 1 − δ = 0.9: the actual test error rarely exceeds it
    actual = rows["test_errors"] / rows["n"]
    assert (actual <= rows["score"]).mean() > 0.9
