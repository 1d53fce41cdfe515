"""Data sets whose groups are not compact blobs, with a known number of groups: rings,
moons, spirals, interlocked chain links, anisotropic (sheared) blobs and groups of different
density — with and without background noise points, in their own 2 or 3 dimensions or
embedded in 10 by noise dimensions and a random rotation. For the shapes league
(``experiments/shapes_league/protocol.py``); every generator is ours (moons and blobs through
scikit-learn's ``make_moons``/``make_blobs``) and draws from the generator it is given.
"""

from __future__ import annotations

import zlib

import numpy as np

from mtc_cli.core.datasets.milligan_cooper import random_rotation

#: shape → (true k, what it is)
SHAPES = {
    "rings": (3, "three concentric rings of radii 1, 2, 3, noise sd 0.08"),
    "moons": (2, "two interleaving half circles (make_moons, noise 0.08)"),
    "spirals": (2, "two interleaved Archimedean spirals over 1.5 turns, noise sd 0.15"),
    "chainlink": (2, "two interlocked rings of radius 1 in 3-D, noise sd 0.08"),
    "anisotropic": (3, "three Gaussian blobs sheared by one linear map (make_blobs)"),
    "densities": (2, "two Gaussian groups of sd 0.3 and 1.5, centres 6 apart"),
}
#: share of background points (uniform in the bounding box, relative to the grouped ones)
NOISE_FRACTION = 0.05
#: the dimension of the embedded designs
EMBED_DIMS = 10
#: the noise dimensions' sd, relative to the mean sd of the shape's own coordinates
EMBED_NOISE = 0.1


def _sizes(n: int, k: int) -> np.ndarray:
    return np.array([n // k + (i < n % k) for i in range(k)])


def _seed(rng: np.random.Generator) -> int:
    return int(rng.integers(2**31 - 1))


def rings(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    parts, labels = [], []
    for j, m in enumerate(_sizes(n, 3)):
        t = rng.uniform(0, 2 * np.pi, m)
        parts.append(np.c_[(j + 1) * np.cos(t), (j + 1) * np.sin(t)])
        labels.append(np.full(m, j))
    X = np.vstack(parts)
    return X + rng.normal(0, 0.08, X.shape), np.concatenate(labels)


def moons(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    from sklearn.datasets import make_moons

    return make_moons(n, noise=0.08, random_state=_seed(rng))


def spirals(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    parts, labels = [], []
    for j, m in enumerate(_sizes(n, 2)):
        t = np.sqrt(rng.uniform(0.05, 1.0, m)) * 3 * np.pi  # 1.5 turns, even along the arc
        r = t / np.pi
        parts.append(np.c_[r * np.cos(t + j * np.pi), r * np.sin(t + j * np.pi)])
        labels.append(np.full(m, j))
    X = np.vstack(parts)
    return X + rng.normal(0, 0.15, X.shape), np.concatenate(labels)


def chainlink(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    m1, m2 = _sizes(n, 2)
    t1, t2 = rng.uniform(0, 2 * np.pi, m1), rng.uniform(0, 2 * np.pi, m2)
    a = np.c_[np.cos(t1), np.sin(t1), np.zeros(m1)]          # in the xy-plane, centre 0
    b = np.c_[1.0 + np.cos(t2), np.zeros(m2), np.sin(t2)]    # in the xz-plane, through 0
    X = np.vstack([a, b])
    return X + rng.normal(0, 0.08, X.shape), np.repeat([0, 1], [m1, m2])


def anisotropic(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    from sklearn.datasets import make_blobs

    X, y = make_blobs(n, 2, centers=3, random_state=_seed(rng))
    return X @ np.array([[0.6, -0.6], [-0.4, 0.8]]), y


def densities(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    m1, m2 = _sizes(n, 2)
    X = np.vstack([rng.normal(0, 0.3, (m1, 2)), rng.normal(0, 1.5, (m2, 2)) + [6.0, 0.0]])
    return X, np.repeat([0, 1], [m1, m2])


GENERATORS = {"rings": rings, "moons": moons, "spirals": spirals, "chainlink": chainlink,
              "anisotropic": anisotropic, "densities": densities}


def with_noise(rng: np.random.Generator, X: np.ndarray, labels: np.ndarray,
               fraction: float = NOISE_FRACTION) -> tuple[np.ndarray, np.ndarray]:
    """``fraction`` · n background points uniform in the bounding box, labelled −1."""
    m = int(round(fraction * len(X)))
    lo, hi = X.min(axis=0), X.max(axis=0)
    return (np.vstack([X, lo + (hi - lo) * rng.random((m, X.shape[1]))]),
            np.concatenate([labels, np.full(m, -1)]))


def embedded(rng: np.random.Generator, X: np.ndarray, dims: int = EMBED_DIMS,
             noise: float = EMBED_NOISE) -> np.ndarray:
    """X with ``dims − d`` noise dimensions appended (Gaussian, sd ``noise`` times the mean
    sd of X's coordinates), the whole randomly rotated."""
    extra = rng.normal(0, noise * float(X.std(axis=0).mean()), (len(X), dims - X.shape[1]))
    return np.hstack([X, extra]) @ random_rotation(rng, dims).T


def designs(n_points: int, reps: int = 1) -> list[dict]:
    """Every shape × background noise (none, :data:`NOISE_FRACTION`) × space (its own, or
    embedded in :data:`EMBED_DIMS`), each × reps, as JSON-able dicts with ``id``,
    ``family`` (``shapes``), ``shape``, ``noise``, ``embedded``, ``n_points``, ``true_k``."""
    return [{"id": f"{shape}{'-noise' if noise else ''}{'-d10' if emb else ''}-r{r}",
             "family": "shapes", "shape": shape, "noise": noise, "embedded": emb, "rep": r,
             "n_points": n_points, "true_k": SHAPES[shape][0]}
            for r in range(reps) for shape in SHAPES for noise in (False, True)
            for emb in (False, True)]


def make(design: dict, seed: int) -> tuple[np.ndarray, np.ndarray, int]:
    """(X, labels, true k) of a design of :func:`designs`, drawn with (seed, CRC-32 of its
    id). Background points carry label −1 and are added to the ``n_points``."""
    rng = np.random.default_rng([seed, zlib.crc32(design["id"].encode())])
    X, y = GENERATORS[design["shape"]](rng, int(design["n_points"]))
    if design["noise"]:
        X, y = with_noise(rng, X, y)
    if design["embedded"]:
        X = embedded(rng, X)
    return np.ascontiguousarray(X, dtype=np.float64), y, int(design["true_k"])
