"""The answer mtc ships (``answer_rule.csv``, chosen by the league of families), as a user
gets it from ``OrderSelector()`` with every default: "no group structure" only where there is
none — groups apart only along a low-variance direction, two concentric rings and a
symmetric arrangement of seven groups answered with their k, one Gaussian blob and a
uniform square answered 1 — and, where algorithms tie at the lowest normalised
instability, an answer that does not depend on the order of the roster."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import make_circles

from mtc_cli.selection import answer
from mtc_cli.selection.estimator import OrderSelector

pytestmark = pytest.mark.slow


def bands(seed: int) -> np.ndarray:
    """The review's D07c: x1 uniform on ±10, x2 = ±1.5 + N(0, 0.3), 200 rows per band."""
    rng = np.random.default_rng(seed)
    g = np.repeat([0, 1], 200)
    return np.c_[rng.uniform(-10, 10, 400), np.where(g, 1.5, -1.5) + rng.normal(0, 0.3, 400)]


def octahedron(seed: int) -> np.ndarray:
    """Seven well-separated Gaussian groups in 3-D with no good split in two: the six
    vertices of a regular octahedron (6 from the centre) and its centre, sd 0.6, 60 each."""
    rng = np.random.default_rng(seed)
    centres = np.r_[np.eye(3) * 6, -np.eye(3) * 6, np.zeros((1, 3))]
    return np.vstack([c + rng.normal(0, 0.6, (60, 3)) for c in centres])


#: where the shipped rule misses, measured and kept failing (strict): it has no test of
#: k = 1 (the league at k = 1..10 ranks it first), so one group is answered only where the
#: most stable algorithms vote 1 — on one Gaussian blob they vote 2.
MISSES = {"blob": "k = 2: the most stable algorithms vote 2 on one Gaussian blob, and the "
                  "shipped rule has no test of k = 1"}
CASES = ([(f"bands {s}", bands(s), 2) for s in range(4)]
         + [(f"rings {s}", make_circles(500, factor=0.5, noise=0.05, random_state=s)[0], 2)
            for s in range(4)]
         + [(f"octahedron {s}", octahedron(s), 7) for s in range(4)]
         + [("blob", np.random.default_rng(0).normal(size=(500, 4)), 1),
            ("square", np.random.default_rng(0).uniform(size=(500, 2)), 1)])
PARAMS = [pytest.param(*c, id=c[0], marks=[pytest.mark.xfail(strict=True, reason=MISSES[c[0]])]
                       if c[0] in MISSES else []) for c in CASES]


@pytest.mark.parametrize("name,X,k", PARAMS)
def test_the_shipped_answer(name, X, k):
    est = OrderSelector().fit(X)
    assert est.k_ == k, (name, est.answer_)
    if k == 1:  # one group names no algorithm
        assert est.answer_.model is None


def test_ties_do_not_depend_on_the_order_of_the_roster():
    """Seven groups every algorithm reproduces perfectly: the answer from the algorithms in
    the roster's order, reversed and shuffled is the same."""
    X = octahedron(1)
    est = OrderSelector().fit(X)
    fitted = est.selections_
    assert (est.auto_["min_stability"] == 0).sum() >= 3  # a tie at the lowest
    found = []
    for order in (list(fitted), list(reversed(fitted)),
                  list(np.random.default_rng(0).permutation(list(fitted)))):
        got = answer.find(
            X, {m: fitted[m].results_ for m in order},
            {m: fitted[m].summary_ for m in order}, {m: fitted[m].settings_ for m in order},
            auto_mode=True, curves={m: fitted[m].curves_ for m in order})[0]
        found.append((got.model, got.k))
    assert found[0] == found[1] == found[2] and found[0][1] == 7
