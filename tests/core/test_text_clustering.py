"""The six text clustering algorithms and the vMF pieces (log-Bessel, normaliser, κ)."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.special import iv, ive
from sklearn.preprocessing import normalize

from mtc_cli.core.models import text as mt


def topics(seed=0, per=60, d=90, k=3, words=12, noise=1):
    """Sparse counts of k topics with disjoint vocabularies plus a few shared noise words."""
    rng = np.random.default_rng(seed)
    rows, labels = [], []
    block = d // k
    for h in range(k):
        for _ in range(per):
            x = np.zeros(d)
            np.add.at(x, h * block + rng.integers(0, block, words), 1.0)
            np.add.at(x, rng.integers(0, d, noise), 1.0)
            rows.append(x)
            labels.append(h)
    return sp.csr_matrix(np.array(rows)), np.array(labels)


def agreement(a, b) -> float:
    """Fraction of pairs on which two partitions agree (Rand index), by brute force."""
    same_a = a[:, None] == a[None, :]
    same_b = b[:, None] == b[None, :]
    return float(np.mean(same_a == same_b))


@pytest.fixture(scope="module")
def corpus():
    counts, y = topics()
    seeds = np.array([0, 60, 120])               # one document of each topic
    return counts, y, seeds


@pytest.mark.parametrize("name", list(mt.ALGORITHMS))
def test_every_algorithm_recovers_separated_topics(corpus, name):
    counts, y, seeds = corpus
    fit, rep = mt.ALGORITHMS[name]
    X = normalize(counts, norm="l1") if rep in ("l1_tf", None) else normalize(counts)
    res = fit(X, seeds)
    assert res.labels.shape == y.shape
    assert agreement(res.labels, y) == 1.0


@pytest.mark.parametrize("name", ["SPKMeans", "Soft-moVMF", "KLKMeans"])
def test_costs_never_increase(name):
    counts, _ = topics(seed=3, noise=6)
    fit, rep = mt.ALGORITHMS[name]
    X = normalize(counts, norm="l1") if rep == "l1_tf" else normalize(counts)
    costs = fit(X, np.array([0, 1, 2, 100, 150])).costs
    assert np.all(np.diff(costs) <= 1e-8 * np.abs(costs[:-1]) + 1e-9)


def test_spkmeans_fixed_point_by_brute_force():
    counts, _ = topics(seed=5, noise=8)
    X = normalize(counts)
    res = mt.spkmeans(X, np.array([3, 70, 140, 10]))
    D = X.toarray()
    k = 4
    mu = np.array([D[res.labels == h].sum(0) for h in range(k)])
    mu /= np.linalg.norm(mu, axis=1, keepdims=True)
    assert np.array_equal(np.argmax(D @ mu.T, axis=1), res.labels)
    assert res.costs[-1] == pytest.approx(np.sum(1 - np.max(D @ mu.T, axis=1)), rel=1e-6)


def test_fskmeans_balances_an_unbalanced_start():
    counts, _ = topics(seed=2, per=40, noise=10)
    X = normalize(counts)
    plain = np.bincount(mt.spkmeans(X, np.arange(6)).labels, minlength=6)
    fs = np.bincount(mt.fskmeans(X, np.arange(6)).labels, minlength=6)
    assert fs.std() < plain.std()



def one_hot(labels, k):
    W = np.zeros((len(labels), k))
    W[np.arange(len(labels)), labels] = 1.0
    return W


def fskmeans_reference(X, seeds, max_iter=100, tol=1e-6):
    """FSKMeans in plain Python: the sequential pass over lists (the code the compiled
    pass replaced), first maximum by ``list.index(max(...))``."""
    seeds = np.asarray(seeds)
    k, n = len(seeds), X.shape[0]
    order = np.random.default_rng(seeds.tolist()).permutation(n).tolist()
    M = mt._unit_rows(X[seeds].toarray(), 0.0)
    labels = np.argmax(np.asarray(X @ M.T), axis=1)
    sizes = np.bincount(labels, minlength=k).astype(float)
    costs = []
    for _ in range(max_iter):
        M = mt._unit_rows(np.asarray((X.T @ one_hot(labels, k)).T), M)
        S = np.asarray(X @ M.T)
        rows, lab, size, moved = S.tolist(), labels.tolist(), sizes.tolist(), False
        for i in order:
            size[lab[i]] -= 1.0
            score = [s / (c + 1.0) for s, c in zip(rows[i], size, strict=True)]
            h = score.index(max(score))
            size[h] += 1.0
            moved, lab[i] = moved or h != lab[i], h
        labels, sizes = np.asarray(lab, dtype=np.intp), np.asarray(size)
        costs.append(float(np.sum(1.0 - S[np.arange(n), labels])))
        if not moved or mt._converged(costs, tol, n):
            break
    return labels, np.asarray(costs)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_fskmeans_equals_the_python_reference_bit_for_bit(seed):
    counts, _ = topics(seed=seed, per=50, noise=8)
    X = normalize(counts)
    rng = np.random.default_rng(seed)
    for k in (2, 5, 9):
        seeds = rng.choice(X.shape[0], size=k, replace=False)
        res = mt.fskmeans(X, seeds)
        labels, costs = fskmeans_reference(X, seeds)
        assert res.labels.dtype == labels.dtype and np.array_equal(res.labels, labels)
        assert res.costs.tobytes() == costs.tobytes()


def test_weighted_sums_by_term_equal_the_column_wise_product_bit_for_bit():
    """Documents × terms with unsorted column indices (as the vectorizer leaves them): the
    row-wise product over X.T in CSR sums each term in the same order as X.T @ W."""
    rng = np.random.default_rng(5)
    X = sp.random(300, 80, density=0.1, format="csr", random_state=6)
    for i in range(X.shape[0]):             # shuffle each row's stored entries
        lo, hi = X.indptr[i], X.indptr[i + 1]
        perm = lo + rng.permutation(hi - lo)
        X.indices[lo:hi], X.data[lo:hi] = X.indices[perm], X.data[perm]
    X.has_sorted_indices = False
    W = rng.random((300, 7))
    want = np.asarray((X.T @ W).T)
    assert mt._weighted_sums(mt._by_term(X), W).tobytes() == np.ascontiguousarray(want).tobytes()
    dense = X.toarray()
    np.testing.assert_array_equal(mt._weighted_sums(mt._by_term(dense), W), (dense.T @ W).T)


def test_label_sums_equal_the_product_with_the_one_hot_matrix_bit_for_bit():
    """Sums by label (one addition per non-zero) against SciPy's X.T @ W: unsorted column
    indices, signed values, empty clusters; the moved documents' ±1 rows likewise."""
    rng = np.random.default_rng(7)
    X = sp.random(400, 90, density=0.08, format="csr", random_state=8)
    X.data -= 0.3
    for i in range(X.shape[0]):
        lo, hi = X.indptr[i], X.indptr[i + 1]
        perm = lo + rng.permutation(hi - lo)
        X.indices[lo:hi], X.data[lo:hi] = X.indices[perm], X.data[perm]
    X.has_sorted_indices = False
    labels = rng.integers(0, 6, size=400)            # cluster 6 of 7 stays empty
    want, got = np.asarray((X.T @ one_hot(labels, 7)).T), mt._label_sums(X, labels, 7)
    assert got.tobytes() == want.tobytes() and got.strides == want.strides  # same layout
    docs = np.sort(rng.choice(400, size=60, replace=False))
    new, old = rng.integers(0, 7, size=60), rng.integers(0, 7, size=60)
    old = np.where(old == new, (new + 1) % 7, old)
    W = one_hot(new, 7)
    W[np.arange(60), old] -= 1.0
    want, got = np.asarray((X[docs].T @ W).T), mt._label_sums(X, new, 7, old=old, docs=docs)
    assert got.tobytes() == want.tobytes() and got.strides == want.strides
    dense = X.toarray()
    np.testing.assert_array_equal(mt._label_sums(dense, labels, 7),
                                  (dense.T @ one_hot(labels, 7)).T)


