"""Simulated data sets with a known number of groups for a league table of the
number-of-clusters criteria, in the style of Milligan & Cooper (1985), "An examination of
procedures for determining the number of clusters in a data set", Psychometrika 50:159–179.

Milligan's generator (Milligan 1985, "An algorithm for generating artificial test clusters",
Psychometrika 50:123–127), as read from a port of his FORTRAN program (Displayr/flipCluster,
``R/simulateclusters.R``, whose variable names, DENSITY table and ``CONTINUE`` labels are the
FORTRAN's), for k clusters in d dimensions:

* the length of cluster c on dimension j is drawn uniformly from [10, 40]
  (``LENGTH_RANGE``); the cluster's standard deviation there is length/3, so its boundaries
  are its mean ± 1.5 standard deviations (``BOUNDARY_SDS``) and its mean is the midpoint;
* dimension 1: the clusters are laid side by side in a random order, starting at 0, without
  overlap; the gap between two neighbours is U(0.25, 0.75) (``GAP_FACTOR_RANGE``) times the
  sum of their two standard deviations on that dimension;
* every other dimension: each cluster's lower boundary is drawn uniformly from
  [0, 0.67·U] (``OTHER_DIMS_SPAN``), U the upper boundary of the last cluster on dimension 1;
  clusters may overlap there;
* the points of a cluster are drawn independently on each dimension from the normal of the
  cluster's mean and standard deviation truncated to its boundaries;
* three patterns of cluster sizes: equal; one cluster with 10 % of the points and the rest
  equal; one cluster with 60 % and the rest equal (Milligan's table for 50 points,
  e.g. 16/17/17, 5/22/23, 30/10/10, is what :func:`cluster_sizes` gives for n = 50);
* Milligan & Cooper's 108 error-free data sets: k ∈ {2, 3, 4, 5} × d ∈ {4, 6, 8} × the three
  size patterns × 3 replications, 50 points each.

Ours, not Milligan's (his error options could not be read in the sources at hand; the
abstract of Milligan 1985 only says "a number of methods for introducing error"):

* ``n_points`` is 200 by default, not 50, so that a criterion that splits the data in halves
  has 100 points per half; the rows are shuffled (the port returns them by cluster), and
  label 0 is the cluster that gets 10 % or 60 % of the points.
* error perturbation (:func:`perturb`): Milligan (1980, Psychometrika 45:325–342) hid the
  structure with six kinds of error, error-perturbed *distances* among them (title and
  abstract only were available here). We perturb the *coordinates* instead: independent
  N(0, (level·s_j)²) noise on each dimension j, s_j the pooled within-cluster standard
  deviation of dimension j; ``PERTURB_LEVEL`` = 1.0, so each cluster's variance doubles
  (the clusters stay distinct: a supervised QDA still classifies ≥ 95 % of the points).
* outliers (:func:`add_outliers`): ``OUTLIER_FRACTION`` = 0.2, counted relative to the
  clustered points ("20 % additional points"; Qiu & Joe's clusterGeneration counts its ratio
  the same way, round(ratio·N), N the non-outliers). Each outlier belongs to a cluster
  (allotted in proportion to the cluster sizes) and is drawn from the normal with the
  cluster's centre and ``OUTLIER_SD_FACTOR`` = 3 times its standard deviation (variance × 9,
  after the default of the clusgen reimplementation's option
  ``--multiply-variances-for-outliers-by``, http://clusutils.sourceforge.net), redrawn until
  it lies outside every cluster's box. Outliers carry label −1; the true number of clusters
  stays k. In :func:`make` the clustered points are fewer, so that clustered and outlying
  points together are still ``n_points`` rows.
* the families beyond Milligan & Cooper: null data sets (one cluster: uniform on the unit
  cube, or a standard normal), elongated clusters (parallel Gaussian bars, sd ratio 10,
  randomly rotated) and spherical Gaussian clusters whose standard deviations differ up to
  5-fold.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

import numpy as np

SIZES = ("equal", "one_10pct", "one_60pct")
ERRORS = ("none", "perturbed", "outliers")
FAMILIES = ("milligan_cooper", "one_cluster", "elongated", "unequal_variance")

# Milligan (1985), confirmed in the port of his program.
LENGTH_RANGE = (10.0, 40.0)        # length of a cluster on a dimension, uniform
BOUNDARY_SDS = 1.5                 # boundaries at mean ± 1.5 sd, i.e. sd = length / 3
GAP_FACTOR_RANGE = (0.25, 0.75)    # gap on dimension 1 / (sum of the neighbours' sds)
OTHER_DIMS_SPAN = 0.67             # lower boundaries elsewhere ~ U(0, 0.67 · end of dim 1)
SPECIAL_SHARE = {"one_10pct": 0.10, "one_60pct": 0.60}
MC_CLUSTERS = (2, 3, 4, 5)
MC_DIMS = (4, 6, 8)

# Ours.
N_POINTS = 200
PERTURB_LEVEL = 1.0                # error sd / pooled within-cluster sd, per dimension
OUTLIER_FRACTION = 0.2             # outliers / clustered points
OUTLIER_SD_FACTOR = 3.0            # outlier sd / cluster sd (variance × 9)
NULL_DISTRIBUTIONS = ("uniform", "gaussian")
NULL_DIMS = (4, 6, 8)
SHAPE_CLUSTERS = (2, 3, 4)         # elongated and unequal_variance
SHAPE_DIMS = (2, 4)
ELONG_LONG_SD = 5.0                # sd along the bars
ELONG_SHORT_SD = 0.5               # sd across them (ratio 10)
ELONG_SPACING = 8.0                # distance between neighbouring bars = 16 short sds
ELONG_SHIFT = 2.5                  # bars shifted along their axis by U(−2.5, 2.5)
UNEQ_SD_RATIO = 5.0                # largest / smallest sd; sds geometric in between
UNEQ_SEPARATION = 4.0              # ‖c_i − c_j‖ ≥ 4 (sd_i + sd_j)


@dataclass(frozen=True)
class MilliganLayout:
    """The boxes of Milligan's clusters: ``lower``/``upper`` are (k, d) boundaries,
    ``order`` the clusters from left to right on dimension 1, ``gap_factors`` the k − 1
    factors U(0.25, 0.75) of the gaps between neighbours there."""

    lower: np.ndarray
    upper: np.ndarray
    order: np.ndarray
    gap_factors: np.ndarray

    @property
    def mean(self) -> np.ndarray:
        return (self.lower + self.upper) / 2

    @property
    def sd(self) -> np.ndarray:
        return (self.upper - self.lower) / (2 * BOUNDARY_SDS)


def _round_half_up(x: float) -> int:
    return int(np.floor(x + 0.5))


def _split_equally(n: int, k: int) -> list[int]:
    q, r = divmod(n, k)
    return [q] * (k - r) + [q + 1] * r  # the larger ones last, as in Milligan's table


def cluster_sizes(n_points: int, n_clusters: int, sizes: str = "equal") -> np.ndarray:
    """Cluster sizes of one of the ``SIZES`` patterns: all as equal as possible, or cluster 0
    with round(10 %) or round(60 %) of the points and the others as equal as possible."""
    if sizes not in SIZES:
        raise ValueError(f"sizes must be one of {SIZES}, got {sizes!r}")
    if n_clusters < 1:
        raise ValueError(f"n_clusters must be at least 1, got {n_clusters}")
    if sizes == "equal":
        out = _split_equally(n_points, n_clusters)
    else:
        if n_clusters < 2:
            raise ValueError(f"sizes={sizes!r} needs at least 2 clusters")
        special = _round_half_up(SPECIAL_SHARE[sizes] * n_points)
        out = [special] + _split_equally(n_points - special, n_clusters - 1)
    if min(out) < 1:
        raise ValueError(f"{n_points} points are too few for {n_clusters} clusters ({sizes})")
    return np.array(out, dtype=np.int64)


def milligan_layout(rng: np.random.Generator, n_clusters: int, n_dims: int) -> MilliganLayout:
    """The cluster boxes of Milligan's (1985) algorithm (see the module docstring)."""
    if n_clusters < 1 or n_dims < 1:
        raise ValueError(f"need n_clusters ≥ 1 and n_dims ≥ 1, got {n_clusters}, {n_dims}")
    k, d = n_clusters, n_dims
    length = rng.uniform(*LENGTH_RANGE, size=(k, d))
    sd = length / (2 * BOUNDARY_SDS)
    lower = np.empty((k, d))
    order = rng.permutation(k)
    gap_factors = rng.uniform(*GAP_FACTOR_RANGE, size=k - 1)
    left = 0.0
    for p, c in enumerate(order):
        lower[c, 0] = left
        if p < k - 1:
            left += length[c, 0] + gap_factors[p] * (sd[c, 0] + sd[order[p + 1], 0])
    end = lower[order[-1], 0] + length[order[-1], 0]
    if d > 1:
        lower[:, 1:] = rng.uniform(0.0, OTHER_DIMS_SPAN * end, size=(k, d - 1))
    return MilliganLayout(lower=lower, upper=lower + length, order=order,
                          gap_factors=gap_factors)


