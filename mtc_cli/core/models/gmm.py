"""Gaussian mixture model: EM fit (scikit-learn's, full-covariance steps batched:
:mod:`mtc_cli.core.models.gmm_em`), the cost function and parameter count."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mtc_cli.core.logsumexp import logsumexp
from mtc_cli.core.models.covariance_types import COVARIANCE_TYPES  # noqa: F401 (gmm's own)
from mtc_cli.core.models.gmm_steps import full_log_densities, precision_cholesky

#: what EM adds to every variance (scikit-learn's default): keeps a component on fewer
#: points than dimensions fittable, at the scale of data whose variances are near 1
REG_COVAR = 1e-6
#: EM iterations at most (scikit-learn's default is 100)
MAX_ITER = 500


@dataclass(frozen=True)
class GmmSolution:
    """A GMM solution s: mixing weights π_t, centres μ_t and covariances Σ_t — full d × d
    matrices, or for ``covariance_type`` diag their diagonals (never a d × d matrix: a GMM
    on 100 000 features keeps k · d numbers)."""

    weights: np.ndarray  # (k,)
    means: np.ndarray  # (k, d)
    covariances: np.ndarray  # (k, d, d); diag: (k, d)
    covariance_type: str

    @property
    def k(self) -> int:
        return len(self.weights)


def fit(X: np.ndarray, k: int, *, covariance_type: str = "full", n_init: int = 3,
        random_state: int = 0, reg_covar: float = REG_COVAR) -> GmmSolution:
    """Fit a k-component GMM by EM with ``n_init`` k-means++-initialised restarts."""
    from mtc_cli.core.models.gmm_em import BatchedGaussianMixture

    gm = BatchedGaussianMixture(n_components=k, covariance_type=covariance_type,
                                n_init=n_init, random_state=random_state,
                                reg_covar=reg_covar, max_iter=MAX_ITER)
    gm.fit(X)
    return GmmSolution(gm.weights_.copy(), gm.means_.copy(),
                       _covariances(gm.covariances_, covariance_type, k, X.shape[1]),
                       covariance_type)


def _covariances(cov, covariance_type: str, k: int, d: int) -> np.ndarray:
    """k full covariance matrices, or k diagonals (diag)."""
    if covariance_type in ("full", "diag"):
        return np.array(cov)
    if covariance_type == "tied":
        return np.repeat(np.asarray(cov)[None], k, axis=0)
    return np.asarray(cov)[:, None, None] * np.eye(d)[None]


def component_costs(solution: GmmSolution, X: np.ndarray) -> np.ndarray:
    """ε_it = −ln π_t − ln N(x_i | μ_t, Σ_t): the cost of explaining object i by component t,
    an (n, k) matrix (:func:`full_log_densities` for full, tied and spherical covariances;
    no n × d × d array). The Bayes rule assigns each object to its cheapest component, and
    −ln Σ_t e^{−ε_it} is its term of eq. 6."""
    X = np.asarray(X, dtype=np.float64)
    n, d = X.shape
    if solution.covariance_type != "diag":
        log_density = full_log_densities(X, solution.means,
                                         precision_cholesky(solution.covariances))
        return -(np.log(solution.weights) + log_density)
    log_joint = np.empty((n, solution.k))
    for t in range(solution.k):
        sd = np.sqrt(solution.covariances[t])
        z = (X - solution.means[t]).T / sd[:, None]  # (d, n)
        log_det = 2.0 * np.log(sd).sum()
        log_joint[:, t] = (np.log(solution.weights[t])
                           - 0.5 * (d * np.log(2 * np.pi) + log_det + (z * z).sum(axis=0)))
    return -log_joint


def negative_log_likelihood(solution: GmmSolution, X: np.ndarray) -> np.ndarray:
    """Per-object terms of eq. 6 of Frank et al. 2011, −ln Σ_t π_t N(x_i | μ_t, Σ_t).

    Returns the vector over objects; the cost R(μ, Σ, X, k) is its sum. Log-sum-exp over
    the components' :func:`component_costs`.
    """
    return -logsumexp(-component_costs(solution, X), axis=1)


def n_parameters(k: int, d: int, covariance_type: str = "full") -> int:
    """Free parameters of a k-component GMM in d dimensions: k−1 weights, k·d means
    and the covariances (full: k·d(d+1)/2, tied: d(d+1)/2, diag: k·d, spherical: k)."""
    cov = {"full": k * d * (d + 1) // 2, "tied": d * (d + 1) // 2, "diag": k * d,
           "spherical": k}
    if covariance_type not in cov:
        raise ValueError(f"unknown covariance_type {covariance_type!r}")
    return (k - 1) + k * d + cov[covariance_type]


def sample(rng: np.random.Generator, n: int, means: np.ndarray, sigma: float,
           weights: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """n points from an isotropic mixture with common standard deviation σ; returns
    (X, component labels). Component counts are multinomial with ``weights``."""
    means = np.asarray(means, dtype=np.float64)
    k, d = means.shape
    w = np.full(k, 1.0 / k) if weights is None else np.asarray(weights, dtype=np.float64)
    labels = rng.choice(k, size=n, p=w / w.sum())
    return means[labels] + sigma * rng.standard_normal((n, d)), labels
