"""SigClust (Y. Liu, D. N. Hayes, A. Nobel & J. S. Marron 2008, "Statistical significance of
clustering for high-dimension, low-sample size data", JASA 103:1281–1293) at k̂: one group
is a Gaussian; the k-means cluster index CI = W/T of the data is compared with its
distribution on Gaussian data of the data's covariance eigenvalues.

The paper tests 2-means; here the cluster index is that of k̂ clusters (our
generalisation: the same statistic and null, k̂-means in place of 2-means). The cluster
index is invariant under translations and rotations, so the null is simulated as
N(0, diag(λ̃_1, …, λ̃_d)) (the paper's Sect. 2). The λ̃_j (the paper's Sect. 3): the
eigenvalues λ̂_j of the sample covariance, each raised to the background noise variance σ̂²_N
where it is smaller, σ̂_N = MAD of all n·d entries / Φ⁻¹(3/4) — the paper's hard threshold,
made for d ≫ n, where most sample eigenvalues are noise. Where n > d the sample eigenvalues
estimate the covariance well and raising the small ones to σ̂²_N would make the null more
spread than the data in every minor direction (on an elongated Gaussian, a p-value near 0),
so by default the threshold applies only when d ≥ n (``floor``).

A Gaussian null makes uniform data look clustered (k-means cuts a uniform box into tighter
pieces than a Gaussian of its covariance). ``null="pc_box"`` draws the null from Tibshirani,
Walther & Hastie's (2001) reference (b) instead, uniform in the data's principal-component
box: since Gap(k̂) − Gap(1) = E*[log CI*] − log CI, that is the gap statistic's comparison
of k̂ with k = 1 made a Monte Carlo test. "One group" read as "Gaussian or uniform" is then
the composite null of both: groups only where both reject.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy.stats import norm

from mtc_cli.core.criteria.one_group import Evidence, pc_box_reference, reference_sample
from mtc_cli.core.models import batched_kmeans


def cluster_index(X, labels) -> float:
    """CI = Σ_c Σ_{i ∈ C_c} ‖x_i − x̄_c‖² / Σ_i ‖x_i − x̄‖² (Liu et al. 2008, eq. 1, for any
    number of clusters): the within-cluster sum of squares over the total (0 for a perfect
    clustering of distinct points, 1 for one cluster)."""
    X = np.asarray(X, dtype=np.float64)
    _, inv = np.unique(np.asarray(labels), return_inverse=True)
    inv = inv.ravel()
    total = float(((X - X.mean(axis=0)) ** 2).sum())
    if total == 0.0:
        raise ValueError("the cluster index of data whose objects all coincide is undefined")
    sums = np.zeros((inv.max() + 1, X.shape[1]))
    np.add.at(sums, inv, X)
    within = float(np.einsum("ij,ij->", X, X)
                   - (np.einsum("rj,rj->r", sums, sums) / np.bincount(inv)).sum())
    return within / total


def background_variance(X) -> float:
    """σ̂²_N: the squared MAD of all n·d entries of X (about their median) divided by
    Φ⁻¹(3/4) (Liu et al. 2008, Sect. 3: a robust estimate of the noise, most entries
    being noise in high dimension)."""
    x = np.asarray(X, dtype=np.float64).ravel()
    return float((np.median(np.abs(x - np.median(x))) / norm.ppf(0.75)) ** 2)


def null_eigenvalues(X, *, floor: bool | None = None) -> np.ndarray:
    """The variances λ̃_1 ≥ … ≥ λ̃_d of SigClust's Gaussian null: the sample covariance's
    eigenvalues (divisor n − 1; 0 beyond rank min(n − 1, d)), each raised to
    :func:`background_variance` where smaller when ``floor`` (Liu et al. 2008, Sect. 3;
    None: only where d ≥ n, see the module docstring)."""
    X = np.asarray(X, dtype=np.float64)
    n, d = X.shape
    s = np.linalg.svd(X - X.mean(axis=0), compute_uv=False)
    lam = np.zeros(d)
    lam[:len(s)] = s ** 2 / (n - 1)
    if (d >= n) if floor is None else floor:
        lam = np.maximum(lam, background_variance(X))
    return lam


def kmeans_labels(n_init: int = 3) -> Callable:
    """``cluster(X, k, rng) -> labels``: the best of ``n_init`` k-means++ runs
    (:func:`mtc_cli.core.models.batched_kmeans.fit`)."""
    def cluster(X, k, rng):
        return batched_kmeans.fit(X, k, n_init, rng)[1]
    return cluster


def sigclust(X, k: int, rng: np.random.Generator, *, cluster: Callable | None = None,
             n_simulations: int = 100, level: float = 0.05, null: str = "gaussian",
             floor: bool | None = None, max_items: int | None = 2000) -> Evidence:
    """SigClust at k̂ = ``k``: CI (:func:`cluster_index`) of the data's clustering by
    ``cluster(X, k, rng)`` (default :func:`kmeans_labels`) against the CIs of
    ``n_simulations`` data sets of the same n from N(0, diag(:func:`null_eigenvalues`))
    (``null="gaussian"``, the paper's) or uniform in the data's principal-component box
    (``"pc_box"``, :func:`~mtc_cli.core.criteria.one_group.pc_box_reference`), clustered the
    same way; p = the share of simulated CIs ≤ the data's (the paper's empirical p-value);
    no group structure iff p > ``level``. Above ``max_items`` objects, the data are a random
    sample of that many (and so is every simulated set)."""
    if n_simulations < 1:
        raise ValueError(f"need n_simulations ≥ 1, got {n_simulations}")
    if null not in ("gaussian", "pc_box"):
        raise ValueError(f"unknown null {null!r}: gaussian or pc_box")
    cluster = kmeans_labels() if cluster is None else cluster
    X = np.asarray(X, dtype=np.float64)
    X = X[reference_sample(len(X), max_items, rng)]
    data = cluster_index(X, cluster(X, int(k), rng))
    sd = np.sqrt(null_eigenvalues(X, floor=floor)) if null == "gaussian" else None
    cis = []
    for _ in range(n_simulations):
        Z = rng.standard_normal(X.shape) * sd if sd is not None else pc_box_reference(X, rng)
        cis.append(cluster_index(Z, cluster(Z, int(k), rng)))
    p = float(np.mean(np.asarray(cis) <= data))
    name = "sigclust" if null == "gaussian" else "sigclust_pc_box"
    return Evidence(name, int(k), data, tuple(cis), p, float(level), bool(p > level),
                    f"no group structure iff the share of {n_simulations} {null} null "
                    f"cluster indices ≤ the data's is > {level:g}")
