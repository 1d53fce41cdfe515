"""Two-source Boolean data of the wASC model-selection experiment (Buhmann, Chehreghani,
Frank, Streich 2011, Sect. 5.3): deterministic Boolean sources, objects emitting the OR of
the sources of their assignment set, and a noise process that replaces a fraction ε of
the bits by random bits with P(1) = r (the generative model of eq. 16)."""

from __future__ import annotations

import numpy as np


def two_sources(rng: np.random.Generator, n_dims: int, distance: int, p_one: float = 0.5
                ) -> np.ndarray:
    """Two Boolean sources (2, D) at Hamming distance ``distance``: at ``distance`` random
    dimensions they differ (half of them only source 1 emits a 1, the rest only source 2,
    so that their OR differs from each), elsewhere they share random bits with
    P(1) = ``p_one``."""
    if not 2 <= distance <= n_dims:
        raise ValueError(f"need 2 <= distance <= n_dims, got {distance}, {n_dims}")
    common = rng.random(n_dims) < p_one
    U = np.stack([common, common])
    differ = rng.permutation(n_dims)[:distance]
    U[:, differ] = False
    U[0, differ[: distance // 2]] = True
    U[1, differ[distance // 2:]] = True
    return U


def sample(rng: np.random.Generator, profiles: np.ndarray, labels: np.ndarray,
           epsilon: float, r: float) -> np.ndarray:
    """x_i = the Boolean profile of object i's assignment set (``profiles[labels[i]]``),
    each bit replaced with probability ``epsilon`` by a random bit with P(1) = ``r``
    (eq. 16 of Buhmann et al. 2011). Boolean (n, D)."""
    X = np.asarray(profiles, dtype=bool)[labels]
    noisy = rng.random(X.shape) < epsilon
    return np.where(noisy, rng.random(X.shape) < r, X)


def set_profiles(U: np.ndarray, sets: np.ndarray) -> np.ndarray:
    """The structure of each assignment set: the OR of the Boolean sources ``U`` (K, D)
    that the set (a row of ``sets``, (L, K) Boolean) contains. (L, D)."""
    return (np.asarray(sets, dtype=np.float64) @ np.asarray(U, dtype=np.float64)) > 0
