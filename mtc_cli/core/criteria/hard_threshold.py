"""The optimal hard threshold for singular values (Gavish & Donoho 2014, "The optimal hard
threshold for singular values is 4/√3", IEEE Trans. Inf. Theory 60(8):5040–5053).

An m × n matrix Y = X + σZ, Z with i.i.d. standard entries, β = min(m, n)/max(m, n). The
AMSE-optimal hard threshold keeps the singular values of Y above
τ = λ*(β)·√max(m, n)·σ when σ is known, and above τ = ω(β)·y_med when it is not, y_med the
median singular value of Y. The selected rank is the number of singular values above τ
(``mtc select`` counts the ratios s_k/τ above 1: the ``gavish_donoho`` criterion).
"""

from __future__ import annotations

import numpy as np
from scipy import integrate, optimize


def _beta_array(beta) -> np.ndarray:
    b = np.asarray(beta, dtype=np.float64)
    if np.any(~(b > 0.0)) or np.any(b > 1.0):
        raise ValueError(f"beta must lie in (0, 1], got {beta}")
    return b


def aspect_ratio(shape) -> float:
    """β = min(m, n)/max(m, n) of an m × n matrix, ``shape`` in either order."""
    m, n = (int(d) for d in shape)
    if m < 1 or n < 1:
        raise ValueError(f"matrix shape must be positive, got {tuple(shape)}")
    return min(m, n) / max(m, n)


def lambda_star(beta):
    """λ*(β) = √(2(β+1) + 8β / ((β+1) + √(β² + 14β + 1))) (Gavish & Donoho 2014, eq. 11):
    the optimal threshold in units of √max(m, n)·σ for known noise level σ; λ*(1) = 4/√3."""
    b = _beta_array(beta)
    out = np.sqrt(2.0 * (b + 1.0) + 8.0 * b / ((b + 1.0) + np.sqrt(b * b + 14.0 * b + 1.0)))
    return float(out) if out.ndim == 0 else out


def marchenko_pastur_cdf(x: float, beta: float) -> float:
    """F_β(x) = ∫_a^x √((b − t)(t − a)) / (2πβt) dt, a, b = (1 ∓ √β)², the Marchenko–Pastur
    law of variance 1 and ratio β ∈ (0, 1] (no atom at 0; Gavish & Donoho 2014, Sect. II).

    Integrated by scipy's quad after t = a + u², which removes the √(t − a) edge (and, at
    β = 1, the 1/√t singularity at a = 0): dt = 2u du and √(t − a) = u give the smooth
    integrand u² √(b − a − u²) / (πβ(a + u²))."""
    beta = float(_beta_array(beta))
    a, b = (1.0 - np.sqrt(beta)) ** 2, (1.0 + np.sqrt(beta)) ** 2
    if x <= a:
        return 0.0
    if x >= b:
        return 1.0

    def integrand(u: float) -> float:
        return u * u * np.sqrt(max(b - a - u * u, 0.0)) / (np.pi * beta * (a + u * u))

    value, _ = integrate.quad(integrand, 0.0, np.sqrt(x - a), epsabs=1e-13, epsrel=1e-12)
    return value


def marchenko_pastur_median(beta):
    """μ_β, the median of the Marchenko–Pastur law (:func:`marchenko_pastur_cdf`): the root of
    F_β(x) = 1/2 on its support [(1 − √β)², (1 + √β)²], found by brentq (Gavish & Donoho 2014,
    Sect. III, unknown noise). Accepts a scalar or an array of β."""
    b = _beta_array(beta)

    def one(beta_i: float) -> float:
        lo, hi = (1.0 - np.sqrt(beta_i)) ** 2, (1.0 + np.sqrt(beta_i)) ** 2
        return optimize.brentq(lambda x: marchenko_pastur_cdf(x, beta_i) - 0.5, lo, hi,
                               xtol=1e-14, rtol=1e-13)

    out = np.array([one(float(v)) for v in b.ravel()]).reshape(b.shape)
    return float(out) if out.ndim == 0 else out


def omega(beta):
    """ω(β) = λ*(β) / √μ_β (Gavish & Donoho 2014, eq. 4 and Sect. III on unknown σ): the
    optimal threshold in units of the median singular value, since y_med ≈ √(max(m, n) μ_β)·σ
    for noise-dominated spectra; ω(1) ≈ 2.858."""
    return lambda_star(beta) / np.sqrt(marchenko_pastur_median(beta))


def threshold(singular_values, shape) -> float:
    """τ = ω(β)·median(s) for the singular values s of an m × n matrix (unknown noise level;
    Gavish & Donoho 2014, eq. 4, with the exact ω). ``singular_values`` must hold all
    min(m, n) of them, zeros included, since the median is taken over that many."""
    s = np.asarray(singular_values, dtype=np.float64).ravel()
    beta = aspect_ratio(shape)
    if s.size != min(int(d) for d in shape):
        raise ValueError(f"expected min{tuple(shape)} = {min(shape)} singular values, "
                         f"got {s.size}")
    return float(omega(beta) * np.median(s))

