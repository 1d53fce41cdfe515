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

Its hot loops work on vectors of four float64 (LLVM vector instructions written through numba
intrinsics: numba vectorises a sum only under fast-math, which would let its order depend on
the CPU), each lane a separate value computed by the same operations in the same order as
scalar code would: four objects in the E-step, the running sums over i mod 8 of Σ_i r_it x_i,
four entries of Σ_t in its sums over the objects, taken one object after the other. Above
:data:`MAX_D` features callers keep :class:`mtc_cli.core.models.gmm_em.BatchedGaussianMixture`.
The number of objects sets no crossover up to 10 000.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic, models, register_model

from mtc_cli.core.models.gmm import GmmSolution
from mtc_cli.core.models.gmm_steps import _ILL_DEFINED

#: the most features at which callers use the compiled EM: results/benchmarks/batched_gmm.csv
#: (tests/benchmarks/bench_batched_gmm.py, k = 1..12, one CPU) has it 2.6–14.7× faster than
#: BatchedGaussianMixture for d ≤ 20 at every n from 100 to 10 000 (d = 10: 3.6–6.5× for n
#: of 250–2 000), and still 2.3–3.2× at d = 50, the most it measures; a check at 250 × 82,
#: 1 000 × 60 and 500 × 100 (blobs, k = 1..12) gave 5.9×, 2.5× and 2.1×: the league's widest
#: data (100 features) take it too
MAX_D = 100

_LOG_2PI = float(np.log(2 * np.pi))
_TEN_EPS = 10 * float(np.finfo(np.float64).eps)
#: below it exp underflows to 0 (e^−745.14 < 2^−1075)
_UNDERFLOW = -746.0
#: objects of a group of the E-step: four vectors, four independent running sums
_GROUP = 16
#: objects × padded features of a block of the M-step (12 KiB an array: in the L1 cache)
_BLOCK = 1536


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
    if _fit_all(np.ascontiguousarray(X), ks, np.array(rows, dtype=np.int64),
                np.array(starts), offsets, float(reg_covar), float(tol), int(max_iter),
                weights, means, covariances, lower_bound, n_iter, converged, labels,
                log_likelihood):
        raise ValueError(_ILL_DEFINED)
    return {int(k): EmFit(weights[a:b], means[a:b], covariances[a:b], float(lower_bound[j]),
                          int(n_iter[j]), bool(converged[j]), labels[j], log_likelihood[j])
            for j, (k, a, b) in enumerate(zip(ks, offsets[:-1], offsets[1:], strict=True))}


class _F64x4(types.Type):
    """Four float64 lanes, an LLVM vector; each lane rounds as the scalar operation does."""

    def __init__(self):
        super().__init__(name="F64x4")


_f64x4 = _F64x4()
_VECTOR = ir.VectorType(ir.DoubleType(), 4)


@register_model(_F64x4)
class _F64x4Model(models.PrimitiveModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, _VECTOR)


def _address(context, builder, array_type, array, i):
    data = context.make_array(array_type)(context, builder, array).data
    return builder.bitcast(builder.gep(data, [i]), _VECTOR.as_pointer())


@intrinsic
def _load(typingctx, a, i):
    """a[i:i + 4] of a contiguous 1-d float64 array, unchecked."""

    def codegen(context, builder, sig, args):
        return builder.load(_address(context, builder, sig.args[0], *args), align=8)

    return _f64x4(a, i), codegen


@intrinsic
def _store(typingctx, a, i, v):
    """a[i:i + 4] = v, unchecked."""

    def codegen(context, builder, sig, args):
        builder.store(args[2], _address(context, builder, sig.args[0], *args[:2]), align=8)
        return context.get_dummy_value()

    return types.none(a, i, v), codegen


@intrinsic
def _splat(typingctx, x):
    """(x, x, x, x)."""

    def codegen(context, builder, sig, args):
        v = builder.insert_element(ir.Constant(_VECTOR, None), args[0], ir.IntType(32)(0))
        return builder.shuffle_vector(v, v, ir.Constant(ir.VectorType(ir.IntType(32), 4), None))

    return _f64x4(types.float64), codegen


@intrinsic
def _lane(typingctx, v, j):
    """v[j]."""

    def codegen(context, builder, sig, args):
        return builder.extract_element(*args)

    return types.float64(v, j), codegen


@intrinsic
def _madd(typingctx, s, u, v):
    """s + u v, the product rounded first (no fused multiply-add)."""

    def codegen(context, builder, sig, args):
        return builder.fadd(args[0], builder.fmul(args[1], args[2]))

    return _f64x4(_f64x4, _f64x4, _f64x4), codegen


def _lanewise(op):
    """The intrinsic u op v, lane by lane."""

    def typer(typingctx, u, v):
        return _f64x4(_f64x4, _f64x4), lambda context, builder, sig, args: op(builder, *args)

    typer.__name__ = f"_{op.__name__}"
    return intrinsic(typer)


_sub, _mul, _div = (_lanewise(op) for op in (ir.IRBuilder.fsub, ir.IRBuilder.fmul,
                                                ir.IRBuilder.fdiv))


