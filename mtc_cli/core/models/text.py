"""Six clustering algorithms for sparse document vectors (Banerjee & Langford 2004, Sect. 4.2).

- :func:`spkmeans` — spherical k-means (Dhillon & Modha 2001): cosine similarity on
  L2-normalised vectors, centroids renormalised to unit length;
- :func:`fskmeans` — frequency-sensitive spherical k-means (Banerjee & Ghosh 2004): as
  spkmeans, but the similarity to cluster h is divided by its current size (the win-count
  penalty of frequency-sensitive competitive learning), so clusters stay balanced;
- :func:`hard_movmf`, :func:`soft_movmf` — mixtures of von Mises–Fisher distributions
  fitted by hard- and soft-assignment EM (Banerjee, Dhillon, Ghosh, Sra 2005);
- :func:`kmeans` — Lloyd's k-means with squared Euclidean distance (scikit-learn);
- :func:`klkmeans` — k-means with the KL divergence between L1-normalised (smoothed)
  document vectors (information-theoretic clustering, Dhillon, Mallela, Kumar 2003).

Every algorithm starts from ``seeds``: the indices of k distinct documents whose vectors
are the initial centroids (for the vMF mixtures: the first hard assignment). The hot
products are sparse × dense (``X @ M.T``, ``X.T @ W``), so an iteration costs
O(nnz(X)·k). Each returns a :class:`TextClustering` whose ``costs`` is the cost after
each iteration (lower is better; for moVMF the negative log-likelihood).
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np
import scipy.sparse as sp
from scipy.special import ive
from sklearn.cluster import KMeans

from mtc_cli.core.logsumexp import logsumexp


@dataclass(frozen=True)
class TextClustering:
    """A solution: the cluster (0..k−1) of every document and the cost history."""

    labels: np.ndarray
    costs: np.ndarray

    @property
    def n_iter(self) -> int:
        return len(self.costs)


# --- shared pieces ------------------------------------------------------------------------

def _by_term(X):
    """X.T with one row per term: CSR for sparse X, so that :func:`_weighted_sums` runs
    SciPy's row-wise product. Each term still sums the documents in their order, as the
    column-wise product X.T @ W does, so the sums are the same bit for bit."""
    return X.T.tocsr() if sp.issparse(X) else np.asarray(X).T


def _weighted_sums(Xt, W: np.ndarray) -> np.ndarray:
    """Σ_i W_ih x_i for every h: the (k, d) matrix (Xt @ W).T, with Xt = X.T — made once per
    fit by :func:`_by_term` where it serves every iteration."""
    return np.asarray((Xt @ W).T)


def _label_sums(X, labels: np.ndarray, k: int, old: np.ndarray | None = None,
                docs: np.ndarray | None = None) -> np.ndarray:
    """Σ_{i: labels_i = h} x_i for every h: the (k, d) matrix (X.T @ W).T for the one-hot W
    of ``labels``. With ``docs``, only those rows of X, each added to cluster ``labels[r]``
    and subtracted from cluster ``old[r]``: W has +1 and −1 in row r.

    For sparse X one addition per non-zero (:func:`_add_by_label`) instead of k
    multiply-adds: each sum receives the same terms in the same order (document by
    document) as in SciPy's product, whose other terms are x · 0 = +0, so the sums are the
    same bit for bit. Dense X: that product."""
    if not sp.issparse(X):
        W = np.zeros((len(labels), k))
        W[np.arange(len(labels)), labels] += 1.0
        if old is not None:
            W[np.arange(len(labels)), old] -= 1.0
        X = np.asarray(X)
        return _weighted_sums((X if docs is None else X[docs]).T, W)
    if docs is None:
        docs = np.arange(X.shape[0])
    X = X.tocsr()
    out = np.zeros((X.shape[1], k))
    _add_by_label(X.indptr, X.indices, X.data, np.asarray(docs, dtype=np.intp),
                  np.asarray(labels, dtype=np.intp),
                  np.full(len(docs), -1, np.intp) if old is None
                  else np.asarray(old, dtype=np.intp), out)
    return out.T   # the product's memory layout, so that reductions over it are too


@numba.njit(cache=True)
def _add_by_label(indptr, indices, data, docs, plus, minus, out):
    """out[t, plus[r]] += x_it and, where minus[r] ≥ 0, out[t, minus[r]] −= x_it for every
    non-zero x_it of document i = docs[r], the documents in their order."""
    for r in range(len(docs)):
        i, h, g = docs[r], plus[r], minus[r]
        for j in range(indptr[i], indptr[i + 1]):
            out[indices[j], h] += data[j]
            if g >= 0:
                out[indices[j], g] -= data[j]


def _unit_rows(M: np.ndarray, fallback: np.ndarray) -> np.ndarray:
    """Rows of M scaled to unit length; a zero row (an empty cluster) keeps ``fallback``."""
    norms = np.linalg.norm(M, axis=1, keepdims=True)
    return np.where(norms > 0, M / np.where(norms > 0, norms, 1.0), fallback)


def _converged(costs: list[float], tol: float, n: int) -> bool:
    """Stopping rule shared by the iterative algorithms: the cost changed by at most
    ``tol`` per document in the last iteration."""
    return len(costs) >= 2 and abs(costs[-2] - costs[-1]) <= tol * n


def _check_seeds(X, seeds) -> np.ndarray:
    seeds = np.asarray(seeds, dtype=np.intp)
    if seeds.ndim != 1 or len(seeds) < 1 or len(np.unique(seeds)) != len(seeds):
        raise ValueError(f"seeds must be distinct document indices, got {seeds}")
    if seeds.min() < 0 or seeds.max() >= X.shape[0]:
        raise ValueError(f"seeds must lie in 0..{X.shape[0] - 1}")
    return seeds


def _dense_rows(X, idx) -> np.ndarray:
    rows = X[idx]
    return rows.toarray() if sp.issparse(rows) else np.asarray(rows, dtype=float)


# --- spherical k-means and its frequency-sensitive variant --------------------------------

def spkmeans(X, seeds, *, max_iter: int = 100, tol: float = 1e-6) -> TextClustering:
    """Spherical k-means (Dhillon & Modha 2001, Sect. 3): maximise Σ_i x_iᵀμ_c(i) over
    assignments c and unit centroids μ_h; the cost recorded is Σ_i (1 − x_iᵀμ_c(i)).
    Rows of X must have unit L2 norm. Stops when the assignment repeats or the cost
    changes by at most ``tol`` per document."""
    seeds = _check_seeds(X, seeds)
    k, n = len(seeds), X.shape[0]
    M = _unit_rows(_dense_rows(X, seeds), 0.0)
    labels, sums, costs = None, None, []
    for _ in range(max_iter):
        S = np.asarray(X @ M.T)               # cosines x_iᵀμ_h, sparse × dense
        new = np.argmax(S, axis=1)
        costs.append(float(np.sum(1.0 - S[np.arange(n), new])))
        if labels is None:
            sums = _label_sums(X, new, k)
        else:
            moved = np.flatnonzero(new != labels)
            if not len(moved):
                break
            sums += _label_sums(X, new[moved], k, old=labels[moved], docs=moved)
        labels = new
        M = _unit_rows(sums, M)
        if _converged(costs, tol, n):
            break
    return TextClustering(labels, np.asarray(costs, dtype=float))


def fskmeans(X, seeds, *, max_iter: int = 100, tol: float = 1e-6) -> TextClustering:
    """Frequency-sensitive spherical k-means (Banerjee & Ghosh 2004): spherical k-means
    whose assignment penalises large clusters with the frequency-sensitive competitive
    learning rule (Ahalt et al. 1990) — the similarity to cluster h is divided by its
    size, x_iᵀμ_h / (n_h + 1), n_h counted without x_i (a vMF concentration κ_h ∝ 1/n_h).
    The sizes follow every move: each pass visits the documents one by one (in a random
    order fixed by the seeds) with the centroids of the previous pass, then renormalises
    the centroids; it stops when a pass moves no document or the cost changes by at most
    ``tol`` per document. Rows of X have unit L2 norm.
    The cost recorded is the plain spherical cost Σ_i (1 − x_iᵀμ_c(i)) after each pass."""
    seeds = _check_seeds(X, seeds)
    k, n = len(seeds), X.shape[0]
    order = np.random.default_rng(seeds.tolist()).permutation(n)
    M = _unit_rows(_dense_rows(X, seeds), 0.0)
    labels = np.argmax(np.asarray(X @ M.T), axis=1)
    sizes = np.bincount(labels, minlength=k).astype(float)
    costs = []
    for _ in range(max_iter):
        M = _unit_rows(_label_sums(X, labels, k), M)
        S = np.asarray(X @ M.T)
        moved = _frequency_sensitive_pass(S, order, labels, sizes)
        costs.append(float(np.sum(1.0 - S[np.arange(n), labels])))
        if not moved or _converged(costs, tol, n):
            break
    return TextClustering(labels, np.asarray(costs, dtype=float))


@numba.njit(cache=True)
def _frequency_sensitive_pass(S, order, labels, sizes):
    """One sequential pass of :func:`fskmeans`, in place on ``labels`` and ``sizes``:
    document i (in ``order``) leaves its cluster and joins the first h maximising
    S_ih / (n_h + 1). Returns whether any document moved."""
    moved = False
    for i in order:
        old = labels[i]
        sizes[old] -= 1.0
        h, best = 0, S[i, 0] / (sizes[0] + 1.0)
        for u in range(1, S.shape[1]):
            score = S[i, u] / (sizes[u] + 1.0)
            if score > best:
                h, best = u, score
        sizes[h] += 1.0
        if h != old:
            labels[i] = h
            moved = True
    return moved


# --- von Mises–Fisher mixtures -------------------------------------------------------------

def _debye_log_iv(nu: np.ndarray, x: np.ndarray) -> np.ndarray:
    """log I_ν(x) by the uniform asymptotic (Debye) expansion for large order
    (Abramowitz & Stegun 9.7.7 with the polynomials u₁..u₄ of 9.3.9–9.3.10):
    log I_ν(νz) = −½ log(2πν) + νη − ¼ log(1 + z²) + log(1 + Σ_j u_j(t)/ν^j),
    η = √(1+z²) + log(z / (1 + √(1+z²))), t = 1/√(1+z²)."""
    z = x / nu
    root = np.sqrt(1.0 + z * z)
    t = 1.0 / root
    eta = root + np.log(z) - np.log1p(root)
    t2 = t * t
    u1 = t * (3.0 - 5.0 * t2) / 24.0
    u2 = t2 * (81.0 - 462.0 * t2 + 385.0 * t2 * t2) / 1152.0
    u3 = t * t2 * (30375.0 - 369603.0 * t2 + 765765.0 * t2**2 - 425425.0 * t2**3) / 414720.0
    u4 = t2 * t2 * (4465125.0 - 94121676.0 * t2 + 349922430.0 * t2**2
                    - 446185740.0 * t2**3 + 185910725.0 * t2**4) / 39813120.0
    series = u1 / nu + u2 / nu**2 + u3 / nu**3 + u4 / nu**4
    return -0.5 * np.log(2.0 * np.pi * nu) + nu * eta - 0.5 * np.log(root) + np.log1p(series)


def log_bessel_iv(nu, x) -> np.ndarray:
    """log I_ν(x), the modified Bessel function of the first kind, for ν ≥ 0, x > 0,
    stable for the large orders ν = d/2 − 1 of text vMF models (d ≈ 10⁴–10⁵).

    Where scipy's exponentially scaled ``ive(ν, x) = I_ν(x) e^−x`` is a normal float the
    result is log ive + x; where it underflows (large ν relative to x) the uniform
    asymptotic expansion of :func:`_debye_log_iv` is used — there ν is large, and four
    terms of the series make its relative error far below double precision in I_ν's
    exponent."""
    nu, x = np.broadcast_arrays(np.asarray(nu, dtype=float), np.asarray(x, dtype=float))
    if np.any(nu < 0) or np.any(x <= 0):
        raise ValueError("log_bessel_iv needs ν ≥ 0 and x > 0")
    scaled = ive(nu, x)
    ok = np.isfinite(scaled) & (scaled > 1e-280)
    out = np.empty(nu.shape)
    out[ok] = np.log(scaled[ok]) + x[ok]
    bad = ~ok
    if bad.any():
        out[bad] = _debye_log_iv(nu[bad], x[bad])
    return out


def vmf_log_normalizer(d: int, kappa) -> np.ndarray:
    """log c_d(κ) of the vMF density f(x | μ, κ) = c_d(κ) exp(κ μᵀx) on the unit sphere in
    R^d: c_d(κ) = κ^{d/2−1} / ((2π)^{d/2} I_{d/2−1}(κ)) (Banerjee et al. 2005, Sect. 2)."""
    kappa = np.asarray(kappa, dtype=float)
    nu = d / 2.0 - 1.0
    return nu * np.log(kappa) - (d / 2.0) * np.log(2.0 * np.pi) - log_bessel_iv(nu, kappa)


def vmf_kappa(rbar, d: int) -> np.ndarray:
    """Banerjee et al. 2005's approximation of the maximum-likelihood concentration,
    κ ≈ (r̄d − r̄³)/(1 − r̄²), r̄ = ‖Σ_i w_i x_i‖ / Σ_i w_i the mean resultant length.
    r̄ is clipped to [10⁻⁸, 1 − 10⁻⁸] (a one-document cluster has r̄ = 1)."""
    r = np.clip(np.asarray(rbar, dtype=float), 1e-8, 1.0 - 1e-8)
    return (r * d - r**3) / (1.0 - r * r)


def _vmf_m_step(R: np.ndarray, mass: np.ndarray, mu_prev: np.ndarray, d: int):
    """M-step of moVMF EM from the weighted sums r_h = Σ_i w_ih x_i (``R``) and the weights
    Σ_i w_ih (``mass``): α_h = mean weight, μ_h = r_h/‖r_h‖, κ_h from r̄_h = ‖r_h‖/Σw."""
    norms = np.linalg.norm(R, axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        log_alpha = np.log(mass / mass.sum())
        rbar = np.where(mass > 0, norms / np.where(mass > 0, mass, 1.0), 0.0)
    mu = _unit_rows(R, mu_prev)
    return log_alpha, mu, vmf_kappa(rbar, d)


def _movmf(X, seeds, *, soft: bool, max_iter: int, tol: float) -> TextClustering:
    seeds = _check_seeds(X, seeds)
    n, d = X.shape
    k = len(seeds)
    mu = _unit_rows(_dense_rows(X, seeds), 0.0)
    hard = np.argmax(np.asarray(X @ mu.T), axis=1)   # first hard assignment
    W = None
    costs = []
    labels = None
    Xt = _by_term(X) if soft else None
    for _ in range(max_iter):
        if W is None:   # hard assignments: the sums by label, the weights their counts
            R, mass = _label_sums(X, hard, k), np.bincount(hard, minlength=k).astype(float)
        else:
            R, mass = _weighted_sums(Xt, W), W.sum(axis=0)
        log_alpha, mu, kappa = _vmf_m_step(R, mass, mu, d)
        L = np.asarray(X @ mu.T) * kappa + (log_alpha + vmf_log_normalizer(d, kappa))
        new = np.argmax(L, axis=1)
        if soft:
            norm = logsumexp(L, axis=1)[:, None]
            costs.append(-float(norm.sum()))
            W = np.exp(L - norm)
        else:
            costs.append(-float(L[np.arange(n), new].sum()))
            if labels is not None and np.array_equal(new, labels):
                break
            hard = new
        labels = new
        if _converged(costs, tol, n):
            break
    return TextClustering(labels, np.asarray(costs, dtype=float))


def soft_movmf(X, seeds, *, max_iter: int = 100, tol: float = 1e-6) -> TextClustering:
    """Mixture of vMF distributions by EM with soft assignments (soft-moVMF of Banerjee et
    al. 2005), finally each document to its most probable component. Rows of X have unit
    norm. The cost is the negative log-likelihood −Σ_i log Σ_h α_h f(x_i | μ_h, κ_h)."""
    return _movmf(X, seeds, soft=True, max_iter=max_iter, tol=tol)


def hard_movmf(X, seeds, *, max_iter: int = 100, tol: float = 1e-6) -> TextClustering:
    """Mixture of vMF distributions by EM with hard assignments (hard-moVMF of Banerjee et
    al. 2005): each document to argmax_h log α_h + log c_d(κ_h) + κ_h μ_hᵀx. The cost is the
    negative classification log-likelihood."""
    return _movmf(X, seeds, soft=False, max_iter=max_iter, tol=tol)


# --- Euclidean and KL k-means -------------------------------------------------------------

def kmeans(X, seeds, *, max_iter: int = 100, tol: float = 1e-6) -> TextClustering:
    """Lloyd's k-means with squared Euclidean distance (scikit-learn's ``KMeans`` on the
    sparse matrix, one run from the seed documents). The cost history has one entry: the
    final Σ_i ‖x_i − μ_c(i)‖² (scikit-learn does not expose the iterates)."""
    seeds = _check_seeds(X, seeds)
    km = KMeans(n_clusters=len(seeds), init=_dense_rows(X, seeds), n_init=1,
                max_iter=max_iter, tol=tol, algorithm="lloyd").fit(X)
    return TextClustering(km.labels_.astype(np.intp), np.array([km.inertia_]))


def klkmeans(P, seeds, *, smoothing: float = 0.1, max_iter: int = 100,
             tol: float = 1e-6) -> TextClustering:
    """k-means with the Kullback–Leibler divergence (Dhillon, Mallela, Kumar 2003, Sect. 4,
    applied to documents): minimise Σ_i KL(p̃_i ‖ q_c(i)) with q_h the mean of its
    documents. Rows of P are word distributions (L1-normalised); each is smoothed towards
    the corpus distribution b, p̃_i = (1 − λ)p_i + λb (λ = ``smoothing`` > 0), so every
    divergence is finite and q_h = (1 − λ) mean_h(p) + λb. The assignment uses only the
    cross term Σ_w p̃_i(w) log q_h(w) (a sparse × dense product); the cost adds the
    documents' negative entropies, so it is the total divergence."""
    seeds = _check_seeds(P, seeds)
    if not 0.0 < smoothing <= 1.0:
        raise ValueError(f"smoothing must lie in (0, 1], got {smoothing}")
    P = sp.csr_matrix(P, dtype=float)
    n, k = P.shape[0], len(seeds)
    lam = smoothing
    b = np.asarray(P.mean(axis=0)).ravel()
    if np.any(b <= 0):
        raise ValueError("every word must occur in some document (empty column in P)")
    neg_entropy = _smoothed_neg_entropy(P, b, lam)
    Q = (1.0 - lam) * _dense_rows(P, seeds) + lam * b
    labels, costs = None, []
    for _ in range(max_iter):
        logQ = np.log(Q)
        cross = (1.0 - lam) * np.asarray(P @ logQ.T) + lam * (logQ @ b)
        new = np.argmax(cross, axis=1)
        costs.append(float(neg_entropy - cross[np.arange(n), new].sum()))
        if labels is not None and np.array_equal(new, labels):
            break
        labels = new
        sizes = np.bincount(labels, minlength=k)
        means = _label_sums(P, labels, k) / np.maximum(sizes, 1)[:, None]
        Q = np.where(sizes[:, None] > 0, (1.0 - lam) * means + lam * b, Q)
        if _converged(costs, tol, n):
            break
    return TextClustering(labels, np.asarray(costs, dtype=float))


def _smoothed_neg_entropy(P, b: np.ndarray, lam: float) -> float:
    """Σ_i Σ_w p̃_i(w) log p̃_i(w) for p̃_i = (1 − λ)p_i + λb, from the non-zeros of P:
    words absent from document i contribute λb_w log(λb_w)."""
    background = lam * b
    base = float(np.sum(background * np.log(background)))
    coo = P.tocoo()
    bw = background[coo.col]
    pt = (1.0 - lam) * coo.data + bw
    per_nnz = pt * np.log(pt) - bw * np.log(bw)
    return float(per_nnz.sum() + P.shape[0] * base)


#: algorithm name (as in the paper) → (function, document representation it expects)
ALGORITHMS = {
    "SPKMeans": (spkmeans, "l2_tfidf"),
    "FSKMeans": (fskmeans, "l2_tfidf"),
    "Hard-moVMF": (hard_movmf, "l2_tfidf"),
    "Soft-moVMF": (soft_movmf, "l2_tfidf"),
    "KMeans": (kmeans, None),            # representation chosen in the config
    "KLKMeans": (klkmeans, "l1_tf"),
}
