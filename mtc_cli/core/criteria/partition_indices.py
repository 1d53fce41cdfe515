"""Classical indices for the number of clusters k, each computed from a family of
partitions {k: labels} of one data set and each with its published rule for choosing k.

Definitions follow the original papers, cross-checked against NbClust (Charrad, Ghazzali,
Boiteau & Niknafs 2014, J. Stat. Softw. 61(6)); each docstring says where NbClust differs.

Conventions. ``partitions`` holds consecutive k = k_lo..k_hi; a partition at k that does not
have exactly k non-empty clusters (a fit that left a cluster empty) is not a k-partition, and
every value that uses it is NaN. So is a ratio with a zero denominator. Indices on pairwise
distances (Dunn, C-index, Gamma) use Euclidean distances on a uniform random sample of
``max_items`` objects, drawn with ``rng``, when n > ``max_items`` (:class:`PairSample`: drawn
once per call, or once for all three)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from mtc_cli.core.criteria.partition_index_table import TABLE

HARTIGAN_THRESHOLD = 10.0  # Hartigan (1975, p. 91): add a cluster while H(k) > 10
DUDA_HART_Z = 3.20  # NbClust's standard score (the best one in Milligan & Cooper 1985)
BEALE_ALPHA = 0.1  # NbClust's default alphaBeale


@dataclass(frozen=True)
class PartitionIndex:
    """One index: ``values(X, partitions, rng, max_items) -> {k: value}`` and its rule
    ``choose(ks, values) -> k`` (nan when nothing can be chosen); ``better``: which way its
    values are better (``"low"`` or ``"high"``)."""

    name: str
    k_min: int
    needs_next: bool
    optimises: str
    source: str
    better: str
    values: Callable
    choose: Callable
    #: its ``values`` read pairwise distances, and take the :class:`PairSample` of the
    #: partitions as ``pairs=`` (one sample shared by every such index)
    pairs: bool = False


# ---------------------------------------------------------------------------- helpers


def _partition(partitions: dict, k: int) -> np.ndarray | None:
    """Partition k relabelled 0..k−1 in order of first appearance of its objects (the
    numbering of R's ``cutree``), or None when absent or without exactly k non-empty
    clusters."""
    if k not in partitions:
        return None
    _, first, inverse = np.unique(np.asarray(partitions[k]).ravel(), return_index=True,
                                  return_inverse=True)
    if first.size != k:
        return None
    rank = np.empty(k, dtype=np.intp)
    rank[np.argsort(first)] = np.arange(k)
    return rank[inverse]


def _ratio(a: float, b: float) -> float:
    """a / b, NaN when b is 0 or either is NaN."""
    return float(a) / float(b) if b != 0 and not np.isnan(a) and not np.isnan(b) else np.nan


def _centroids(X: np.ndarray, labels: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Cluster sizes n_r and centroids c_r of the k clusters of ``labels`` (0..k−1). The
    sums add the rows in order, one ``bincount`` per feature (as ``np.add.at`` added them,
    in a third of its time on 100 000 × 20)."""
    counts = np.bincount(labels, minlength=k)
    sums = np.stack([np.bincount(labels, weights=column, minlength=k)
                     for column in np.asarray(X, dtype=np.float64).T], axis=1)
    return counts, sums / counts[:, None]


def _within_ss(X: np.ndarray, labels: np.ndarray | None) -> float:
    """W = Σ_r Σ_{i∈C_r} ‖x_i − c_r‖², the within-cluster sum of squares (NaN for None)."""
    if labels is None:
        return np.nan
    k = int(labels.max()) + 1
    _, centres = _centroids(X, labels, k)
    return float(((X - centres[labels]) ** 2).sum())


def _scatter(Y: np.ndarray) -> float:
    """Σ_i ‖y_i − ȳ‖², the sum of squares of the rows of Y about their mean."""
    return float(((Y - Y.mean(axis=0)) ** 2).sum())


def _within_curve(X: np.ndarray, partitions: dict) -> dict[int, float]:
    """{k: W_k} for every k in ``partitions``."""
    X = np.asarray(X, dtype=np.float64)
    return {k: _within_ss(X, _partition(partitions, k)) for k in sorted(partitions)}


class PairSample:
    """The pairs the indices on pairwise distances read, computed once for all of them:
    the Euclidean distances ``d`` of all pairs i < j of the objects (of a uniform sample of
    ``max_items`` objects without replacement, drawn with ``rng``, when n > ``max_items``),
    in ``pdist`` order; their distinct values in increasing order with each pair's level and
    each level's count (:attr:`levels`, as ``np.unique`` gives them) and ``d`` sorted
    (:attr:`ordered`); per k the same-cluster mask of the pairs (:meth:`same`, None without
    a k-partition)."""

    def __init__(self, X: np.ndarray, partitions: dict, rng: np.random.Generator,
                 max_items: int):
        from scipy.spatial.distance import pdist

        X = np.asarray(X, dtype=np.float64)
        n = X.shape[0]
        self.partitions = partitions
        self.keep = (np.sort(rng.choice(n, size=max_items, replace=False)) if n > max_items
                     else None)
        self.d = pdist(X if self.keep is None else X[self.keep])
        self._pairs = np.triu_indices(n if self.keep is None else max_items, 1)
        self._same: dict = {}

    def same(self, k: int) -> np.ndarray | None:
        if k not in self._same:
            labels = _partition(self.partitions, k)
            if labels is not None:
                if self.keep is not None:
                    labels = labels[self.keep]
                i, j = self._pairs
                labels = labels[i] == labels[j]
            self._same[k] = labels
        return self._same[k]

    @cached_property
    def levels(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return np.unique(self.d, return_inverse=True, return_counts=True)

    @cached_property
    def ordered(self) -> np.ndarray:
        """``d`` in increasing order: each distinct value as often as it occurs."""
        values, _, counts = self.levels
        return np.repeat(values, counts)


def _sorted(ks, values) -> tuple[np.ndarray, np.ndarray]:
    """ks and values as float arrays, sorted by k."""
    ks, values = np.asarray(ks, dtype=np.float64), np.asarray(values, dtype=np.float64)
    order = np.argsort(ks, kind="stable")
    return ks[order], values[order]


# ---------------------------------------------------------------------------- the rules


def choose_max(ks, values) -> float:
    """The k of the largest value, the smallest such k on ties; NaN values are ignored."""
    ks, values = _sorted(ks, values)
    ok = ~np.isnan(values)
    return float(ks[ok][np.argmax(values[ok])]) if ok.any() else np.nan


def choose_min(ks, values) -> float:
    """The k of the smallest value, the smallest such k on ties; NaN values are ignored."""
    return choose_max(ks, -np.asarray(values, dtype=np.float64))


def _first(ks, values, accept) -> float:
    """The smallest k whose (non-NaN) value is accepted, nan if none is."""
    ks, values = _sorted(ks, values)
    ok = ~np.isnan(values)
    hits = ks[ok][accept(values[ok])]
    return float(hits[0]) if hits.size else np.nan


def choose_knee(ks, values) -> float:
    """The knee of the convex, decreasing curve W(k) by Kneedle (Satopää, Albrecht, Irwin &
    Raghavan 2011, ICDCS Workshops 166–171) as ``kneed.KneeLocator(curve="convex",
    direction="decreasing")`` finds it with its defaults (S = 1, no smoothing, the first
    knee), over the k with a W value (:func:`kneedle`). nan when there is no knee (the
    difference curve never drops below the threshold after a local maximum, e.g. on a
    straight line), and when fewer than three values or a constant W leave no curve."""
    ks, values = _sorted(ks, values)
    ok = ~np.isnan(values)
    if ok.sum() < 3 or np.ptp(values[ok]) == 0:
        return np.nan
    return kneedle(ks[ok].astype(float), values[ok].astype(float))


def kneedle(x: np.ndarray, y: np.ndarray, sensitivity: float = 1.0) -> float:
    """Kneedle's knee of a convex decreasing curve y(x), x increasing: both normalised to
    [0, 1], the difference curve D = (1 − ŷ) − x̂, its local maxima and minima (``>=`` and
    ``<=`` both neighbours, an end compared with its one neighbour); from the first
    maximum on, a maximum sets the threshold D_max − S·mean(Δx̂) and a minimum disarms it;
    the knee is the x of the last maximum when the next D falls below an armed threshold
    (nan if it never does). The steps of ``kneed.KneeLocator``'s ``find_knee`` (kneed
    0.9, whose result a test compares; written out here because importing kneed, through
    scipy.signal and scipy.stats, takes over half a second of each ``mtc select``)."""
    xn = (x - x.min()) / (x.max() - x.min())
    yn = (y - y.min()) / (y.max() - y.min())
    d = (yn.max() - yn) - xn
    before, after = np.r_[d[:1], d[:-1]], np.r_[d[1:], d[-1:]]
    maxima = (d >= before) & (d >= after)
    minima = (d <= before) & (d <= after)
    if not maxima.any():
        return np.nan
    step = sensitivity * np.abs(np.diff(xn).mean())
    armed, threshold, at = True, 0.0, 0
    for i in range(int(np.argmax(maxima)), len(d) - 1):
        if maxima[i]:
            armed, threshold, at = True, d[i] - step, i
        if minima[i]:
            armed, threshold = False, 0.0
        if armed and d[i + 1] < threshold:
            return float(x[at])
    return np.nan


def choose_hartigan(ks, values) -> float:
    """Hartigan's (1975, p. 91) rule: the smallest k with H(k) ≤ 10, i.e. stop adding
    clusters at the first k where one more is not worth it; nan if H(k) > 10 throughout.
    NbClust differs: it takes the k with the largest |H(k) − H(k−1)|."""
    return _first(ks, values, lambda v: v <= HARTIGAN_THRESHOLD)


def choose_duda_hart(ks, values) -> float:
    """Duda & Hart's (1973) rule as NbClust applies it: the smallest k whose split is not
    significant, Je(2)/Je(1) ≥ the critical value, i.e. z(k) ≤ 3.20."""
    return _first(ks, values, lambda v: v <= DUDA_HART_Z)


def choose_beale(ks, values) -> float:
    """NbClust's rule for Beale's F: the smallest k whose split is not significant at
    α = 0.1, i.e. P(F ≥ F_obs) ≥ 0.1 (following Gordon 1999)."""
    return _first(ks, values, lambda v: v >= BEALE_ALPHA)


# ---------------------------------------------------------------------------- the indices


def knee_values(X, partitions, rng=None, max_items=2000) -> dict[int, float]:
    """W(k), the within-cluster sum of squares about the centroids, the curve whose knee
    :func:`choose_knee` finds (the 'elbow' of the k-means objective)."""
    return _within_curve(X, partitions)


def hartigan_values(X, partitions, rng=None, max_items=2000) -> dict[int, float]:
    """H(k) = (W_k / W_{k+1} − 1)(n − k − 1) (Hartigan 1975, Clustering Algorithms,
    ch. 4), for every k with a partition at k + 1. NbClust computes (n − k) instead of
    (n − k − 1): its factor uses the number of clusters of the partition at k − 1."""
    w = _within_curve(X, partitions)
    n = np.asarray(X).shape[0]
    return {k: (_ratio(w[k], w[k + 1]) - 1.0) * (n - k - 1) for k in w if k + 1 in w}


def krzanowski_lai_values(X, partitions, rng=None, max_items=2000) -> dict[int, float]:
    """KL(k) = |DIFF_k / DIFF_{k+1}|, DIFF_k = (k − 1)^{2/p} W_{k−1} − k^{2/p} W_k
    (Krzanowski & Lai 1988, Biometrics 44:23–34), p the number of variables, for k ≥ 2
    with partitions at k − 1 and k + 1. As NbClust."""
    w = _within_curve(X, partitions)
    p = np.asarray(X).shape[1]

    def diff(k):
        return (k - 1) ** (2 / p) * w[k - 1] - k ** (2 / p) * w[k]

    return {k: abs(_ratio(diff(k), diff(k + 1))) for k in w
            if k >= 2 and k - 1 in w and k + 1 in w}


def ratkowsky_lance_values(X, partitions, rng=None, max_items=2000) -> dict[int, float]:
    """RL(k) = c̄ / √k, c̄ the mean over the variables j of √(BGSS_j / TSS_j), BGSS_j and TSS_j
    the between-group and total sums of squares of variable j (Ratkowsky & Lance 1978,
    Aust. Comput. J. 10:115–117; NbClust's ``indice.ratkowsky``, the mean of the square
    roots). Constant variables (TSS_j = 0) are left out; RL(1) = 0."""
    X = np.asarray(X, dtype=np.float64)
    tss = ((X - X.mean(axis=0)) ** 2).sum(axis=0)
    varies = tss > 0

    def rl(k):
        labels = _partition(partitions, k)
        if labels is None or not varies.any():
            return np.nan
        counts, centres = _centroids(X, labels, k)
        bgss = (counts[:, None] * (centres - X.mean(axis=0)) ** 2).sum(axis=0)
        return float(np.sqrt(bgss[varies] / tss[varies]).mean() / np.sqrt(k))

    return {k: rl(k) for k in sorted(partitions)}


def dunn_values(X, partitions, rng, max_items=2000, pairs=None) -> dict[int, float]:
    """D(k) = min_{r≠s} min_{i∈C_r, j∈C_s} d(i, j) / max_r max_{i,j∈C_r} d(i, j), the
    smallest single-linkage distance between clusters over the largest cluster diameter
    (Dunn 1974, J. Cybern. 4:95–104; as NbClust's ``Index.dunn`` and clValid), Euclidean.
    NaN without two clusters or when every diameter is 0. ``pairs``: the
    :class:`PairSample` of X and ``partitions`` (drawn with ``rng`` if None)."""
    pairs = PairSample(X, partitions, rng, max_items) if pairs is None else pairs
    d, same = pairs.d, pairs.same

    def dunn(k):
        s = same(k)
        if s is None or s.all() or not s.any():
            return np.nan
        return _ratio(d[~s].min(), d[s].max())

    return {k: dunn(k) for k in sorted(partitions)}


def c_index_values(X, partitions, rng, max_items=2000, pairs=None) -> dict[int, float]:
    """C(k) = (S_w − S_min) / (S_max − S_min) (Hubert & Levin 1976, Psychol. Bull.
    83:1072–1080): S_w the sum of the N_w within-cluster pair distances, S_min (S_max) the
    sum of the N_w smallest (largest) of all pair distances. NbClust's ``Indice.cindex``
    differs: it uses N_w times the smallest (largest) within-cluster distance instead.
    ``pairs``: as :func:`dunn_values`."""
    pairs = PairSample(X, partitions, rng, max_items) if pairs is None else pairs
    d, same = pairs.d, pairs.same
    cumulative = np.concatenate([[0.0], np.cumsum(pairs.ordered)])

    def c_index(k):
        s = same(k)
        if s is None:
            return np.nan
        n_w = int(s.sum())
        s_min, s_max = cumulative[n_w], cumulative[-1] - cumulative[d.size - n_w]
        return _ratio(d[s].sum() - s_min, s_max - s_min)

    return {k: c_index(k) for k in sorted(partitions)}


def gamma_values(X, partitions, rng, max_items=2000, pairs=None) -> dict[int, float]:
    """Γ(k) = (s⁺ − s⁻) / (s⁺ + s⁻) (Baker & Hubert 1975, JASA 70:31–38), over all
    comparisons of a within-cluster with a between-cluster pair distance: s⁺ counts the
    concordant ones (within < between), s⁻ the discordant ones (within > between), ties
    count in neither. As NbClust's ``Index.sPlussMoins``. The distinct distances are
    sorted once (O(P log P)); per k, counting the within and between pairs at each distance
    gives s⁺ = Σ_v w_v · #(between > v) and s⁻ = Σ_v w_v · #(between < v) in O(P).
    ``pairs``: as :func:`dunn_values`."""
    pairs = PairSample(X, partitions, rng, max_items) if pairs is None else pairs
    same = pairs.same
    _, level, at_level = pairs.levels

    def gamma(k):
        s = same(k)
        if s is None:
            return np.nan
        within = np.bincount(level[s], minlength=at_level.size)
        between = at_level - within
        through = np.cumsum(between)  # between pairs at or below each distance
        s_plus = int(within @ (between.sum() - through))
        s_minus = int(within @ (through - between))
        return _ratio(s_plus - s_minus, s_plus + s_minus)

    return {k: gamma(k) for k in sorted(partitions)}


def _split(X: np.ndarray, partitions: dict, k: int):
    """The cluster of partition k tested for a split and the two clusters of partition k + 1
    it is compared with, by NbClust's label-size matching rule (``Indices.WKWL``): with both
    partitions numbered as ``cutree`` numbers them (first appearance), the parent is the
    first label g1 whose size differs between the two partitions, the children are label g1
    and the last label g2 of partition k + 1 whose size differs from that of label g2 − 1 of
    partition k. For nested partitions (hierarchical clustering) this finds the split
    cluster and its two halves; for non-nested ones (k-means) it is NbClust's convention.
    Returns (W_M, n_M, W_K + W_L) or None without both partitions."""
    parent, child = _partition(partitions, k), _partition(partitions, k + 1)
    if parent is None or child is None:
        return None
    sizes, child_sizes = np.bincount(parent, minlength=k), np.bincount(child, minlength=k + 1)
    g1 = int(np.flatnonzero(sizes != child_sizes[:k])[0])
    shifted = np.flatnonzero(child_sizes[1:] != sizes)
    g2 = int(shifted[-1]) + 1 if shifted.size else 0
    members = parent == g1
    return (_scatter(X[members]), int(members.sum()),
            _scatter(X[child == g1]) + _scatter(X[child == g2]))


def duda_hart_values(X, partitions, rng=None, max_items=2000) -> dict[int, float]:
    """z(k) = (1 − 2/(πp) − Je(2)/Je(1)) / √(2(1 − 8/(π²p)) / (n_M p)) (Duda & Hart 1973,
    Pattern Classification and Scene Analysis, ch. 6), Je(1) the sum of squares of the
    cluster M of partition k, Je(2) that of the two clusters of partition k + 1 compared
    with it (:func:`_split`), n_M the size of M, p the number of variables. z(k) ≤ 3.20 is
    NbClust's Je(2)/Je(1) ≥ 1 − 2/(πp) − 3.20 √(2(1 − 8/(π²p))/(n_M p)); the value is the
    standard score, not the ratio, so that the rule needs no n_M."""
    X = np.asarray(X, dtype=np.float64)
    p = X.shape[1]

    def z(k):
        split = _split(X, partitions, k)
        if split is None:
            return np.nan
        w_m, n_m, w_kl = split
        sd = np.sqrt(2.0 * (1.0 - 8.0 / (np.pi ** 2 * p)) / (n_m * p))
        return (1.0 - 2.0 / (np.pi * p) - _ratio(w_kl, w_m)) / sd

    return {k: z(k) for k in sorted(partitions) if k + 1 in partitions}


def beale_values(X, partitions, rng=None, max_items=2000) -> dict[int, float]:
    """P(F ≥ F_obs) for Beale's (1969, Bull. Int. Stat. Inst. 43(2):92–94; as in Gordon
    1999, Classification, 2nd ed.) F = [(Je(1) − Je(2)) / Je(2)] / [(n_M − 1)/(n_M − 2) ·
    2^{2/p} − 1] on F(p, (n_M − 2)p) degrees of freedom, for the same cluster M of
    partition k and pair of partition k + 1 as :func:`duda_hart_values`. NbClust's code
    puts the −1 inside the product, (n_M − 1)/(n_M − 2) · (2^{2/p} − 1), a denominator
    1/(n_M − 2) smaller. NaN when n_M ≤ 2."""
    from scipy.special import fdtrc

    X = np.asarray(X, dtype=np.float64)
    p = X.shape[1]

    def p_value(k):
        split = _split(X, partitions, k)
        if split is None or split[1] <= 2:
            return np.nan
        w_m, n_m, w_kl = split
        f = _ratio(w_m - w_kl, w_kl) / ((n_m - 1) / (n_m - 2) * 2 ** (2 / p) - 1)
        return float(fdtrc(p, (n_m - 2) * p, f))  # scipy.stats.f.sf's own function

    return {k: p_value(k) for k in sorted(partitions) if k + 1 in partitions}


#: the functions of each index of the table
_FUNCTIONS = {
    "knee": (knee_values, choose_knee),
    "hartigan": (hartigan_values, choose_hartigan),
    "krzanowski_lai": (krzanowski_lai_values, choose_max),
    "ratkowsky_lance": (ratkowsky_lance_values, choose_max),
    "dunn": (dunn_values, choose_max),
    "c_index": (c_index_values, choose_min),
    "gamma": (gamma_values, choose_max),
    "duda_hart": (duda_hart_values, choose_duda_hart),
    "beale": (beale_values, choose_beale),
}
INDICES: dict[str, PartitionIndex] = {
    name: PartitionIndex(name, *TABLE[name], *_FUNCTIONS[name],
                         pairs=name in ("dunn", "c_index", "gamma")) for name in TABLE}
