"""EM for full-covariance Gaussian mixtures, every k and every restart of one data set in one
compiled call: for the many small fits of ``mtc select --model gmm`` (hundreds of objects,
k = 1..12), where the per-call Python and numpy overhead of scikit-learn's EM — even with the
batched steps of :mod:`mtc_cli.core.models.gmm_em` — costs more than the arithmetic.

The algorithm is scikit-learn's ``GaussianMixture(covariance_type="full")`` from given initial
labels (``init_params="kmeans"`` uses those of a ``KMeans`` fit with ``n_init=1``), with the same
formulas (Bishop 2006, §9.2.2; scikit-learn's ``_gaussian_mixture.py`` and ``_base.py``) and
stopping rule, summed in another order (the same fit up to rounding:
``tests/core/test_batched_gmm.py``):

- responsibilities r_it one-hot from the labels, then the M-step (eqs. 9.24–9.26):
  N_t = Σ_i r_it + 10 ε, μ_t = Σ_i r_it x_i / N_t,
  Σ_t = Σ_i r_it (x_i − μ_t)(x_i − μ_t)ᵀ / N_t + ``reg_covar`` I, π_t = N_t / n at the start and
  N_t / Σ_s N_s after; the Cholesky factor of the precision P_t = L_t⁻ᵀ (Σ_t = L_t L_tᵀ);
- the E-step (eq. 9.23): ln N(x_i | μ_t, Σ_t) = −½ (d ln 2π + ‖(x_i − μ_t)ᵀ P_t‖²)
  + Σ_j ln (P_t)_jj, ln p(x_i) by log-sum-exp over t of ln π_t + ln N, r_it = p(t | x_i);
  the lower bound is the mean of ln p(x_i) (before the M-step that follows);
- E- and M-steps until the lower bound changes by less than ``tol``, or ``max_iter`` of them;
  of the restarts of one k the one of highest lower bound is kept (the first on ties), and a
  last E-step under it gives the labels (argmax_t r_it) and ln p(x_i).

A Σ_t that is not positive definite (a Cholesky pivot ≤ 0: singleton or collapsed components)
raises scikit-learn's ValueError. The kernel is deterministic: no threads, no fast-math,
every sum in a fixed order, so the same bits on every run, and a k's result does not depend
on which other k are fitted in the same call.

Its sums over objects are scalar code (numba vectorises a sum only under fast-math, which
would let its order depend on the CPU), numpy's are BLAS: with many features the two are
level, and above :data:`MAX_D` features callers keep
:class:`mtc_cli.core.models.gmm_em.BatchedGaussianMixture`. The number of objects sets no
crossover up to 10 000.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numba
import numpy as np

from mtc_cli.core.models.gmm import GmmSolution
from mtc_cli.core.models.gmm_steps import _ILL_DEFINED

#: the most features at which the compiled EM pays: results/benchmarks/batched_gmm.csv
#: (tests/benchmarks/bench_batched_gmm.py, k = 1..12, one CPU) has it 1.2–12.6× faster than
#: BatchedGaussianMixture for d ≤ 20 at every n from 100 to 10 000 (d = 10: 1.9–3.8× for n
#: of 250–2 000), and level with it at d = 50 (0.91–1.15× from n = 250 on)
MAX_D = 20

_LOG_2PI = float(np.log(2 * np.pi))
_TEN_EPS = 10 * float(np.finfo(np.float64).eps)
#: below it exp underflows to 0 (e^−745.14 < 2^−1075)
_UNDERFLOW = -746.0
#: objects × features of a block of the E-step (16 KiB: in the L1 cache)
_BLOCK = 2048


@dataclass(frozen=True)
class EmFit:
    """The EM fit of one k: the best restart's parameters, its lower bound (the mean ln p(x_i)
    of its last E-step), its iterations and whether they converged, and the last E-step's
    labels and ln p(x_i) per object."""

    weights: np.ndarray  # (k,)
    means: np.ndarray  # (k, d)
    covariances: np.ndarray  # (k, d, d)
    lower_bound: float
    n_iter: int
    converged: bool
    labels: np.ndarray  # (n,) int64
    log_likelihood: np.ndarray  # (n,)

    @property
    def solution(self) -> GmmSolution:
        return GmmSolution(self.weights, self.means, self.covariances, "full")


def fit_all(X: np.ndarray, init_labels: Mapping[int, Sequence[np.ndarray]], *,
            reg_covar: float = 1e-6, tol: float = 1e-3, max_iter: int = 100) -> dict[int, EmFit]:
    """EM of a k-component full-covariance mixture of the objects X (n × d) for every k of
    ``init_labels``, one restart per initial labelling (n values in 0..k−1), all in one
    compiled call; returns the best restart per k. Raises scikit-learn's ValueError when a
    covariance is not positive definite."""
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or len(X) < 2 or not init_labels:
        raise ValueError(f"need an (n, d) matrix, n ≥ 2, and some k; got X of shape {X.shape}")
    if reg_covar < 0 or tol < 0 or max_iter < 0:
        raise ValueError("reg_covar, tol and max_iter must be ≥ 0")
    n, d = X.shape
    ks = np.array(list(init_labels), dtype=np.int64)
    starts, rows = [0], []
    for k in ks:
        if not 1 <= k <= n:
            raise ValueError(f"k={k}: need 1 ≤ k ≤ n_samples={n}")
        rows += [np.asarray(labels) for labels in init_labels[int(k)]]
        if len(rows) == starts[-1] or any(lab.shape != (n,) or lab.min() < 0 or lab.max() >= k
                                          for lab in rows[starts[-1]:]):
            raise ValueError(f"k={k}: need one or more arrays of {n} labels in 0..{k - 1}")
        starts.append(len(rows))
    offsets = np.concatenate([[0], np.cumsum(ks)])
    g, total = len(ks), int(offsets[-1])
    weights, means, covariances = np.empty(total), np.empty((total, d)), np.empty((total, d, d))
    lower_bound, n_iter, converged = np.empty(g), np.empty(g, np.int64), np.empty(g, np.bool_)
    labels, log_likelihood = np.empty((g, n), np.int64), np.empty((g, n))
    if _fit_all(np.ascontiguousarray(X.T), ks, np.array(rows, dtype=np.int64),
                np.array(starts), offsets, float(reg_covar), float(tol), int(max_iter),
                weights, means, covariances, lower_bound, n_iter, converged, labels,
                log_likelihood):
        raise ValueError(_ILL_DEFINED)
    return {int(k): EmFit(weights[a:b], means[a:b], covariances[a:b], float(lower_bound[j]),
                          int(n_iter[j]), bool(converged[j]), labels[j], log_likelihood[j])
            for j, (k, a, b) in enumerate(zip(ks, offsets[:-1], offsets[1:], strict=True))}


@numba.njit(cache=True, nogil=True)
def _fit_all(XT, ks, init, starts, offsets, reg_covar, tol, max_iter, weights_out, means_out,
             cov_out, lb_out, n_iter_out, conv_out, labels_out, loglik_out):
    """Every restart of every k (``init``'s rows ``starts[g]:starts[g + 1]`` for ``ks[g]``) on
    the objects ``XT`` (d × n), the best kept in the outputs at ``offsets[g]``; True as soon
    as a Cholesky factorisation fails."""
    d, n = XT.shape
    kmax = ks.max()
    block = min(n, max(8, _BLOCK // d))
    resp, log_prob = np.empty((kmax, n)), np.empty((kmax, n))
    log_norm, top, total = np.empty(n), np.empty(n), np.empty(n)
    diff, weighted = np.zeros((d + d % 2, n)), np.zeros((d + d % 2, n))
    acc, sq = np.empty(block), np.empty(block)
    w, mu = np.empty(kmax), np.empty((kmax, d))
    cov, prec = np.empty((kmax, d, d)), np.empty((kmax, d, d))
    log_det = np.empty(kmax)
    best_w, best_mu = np.empty(kmax), np.empty((kmax, d))
    best_cov, best_prec = np.empty((kmax, d, d)), np.empty((kmax, d, d))
    best_log_det = np.empty(kmax)
    for g in range(len(ks)):
        k = ks[g]
        best_lb = -np.inf
        for r in range(starts[g], starts[g + 1]):
            resp[:k] = 0.0
            for i in range(n):
                resp[init[r, i], i] = 1.0
            if not _m_step(XT, resp, k, reg_covar, True, w, mu, cov, prec, log_det, diff,
                           weighted):
                return True
            lb = -np.inf
            it = 0
            converged = False
            while it < max_iter:
                it += 1
                previous = lb
                _log_joint(XT, k, w, mu, prec, log_det, log_prob, diff, acc, sq)
                lb = _normalise(log_prob, k, log_norm, top, total, resp)
                if not _m_step(XT, resp, k, reg_covar, False, w, mu, cov, prec, log_det, diff,
                               weighted):
                    return True
                if abs(lb - previous) < tol:
                    converged = True
                    break
            if lb > best_lb or best_lb == -np.inf:
                best_lb = lb
                best_w[:k], best_mu[:k] = w[:k], mu[:k]
                best_cov[:k], best_prec[:k], best_log_det[:k] = cov[:k], prec[:k], log_det[:k]
                lb_out[g], n_iter_out[g], conv_out[g] = lb, it, converged
        o = offsets[g]
        weights_out[o:o + k], means_out[o:o + k] = best_w[:k], best_mu[:k]
        for t in range(k):  # the lower triangle, mirrored
            for a in range(d):
                for b in range(a + 1):
                    cov_out[o + t, a, b] = cov_out[o + t, b, a] = best_cov[t, a, b]
        _log_joint(XT, k, best_w, best_mu, best_prec, best_log_det, log_prob, diff, acc, sq)
        _normalise(log_prob, k, loglik_out[g], top, total, resp)
        for i in range(n):
            best = 0
            for t in range(1, k):
                if log_prob[t, i] > log_prob[best, i]:
                    best = t
            labels_out[g, i] = best
    return False


@numba.njit(cache=True, nogil=True)
def _dot(u, v):
    """Σ_i u_i v_i in eight running sums over i mod 8, combined pairwise, then the n mod 8
    last terms: a fixed order, and independent additions (2.8× a single running sum)."""
    n = len(u)
    s0 = s1 = s2 = s3 = s4 = s5 = s6 = s7 = 0.0
    end = n - n % 8
    for i in range(0, end, 8):
        s0 += u[i] * v[i]
        s1 += u[i + 1] * v[i + 1]
        s2 += u[i + 2] * v[i + 2]
        s3 += u[i + 3] * v[i + 3]
        s4 += u[i + 4] * v[i + 4]
        s5 += u[i + 5] * v[i + 5]
        s6 += u[i + 6] * v[i + 6]
        s7 += u[i + 7] * v[i + 7]
    s = ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))
    for i in range(end, n):
        s += u[i] * v[i]
    return s


@numba.njit(cache=True, nogil=True)
def _m_step(XT, resp, k, reg_covar, first, w, mu, cov, prec, log_det, diff, weighted):
    """N_t, π_t, μ_t, Σ_t (its lower triangle) and P_t of the k components from ``resp``
    (k × n); False if a Σ_t is not positive definite."""
    d, n = XT.shape
    ones = np.ones(n)
    for t in range(k):
        r = resp[t]
        nk = _dot(r, ones) + _TEN_EPS
        w[t] = nk
        for a in range(d):
            m = _dot(r, XT[a]) / nk
            mu[t, a] = m
            for i in range(n):
                diff[a, i] = XT[a, i] - m
                weighted[a, i] = r[i] * diff[a, i]
        c = cov[t]
        _lower_products(weighted, diff, d, c)
        for a in range(d):
            for b in range(a + 1):
                c[a, b] /= nk
            c[a, a] += reg_covar
        if not _precision_cholesky(c, prec[t]):
            return False
        log_det[t] = 0.0
        for a in range(d):
            log_det[t] += np.log(prec[t, a, a])
    total = 0.0
    for t in range(k):
        total += w[t]
    for t in range(k):
        w[t] /= n if first else total
    return True


@numba.njit(cache=True, nogil=True)
def _lower_products(u, v, d, c):
    """c_ab = Σ_i u_ai v_bi for b ≤ a < d, by 2 × 2 blocks (four running sums over i: they
    share the loads); ``u`` and ``v`` have an even number of rows, a last one of zeros if d
    is odd."""
    n = u.shape[1]
    for a in range(0, d, 2):
        u0, u1 = u[a], u[a + 1]
        for b in range(0, a + 1, 2):
            v0, v1 = v[b], v[b + 1]
            s00 = s01 = s10 = s11 = 0.0
            for i in range(n):
                s00 += u0[i] * v0[i]
                s01 += u0[i] * v1[i]
                s10 += u1[i] * v0[i]
                s11 += u1[i] * v1[i]
            c[a, b] = s00
            if b < a:
                c[a, b + 1] = s01
            if a + 1 < d:
                c[a + 1, b] = s10
                c[a + 1, b + 1] = s11


@numba.njit(cache=True, nogil=True)
def _precision_cholesky(c, p):
    """P = L⁻ᵀ (upper triangular) for the lower triangle of c = L Lᵀ, L computed in the lower
    triangle of p and then overwritten row by row; False at a pivot ≤ 0 or NaN (LAPACK's
    ``potrf`` test)."""
    d = c.shape[0]
    for j in range(d):
        s = c[j, j]
        for m in range(j):
            s -= p[j, m] * p[j, m]
        if not s > 0.0:
            return False
        p[j, j] = np.sqrt(s)
        for i in range(j + 1, d):
            s = c[i, j]
            for m in range(j):
                s -= p[i, m] * p[j, m]
            p[i, j] = s / p[j, j]
    # column j of L⁻¹ by forward substitution from e_j is row j of P, entries j..d−1: they
    # overwrite L's row j from its diagonal on, which later columns do not read
    z = np.empty(d)
    for j in range(d):
        z[j] = 1.0 / p[j, j]
        for i in range(j + 1, d):
            s = 0.0
            for m in range(j, i):
                s -= p[i, m] * z[m]
            z[i] = s / p[i, i]
        for i in range(j, d):
            p[j, i] = z[i]
    for j in range(d):
        for i in range(j):
            p[j, i] = 0.0
    return True


@numba.njit(cache=True, nogil=True)
def _log_joint(XT, k, w, mu, prec, log_det, log_prob, diff, acc, sq):
    """ln π_t + ln N(x_i | μ_t, Σ_t) into ``log_prob`` (k × n), by blocks of objects:
    y_j = Σ_{a ≤ j} (x_ia − μ_ta) (P_t)_aj, ‖y‖² summed over j in order."""
    d, n = XT.shape
    block = len(acc)
    for t in range(k):
        p = prec[t]
        const = -0.5 * d * _LOG_2PI + log_det[t] + np.log(w[t])
        for lo in range(0, n, block):
            m = min(block, n - lo)
            for a in range(d):
                mta = mu[t, a]
                for i in range(m):
                    diff[a, i] = XT[a, lo + i] - mta
            sq[:m] = 0.0
            for j in range(d):
                pj = p[0, j]
                for i in range(m):
                    acc[i] = diff[0, i] * pj
                for a in range(1, j + 1):
                    pa = p[a, j]
                    for i in range(m):
                        acc[i] += diff[a, i] * pa
                for i in range(m):
                    sq[i] += acc[i] * acc[i]
            for i in range(m):
                log_prob[t, lo + i] = const - 0.5 * sq[i]


@numba.njit(cache=True, nogil=True)
def _normalise(log_prob, k, log_norm, top, total, resp):
    """ln p(x_i) = ln Σ_t exp(``log_prob``_ti) into ``log_norm`` (the maximum taken out;
    exp(x) = 0 below x = −746, where it underflows) and the responsibilities; returns the
    mean ln p(x_i), the lower bound."""
    n = log_prob.shape[1]
    top[:] = log_prob[0]
    for t in range(1, k):
        for i in range(n):
            top[i] = max(top[i], log_prob[t, i])
    total[:] = 0.0
    for t in range(k):
        for i in range(n):
            x = log_prob[t, i] - top[i]
            e = np.exp(x) if x > _UNDERFLOW else 0.0
            resp[t, i] = e
            total[i] += e
    for i in range(n):
        log_norm[i] = top[i] + np.log(total[i])
    for t in range(k):
        for i in range(n):
            resp[t, i] /= total[i]
    return _dot(log_norm, np.ones(n)) / n