@numba.njit(cache=True, nogil=True)
def _fit_all(X, ks, init, starts, offsets, reg_covar, tol, max_iter, weights_out, means_out,
             cov_out, lb_out, n_iter_out, conv_out, labels_out, loglik_out):
    """Every restart of every k (``init``'s rows ``starts[g]:starts[g + 1]`` for ``ks[g]``) on
    the objects ``X`` (n × d), the best kept in the outputs at ``offsets[g]``; True as soon
    as a Cholesky factorisation fails."""
    n, d = X.shape
    kmax = ks.max()
    # XT: features × objects, then zeros up to whole groups of the E-step; Xp: objects ×
    # features, then zeros up to whole vectors
    width, padded = -(-n // _GROUP) * _GROUP, -(-d // 4) * 4
    XT, Xp = np.zeros((d, width)), np.zeros((n, padded))
    for i in range(n):
        for a in range(d):
            XT[a, i] = Xp[i, a] = X[i, a]
    block = max(8, _BLOCK // padded)
    ones = np.ones(n)
    resp, log_prob = np.empty((kmax, width)), np.empty((kmax, width))
    log_norm, top, total = np.empty(n), np.empty(n), np.empty(n)
    diff = np.empty((d, _GROUP))
    centred, weighted = np.empty((block, padded)), np.empty((block, padded))
    centre, sums = np.zeros(padded), np.empty((padded, padded))
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
            if not _m_step(XT, Xp, resp, k, reg_covar, True, w, mu, cov, prec, log_det, ones,
                           centre, centred, weighted, sums):
                return True
            lb = -np.inf
            it = 0
            converged = False
            while it < max_iter:
                it += 1
                previous = lb
                _log_joint(XT, n, k, w, mu, prec, log_det, log_prob, diff)
                lb = _normalise(log_prob, k, log_norm, top, total, resp)
                if not _m_step(XT, Xp, resp, k, reg_covar, False, w, mu, cov, prec, log_det,
                               ones, centre, centred, weighted, sums):
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
        _log_joint(XT, n, k, best_w, best_mu, best_prec, best_log_det, log_prob, diff)
        _normalise(log_prob, k, loglik_out[g], top, total, resp)
        for i in range(n):
            best = 0
            for t in range(1, k):
                if log_prob[t, i] > log_prob[best, i]:
                    best = t
            labels_out[g, i] = best
    return False


@numba.njit(cache=True, nogil=True)
def _dots(u, v, w, n):
    """(Σ_{i<n} u_i v_i, Σ_{i<n} u_i w_i), each in eight running sums over i mod 8 (two
    vectors) combined pairwise, then the n mod 8 last terms: a fixed order, and four
    independent additions at a time."""
    s0 = s1 = t0 = t1 = _splat(0.0)
    end = n - n % 8
    for i in range(0, end, 8):
        x0, x1 = _load(u, i), _load(u, i + 4)
        s0, s1 = _madd(s0, x0, _load(v, i)), _madd(s1, x1, _load(v, i + 4))
        t0, t1 = _madd(t0, x0, _load(w, i)), _madd(t1, x1, _load(w, i + 4))
    s = (((_lane(s0, 0) + _lane(s0, 1)) + (_lane(s0, 2) + _lane(s0, 3)))
         + ((_lane(s1, 0) + _lane(s1, 1)) + (_lane(s1, 2) + _lane(s1, 3))))
    t = (((_lane(t0, 0) + _lane(t0, 1)) + (_lane(t0, 2) + _lane(t0, 3)))
         + ((_lane(t1, 0) + _lane(t1, 1)) + (_lane(t1, 2) + _lane(t1, 3))))
    for i in range(end, n):
        s += u[i] * v[i]
        t += u[i] * w[i]
    return s, t


@numba.njit(cache=True, nogil=True)
def _m_step(XT, Xp, resp, k, reg_covar, first, w, mu, cov, prec, log_det, ones, centre,
            centred, weighted, sums):
    """N_t, π_t, μ_t, Σ_t (its lower triangle) and P_t of the k components from ``resp``
    (k × n); False if a Σ_t is not positive definite. Σ_t's sums by blocks of objects (rows
    of ``Xp``): their x_i − μ_t and r_it (x_i − μ_t) into ``centred`` and ``weighted``, then
    the products into ``sums`` by tiles of 4 × 8 or 4 × 4 entries."""
    n, padded = Xp.shape
    d = XT.shape[0]
    block = len(centred)
    for t in range(k):
        r = resp[t]
        nk, m = _dots(r, ones, XT[0], n)
        nk += _TEN_EPS
        w[t] = nk
        mu[t, 0] = centre[0] = m / nk
        for a in range(1, d, 2):  # two features at a time (the last twice if d is even)
            b = min(a + 1, d - 1)
            m, m1 = _dots(r, XT[a], XT[b], n)
            mu[t, a] = centre[a] = m / nk
            mu[t, b] = centre[b] = m1 / nk
        sums[:] = 0.0
        for lo in range(0, n, block):
            size = min(block, n - lo)
            # x_i − μ_t and r_it (x_i − μ_t) of the block's objects, their rows end to end
            x, e, f = Xp[lo:lo + size].reshape(-1), centred.reshape(-1), weighted.reshape(-1)
            i, j, ri = lo, 0, _splat(0.0)
            for q in range(0, size * padded, 4):
                if j == 0:
                    ri = _splat(r[i])
                    i += 1
                y = _sub(_load(x, q), _load(centre, j))
                _store(e, q, y)
                _store(f, q, _mul(ri, y))
                j = j + 4 if j + 4 < padded else 0
            for a in range(0, d, 4):  # rows a..a+3: columns 0..a+3, by 8, then 4 if left
                for b in range(0, a - 3, 8):
                    _products(weighted, centred, size, a, b, sums)
                if a % 8 == 0:
                    _products(weighted, centred, size, a, a, sums, False)
        c = cov[t]
        for a in range(d):
            for b in range(a + 1):
                c[a, b] = sums[a, b] / nk
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
def _products(u, v, m, a, c, s, wide=True):
    """s[a + p, c:c + 8] += Σ_{i<m} u[i, a + p] v[i, c:c + 8] for p < 4, summed over i in
    order: eight independent vector sums (four, into s[a + p, c:c + 4], if not ``wide``)."""
    r0, r1, r2, r3 = s[a], s[a + 1], s[a + 2], s[a + 3]
    e = c + 4 if wide else c  # (the sums loaded from it are then left unused)
    t00, t10, t20, t30 = _load(r0, c), _load(r1, c), _load(r2, c), _load(r3, c)
    t01, t11, t21, t31 = _load(r0, e), _load(r1, e), _load(r2, e), _load(r3, e)
    for i in range(m):
        x, y = v[i], u[i]
        z0, z1, z2, z3 = _splat(y[a]), _splat(y[a + 1]), _splat(y[a + 2]), _splat(y[a + 3])
        x0 = _load(x, c)
        t00, t10 = _madd(t00, z0, x0), _madd(t10, z1, x0)
        t20, t30 = _madd(t20, z2, x0), _madd(t30, z3, x0)
        if wide:
            x1 = _load(x, e)
            t01, t11 = _madd(t01, z0, x1), _madd(t11, z1, x1)
            t21, t31 = _madd(t21, z2, x1), _madd(t31, z3, x1)
    for row, t0, t1 in ((r0, t00, t01), (r1, t10, t11), (r2, t20, t21), (r3, t30, t31)):
        _store(row, c, t0)
        if wide:
            _store(row, e, t1)


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
def _log_joint(XT, n, k, w, mu, prec, log_det, log_prob, diff):
    """ln π_t + ln N(x_i | μ_t, Σ_t) into ``log_prob`` (k × n, and its padding), by groups of
    16 objects (four vectors): their x_i − μ_t into ``diff``, then y_j = Σ_{a ≤ j} (x_ia −
    μ_ta) (P_t)_aj summed over a in order, and ‖y‖² over j in order."""
    d = XT.shape[0]
    half = _splat(0.5)
    for t in range(k):
        p = prec[t]
        const = _splat(-0.5 * d * _LOG_2PI + log_det[t] + np.log(w[t]))
        out = log_prob[t]
        for g in range(0, n, _GROUP):
            for a in range(d):
                x, e, m = XT[a], diff[a], _splat(mu[t, a])
                for q in range(0, _GROUP, 4):
                    _store(e, q, _sub(_load(x, g + q), m))
            s0 = s1 = s2 = s3 = _splat(0.0)
            for j in range(d):
                e, z = diff[0], _splat(p[0, j])
                y0, y1 = _mul(_load(e, 0), z), _mul(_load(e, 4), z)
                y2, y3 = _mul(_load(e, 8), z), _mul(_load(e, 12), z)
                for a in range(1, j + 1):
                    e, z = diff[a], _splat(p[a, j])
                    y0, y1 = _madd(y0, _load(e, 0), z), _madd(y1, _load(e, 4), z)
                    y2, y3 = _madd(y2, _load(e, 8), z), _madd(y3, _load(e, 12), z)
                s0, s1 = _madd(s0, y0, y0), _madd(s1, y1, y1)
                s2, s3 = _madd(s2, y2, y2), _madd(s3, y3, y3)
            for q, s in ((0, s0), (4, s1), (8, s2), (12, s3)):
                _store(out, g + q, _sub(const, _mul(half, s)))


@numba.njit(cache=True, nogil=True)
def _normalise(log_prob, k, log_norm, top, total, resp):
    """ln p(x_i) = ln Σ_t exp(``log_prob``_ti) into ``log_norm`` (the maximum taken out;
    exp(x) = 0 below x = −746, where it underflows) and the responsibilities; returns the
    mean ln p(x_i), the lower bound."""
    n = len(log_norm)
    top[:] = log_prob[0, :n]
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
    for t in range(k):  # (numba leaves a division scalar)
        rt = resp[t]
        for i in range(0, n - 3, 4):
            _store(rt, i, _div(_load(rt, i), _load(total, i)))
        for i in range(n - n % 4, n):
            rt[i] /= total[i]
    ones = np.ones(n)
    return _dots(log_norm, ones, ones, n)[0] / n
