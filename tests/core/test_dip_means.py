"""Dip-means' dip-dist criterion as a test of "no group structure"
(mtc_cli/core/criteria/dip_means.py): the viewers' dips against the dip of each viewer's
distances computed one by one, the answers on two groups and on one, the p-value of a
viewer whose distances are uniform (the dip test's own null), the rate of false "groups"
on one-group data, and determinism."""

from __future__ import annotations

import numpy as np
import pytest

from mtc_cli.core.criteria.dip import dip, null_survival
from mtc_cli.core.criteria.dip_means import dip_means_test, viewer_dips


def test_viewer_dips_are_the_dips_of_each_viewers_distances():
    X = np.random.default_rng(0).standard_normal((60, 3))
    viewers = [0, 7, 59]
    by_hand = [dip(np.linalg.norm(np.delete(X, i, axis=0) - X[i], axis=1)) for i in viewers]
    np.testing.assert_allclose(viewer_dips(X, viewers), by_hand, rtol=0, atol=1e-15)


def test_viewer_blocks_do_not_change_the_dips(monkeypatch):
    from mtc_cli.core.criteria import dip_means

    X = np.random.default_rng(8).standard_normal((200, 2))
    whole = viewer_dips(X, np.arange(0, 200, 3))
    monkeypatch.setattr(dip_means, "BLOCK", 450)  # two viewers (of 200 distances) a block
    np.testing.assert_array_equal(viewer_dips(X, np.arange(0, 200, 3)), whole)


def test_two_separated_groups_every_viewer_splits():
    """1-D groups 0..29 and 100..129: each viewer sees its own group's distances (0–29) and
    the other's (71–129), two modes far apart."""
    X = np.concatenate([np.arange(30.0), 100 + np.arange(30.0)])[:, None]
    e = dip_means_test(X, np.random.default_rng(1), k=2)
    assert e.statistic == 1.0 and not e.says_one and e.k == 2
    assert len(e.reference) == 60 and max(e.reference) < 1e-3


def test_one_gaussian_no_viewer_splits():
    X = np.random.default_rng(2).standard_normal((400, 2))
    e = dip_means_test(X, np.random.default_rng(3))
    assert e.statistic == 0.0 and e.says_one and len(e.reference) == 300
    assert e.level == 0.01 and np.isnan(e.p_value)


def test_a_viewer_with_uniform_distances_has_a_uniform_p_value():
    """A viewer at 0 with n − 1 = 199 uniforms on (0, 1): its distances are those uniforms,
    the dip test's least favourable null, so its p-value is uniform: p ≤ 0.05 on about 5 %
    of 400 draws (accepted 8–32: binomial(400, 0.05) has mean 20, sd 4.4)."""
    rng = np.random.default_rng(4)
    p = []
    for _ in range(400):
        X = np.concatenate([[0.0], rng.random(199)])[:, None]
        p.append(null_survival(199, float(viewer_dips(X, [0])[0])))
    assert 8 <= np.sum(np.asarray(p) <= 0.05) <= 32


def test_false_groups_rare_on_one_group_data():
    """100 one-group data sets (Gaussian, uniform square, Student t with 3 df; 200 points):
    dip-means finds groups in at most 5 of them."""
    rng = np.random.default_rng(5)
    draws = [lambda: rng.standard_normal((200, 2)), lambda: rng.random((200, 2)),
             lambda: rng.standard_t(3, (200, 2))]
    said = [dip_means_test(draws[i % 3](), rng).says_one for i in range(100)]
    assert sum(not s for s in said) <= 5


def test_deterministic_given_the_generator():
    X = np.random.default_rng(6).standard_normal((700, 4))
    a = dip_means_test(X, np.random.default_rng(7), max_viewers=50)
    b = dip_means_test(X, np.random.default_rng(7), max_viewers=50)
    assert a == b and len(a.reference) == 50


def test_needs_two_objects():
    with pytest.raises(ValueError, match="at least 2"):
        dip_means_test(np.zeros((1, 2)), np.random.default_rng(0))