def _truncated_standard_normal(rng: np.random.Generator, shape, bound: float) -> np.ndarray:
    """Standard normals truncated to [−bound, bound], by rejection."""
    z = rng.standard_normal(shape)
    bad = np.abs(z) > bound
    while bad.any():
        z[bad] = rng.standard_normal(int(bad.sum()))
        bad = np.abs(z) > bound
    return z


def sample_layout(rng: np.random.Generator, layout: MilliganLayout,
                  counts) -> tuple[np.ndarray, np.ndarray]:
    """``counts[c]`` points of each cluster, from the normal truncated to its box; rows are
    shuffled. Returns (X, labels)."""
    counts = np.asarray(counts, dtype=np.int64)
    labels = rng.permutation(np.repeat(np.arange(len(counts)), counts))
    z = _truncated_standard_normal(rng, (len(labels), layout.lower.shape[1]), BOUNDARY_SDS)
    X = layout.mean[labels] + layout.sd[labels] * z
    # clip away the rounding of mean ± 1.5 sd, so that every point is inside its box exactly
    return np.clip(X, layout.lower[labels], layout.upper[labels]), labels


def milligan_clusters(rng: np.random.Generator, n_clusters: int, n_dims: int,
                      n_points: int = N_POINTS, sizes: str = "equal",
                      return_layout: bool = False):
    """X (n_points, n_dims) and labels 0..k−1 from Milligan's (1985) algorithm; with
    ``return_layout`` also the :class:`MilliganLayout` (the clusters' boxes)."""
    counts = cluster_sizes(n_points, n_clusters, sizes)
    layout = milligan_layout(rng, n_clusters, n_dims)
    X, labels = sample_layout(rng, layout, counts)
    return (X, labels, layout) if return_layout else (X, labels)


