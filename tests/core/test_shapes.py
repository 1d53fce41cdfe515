"""The shape generators of the shapes league: sizes, labels, the known k, background
noise, the embedding, and their geometry where it is known exactly."""

from __future__ import annotations

import numpy as np
import pytest

from mtc_cli.core.datasets import shapes


@pytest.mark.parametrize("shape", list(shapes.SHAPES))
def test_every_shape_has_its_k_groups_and_n_points(shape):
    X, y = shapes.GENERATORS[shape](np.random.default_rng(0), 301)
    assert X.shape[0] == 301 and np.isfinite(X).all()
    assert len(np.unique(y)) == shapes.SHAPES[shape][0]


def test_rings_lie_at_their_radii():
    X, y = shapes.rings(np.random.default_rng(1), 3000)
    radius = np.linalg.norm(X, axis=1)
    for j in range(3):  # noise sd 0.08 around radius j + 1
        assert abs(np.median(radius[y == j]) - (j + 1)) < 0.02


def test_chain_links_interlock():
    """Each ring passes through the other's disc: ring 0 lies in z = 0 around the origin,
    ring 1 in y = 0 around (1, 0, 0), and ring 1 crosses z = 0 inside ring 0 (at x = 0)."""
    X, y = shapes.chainlink(np.random.default_rng(2), 4000)
    a, b = X[y == 0], X[y == 1]
    assert abs(a[:, 2].mean()) < 0.01 and abs(b[:, 1].mean()) < 0.01
    crossing = b[np.abs(b[:, 2]) < 0.05]
    assert (np.abs(crossing[:, 0]) < 0.3).any() and (np.abs(crossing[:, 0] - 2) < 0.3).any()


def test_background_noise_and_embedding():
    rng = np.random.default_rng(3)
    X, y = shapes.moons(rng, 400)
    Xn, yn = shapes.with_noise(rng, X, y)
    assert len(Xn) == 420 and (yn == -1).sum() == 20
    assert (Xn.min(axis=0) >= X.min(axis=0)).all() and (Xn.max(axis=0) <= X.max(axis=0)).all()
    E = shapes.embedded(rng, X)
    assert E.shape == (400, shapes.EMBED_DIMS)
    # a rotation keeps distances; the noise dimensions add little to them
    d0 = np.linalg.norm(X[:50, None] - X[None, :50], axis=2)
    d1 = np.linalg.norm(E[:50, None] - E[None, :50], axis=2)
    assert np.median(np.abs(d1 - d0)) < 0.1 * np.median(d0)


def test_designs_and_make_are_reproducible():
    designs = shapes.designs(200)
    assert len(designs) == len(shapes.SHAPES) * 4 and len({d["id"] for d in designs}) == 24
    d = next(x for x in designs if x["shape"] == "spirals" and x["noise"] and x["embedded"])
    X1, y1, k = shapes.make(d, 7)
    X2, _, _ = shapes.make(d, 7)
    assert k == 2 and X1.shape == (210, 10) and (y1 == -1).sum() == 10
    np.testing.assert_array_equal(X1, X2)
    assert not np.array_equal(X1, shapes.make(d, 8)[0])
