"""Minka's Bayesian choice of the PCA dimensionality (Minka 2000, "Automatic choice of
dimensionality for PCA", NIPS 13): the rank maximising the Laplace approximation of the
evidence p(D | k) of probabilistic PCA, as implemented by scikit-learn
(``PCA(n_components="mle")``)."""

from __future__ import annotations

import numpy as np
from sklearn.decomposition import PCA


def minka_rank(X) -> int:
    """The rank k ∈ [1, d − 1] maximising Minka's (2000, eq. 30) Laplace evidence over the
    eigenvalues of the sample covariance of X (n samples × d features; scikit-learn's
    ``PCA(n_components="mle", svd_solver="full")``). Needs n ≥ d."""
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError(f"expected a 2-D data matrix, got shape {X.shape}")
    n, d = X.shape
    if n < d:
        raise ValueError(f"Minka's PCA evidence needs n_samples ≥ n_features, got {n} < {d}")
    return int(PCA(n_components="mle", svd_solver="full").fit(X).n_components_)
