"""The dip-dist criterion of dip-means (A. Kalogeratos & A. Likas 2012, "Dip-means: an
incremental clustering method for estimating the number of clusters", NIPS 25, Sect. 3) as a
test of "no group structure": every object of a cluster, as a *viewer*, sees the
distribution of its distances to the other members; Hartigan & Hartigan's dip test
(:mod:`.dip`) asks whether that distribution is unimodal; the cluster is split-worthy when
the share of *split viewers* — those whose distances have a dip p-value below α — exceeds
v_thd. Applied to all the data as one cluster, "not split-worthy" says there is no group
structure (dip-means itself starts from one cluster and stops there).

Defaults: α = 10⁻³ and v_thd = 1 %. The authors' Matlab package calls a viewer a split viewer
when none of nboot = 1 000 dips of uniform samples is as large as its own (its
``pval_threshold`` 0 over 1 000 bootstrap samples, i.e. p < 10⁻³), and clustpy's port of
dip-means (C. Leiber) defaults to significance 0.001 and split_viewers_threshold 0.01; the
paper's own text was not at hand. Here the p-value is read from the simulated null table of
:mod:`.dip` (p < 10⁻³ is its exponential-tail extrapolation) instead of 1 000 bootstrap
dips per call. For cost, at most ``max_viewers`` viewers, drawn at random, each seeing all the
other objects: O(m·n·d) distances and m sorts of n values.
"""

from __future__ import annotations

import numpy as np
from scipy.spatial.distance import cdist

from mtc_cli.core.criteria.dip import _dip_of_sorted_rows, null_survival
from mtc_cli.core.criteria.one_group import Evidence

#: a viewer sees multimodality when its distances' dip p-value is below this
ALPHA = 1e-3
#: the data are split-worthy when more than this share of viewers sees multimodality
SPLIT_SHARE = 0.01
#: distances held at once (viewers are taken in blocks of BLOCK // n)
BLOCK = 2_000_000


def viewer_dips(X, viewers) -> np.ndarray:
    """The dip of each viewer's distances: for every index i of ``viewers``, Hartigan's dip
    of the Euclidean distances ‖x_i − x_j‖ to the n − 1 other rows j ≠ i of X (the
    viewer's own distance 0 left out), by :mod:`.dip`'s kernel, one sorted row per viewer,
    in blocks of viewers holding at most :data:`BLOCK` distances."""
    X = np.asarray(X, dtype=np.float64)
    viewers = np.asarray(viewers, dtype=np.intp)
    out = np.empty(len(viewers))
    step = max(1, BLOCK // len(X))
    for lo in range(0, len(viewers), step):
        rows = np.sort(cdist(X[viewers[lo:lo + step]], X), axis=1)[:, 1:]  # drop the viewer's 0
        _dip_of_sorted_rows(np.ascontiguousarray(rows), out[lo:lo + step])
    return out


def dip_means_test(X, rng: np.random.Generator, *, k: int = 1, alpha: float = ALPHA,
                   split_share: float = SPLIT_SHARE, max_viewers: int = 300) -> Evidence:
    """Dip-means' dip-dist criterion on all of X as one cluster: the p-value of each viewer's
    dip (:func:`viewer_dips`; :func:`mtc_cli.core.criteria.dip.null_survival` at n − 1
    distances), the share of viewers with p < ``alpha``, and no group structure iff that
    share is ≤ ``split_share`` (v_thd). Viewers: all objects, or ``max_viewers`` of them drawn
    from ``rng`` without replacement. The test does not depend on k̂ (``k`` is recorded
    only). ``reference``: the viewers' p-values."""
    X = np.asarray(X, dtype=np.float64)
    n = len(X)
    if n < 2:
        raise ValueError(f"dip-means needs at least 2 objects, got {n}")
    viewers = (np.arange(n) if n <= max_viewers
               else np.sort(rng.choice(n, size=max_viewers, replace=False)))
    p = np.array([null_survival(n - 1, d) for d in viewer_dips(X, viewers)])
    share = float(np.mean(p < alpha))
    return Evidence("dip_means", int(k), share, tuple(float(v) for v in p), np.nan,
                    float(split_share), bool(share <= split_share),
                    f"no group structure iff the share of {len(viewers)} viewers whose "
                    f"distances have a dip p < {alpha:g} is ≤ {split_share:g}")