def pooled_within_sd(X: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Per dimension, the pooled within-cluster standard deviation (rows labelled −1 are
    left out): sqrt(Σ_c Σ_{i∈c} (x_ij − m_cj)² / (n − k))."""
    X = np.asarray(X, dtype=np.float64)
    labels = np.asarray(labels)
    keep = labels >= 0
    Xk, yk = X[keep], labels[keep]
    groups = np.unique(yk)
    if len(yk) <= len(groups):
        raise ValueError("need more points than clusters to pool the within-cluster sd")
    ss = sum(((Xk[yk == g] - Xk[yk == g].mean(axis=0)) ** 2).sum(axis=0) for g in groups)
    return np.sqrt(ss / (len(yk) - len(groups)))


def perturb(rng: np.random.Generator, X: np.ndarray, labels: np.ndarray,
            level: float = PERTURB_LEVEL) -> np.ndarray:
    """Error perturbation of the coordinates (ours): X + E, E_ij ~ N(0, (level·s_j)²),
    s_j the pooled within-cluster sd of dimension j. The labels are unchanged."""
    if level < 0:
        raise ValueError(f"level must be non-negative, got {level}")
    X = np.asarray(X, dtype=np.float64)
    s = level * pooled_within_sd(X, labels)
    return X + s * rng.standard_normal(X.shape)


def _allot(n: int, weights: np.ndarray) -> np.ndarray:
    """n split in proportion to ``weights`` by largest remainders."""
    exact = n * weights / weights.sum()
    out = np.floor(exact).astype(np.int64)
    rest = n - int(out.sum())
    out[np.argsort(-(exact - out), kind="stable")[:rest]] += 1
    return out


def add_outliers(rng: np.random.Generator, X: np.ndarray, labels: np.ndarray,
                 fraction: float = OUTLIER_FRACTION, n_outliers: int | None = None,
                 boxes: tuple[np.ndarray, np.ndarray] | None = None
                 ) -> tuple[np.ndarray, np.ndarray]:
    """X with round(fraction · len(X)) outliers (or ``n_outliers``) added, rows shuffled;
    outliers get label −1. Cluster c's box is ``boxes = (lower, upper)`` row c (e.g. a
    :class:`MilliganLayout`'s), by default the range of its points; its sd is taken as
    box width / 3. Each outlier is allotted to a cluster in proportion to the cluster sizes,
    drawn from N(box centre, (OUTLIER_SD_FACTOR · sd)²) per dimension and redrawn until it
    lies outside every cluster's box."""
    X = np.asarray(X, dtype=np.float64)
    labels = np.asarray(labels, dtype=np.int64)
    if n_outliers is None:
        if fraction < 0:
            raise ValueError(f"fraction must be non-negative, got {fraction}")
        n_outliers = _round_half_up(fraction * len(X))
    groups = np.unique(labels[labels >= 0])
    if boxes is None:
        lower = np.array([X[labels == g].min(axis=0) for g in groups])
        upper = np.array([X[labels == g].max(axis=0) for g in groups])
    else:
        lower, upper = (np.asarray(b, dtype=np.float64)[groups] for b in boxes)
    centre, sd = (lower + upper) / 2, (upper - lower) / (2 * BOUNDARY_SDS)
    per = _allot(n_outliers, np.array([(labels == g).sum() for g in groups], dtype=float))
    owner = np.repeat(np.arange(len(groups)), per)
    out = np.empty((n_outliers, X.shape[1]))
    todo, tries = np.arange(n_outliers), 0
    while len(todo):
        tries += 1
        if tries > 10_000:
            raise RuntimeError("could not place the outliers outside the clusters' boxes")
        c = owner[todo]
        cand = centre[c] + OUTLIER_SD_FACTOR * sd[c] * rng.standard_normal(
            (len(todo), X.shape[1]))
        within = (cand[:, None, :] >= lower) & (cand[:, None, :] <= upper)
        inside = within.all(axis=2).any(axis=1)
        out[todo[~inside]] = cand[~inside]
        todo = todo[inside]
    X2 = np.vstack([X, out])
    y2 = np.concatenate([labels, np.full(n_outliers, -1, dtype=np.int64)])
    perm = rng.permutation(len(X2))
    return X2[perm], y2[perm]


def null_uniform(rng: np.random.Generator, n_dims: int,
                 n_points: int = N_POINTS) -> tuple[np.ndarray, np.ndarray]:
    """One cluster: uniform on the unit cube [0, 1]^d. Returns (X, labels = 0)."""
    return rng.uniform(size=(n_points, n_dims)), np.zeros(n_points, dtype=np.int64)


def null_gaussian(rng: np.random.Generator, n_dims: int,
                  n_points: int = N_POINTS) -> tuple[np.ndarray, np.ndarray]:
    """One cluster: standard normal N(0, I_d). Returns (X, labels = 0)."""
    return rng.standard_normal((n_points, n_dims)), np.zeros(n_points, dtype=np.int64)


def random_rotation(rng: np.random.Generator, d: int) -> np.ndarray:
    """A uniformly random d × d orthogonal matrix."""
    q, r = np.linalg.qr(rng.standard_normal((d, d)))
    return q * np.sign(np.diag(r))


def _equal_labels(rng: np.random.Generator, n_points: int, k: int) -> np.ndarray:
    return rng.permutation(np.repeat(np.arange(k), cluster_sizes(n_points, k, "equal")))


def elongated(rng: np.random.Generator, n_clusters: int, n_dims: int,
              n_points: int = N_POINTS) -> tuple[np.ndarray, np.ndarray]:
    """Parallel elongated Gaussian clusters (ours): sd ``ELONG_LONG_SD`` along axis 0 and
    ``ELONG_SHORT_SD`` on every other axis, bar centres ``ELONG_SPACING`` apart along axis 1
    and shifted by U(±``ELONG_SHIFT``) along axis 0; the whole set is then randomly rotated.
    Sizes as equal as possible. Returns (X, labels)."""
    if n_dims < 2:
        raise ValueError(f"elongated clusters need n_dims ≥ 2, got {n_dims}")
    k = n_clusters
    labels = _equal_labels(rng, n_points, k)
    centres = np.zeros((k, n_dims))
    centres[:, 0] = rng.uniform(-ELONG_SHIFT, ELONG_SHIFT, size=k)
    centres[:, 1] = (np.arange(k) - (k - 1) / 2) * ELONG_SPACING
    sd = np.full(n_dims, ELONG_SHORT_SD)
    sd[0] = ELONG_LONG_SD
    X = centres[labels] + sd * rng.standard_normal((n_points, n_dims))
    return X @ random_rotation(rng, n_dims).T, labels


def unequal_variance(rng: np.random.Generator, n_clusters: int, n_dims: int,
                     n_points: int = N_POINTS) -> tuple[np.ndarray, np.ndarray]:
    """Spherical Gaussian clusters (ours) with sds geometric from 1 to ``UNEQ_SD_RATIO``
    (in random order) and centres at least ``UNEQ_SEPARATION`` · (sd_i + sd_j) apart, placed
    at random in a cube. Sizes as equal as possible. Returns (X, labels)."""
    k = n_clusters
    sds = rng.permutation(np.geomspace(1.0, UNEQ_SD_RATIO, k))
    side = UNEQ_SEPARATION * sds.sum()
    while True:
        centres = np.zeros((k, n_dims))
        for c in range(k):
            for _ in range(1000):
                cand = rng.uniform(0.0, side, size=n_dims)
                dist = np.linalg.norm(centres[:c] - cand, axis=1)
                if np.all(dist >= UNEQ_SEPARATION * (sds[:c] + sds[c])):
                    centres[c] = cand
                    break
            else:
                break
        else:
            break
        side *= 1.25  # too crowded: enlarge the cube and start again
    labels = _equal_labels(rng, n_points, k)
    return centres[labels] + sds[labels, None] * rng.standard_normal((n_points, n_dims)), labels


def designs(reps: int = 1, n_points: int = N_POINTS) -> list[dict]:
    """Every design of the league table, as plain JSON-able dicts with ``id``, ``family``,
    the parameters and ``true_k``: Milligan–Cooper (k × dims × SIZES × ERRORS), null
    (uniform/gaussian × dims), elongated and unequal_variance (k × dims), each × reps.
    ``rep`` only tells replications apart; the data come from the rng given to :func:`make`
    (see :func:`design_rng`)."""
    out: list[dict] = []
    for r in range(reps):
        for k in MC_CLUSTERS:
            for d in MC_DIMS:
                for s in SIZES:
                    for e in ERRORS:
                        out.append({"id": f"mc-k{k}-d{d}-{s}-{e}-r{r}",
                                    "family": "milligan_cooper", "n_clusters": k,
                                    "n_dims": d, "sizes": s, "error": e, "rep": r,
                                    "n_points": n_points, "true_k": k})
        for dist in NULL_DISTRIBUTIONS:
            for d in NULL_DIMS:
                out.append({"id": f"one-{dist}-d{d}-r{r}", "family": "one_cluster",
                            "distribution": dist, "n_dims": d, "rep": r,
                            "n_points": n_points, "true_k": 1})
        for fam, tag in (("elongated", "elong"), ("unequal_variance", "uneqvar")):
            for k in SHAPE_CLUSTERS:
                for d in SHAPE_DIMS:
                    out.append({"id": f"{tag}-k{k}-d{d}-r{r}", "family": fam,
                                "n_clusters": k, "n_dims": d, "rep": r,
                                "n_points": n_points, "true_k": k})
    return out


def design_rng(design: dict, seed: int = 0) -> np.random.Generator:
    """A generator for one design, stable across runs and independent of the design list's
    order: seeded with (seed, CRC-32 of the design's id)."""
    return np.random.default_rng([seed, zlib.crc32(design["id"].encode())])


def make(design: dict, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, int]:
    """(X, labels, true_k) for one design of :func:`designs`. Outlier rows have label −1;
    every data set has ``n_points`` rows (with outliers: that many clustered and outlying
    points together)."""
    fam, n = design["family"], int(design.get("n_points", N_POINTS))
    true_k = int(design["true_k"])
    if fam == "milligan_cooper":
        k, d, error = design["n_clusters"], design["n_dims"], design.get("error", "none")
        if error not in ERRORS:
            raise ValueError(f"error must be one of {ERRORS}, got {error!r}")
        n_out = _round_half_up(n * OUTLIER_FRACTION / (1 + OUTLIER_FRACTION)) \
            if error == "outliers" else 0
        X, y, lay = milligan_clusters(rng, k, d, n - n_out, design["sizes"],
                                      return_layout=True)
        if error == "perturbed":
            X = perturb(rng, X, y)
        elif error == "outliers":
            X, y = add_outliers(rng, X, y, n_outliers=n_out, boxes=(lay.lower, lay.upper))
    elif fam == "one_cluster":
        gen = {"uniform": null_uniform, "gaussian": null_gaussian}.get(design["distribution"])
        if gen is None:
            raise ValueError(f"distribution must be one of {NULL_DISTRIBUTIONS}, "
                             f"got {design['distribution']!r}")
        X, y = gen(rng, design["n_dims"], n)
    elif fam == "elongated":
        X, y = elongated(rng, design["n_clusters"], design["n_dims"], n)
    elif fam == "unequal_variance":
        X, y = unequal_variance(rng, design["n_clusters"], design["n_dims"], n)
    else:
        raise ValueError(f"family must be one of {FAMILIES}, got {fam!r}")
    return X, y, true_k
