"""Noisy signed graphs for correlation clustering (Frank, Chehreghani, Buhmann 2011, Sect. 6)."""

from __future__ import annotations

import numpy as np


def correlation_graph(rng: np.random.Generator, sizes=(300, 300, 300), q: float = 0.30,
                      p: float = 0.80) -> tuple[np.ndarray, np.ndarray]:
    """The graph of Sect. 6 of Frank et al. 2011, as a dense symmetric ±1 matrix.

    1. a perfect graph: +1 on intra-cluster edges, −1 on inter-cluster edges;
    2. each inter-cluster edge set to +1 with probability ``q`` (structure complexity);
    3. each edge replaced by a random weight (+1 or −1 with probability ½) with
       probability ``p`` (noise).

    Returns ``(X, labels)``: ``X`` is (N, N) int8, symmetric, with a zero diagonal (no
    self-edges); ``labels`` the true cluster of each node (nodes in blocks of ``sizes``).
    Every edge {i, j} is drawn once (upper triangle) and mirrored.
    """
    sizes = [int(s) for s in sizes]
    if not sizes or min(sizes) < 1:
        raise ValueError(f"sizes must be positive cluster sizes, got {sizes}")
    if not (0.0 <= q <= 1.0 and 0.0 <= p <= 1.0):
        raise ValueError(f"q and p must be probabilities, got q={q}, p={p}")
    labels = np.repeat(np.arange(len(sizes)), sizes)
    n = len(labels)
    same = labels[:, None] == labels[None, :]
    clean = np.where(same | (rng.random((n, n)) < q), 1, -1).astype(np.int8)
    noise = rng.random((n, n)) < p
    random_sign = np.where(rng.random((n, n)) < 0.5, 1, -1).astype(np.int8)
    X = np.triu(np.where(noise, random_sign, clean), k=1).astype(np.int8)
    return X + X.T, labels
