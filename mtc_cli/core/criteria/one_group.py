"""Tests of "no group structure" that weigh the evidence for the k̂ ≥ 2 a selection found
against the same evidence on data of one group, at that k̂ (not at k = 2): the record of a
test's evidence (:class:`Evidence`), the one-group reference data (:func:`gaussian_reference`,
:func:`pc_box_reference`, :func:`t_reference`), the gap statistic's 1-s.e. comparison of
Gap(k̂) with Gap(1) (:func:`gap_at_k`) and the stability of k̂ against its value on one-group
references (:func:`stability_against_references`). Dip-means and SigClust, the other such
tests, are :mod:`.dip_means` and :mod:`.sigclust`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy.optimize import minimize_scalar
from scipy.special import gammaln

from mtc_cli.core.criteria.gap_statistic import gap


@dataclass(frozen=True)
class Evidence:
    """What a test of "no group structure" saw, to be shown as it is.

    ``test``: its name; ``k``: the k̂ ≥ 2 it weighed; ``statistic``: the data's value;
    ``reference``: the values it was compared with (one per reference or simulated data set;
    the gap test: the standard error s(k̂); dip-means: each viewer's p-value); ``p_value``:
    the test's p-value (NaN where its rule reads ``statistic`` itself: gap, dip-means);
    ``level``: the threshold of its rule; ``says_one``: whether it finds no group structure;
    ``rule``: that rule in words."""

    test: str
    k: int
    statistic: float
    reference: tuple[float, ...]
    p_value: float
    level: float
    says_one: bool
    rule: str


# --- one-group reference data ---------------------------------------------------------------

def principal_axes(X) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(mean (d,), the principal axes V (r, d) as rows, the scores (n, r)) of X by the SVD of
    the centred data X − x̄ = U D Vᵀ (scores U D = (X − x̄) V), r = min(n, d)."""
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[0] < 2:
        raise ValueError(f"need an (n, d) matrix with n ≥ 2, got shape {X.shape}")
    mean = X.mean(axis=0)
    U, s, Vt = np.linalg.svd(X - mean, full_matrices=False)
    return mean, Vt, U * s


def gaussian_reference(X, rng: np.random.Generator) -> np.ndarray:
    """As many points as X from the Gaussian of X's mean and sample covariance S (divisor
    n − 1): independent normal scores along X's principal axes with the principal variances
    d_j² / (n − 1) as variances, rotated back (Z = x̄ + Σ_j z_j v_jᵀ), so that E[cov Z] = S
    exactly. The null of SigClust (Liu, Hayes, Nobel & Marron 2008, Sect. 2: one cluster is a
    Gaussian), with the sample eigenvalues as its variances."""
    mean, Vt, scores = principal_axes(X)
    sd = np.sqrt((scores ** 2).sum(axis=0) / (len(scores) - 1))
    return mean + (rng.standard_normal(scores.shape) * sd) @ Vt


def pc_box_reference(X, rng: np.random.Generator) -> np.ndarray:
    """As many points as X, uniform over the box aligned with X's principal axes: Tibshirani,
    Walther & Hastie's (2001, Sect. 3) reference (b) — with X' = (X − x̄)V the principal
    scores, draw features uniformly over the range of each column of X', and back-transform
    by Vᵀ (their Z = Z'Vᵀ), the mean added back."""
    mean, Vt, scores = principal_axes(X)
    lo, hi = scores.min(axis=0), scores.max(axis=0)
    return mean + (lo + (hi - lo) * rng.random(scores.shape)) @ Vt


#: the degrees of freedom ν of :func:`fit_student_t` lie in this range (ν = 1000: Gaussian
#: for every purpose here)
T_DF_RANGE = (0.5, 1000.0)


def student_t_loglik(delta, nu: float, d: int, logdet: float) -> float:
    """Σ_i log t_ν(x_i; μ, Σ) of the d-variate Student t from the squared Mahalanobis distances
    δ_i = (x_i − μ)ᵀΣ⁻¹(x_i − μ) and log |Σ|: log Γ((ν + d)/2) − log Γ(ν/2) − (d/2) log(νπ)
    − ½ log |Σ| − ((ν + d)/2) log(1 + δ_i/ν) (McLachlan & Peel 2000, eq. 7.1)."""
    delta = np.asarray(delta, dtype=np.float64)
    return float(np.sum(gammaln((nu + d) / 2) - gammaln(nu / 2) - d / 2 * np.log(nu * np.pi)
                        - logdet / 2 - (nu + d) / 2 * np.log1p(delta / nu)))


def _negative_t_loglik(log_nu, delta, d, logdet) -> float:
    return -student_t_loglik(delta, float(np.exp(log_nu)), d, logdet)


def fit_student_t(Y, *, max_iter: int = 200, tol: float = 1e-9
                  ) -> tuple[np.ndarray, np.ndarray, float]:
    """The maximum-likelihood (μ, Σ, ν) of a multivariate Student t by ECME (Liu & Rubin 1995,
    "ML estimation of the t distribution using EM and its extensions, ECM and ECME",
    Statistica Sinica 5:19–39, Sect. 4): the E-step weights w_i = (ν + d)/(ν + δ_i); the
    CM-steps μ = Σ w_i x_i / Σ w_i, Σ = (1/n) Σ w_i (x_i − μ)(x_i − μ)ᵀ; then ν maximising the
    observed log-likelihood (:func:`student_t_loglik`) over :data:`T_DF_RANGE` given μ, Σ
    (bounded 1-D search in log ν). From the mean and sample covariance with ν = 10; stops when
    the log-likelihood gains less than ``tol`` × |its value|. Y: (n, d) of full column rank."""
    Y = np.asarray(Y, dtype=np.float64)
    n, d = Y.shape
    mu, S, nu = Y.mean(axis=0), np.atleast_2d(np.cov(Y.T)), 10.0
    lo, hi = np.log(T_DF_RANGE[0]), np.log(T_DF_RANGE[1])
    last = -np.inf
    for _ in range(max_iter):
        R = Y - mu
        delta = (np.linalg.solve(np.linalg.cholesky(S), R.T) ** 2).sum(axis=0)
        w = (nu + d) / (nu + delta)
        mu = (w[:, None] * Y).sum(axis=0) / w.sum()
        R = Y - mu
        S = (w[:, None] * R).T @ R / n
        C = np.linalg.cholesky(S)
        logdet = 2.0 * np.log(np.diag(C)).sum()
        delta = (np.linalg.solve(C, R.T) ** 2).sum(axis=0)
        found = minimize_scalar(_negative_t_loglik, bounds=(lo, hi), method="bounded",
                                args=(delta, d, logdet))
        nu, ll = float(np.exp(found.x)), -float(found.fun)
        if ll - last <= tol * abs(ll):
            break
        last = ll
    return mu, S, nu


def t_reference(X, rng: np.random.Generator) -> np.ndarray:
    """As many points as X from the multivariate Student t fitted to X by maximum likelihood
    (:func:`fit_student_t`, in X's principal coordinates of non-zero variance, rotated back):
    one group with the data's own heaviness of tails — a Gaussian where the fitted ν is large,
    heavy-tailed data (a Student t of 2–3 degrees of freedom) matched where it is not. A draw:
    μ + z / √(g/ν), z ~ N(0, Σ), g ~ χ²_ν (McLachlan & Peel 2000, Sect. 7.2)."""
    mean, Vt, scores = principal_axes(X)
    var = (scores ** 2).sum(axis=0)
    keep = var > 1e-12 * var.max()
    mu, S, nu = fit_student_t(scores[:, keep])
    n = len(scores)
    z = rng.standard_normal((n, int(keep.sum()))) @ np.linalg.cholesky(S).T
    return mean + (mu + z / np.sqrt(rng.chisquare(nu, n) / nu)[:, None]) @ Vt[keep]


#: name → generator of one-group reference data of X's spread
REFERENCES = {"gaussian": gaussian_reference, "pc_box": pc_box_reference, "t": t_reference}


# --- the gap statistic at k̂ -----------------------------------------------------------------

def gap_at_k(ks, log_w, log_w_reference, k: int, *, se_factor: float = 1.0) -> Evidence:
    """Gap(k̂) against Gap(1) by Tibshirani, Walther & Hastie's (2001) one-standard-error
    comparison (:func:`gap_lead`), Gap and s of their eq. 3 and step 3
    (:func:`mtc_cli.core.criteria.gap_statistic.gap`) from the curves the gap statistic
    already has: ``log_w`` (log W_k of the data, one per k of ``ks``) and
    ``log_w_reference`` ((B, len(ks)): of the B reference sets)."""
    ks = [int(v) for v in ks]
    if 1 not in ks or int(k) not in ks:
        raise ValueError(f"the curves must hold k = 1 and k̂ = {k}, got ks {ks}")
    g, s = gap(log_w, log_w_reference)
    i1, ik = ks.index(1), ks.index(int(k))
    return gap_lead(float(g[ik] - g[i1]), float(s[ik]), k, se_factor=se_factor)


def gap_lead(lead: float, s: float, k: int, *, se_factor: float = 1.0) -> Evidence:
    """No group structure iff Gap(1) ≥ Gap(k̂) − s(k̂): the 1-s.e. rule of Tibshirani, Walther
    & Hastie (2001, step 3) compares consecutive k; here the smallest k (1) is compared with
    the k̂ found, however far. ``lead``: Gap(k̂) − Gap(1), the statistic; ``s``: s(k̂), the
    reference. A NaN lead (no gap at k̂) decides nothing: ``says_one`` False."""
    return Evidence("gap_at_k", int(k), float(lead), (float(s),), np.nan, float(se_factor),
                    bool(np.isfinite(lead) and lead <= se_factor * s),
                    f"no group structure iff Gap({k}) − Gap(1) ≤ {se_factor:g}·s({k})")


# --- stability at k̂ against one-group references ---------------------------------------------

def reference_sample(n: int, max_items: int | None, rng: np.random.Generator) -> np.ndarray:
    """All of range(n), or a sorted random sample of ``max_items`` of it when n is larger."""
    if max_items is None or n <= max_items:
        return np.arange(n)
    return np.sort(rng.choice(n, size=max_items, replace=False))


def stability_against_references(X, k: int, stability_curve: Callable,
                                 rng: np.random.Generator, *, ks=None,
                                 references=("gaussian", "pc_box"), n_references: int = 19,
                                 level: float = 0.05,
                                 max_items: int | None = 2000) -> tuple[Evidence, ...]:
    """Lange, Braun, Roth & Buhmann's (2002) normalised stability of the answering algorithm,
    S(k)/S_perm(k) (lower is more stable; ``stability_curve(X, ks, rng)`` gives it for every k
    of ``ks``, in that order — one fit of each half serves every k), on the data and on
    ``n_references`` one-group reference sets of the data's spread for each of
    ``references`` (:data:`REFERENCES`: ``gaussian``, ``pc_box``, ``t``). The statistic of a
    data set: its value at k̂ = ``k``, or, given ``ks`` (the range k̂ was chosen from, k̂
    among them), its least value over ``ks``: k̂ was chosen as the most stable k, so each
    reference offers its own most stable k as well. Per reference a Monte Carlo test
    (Barnard 1963; Hope 1968): p = (1 + #{reference ≤ data}) / (B + 1); no group structure
    iff p > ``level`` — the data are not more stable than data of one group of that kind.
    With B = 19 the smallest p is 0.05. One group of any of the kinds is a composite null:
    no group structure iff any of the returned evidences says so. A NaN statistic of the
    data (no baseline) decides nothing: p NaN, ``says_one`` False. The data's statistic is
    computed once, for every reference. Above ``max_items`` objects, the data and every
    reference set are a random sample of that many (the same n for all). Returns one
    :class:`Evidence` per reference, in order."""
    if n_references < 1:
        raise ValueError(f"need n_references ≥ 1, got {n_references}")
    unknown = [r for r in references if r not in REFERENCES]
    if unknown or not references:
        raise ValueError(f"unknown references {unknown}: some of {', '.join(REFERENCES)}")
    ks = [int(k)] if ks is None else [int(v) for v in ks]
    if int(k) not in ks:
        raise ValueError(f"k̂ = {k} is not among ks {ks}")
    X = np.asarray(X, dtype=np.float64)
    X = X[reference_sample(len(X), max_items, rng)]

    def best(data) -> float:
        curve = np.asarray(stability_curve(data, ks, rng), dtype=np.float64)
        return float(np.nanmin(curve)) if np.isfinite(curve).any() else np.nan

    data = best(X)
    over = f"k = {k}" if len(ks) == 1 else f"the least over k in {{{', '.join(map(str, ks))}}}"
    out = []
    for name in references:
        refs = tuple(best(REFERENCES[name](X, rng)) for _ in range(n_references))
        p = (1 + sum(r <= data for r in refs)) / (n_references + 1) if np.isfinite(data) \
            else np.nan
        out.append(Evidence(f"stability_{name}", int(k), data, refs, float(p), float(level),
                            bool(p > level),
                            f"S/S_perm at {over}; no group structure iff p = (1 + #{{{name} "
                            f"references at least as stable}}) / {n_references + 1} > "
                            f"{level:g}"))
    return tuple(out)
