"""The rules for choosing k from the gap curve that R's ``cluster::maxSE`` offers
(Maechler et al., package cluster, ``clusGap``), with its names and SE.factor = 1. Each
reads Gap(k) and its standard error s_k over consecutive k; "f(k) ≥ f(k') − s_k'" is the
one-standard-error comparison of Tibshirani, Walther & Hastie (2001, JRSS B 63:411–423).
A curve with a NaN has no rule's answer (nan): the rules look at the whole curve."""

from __future__ import annotations

import numpy as np

METHODS = ("firstSEmax", "Tibs2001SEmax", "globalSEmax", "firstmax", "globalmax")


def _first_max(gap: np.ndarray) -> int:
    """Position of the first local maximum: the first j with Gap(k_{j+1}) ≤ Gap(k_j), the
    last position when Gap increases throughout."""
    stops = np.flatnonzero(np.diff(gap) <= 0)
    return int(stops[0]) if stops.size else gap.size - 1


def _leftmost_within_se(gap: np.ndarray, s: np.ndarray, at: int) -> int:
    """The first position j < ``at`` with Gap(k_j) ≥ Gap(k_at) − s_at, else ``at``."""
    hits = np.flatnonzero(gap[:at] >= gap[at] - s[at])
    return int(hits[0]) if hits.size else at


def choose(ks, gap, s, method: str = "firstSEmax") -> float:
    """The k that ``cluster::maxSE(gap, s, method)`` picks:

    - ``firstmax``: the first local maximum of Gap;
    - ``globalmax``: the global maximum (the first on ties);
    - ``Tibs2001SEmax``: the smallest k with Gap(k) ≥ Gap(k+1) − s_{k+1} (Tibshirani et al.
      2001, step 3), the largest k when none qualifies; as
      :func:`mtc_cli.core.criteria.gap_statistic.select_1se`;
    - ``firstSEmax`` (Maechler 2012, clusGap's default): the smallest k with
      Gap(k) ≥ Gap(k*) − s_{k*}, k* the first local maximum;
    - ``globalSEmax`` (what Dudoit & Fridlyand 2002 took Tibshirani's rule to be): the
      same with k* the global maximum.

    ``ks`` are consecutive and sorted; nan when the curve is empty or has a NaN."""
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; expected one of {', '.join(METHODS)}")
    ks = np.asarray(ks, dtype=np.float64)
    gap, s = np.asarray(gap, dtype=np.float64), np.asarray(s, dtype=np.float64)
    if not (ks.size == gap.size == s.size):
        raise ValueError(f"got {ks.size} ks, {gap.size} gaps and {s.size} standard errors")
    if ks.size == 0 or np.isnan(gap).any() or np.isnan(s).any():
        return np.nan
    if method == "firstmax":
        at = _first_max(gap)
    elif method == "globalmax":
        at = int(np.argmax(gap))
    elif method == "Tibs2001SEmax":
        hits = np.flatnonzero(gap[:-1] >= gap[1:] - s[1:])
        at = int(hits[0]) if hits.size else ks.size - 1
    elif method == "firstSEmax":
        at = _leftmost_within_se(gap, s, _first_max(gap))
    else:
        at = _leftmost_within_se(gap, s, int(np.argmax(gap)))
    return float(ks[at])