def test_frequency_sensitive_pass_ties_go_to_the_first_cluster():
    # S_ih / (n_h + 1) with n_h counted without the document; ties to the lowest h
    S = np.array([[0.5, 0.5, 0.5], [0.2, 0.4, 0.4], [0.0, 0.0, 0.0]])
    labels, sizes = np.array([2, 0, 1]), np.array([1.0, 1.0, 1.0])
    moved = mt._frequency_sensitive_pass(S, np.array([0, 1, 2]), labels, sizes)
    # doc 0 leaves cluster 2: scores .5/2, .5/2, .5/1 → 2; doc 1 leaves 0: .2/1, .4/2, .4/2
    # → 0 (first of the ties .2 = .2); doc 2 leaves 1: 0 everywhere → 0
    assert moved and labels.tolist() == [2, 0, 0] and sizes.tolist() == [2.0, 0.0, 1.0]


def test_klkmeans_cost_is_the_total_smoothed_kl_divergence():
    counts, _ = topics(seed=7, noise=5)
    P = normalize(counts, norm="l1")
    lam = 0.2
    res = mt.klkmeans(P, np.array([0, 61, 122, 5]), smoothing=lam)
    D = P.toarray()
    b = D.mean(0)
    pt = (1 - lam) * D + lam * b
    k = 4
    q = np.array([(1 - lam) * D[res.labels == h].mean(0) + lam * b for h in range(k)])
    kl = np.sum(pt * (np.log(pt) - np.log(q[res.labels])))
    assert res.costs[-1] == pytest.approx(kl, rel=1e-9)


