"""The GMM cost (eq. 6), parameter count and information criteria, checked against
scikit-learn and scipy as independent routes."""

import numpy as np
import pytest
from scipy.stats import multivariate_normal
from sklearn.mixture import GaussianMixture

from mtc_cli.core.criteria.information import aic, bic
from mtc_cli.core.criteria.transfer_cost import transfer_cost
from mtc_cli.core.models import gmm


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


@pytest.mark.parametrize("seed", range(4))
def test_batched_em_is_sklearns_em(seed):
    """The batched steps change only how the full-covariance EM is computed: the same
    iterations, parameters and labels as scikit-learn's GaussianMixture, up to rounding."""
    from mtc_cli.core.models.gmm_em import BatchedGaussianMixture

    rng = np.random.default_rng(seed)
    X = np.vstack([rng.normal(size=(150, 4)), rng.uniform(-3, 3, size=(150, 4))])
    ref = GaussianMixture(5, random_state=seed, max_iter=500).fit(X)
    ours = BatchedGaussianMixture(5, random_state=seed, max_iter=500).fit(X)
    assert ours.n_iter_ == ref.n_iter_
    for name in ("weights_", "means_", "covariances_", "precisions_cholesky_"):
        np.testing.assert_allclose(getattr(ours, name), getattr(ref, name), rtol=1e-9,
                                   atol=1e-12)
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))


def test_batched_steps_by_component_and_in_blocks(monkeypatch):
    """full_m_step and full_log_densities against one component at a time (numpy and scipy),
    and computed in blocks of one component equal to all at once."""
    from mtc_cli.core.models import gmm_steps

    rng = np.random.default_rng(3)
    X = rng.normal(size=(40, 3))
    resp = rng.dirichlet(np.ones(4), size=40)
    nk, means, covs, prec = gmm_steps.full_m_step(X, resp, 1e-6)
    for t in range(4):
        nt = resp[:, t].sum()
        mu = resp[:, t] @ X / nt
        cov = (resp[:, t, None] * (X - mu)).T @ (X - mu) / nt + 1e-6 * np.eye(3)
        np.testing.assert_allclose(means[t], mu, rtol=1e-12)
        np.testing.assert_allclose(covs[t], cov, rtol=1e-12)
        np.testing.assert_allclose(prec[t] @ prec[t].T, np.linalg.inv(cov), rtol=1e-9)
        np.testing.assert_allclose(gmm_steps.full_log_densities(X, means, prec)[:, t],
                                   multivariate_normal(mu, cov).logpdf(X), rtol=1e-10)
    np.testing.assert_allclose(nk, resp.sum(axis=0), rtol=1e-12)
    whole = gmm_steps.full_log_densities(X, means, prec)
    monkeypatch.setattr(gmm_steps, "_BLOCK", 1)
    np.testing.assert_array_equal(gmm_steps.full_m_step(X, resp, 1e-6)[2], covs)
    np.testing.assert_array_equal(gmm_steps.full_log_densities(X, means, prec), whole)


def test_batched_m_step_refuses_a_collapsed_component():
    from mtc_cli.core.models.gmm_steps import full_m_step

    X = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]])  # on a line: singular covariance
    with pytest.raises(ValueError, match="ill-defined empirical covariance"):
        full_m_step(X, np.ones((3, 1)), 0.0)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_batched_em_starts_from_sklearns_kmeans_labels(seed):
    """The k-means initialisation through mtc_cli.core.models.sklearn_kmeans: the responsibilities
    of every restart (the shared RandomState advanced alike) equal GaussianMixture's, whose
    KMeans runs in one thread as every task does."""
    from threadpoolctl import threadpool_limits

    from mtc_cli.core.models.gmm_em import BatchedGaussianMixture

    starts = {"ours": [], "ref": []}

    class Ours(BatchedGaussianMixture):
        def _initialize(self, X, resp, *args, **kwargs):
            starts["ours"].append(resp.copy())
            return super()._initialize(X, resp, *args, **kwargs)

    class Ref(GaussianMixture):
        def _initialize(self, X, resp, *args, **kwargs):
            starts["ref"].append(resp.copy())
            return super()._initialize(X, resp, *args, **kwargs)

    rng = np.random.default_rng(seed)
    X = rng.normal(size=(700, 3)) + rng.integers(4, size=(700, 1)) * 2.5
    with threadpool_limits(limits=1):
        ours = Ours(4 + seed, n_init=3, random_state=seed, max_iter=20).fit(X)
        ref = Ref(4 + seed, n_init=3, random_state=seed, max_iter=20).fit(X)
    assert len(starts["ours"]) == len(starts["ref"]) == 3
    for a, b in zip(starts["ours"], starts["ref"], strict=True):
        assert a.tobytes() == b.tobytes()
    assert len({a.tobytes() for a in starts["ours"]}) == 3      # the restarts differ
    np.testing.assert_allclose(ours.means_, ref.means_, rtol=1e-10, atol=1e-10)
