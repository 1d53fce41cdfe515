"""Prediction strength (Tibshirani & Walther 2005, "Cluster validation by prediction
strength", JCGS 14:511–528): the worst-predicted test cluster's fraction of co-member pairs
that the training clustering's predictor also puts together; the selected k is the largest
whose strength reaches a threshold (0.8 in Lange et al. 2002)."""

from __future__ import annotations

import numpy as np

from mtc_cli.core.criteria.stability import contingency


def prediction_strength(own, predicted) -> float:
    """ps = min over test clusters A_j of (1/(n_j(n_j − 1))) Σ_{i ≠ i' ∈ A_j}
    1{φ(x_i) = φ(x_i')} (Tibshirani & Walther 2005, eq. 2.1), with ``own`` the test
    set's own clustering and ``predicted`` the labels of the training clustering's
    predictor. Counted from the contingency table: Σ_u n_ju(n_ju − 1) pairs of A_j are
    predicted together. Test clusters with fewer than two objects have no pairs and are
    skipped (ps = 1 when none is left)."""
    n = contingency(own, predicted).astype(np.float64)
    size = n.sum(axis=1)
    ok = size >= 2
    if not ok.any():
        return 1.0
    together = (n * (n - 1.0)).sum(axis=1)
    return float((together[ok] / (size[ok] * (size[ok] - 1.0))).min())


def select(ks, strengths, threshold: float = 0.8) -> int:
    """The largest k whose prediction strength is at least ``threshold`` (Tibshirani &
    Walther 2005, Sect. 3); k = 1 (strength 1 by definition) when no k ≥ 2 reaches it."""
    ok = [int(k) for k, s in zip(ks, strengths, strict=True) if k == 1 or s >= threshold]
    return max(ok, default=1)
