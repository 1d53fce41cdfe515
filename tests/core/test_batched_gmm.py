"""The compiled EM of every k in one call (mtc_cli.core.models.batched_gmm) against
scikit-learn's GaussianMixture from the same initial labels, a closed form (k = 1), itself
(bit for bit) and the GMM cost of mtc_cli.core.models.gmm."""

import numpy as np
import pytest
from scipy.stats import multivariate_normal
from sklearn.mixture import GaussianMixture

from mtc_cli.core.models import gmm, sklearn_kmeans
from mtc_cli.core.models.batched_gmm import fit_all


class _FromLabels(GaussianMixture):
    """scikit-learn's EM whose restarts start from the given labels (``init_labels``, one
    array per restart), as its k-means initialisation does from the k-means labels."""

    def _initialize_parameters(self, X, random_state, *args, **kwargs):
        resp = np.zeros((len(X), self.n_components))
        resp[np.arange(len(X)), self.init_labels.pop(0)] = 1
        self._initialize(X, resp, *args, **kwargs)


def _data(seed: int):
    rng = np.random.default_rng(seed)
    n, d = int(rng.integers(100, 601)), int(rng.integers(2, 11))
    centres = rng.normal(scale=3.0, size=(4, d))
    X, _ = gmm.sample(rng, n, centres, 1.0)
    return X * rng.uniform(0.5, 2.0, size=d) + rng.normal(size=d)


@pytest.mark.parametrize("seed", range(5))
def test_equals_scikit_learn_from_the_same_labels(seed):
    X = _data(seed)
    restarts = 1 if seed % 2 else 3
    init = {k: [sklearn_kmeans.fit(X, k, 1, 10 * seed + r)[1] for r in range(restarts)]
            for k in range(1, 7)}
    fits = fit_all(X, init)
    for k, fit in fits.items():
        ref = _FromLabels(n_components=k, covariance_type="full", n_init=restarts, tol=1e-3,
                          max_iter=100, reg_covar=1e-6)
        ref.init_labels = list(init[k])
        ref.fit(X)
        assert (fit.n_iter, fit.converged) == (ref.n_iter_, ref.converged_)
        np.testing.assert_allclose(fit.weights, ref.weights_, rtol=1e-8)
        np.testing.assert_allclose(fit.means, ref.means_, rtol=1e-8,
                                   atol=1e-10 * np.abs(ref.means_).max())
        np.testing.assert_allclose(fit.covariances, ref.covariances_, rtol=1e-8,
                                   atol=1e-10 * np.abs(ref.covariances_).max())
        assert fit.lower_bound == pytest.approx(ref.lower_bound_, rel=1e-8)
        np.testing.assert_allclose(fit.log_likelihood, ref.score_samples(X), rtol=1e-8)
        np.testing.assert_array_equal(fit.labels, ref.predict(X))


def test_one_component_is_the_sample_mean_and_biased_covariance():
    X = _data(7)
    fit = fit_all(X, {1: [np.zeros(len(X), dtype=int)]})[1]
    cov = np.cov(X.T, bias=True) + 1e-6 * np.eye(X.shape[1])
    np.testing.assert_allclose(fit.weights, [1.0])
    np.testing.assert_allclose(fit.means[0], X.mean(axis=0), rtol=1e-12)
    np.testing.assert_allclose(fit.covariances[0], cov, rtol=1e-10)
    # the second E-step sees the parameters of the first: no change, converged
    assert (fit.n_iter, fit.converged) == (2, True)
    log_pdf = multivariate_normal(X.mean(axis=0), cov).logpdf(X)
    assert fit.lower_bound == pytest.approx(log_pdf.mean(), rel=1e-12)


def test_bit_for_bit_and_independent_of_the_other_k():
    X = _data(8)
    init = {k: [sklearn_kmeans.fit(X, k, 1, r)[1] for r in range(2)] for k in (2, 3, 5)}
    first, again = fit_all(X, init), fit_all(X, init)
    alone = fit_all(X, {3: init[3]})
    for a, b in [(first[k], again[k]) for k in init] + [(first[3], alone[3])]:
        for field in ("weights", "means", "covariances", "labels", "log_likelihood"):
            assert np.array_equal(getattr(a, field), getattr(b, field))
        assert (a.lower_bound, a.n_iter, a.converged) == (b.lower_bound, b.n_iter, b.converged)


def test_collapsed_component_raises_scikit_learns_error():
    rng = np.random.default_rng(9)
    X = np.vstack([np.zeros((20, 2)), rng.normal(size=(80, 2))])  # 20 objects at one point
    labels = np.repeat([0, 1], [20, 80])
    with pytest.raises(ValueError, match="ill-defined empirical covariance"):
        fit_all(X, {2: [labels]}, reg_covar=0.0)
    ref = _FromLabels(n_components=2, covariance_type="full", reg_covar=0.0)
    ref.init_labels = [labels]
    with pytest.raises(ValueError, match="ill-defined empirical covariance"):
        ref.fit(X)


def test_log_likelihood_and_labels_are_the_gmm_costs():
    X = _data(10)
    init = {k: [sklearn_kmeans.fit(X, k, 1, 0)[1]] for k in (1, 4)}
    for fit in fit_all(X, init).values():
        np.testing.assert_allclose(-fit.log_likelihood,
                                   gmm.negative_log_likelihood(fit.solution, X), rtol=1e-12)
        np.testing.assert_array_equal(fit.labels,
                                      np.argmin(gmm.component_costs(fit.solution, X), axis=1))


@pytest.mark.parametrize("labels", [np.array([0, 1, 2, 1]), np.array([0, 1, 1]), []])
def test_refuses_labels_that_do_not_fit(labels):
    X = np.arange(8.0).reshape(4, 2)
    with pytest.raises(ValueError, match="labels"):
        fit_all(X, {2: [labels] if len(labels) else []})
