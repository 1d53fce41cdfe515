"""Tests of "no group structure" at k̂ (mtc_cli/core/criteria/one_group.py): the one-group
reference data reproduce the data's covariance and principal-component box, the gap test on
curves worked out by hand, the Monte Carlo p-value of the stability test on given values, its
answers on two blobs and on one Gaussian, and its calibration on data drawn from its own
null."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from scipy.stats import multivariate_t

from mtc_cli.core.criteria import stability
from mtc_cli.core.criteria.one_group import (
    Evidence,
    fit_student_t,
    gap_at_k,
    gaussian_reference,
    pc_box_reference,
    principal_axes,
    stability_against_references,
    student_t_loglik,
    t_reference,
)
from mtc_cli.core.models import batched_kmeans


def kmeans_stability(splits: int = 3):
    """S(k)/S_perm(k) of k-means (nearest-centroid predictor) for every k of ``ks`` over
    ``splits`` random halves, as the selection computes it, from core functions only."""
    def curve(X, ks, rng):
        d, b = np.zeros(len(ks)), np.zeros(len(ks))
        for _ in range(splits):
            i1, i2 = stability.split_halves(len(X), rng)
            first = batched_kmeans.fit_all(X[i1], ks, 1, rng)
            second = batched_kmeans.fit_all(X[i2], ks, 1, rng)
            for j, k in enumerate(ks):
                centres, own = first[k][0], second[k][1]
                predicted = np.argmin(((X[i2, None, :] - centres[None]) ** 2).sum(-1), axis=1)
                d[j] += stability.disagreement(own, predicted)
                b[j] += stability.permuted_label_disagreement(own, predicted, rng, 5)
        return d / b
    return curve


def rotation(angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s], [s, c]])


def test_evidence_is_frozen():
    e = Evidence("t", 2, 0.1, (0.2,), 0.5, 0.05, True, "rule")
    with pytest.raises(dataclasses.FrozenInstanceError):
        e.k = 3


def test_principal_axes_reconstruct_the_data():
    X = np.random.default_rng(1).standard_normal((30, 4)) @ np.diag([3.0, 2.0, 1.0, 0.5])
    mean, Vt, scores = principal_axes(X)
    np.testing.assert_allclose(mean + scores @ Vt, X, atol=1e-12)
    np.testing.assert_allclose(Vt @ Vt.T, np.eye(4), atol=1e-12)


def test_gaussian_reference_has_the_data_covariance_on_average():
    rng = np.random.default_rng(2)
    X = rng.standard_normal((40, 3)) @ np.array([[2.0, 0.5, 0.0], [0.0, 1.0, 0.3],
                                                   [0.0, 0.0, 0.4]]) + [5.0, -1.0, 2.0]
    refs = [gaussian_reference(X, rng) for _ in range(3000)]
    mean_cov = np.mean([np.cov(R.T) for R in refs], axis=0)
    # E[sample covariance of a reference] = S exactly; 3 000 draws of 40 points: ~1 % error
    np.testing.assert_allclose(mean_cov, np.cov(X.T), atol=0.05 * np.abs(np.cov(X.T)).max())
    np.testing.assert_allclose(np.mean([R.mean(0) for R in refs], axis=0), X.mean(0),
                               atol=0.05)
    assert refs[0].shape == X.shape


def test_gaussian_reference_of_fewer_points_than_features_stays_in_their_span():
    rng = np.random.default_rng(3)
    X = rng.standard_normal((4, 10))
    R = gaussian_reference(X, rng) - X.mean(0)
    _, _, Vt = np.linalg.svd(X - X.mean(0), full_matrices=False)
    np.testing.assert_allclose(R @ Vt.T @ Vt, R, atol=1e-10)  # rank ≤ n − 1 = 3


def test_pc_box_reference_fills_the_rotated_rectangle():
    """A regular grid over the rectangle [−2, 2] × [−1, 1] (symmetric: its covariance is
    diagonal, its principal axes the rectangle's), rotated by 30° and shifted: the reference,
    taken back to those axes, is uniform on that rectangle — inside it, means 0, variances
    4²/12 and 2²/12."""
    rng = np.random.default_rng(4)
    u, v = np.meshgrid(np.linspace(-2, 2, 41), np.linspace(-1, 1, 21))
    R = rotation(np.pi / 6)
    X = np.column_stack([u.ravel(), v.ravel()]) @ R.T + [10.0, -3.0]
    _, Vt, scores = principal_axes(X)
    np.testing.assert_allclose(np.abs(Vt @ R), np.eye(2), atol=1e-12)
    np.testing.assert_allclose(np.sort(scores.max(0) - scores.min(0)), [2.0, 4.0])
    Z = np.vstack([pc_box_reference(X, rng) for _ in range(50)])
    local = np.abs((Z - X.mean(0)) @ R)  # coordinates along the rectangle's sides
    assert np.all(local <= [2.0 + 1e-9, 1.0 + 1e-9])
    np.testing.assert_allclose(((Z - X.mean(0)) @ R).mean(0), [0.0, 0.0], atol=0.03)
    np.testing.assert_allclose(((Z - X.mean(0)) @ R).var(0), [16 / 12, 4 / 12], rtol=0.03)


def test_student_t_loglik_is_scipys():
    rng = np.random.default_rng(10)
    Y, mu, S = rng.standard_normal((50, 3)), np.array([0.1, -0.2, 0.3]), np.diag([2.0, 1.0, .5])
    delta = np.einsum("ij,jk,ik->i", Y - mu, np.linalg.inv(S), Y - mu)
    assert student_t_loglik(delta, 4.5, 3, np.log(np.linalg.det(S))) == pytest.approx(
        multivariate_t(loc=mu, shape=S, df=4.5).logpdf(Y).sum(), rel=1e-12)


@pytest.mark.parametrize("nu", [2.0, 3.0])
def test_fit_student_t_recovers_the_parameters(nu):
    """4 000 draws of a bivariate t: ν within 15 %, μ and the scatter within 0.1."""
    S = np.array([[2.0, 0.6], [0.6, 1.0]])
    Y = multivariate_t(loc=[1.0, -1.0], shape=S, df=nu).rvs(4000, random_state=11)
    mu, Sh, nuh = fit_student_t(Y)
    assert nuh == pytest.approx(nu, rel=0.15)
    np.testing.assert_allclose(mu, [1.0, -1.0], atol=0.1)
    np.testing.assert_allclose(Sh, S, atol=0.15)


def test_fit_student_t_of_gaussian_data_has_many_degrees_of_freedom():
    assert fit_student_t(np.random.default_rng(12).standard_normal((2000, 3)))[2] > 30


def test_t_reference_has_the_datas_tails():
    """A t reference of t data (ν = 2.5, rotated, scaled) refitted gives about the same ν and
    covariance-free spread: the medians of the distances to the centre within 10 %."""
    rng = np.random.default_rng(13)
    X = multivariate_t(loc=[0, 0, 0], shape=np.diag([4.0, 1.0, 0.25]), df=2.5).rvs(
        3000, random_state=14)
    R = t_reference(X, rng)
    assert R.shape == X.shape
    assert fit_student_t(R)[2] == pytest.approx(fit_student_t(X)[2], rel=0.2)
    for j in range(3):
        assert np.median(np.abs(R[:, j] - np.median(R[:, j]))) == pytest.approx(
            np.median(np.abs(X[:, j] - np.median(X[:, j]))), rel=0.1)


def test_gap_at_k_on_curves_worked_out_by_hand():
    """Gap = mean reference log W − log W = [2.2, 1.8, 1.5] − [2.0, 1.5, 0.5] = [0.2, 0.3,
    1.0]; s(2) = s(3) = sd (divisor B = 2) 0.1 × √1.5 = 0.1225. At k̂ = 3: 0.8 > 0.1225,
    groups; at k̂ = 2: 0.1 ≤ 0.1225, no group structure."""
    ks, log_w = [1, 2, 3], [2.0, 1.5, 0.5]
    ref = [[2.1, 1.9, 1.6], [2.3, 1.7, 1.4]]
    at3 = gap_at_k(ks, log_w, ref, 3)
    assert at3.statistic == pytest.approx(0.8)
    assert at3.reference == pytest.approx((0.1 * np.sqrt(1.5),))
    assert not at3.says_one and at3.k == 3 and np.isnan(at3.p_value)
    at2 = gap_at_k(ks, log_w, ref, 2)
    assert at2.statistic == pytest.approx(0.1) and at2.says_one
    assert not gap_at_k(ks, log_w, ref, 2, se_factor=0.5).says_one
    with pytest.raises(ValueError, match="k = 1"):
        gap_at_k([2, 3], [1.5, 0.5], [[1.9, 1.6], [1.7, 1.4]], 3)


def test_stability_p_value_counts_references_at_least_as_stable():
    """Data 0.3, references 0.1, 0.5, 0.3, 0.9: two ≤ 0.3 (a tie counts), p = 3/5."""
    values = iter([0.3, 0.1, 0.5, 0.3, 0.9])
    (e,) = stability_against_references(np.eye(5), 2, lambda X, ks, rng: [next(values)],
                                        np.random.default_rng(0), references=("gaussian",),
                                        n_references=4, level=0.5)
    assert e.p_value == pytest.approx(0.6) and e.says_one and e.test == "stability_gaussian"
    assert e.statistic == 0.3 and e.reference == (0.1, 0.5, 0.3, 0.9)
    values = iter([0.0] + [0.2] * 4)
    (e,) = stability_against_references(np.eye(5), 2, lambda X, ks, rng: [next(values)],
                                        np.random.default_rng(0), references=("pc_box",),
                                        n_references=4, level=0.2)
    assert e.p_value == pytest.approx(0.2) and not e.says_one
    nan = iter([np.nan] + [0.2] * 8)
    both = stability_against_references(np.eye(5), 2, lambda X, ks, rng: [next(nan)],
                                        np.random.default_rng(0), n_references=4)
    assert [e.test for e in both] == ["stability_gaussian", "stability_pc_box"]
    assert all(np.isnan(e.p_value) and not e.says_one for e in both)
    with pytest.raises(ValueError, match="unknown references"):
        stability_against_references(np.eye(5), 2, lambda X, ks, rng: [0.0],
                                     np.random.default_rng(0), references=("uniform",))


def test_stability_data_statistic_computed_once_for_every_reference():
    """Data 0.3 (the first call only), then 2 gaussian references 0.1, 0.5 and 2 box
    references 0.4, 0.6: p = 2/3 and 1/3 against the same data value."""
    values = iter([0.3, 0.1, 0.5, 0.4, 0.6])
    g, b = stability_against_references(np.eye(5), 2, lambda X, ks, rng: [next(values)],
                                        np.random.default_rng(0), n_references=2, level=0.4)
    assert g.statistic == b.statistic == 0.3
    assert (g.reference, b.reference) == ((0.1, 0.5), (0.4, 0.6))
    assert g.p_value == pytest.approx(2 / 3) and g.says_one
    assert b.p_value == pytest.approx(1 / 3) and not b.says_one


def test_stability_over_ks_compares_each_data_sets_least_value():
    """Curves over k = 2, 3, 4: the data's least 0.2 (at 3), the references' 0.1, 0.3, 0.5:
    one ≤ 0.2, p = 2/4; at k̂ = 3 alone the references' 0.4, 0.3, 0.6 (none ≤ 0.2): p = 1/4."""
    curves = [[0.5, 0.2, 0.9], [0.1, 0.4, 0.8], [0.3, 0.3, 0.7], [0.9, 0.6, 0.5]]
    it = iter(curves)
    (e,) = stability_against_references(np.eye(5), 3, lambda X, ks, rng: next(it),
                                        np.random.default_rng(0), ks=[2, 3, 4],
                                        references=("t",), n_references=3)
    assert e.statistic == 0.2 and e.reference == (0.1, 0.3, 0.5) and e.p_value == 0.5
    it = iter([c[1:2] for c in curves])
    (e,) = stability_against_references(np.eye(5), 3, lambda X, ks, rng: next(it),
                                        np.random.default_rng(0), references=("t",),
                                        n_references=3)
    assert e.reference == (0.4, 0.3, 0.6) and e.p_value == 0.25
    with pytest.raises(ValueError, match="not among"):
        stability_against_references(np.eye(5), 5, lambda X, ks, rng: [0.0] * len(ks),
                                     np.random.default_rng(0), ks=[2, 3])


@pytest.mark.parametrize("reference", ["gaussian", "pc_box"])
def test_stability_two_blobs_at_the_minimum_one_gaussian_not(reference):
    rng = np.random.default_rng(5)
    blobs = np.vstack([rng.standard_normal((100, 2)), rng.standard_normal((100, 2)) + [8, 0]])
    (e,) = stability_against_references(blobs, 2, kmeans_stability(), rng,
                                        references=(reference,))
    assert e.statistic == 0.0 and e.p_value == pytest.approx(1 / 20) and not e.says_one
    one = rng.standard_normal((200, 2)) * [1.0, 0.9]
    (e,) = stability_against_references(one, 2, kmeans_stability(), rng,
                                        references=(reference,))
    assert e.p_value > 0.05 and e.says_one


def test_stability_test_is_deterministic_and_samples_above_max_items():
    X = np.random.default_rng(6).standard_normal((300, 3))
    seen = []

    def curve(Y, ks, rng):
        seen.append(len(Y))
        return kmeans_stability()(Y, ks, rng)

    a = stability_against_references(X, 3, curve, np.random.default_rng(7), n_references=5,
                                     max_items=120)
    b = stability_against_references(X, 3, kmeans_stability(), np.random.default_rng(7),
                                     n_references=5, max_items=120)
    assert a == b and seen == [120] * 11  # the data once, 5 references of each kind


@pytest.mark.parametrize("reference,draw", [
    ("gaussian", lambda rng: rng.standard_normal((60, 2)) * [2.0, 1.0]),
    pytest.param("t", lambda rng: multivariate_t(shape=[[4.0, 1.0], [1.0, 1.0]], df=3).rvs(
        60, random_state=rng), marks=pytest.mark.slow),  # 20 s: a t fit per reference
    ("pc_box", lambda rng: rng.uniform(0, 1, (60, 2)) * [2.0, 1.0] @ rotation(0.4).T)])
def test_stability_calibrated_under_its_own_null(reference, draw):
    """100 data sets drawn from the reference's own kind of distribution at k̂ = 2: p ≤ 0.05
    (the data more stable than all 19 references) about 1 in 20 (exchangeable but for the
    references' parameters being estimated); accepted 1–12 of 100 (binomial(100, 0.05):
    P(0) = 0.6 %, P(≥ 13) = 0.2 %); and the mean p near that of a uniform p on the grid
    j/20, j = 1..20: 0.525 ± 0.03 (accepted 0.45–0.60)."""
    rng = np.random.default_rng(8)
    p = np.array([stability_against_references(draw(rng), 2, kmeans_stability(2), rng,
                                               references=(reference,))[0].p_value
                  for _ in range(100)])
    assert 1 <= np.sum(p <= 0.05) <= 12
    assert 0.45 <= p.mean() <= 0.60
