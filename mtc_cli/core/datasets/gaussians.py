"""Gaussian generators: isotropic mixtures drawn in generative pairs (Frank et al. 2011,
Sect. 7) and signal-plus-noise data for PCA (Hansen & Larsen 1996, Sect. 4.1)."""

from __future__ import annotations

import numpy as np


def mixture_pairs(rng: np.random.Generator, n: int, centres, sigmas,
                  weights=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Two sets X¹, X² of n points from an isotropic Gaussian mixture, drawn in pairs:
    x¹_i and x²_i come from the same component (the generative mapping ψ^G, eq. 5 of
    Frank et al. 2011, is then the identity). Component t has centre ``centres[t]`` and
    standard deviation ``sigmas[t]`` per dimension; labels are multinomial with ``weights``
    (default equal). Returns (X¹, X², labels).
    """
    labels = mixture_labels(rng, n, len(centres), weights)
    return (mixture_points(rng, labels, centres, sigmas),
            mixture_points(rng, labels, centres, sigmas), labels)


def mixture_labels(rng: np.random.Generator, n: int, k: int, weights=None) -> np.ndarray:
    """n component labels in 0..k−1, drawn with probabilities ``weights`` (default equal)."""
    w = np.full(k, 1.0 / k) if weights is None else np.asarray(weights, dtype=np.float64)
    if w.shape != (k,) or np.any(w < 0) or w.sum() <= 0:
        raise ValueError(f"weights must be {k} non-negative numbers with a positive sum, got {w}")
    return rng.choice(k, size=n, p=w / w.sum())


def mixture_points(rng: np.random.Generator, labels: np.ndarray, centres,
                   sigmas) -> np.ndarray:
    """One point per label: centre of the label's component plus isotropic Gaussian noise
    of that component's standard deviation."""
    c = np.asarray(centres, dtype=np.float64)
    s = np.broadcast_to(np.asarray(sigmas, dtype=np.float64), (len(c),))
    return c[labels] + s[labels, None] * rng.standard_normal((len(labels), c.shape[1]))


def signal_plus_noise(rng: np.random.Generator, n: int, basis: np.ndarray, signal_var: float,
                      noise_var: float) -> np.ndarray:
    """n vectors x = s + ν of Hansen & Larsen 1996, Sect. 4.1: s ~ N(0, signal_var·B Bᵀ)
    lives in the K₀-dimensional subspace spanned by the orthonormal columns of ``basis``
    (L × K₀), ν ~ N(0, noise_var·I_L) is isotropic white noise."""
    L, k0 = basis.shape
    s = np.sqrt(signal_var) * rng.standard_normal((n, k0)) @ basis.T
    return s + np.sqrt(noise_var) * rng.standard_normal((n, L))


def random_subspace(rng: np.random.Generator, L: int, k0: int) -> np.ndarray:
    """An L × K₀ matrix with orthonormal columns spanning a uniformly random subspace."""
    q, r = np.linalg.qr(rng.standard_normal((L, k0)))
    return q * np.sign(np.diag(r))
