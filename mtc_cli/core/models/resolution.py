"""Which centroids are distinct at the resolution of a temperature: the count K̂ of the
wASC experiments (Buhmann, Chehreghani, Frank, Streich 2011, Sects. 4 and 6)."""

from __future__ import annotations

import numpy as np

from mtc_cli.core.models.annealing import distinct


def distinct_at(centroids: np.ndarray, T: float) -> np.ndarray:
    """Group labels 0..K̂−1 of the centroids (single linkage, numbered by first member):
    centroids with ‖μ_a − μ_b‖² ≤ 2T are indistinguishable at β = 1/T and count as one.

    Derivation. "β defines the resolution of the hypothesis class" (Sect. 2 of Buhmann et
    al. 2011), and "the computational temperature in Gibbs sampling is equivalent to the
    assumed width of the distributions" (Sect. 4.1): the Gibbs weight of eq. 14,
    exp(−β‖x − μ_k‖²) for the cost ε_ik = ‖x_i − μ_k‖² (eq. 10, Sect. 4.1), is an
    isotropic Gaussian kernel of variance s² = T/2 per coordinate. Two kernels of equal
    weight and s.d. s whose centres lie d apart form a single bump for d ≤ 2s and two
    for d > 2s (on the line through the centres the mixture's second derivative at the
    midpoint is ∝ d²/4 − s²), so two centroids are resolved at β = 1/T iff
    d² > 4s² = 2T: c = 2 in d² ≤ c·T. The model's own dynamics give the same bound: two
    equal point clusters at ±a on a line (d = 2a) have the fixed points
    y = a·tanh(2ay/T) of eq. 14's centroids ±y, and y ≠ 0 exists iff T < 2a² = d²/2 —
    the critical temperature 2·λ_max of a cluster (Rose 1998) with λ_max = d²/4 — so
    above T = d²/2 the annealed model cannot hold the two apart either. Limits: as
    T → 0 only coinciding centroids merge; for T ≥ max ‖μ_a − μ_b‖²/2 all merge.
    """
    if not T > 0:
        raise ValueError(f"need T > 0, got {T}")
    return distinct(centroids, float(np.sqrt(2.0 * T)))
