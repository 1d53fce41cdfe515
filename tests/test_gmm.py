"""The GMM cost (eq. 6), parameter count and information criteria, checked against
scikit-learn and scipy as independent routes."""

import numpy as np
import pytest
from scipy.stats import multivariate_normal
from sklearn.mixture import GaussianMixture

from mtc_cli.criteria.information import aic, bic
from mtc_cli.criteria.transfer_cost import transfer_cost
from mtc_cli.models import gmm


@pytest.fixture
def data():
    rng = np.random.default_rng(0)
    X, _ = gmm.sample(rng, 300, [[0, 0], [3, 0], [0, 3]], 0.7)
    return X


@pytest.mark.parametrize("cov", gmm.COVARIANCE_TYPES)
def test_nll_matches_sklearn_and_scipy(data, cov):
    sol = gmm.fit(data, 3, covariance_type=cov, n_init=1, random_state=1)
    ours = gmm.negative_log_likelihood(sol, data[:20])
    ref = GaussianMixture(3, covariance_type=cov, random_state=1).fit(data)
    np.testing.assert_allclose(ours, -ref.score_samples(data[:20]), rtol=1e-10)
    # brute force: the mixture density summed term by term with scipy
    dens = sum(w * multivariate_normal(m, c).pdf(data[:20])
               for w, m, c in zip(sol.weights, sol.means, sol.covariances, strict=True))
    np.testing.assert_allclose(ours, -np.log(dens), rtol=1e-10)


@pytest.mark.parametrize("cov", gmm.COVARIANCE_TYPES)
@pytest.mark.parametrize("k", [1, 4])
def test_parameter_count_and_criteria_match_sklearn(data, cov, k):
    ref = GaussianMixture(k, covariance_type=cov, random_state=2).fit(data)
    assert gmm.n_parameters(k, 2, cov) == ref._n_parameters()
    sol = gmm.fit(data, k, covariance_type=cov, n_init=1, random_state=2)
    nll = gmm.negative_log_likelihood(sol, data).sum()
    assert bic(nll, gmm.n_parameters(k, 2, cov), len(data)) == pytest.approx(ref.bic(data))
    assert aic(nll, gmm.n_parameters(k, 2, cov)) == pytest.approx(ref.aic(data))


def test_parameter_count_by_hand():
    # 3 components in 2-D, full: 2 weights + 6 mean coordinates + 3·3 covariance entries
    assert gmm.n_parameters(3, 2, "full") == 17
    assert gmm.n_parameters(1, 3, "spherical") == 0 + 3 + 1


def test_transfer_cost_eq3_by_hand():
    costs = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert transfer_cost(costs, np.array([2, 0])) == pytest.approx((3.0 + 4.0) / 2)
    assert transfer_cost(np.array([1.0, 3.0])) == 2.0
    with pytest.raises(ValueError):
        transfer_cost(costs)


def test_sample_uses_weights():
    X, labels = gmm.sample(np.random.default_rng(1), 20000, [[0.0], [10.0]], 1.0, [0.8, 0.2])
    assert abs(np.mean(labels == 0) - 0.8) < 0.02
    assert abs(X[labels == 1].mean() - 10.0) < 0.05
