"""The toy data of Lange et al. (2002, Sect. 4, Fig. 1): Gaussian clouds with a
hierarchical structure, concentric rings, and interleaved spirals (an extra case).

Each generator returns (X, labels) with the component of every point; the points are
grouped by component (the order carries no information for the criteria, which resample).
"""

from __future__ import annotations

import numpy as np


def gaussian_clouds(rng: np.random.Generator, sizes, centres, sds) -> tuple[np.ndarray,
                                                                             np.ndarray]:
    """``sizes[t]`` points from an isotropic Gaussian with centre ``centres[t]`` and
    standard deviation ``sds[t]`` per dimension. Lange et al.'s "3 Gaussians": two small
    clouds close together and a larger one apart, so that k = 2 (the two small clouds
    merged) is fairly stable too."""
    c = np.asarray(centres, dtype=np.float64)
    n = np.asarray(sizes, dtype=np.intp)
    s = np.broadcast_to(np.asarray(sds, dtype=np.float64), n.shape)
    if c.ndim != 2 or len(c) != len(n) or np.any(n < 1) or np.any(s <= 0):
        raise ValueError(f"need one centre, size ≥ 1 and sd > 0 per cloud, got centres "
                         f"{c.shape}, sizes {n.tolist()}, sds {s.tolist()}")
    labels = np.repeat(np.arange(len(n)), n)
    return c[labels] + s[labels, None] * rng.standard_normal((len(labels), c.shape[1])), labels


def rings(rng: np.random.Generator, sizes, radii, noise: float) -> tuple[np.ndarray,
                                                                          np.ndarray]:
    """Concentric rings in the plane: ring t has ``sizes[t]`` points at uniform angles
    and radius ``radii[t]`` plus Gaussian radial noise of sd ``noise``. Lange et al.'s
    "3 rings"; sizes proportional to the radii keep the density along the rings equal."""
    n = np.asarray(sizes, dtype=np.intp)
    r = np.asarray(radii, dtype=np.float64)
    if n.shape != r.shape or np.any(n < 1) or np.any(r <= 0) or noise < 0:
        raise ValueError(f"need one size ≥ 1 and radius > 0 per ring and noise ≥ 0, got "
                         f"sizes {n.tolist()}, radii {r.tolist()}, noise {noise}")
    labels = np.repeat(np.arange(len(n)), n)
    angle = rng.uniform(0.0, 2.0 * np.pi, len(labels))
    radius = r[labels] + noise * rng.standard_normal(len(labels))
    return np.column_stack([radius * np.cos(angle), radius * np.sin(angle)]), labels


def spirals(rng: np.random.Generator, sizes, turns: float, noise: float) -> tuple[np.ndarray,
                                                                                   np.ndarray]:
    """Interleaved Archimedean spirals: arm t of ``len(sizes)`` has ``sizes[t]`` points at
    radius ρ = φ/(2π) for φ uniform in [π/2, π/2 + 2π·turns], rotated by 2πt/len(sizes),
    plus isotropic Gaussian noise of sd ``noise``. The arms are 1/len(sizes) apart along a
    ray; their points are denser near the centre."""
    n = np.asarray(sizes, dtype=np.intp)
    if np.any(n < 1) or turns <= 0 or noise < 0:
        raise ValueError(f"need sizes ≥ 1, turns > 0 and noise ≥ 0, got {n.tolist()}, "
                         f"{turns}, {noise}")
    labels = np.repeat(np.arange(len(n)), n)
    phi = rng.uniform(0.5 * np.pi, 0.5 * np.pi + 2.0 * np.pi * turns, len(labels))
    theta = phi + 2.0 * np.pi * labels / len(n)
    rho = phi / (2.0 * np.pi)
    X = np.column_stack([rho * np.cos(theta), rho * np.sin(theta)])
    return X + noise * rng.standard_normal(X.shape), labels
