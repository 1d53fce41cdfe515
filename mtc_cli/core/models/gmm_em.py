"""EM for Gaussian mixtures: scikit-learn's ``GaussianMixture`` (its initialisation, restarts,
E-step, convergence test and lower bound) with the two steps that loop over the components
in Python for full covariances — the M-step's covariances and Cholesky factors, and the
log-densities — computed for blocks of components at once
(:func:`mtc_cli.core.models.gmm_steps.full_m_step`,
:func:`mtc_cli.core.models.gmm_steps.full_log_densities`), and
the k-means initialisation's ``KMeans`` fit through :mod:`mtc_cli.core.models.sklearn_kmeans`
(the same labels). The same formulas, so the same fit up to rounding (``tests/core/test_gmm.py``
compares it with ``GaussianMixture``); on the small sets of ``mtc select`` (hundreds of
objects, EM runs of a few ms) the loops were most of the time."""

from __future__ import annotations

import numpy as np
from sklearn.mixture import GaussianMixture

from mtc_cli.core.logsumexp import logsumexp
from mtc_cli.core.models import sklearn_kmeans
from mtc_cli.core.models.gmm_steps import full_log_densities, full_m_step


class BatchedGaussianMixture(GaussianMixture):
    """``GaussianMixture`` whose full-covariance EM steps (and its first M-step from the
    initial responsibilities, unless initial parameters are given) are :func:`full_m_step`,
    :func:`full_log_densities` and the log-sum-exp of the E-step; the other covariance
    types are scikit-learn's own."""

    def _initialize_parameters(self, X, random_state, *args, **kwargs):
        """scikit-learn's k-means initialisation — the labels of ``KMeans(n_components,
        n_init=1, random_state=random_state)`` as responsibilities — with its ``KMeans`` fit
        through :mod:`mtc_cli.core.models.sklearn_kmeans` (the same labels, one thread); other
        initialisations and float32 data are scikit-learn's own."""
        if self.init_params != "kmeans" or X.dtype != np.float64:
            return super()._initialize_parameters(X, random_state, *args, **kwargs)
        labels = sklearn_kmeans.fit(X, self.n_components, 1, random_state)[1]
        resp = np.zeros((X.shape[0], self.n_components), dtype=X.dtype)
        resp[np.arange(X.shape[0]), labels] = 1
        self._initialize(X, resp)

    def _initialize(self, X, resp, *args, **kwargs):
        own = (self.weights_init, self.means_init, self.precisions_init)
        if self.covariance_type != "full" or any(v is not None for v in own):
            return super()._initialize(X, resp, *args, **kwargs)
        nk, self.means_, self.covariances_, self.precisions_cholesky_ = full_m_step(
            X, resp, self.reg_covar)
        self.weights_ = nk / X.shape[0]

    def _m_step(self, X, log_resp, *args, **kwargs):  # scikit-learn ≥ 1.8 passes xp
        if self.covariance_type != "full":
            return super()._m_step(X, log_resp, *args, **kwargs)
        nk, self.means_, self.covariances_, self.precisions_cholesky_ = full_m_step(
            X, np.exp(log_resp), self.reg_covar)
        self.weights_ = nk / nk.sum()

    def _estimate_log_prob_resp(self, X, *args, **kwargs):
        """The E-step: ln p(x_i) and the log responsibilities, with scikit-learn's
        log-sum-exp (the same operations: :mod:`mtc_cli.core.logsumexp`) without its array-API
        dispatch."""
        if self.covariance_type != "full":
            return super()._estimate_log_prob_resp(X, *args, **kwargs)
        weighted = self._estimate_log_prob(X) + np.log(self.weights_)
        log_prob_norm = logsumexp(weighted, axis=1)
        with np.errstate(under="ignore"):
            return log_prob_norm, weighted - log_prob_norm[:, None]

    def _estimate_log_prob(self, X, *args, **kwargs):
        if self.covariance_type != "full":
            return super()._estimate_log_prob(X, *args, **kwargs)
        return full_log_densities(X, self.means_, self.precisions_cholesky_)