def test_log_bessel_matches_scipy_where_it_is_finite():
    nu = np.array([0.0, 0.5, 3.0, 40.0, 150.0])
    x = np.array([0.3, 2.0, 10.0, 55.0, 120.0])
    np.testing.assert_allclose(mt.log_bessel_iv(nu, x), np.log(iv(nu, x)), rtol=1e-12)


@pytest.mark.parametrize("nu,x", [(5000.0, 100.0), (20000.0, 3000.0), (20000.0, 15000.0),
                                  (40000.0, 2000.0), (3000.0, 2500.0), (1e5, 10.0)])
def test_log_bessel_large_order_matches_mpmath(nu, x):
    mpmath = pytest.importorskip("mpmath")     # arbitrary precision (dev extra)
    want = float(mpmath.log(mpmath.besseli(nu, x, maxterms=10**5)))
    assert float(mt.log_bessel_iv(nu, x)) == pytest.approx(want, rel=1e-12)


def test_debye_branch_is_continuous_with_the_scaled_bessel_branch():
    nu = np.array([200.0, 600.0, 1000.0])
    x = np.array([150.0, 900.0, 1500.0])
    direct = np.log(ive(nu, x)) + x
    np.testing.assert_allclose(mt._debye_log_iv(nu, x), direct, rtol=1e-13)


def test_vmf_normaliser_in_three_dimensions_closed_form():
    """d = 3: c₃(κ) = κ / (4π sinh κ)."""
    kappa = np.array([0.5, 3.0, 40.0])
    np.testing.assert_allclose(mt.vmf_log_normalizer(3, kappa),
                               np.log(kappa / (4 * np.pi * np.sinh(kappa))), rtol=1e-12)


def test_vmf_kappa_formula_and_clipping():
    assert float(mt.vmf_kappa(0.5, 100)) == pytest.approx((50 - 0.125) / 0.75)
    assert np.isfinite(mt.vmf_kappa(1.0, 1000))


def test_seeds_are_checked():
    counts, _ = topics()
    with pytest.raises(ValueError):
        mt.spkmeans(normalize(counts), np.array([1, 1]))
