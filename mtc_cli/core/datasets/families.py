"""Families of synthetic data sets with a known number of clusters, for a benchmark league
in which every family weighs the same: data that look like the data users bring.

:data:`FAMILIES` names them; :func:`designs` spreads ``n_sets`` JSON-able designs over a
family's range of parameters (stratified: categorical parameters balanced, continuous ones
by a Latin hypercube), and :func:`make` draws a design's data from a numpy Generator seeded
with the design's own ``seed``, so that a design alone determines its data. Every generator
is ours, Milligan's (:mod:`milligan_cooper`) or scikit-learn's ``make_moons``/``make_blobs``.

Conventions: ``n`` is the number of rows of X, background noise points included
(``n_noise`` of them, label −1, not counted in ``true_k``); every cluster has at least
:data:`MIN_CLUSTER` = 15 points, so that a random half of the rows still holds it; n lies in
200–1 500 in every family but ``sizes`` (100–10 000). Gaussian clusters are separated by a
``separation`` s: the smallest ‖c_i − c_j‖ / (r_i + r_j) over pairs of clusters is exactly s,
r a cluster's (largest) standard deviation — along the line between two centres the two
clusters' densities cross about s standard deviations from each; s = 2 is taken as
"touching" (a Bayes error of ~2 % between the pair), s ≥ 4 as well separated.

The shapes are resolvable by a random half of their points (checked by single linkage on
halves in ``tests/core/test_families.py``): two rings of radii 1 and 3 with points in
proportion to the radius (three rings of radii 1, 2, 3 and 133 points each are not: in a
half, the largest gaps along the outer ring exceed the gap between rings), and moons,
spirals and chain links with noise low enough and points enough for it.

``scenes`` and ``symmetric`` hold groups a person counts at a glance. Their separation rule
(:func:`separation`): the smallest distance between points of two different groups is at
least :data:`SEPARATION` = 3 times the largest group's connectivity scale ε (its minimum
spanning tree's longest edge). Above 1, single linkage cut at k finds the groups; 3 leaves
the margin a random half needs, in which the gaps along a sparse ring or arc grow two- to
threefold (at 2.5, 1 of 48 scenes in two of five seeds has halves that single linkage gets
wrong). Parallel bands, dense (≥ 300 points each) and so about as separate in a half, keep
:data:`BAND_SEPARATION` = 2.5, which a third of the review's D07c draws meet (3: one in 20).
The rule is enforced as the groups are laid out: scenes' groups are placed one by one where
they keep it (:func:`place_groups`), symmetric arrangements are spread until they meet it
(:func:`spread_to_separation`) and bands are drawn anew until they do.
"""

from __future__ import annotations

import zlib

import numpy as np

from mtc_cli.core.datasets import milligan_cooper as mc

#: family → what it is (the league's families, in order)
FAMILIES = {
    "milligan_cooper": "2–5 Gaussian clusters in 4–8 dims, Milligan–Cooper's layout, size "
                       "patterns and error conditions (none, perturbed, 20 % outliers)",
    "many_clusters": "6–12 spherical Gaussian clusters (sds 1–2) in 2–10 dims, sizes "
                     "unequal up to 10:1, from touching (s = 2) to well separated (s = 5)",
    "high_dim": "2–6 Gaussian clusters in 20–100 dims of which only 2–5 are informative, "
                "the rest N(0, 1) noise; 200–1 000 points",
    "shapes": "moons, two rings, two spirals, chain links, sheared blobs; half with 5–10 % "
              "uniform background noise, half embedded in 10 dims and rotated",
    "densities": "2–5 Gaussian clusters in 2–5 dims whose sds differ 3–10-fold and sizes up "
                 "to 5-fold, with 5–10 % uniform background noise",
    "one_cluster": "k = 1 in 2–10 dims: uniform box, Gaussian, elongated Gaussian (sd ratio "
                   "3–10), heavy-tailed Student t (df 2–3)",
    "sizes": "2–8 compact ellipsoidal Gaussian clusters with 100–10 000 points (2–16 dims, "
             "≤ 10 dims above 2 000 points)",
    "scenes": "2–12 clearly separate groups of mixed kinds (Gaussian blobs of unequal size, "
              "spread and count, rings, arcs, spirals or helices, segments, boxes) in 2-D, "
              "3-D or embedded in 10 dims; half with 2–10 % uniform background noise",
    "symmetric": "well-separated groups with no good split into two: at a regular "
                 "polytope's vertices (± a centre group), on a ring, in nested rings, or "
                 "parallel bands apart only along a low-variance direction (raw or z-scored)",
    "two_curves": "two groups no cut across the first principal component separates: two "
                  "concentric rings of equal counts (make_circles' kind: inner radius 0.3–0.6 "
                  "of the outer, noise sd 0.03–0.08) or two long parallel bands apart along "
                  "their narrow direction (the review's D07c kind), in 2-D",
}
MIN_CLUSTER = 15
N_RANGE = (200, 1500)
SIZES_N_RANGE = (100, 10_000)
SIZES_WIDE_N = 2000           # sizes: above this many points at most SIZES_WIDE_DIMS dims
SIZES_WIDE_DIMS = 10
NOISE_RANGE = (0.05, 0.10)    # share of background points among all n

# ranges (lo, hi), both ends included; RATIO: largest / smallest cluster size at most;
# SEP: the separation s (see above); SD: the clusters' sds drawn uniformly in it
MC_K, MC_DIMS = (2, 5), (4, 8)
MANY_K, MANY_DIMS, MANY_RATIO, MANY_SEP, MANY_SD = (6, 12), (2, 10), 10.0, (2.0, 5.0), (1, 2)
HD_K, HD_DIMS, HD_INFORMATIVE, HD_N = (2, 6), (20, 100), (2, 5), (200, 1000)
HD_SEP, HD_RATIO = (2.5, 5.0), 2.0
HD_MIN_SHARE = 0.25           # each informative dim: ≥ this / p of the centres' variance
DENS_K, DENS_DIMS, DENS_RATIO, DENS_SEP = (2, 5), (2, 5), 5.0, (2.5, 4.0)
DENS_SD_RATIO = (3.0, 10.0)   # largest / smallest sd; sds geometric in between
ONE_KINDS = ("uniform_box", "gaussian", "elongated", "student_t")
ONE_DIMS, ONE_ELONGATION, ONE_DF, ONE_BOX_SIDES = (2, 10), (3.0, 10.0), (2.0, 3.0), (1.0, 2.0)
SIZES_K, SIZES_DIMS, SIZES_RATIO, SIZES_SEP, SIZES_SD = (2, 8), (2, 16), 3.0, (3.0, 5.0), \
    (1.0, 1.5)
SIZES_AXIS = 2.0              # sizes: a cluster's longest / shortest axis at most

#: shape → (k or k range, own dims, range of clustered points, what it is)
SHAPES = {
    "moons": ((2, 2), 2, (500, 900), "make_moons, noise sd 0.05"),
    "rings": ((2, 2), 2, (800, 1100), "two concentric rings of radii 1 and 3, points 1:3 "
                                      "(even along the arc), noise sd 0.08"),
    "spirals": ((2, 2), 2, (800, 1200), "two interleaved Archimedean spirals over 1.25 "
                                        "turns, arms 1 apart, noise sd 0.04"),
    "chainlink": ((2, 2), 3, (400, 800), "two interlocked rings of radius 1 in 3-D, noise "
                                         "sd 0.07"),
    "anisotropic": ((2, 4), 2, (300, 1000), "make_blobs (sd 1, centres 5–7 sds apart) sheared "
                                            "by one linear map, axis ratio 3–6"),
}
MOON_NOISE = 0.05
RING_RADII, RING_NOISE = (1.0, 3.0), 0.08
SPIRAL_TURNS, SPIRAL_NOISE = 1.25, 0.04
CHAIN_NOISE = 0.07
ANISO_SEP, ANISO_AXIS, ANISO_RATIO = (2.5, 3.5), (3.0, 6.0), 2.0
#: two_curves: points (both groups), and per kind its ranges — rings: inner / outer radius,
#: noise sd (outer radius 1); bands: half the gap between the bands' centre lines, their sd
#: across, half their length (uniform along)
CURVE_PAIR_N = (300, 900)
CURVE_PAIR_RINGS = {"factor": (0.3, 0.6), "noise": (0.03, 0.08)}
CURVE_PAIR_BANDS = {"offset": (1.2, 2.0), "sd": (0.2, 0.35), "length": (8.0, 12.0)}
EMBED_DIMS = 10
EMBED_NOISE = 0.1             # shapes embedded: the noise dims' sd / the shape's mean sd

#: scenes and symmetric: the smallest distance between points of two different groups is at
#: least SEPARATION times the largest ε of a group, ε its connectivity scale (its minimum
#: spanning tree's longest edge; :func:`separation`); BAND_SEPARATION for parallel bands
SEPARATION, BAND_SEPARATION = 3.0, 2.5
GROUP_EMBED_NOISE = 0.1       # embedded: the noise dims' sd / a typical group's sd

SCENE_K, SCENE_NOISE, SCENE_RATIO = (2, 12), (0.02, 0.10), 4.0
SCENE_SPACES = ((2, False), (3, False), (2, True), (3, True))  # (own dims, in EMBED_DIMS)
SCENE_MIXES = {"blobs": ("blob",), "shapes": ("ring", "arc", "spiral", "segment", "box"),
               "mixed": ("blob", "ring", "arc", "spiral", "segment", "box")}
#: kind → (fewest points, intrinsic dims q; None: the space's): extent = s · (m / REF)^(1/q),
#: s drawn in SCENE_SPREAD, so that shapes of one s are about equally dense
SCENE_KINDS = {"blob": (15, None), "ring": (40, 1), "arc": (30, 1), "spiral": (60, 1),
               "segment": (20, 1), "box": (30, None)}
SCENE_SPREAD, SCENE_REF = (1.0, 3.0), 50
CURVE_NOISE = 0.04            # ring, arc, spiral, helix, segment: noise sd / extent
BLOB_AXIS = 0.4               # blob: sds extent/2 · (1, U(BLOB_AXIS, 1), …)
ARC_SPAN = (0.6, 1.5)         # arc: its angle, in units of π
ARM_TURNS, ARM_INNER = 1.5, 0.2  # spiral arm: radius ARM_INNER · extent to extent
HELIX_TURNS = 2.0             # helix: radius extent / 2, height 2 · extent
BOX_SIDE = 0.25               # box: sides 2 · extent · (1, U(BOX_SIDE, 1), …)

SYM_ARRANGEMENTS = ("polytope", "ring", "nested", "bands")
#: polytope → own dims (the vertices: :func:`polytope_vertices`)
POLYTOPES = {"triangle": 2, "square": 2, "pentagon": 2, "hexagon": 2, "tetrahedron": 3,
             "octahedron": 3, "cube": 3}
SYM_N, SYM_SPACING, SYM_RING_K = (300, 1200), (1.0, 1.5), (5, 12)
NESTED = ("centre_ring", "two_rings")
NESTED_RING, TWO_RINGS = (5, 8), ((3, 4), (6, 8))  # groups on the ring; inner, outer rings
OUTER_RADIUS = 2.0            # two_rings: the outer ring's radius, the inner's 1
#: band layout → (own dims, bands, along: (law, half-width or sd), offset step, across sd,
#: z-scored; None: as the design says): D07c and D07b of the review (bad-inputs-turn5.tsv;
#: D07b raw is not clearly two groups — its x1 tails are sparser than the bands are apart —
#: so only z-scored), 3–4 bands in the plane, 2–4 parallel lines in 3-D through a regular
#: polygon's vertices (see :func:`band_offsets`)
BANDS = {"d07c": (2, (2, 2), ("uniform", 10.0), 3.0, 0.3, None),
         "d07b": (2, (2, 2), ("gaussian", 10.0), 2.0, 0.1, True),
         "bands": (2, (3, 4), ("uniform", 10.0), 3.0, 0.2, None),
         "lines": (3, (2, 4), ("uniform", 10.0), 3.0, 0.2, None)}
BANDS_N, BAND_MIN = (600, 1500), 300  # bands: n, and points per band at least (a random
                                      # half of fewer has gaps along a band as wide as across)
REDRAWS = 200                 # bands: draws until the separation rule holds, at most


# --- spreading designs over a range -------------------------------------------------------

def _lhs(rng: np.random.Generator, n: int) -> np.ndarray:
    """n stratified uniforms on [0, 1): one in each of n equal strata, in random order."""
    return (rng.permutation(n) + rng.random(n)) / n


def _balanced(rng: np.random.Generator, levels, n: int) -> list:
    """n levels, each used ⌊n/L⌋ or ⌈n/L⌉ times, in random order."""
    reps = -(-n // len(levels))
    pool = np.concatenate([rng.permutation(len(levels)) for _ in range(reps)])[:n]
    return [levels[i] for i in rng.permutation(pool)]


def _int_range(u, lo: int, hi: int) -> np.ndarray:
    return np.minimum(lo + np.floor(np.asarray(u) * (hi - lo + 1)), hi).astype(int)


def _range(u, lo: float, hi: float) -> np.ndarray:
    return lo + np.asarray(u) * (hi - lo)


def _log_range(u, lo: float, hi: float) -> np.ndarray:
    return np.exp(np.log(lo) + np.asarray(u) * (np.log(hi) - np.log(lo)))


def cluster_sizes(k: int, n_target: float, ratio: float, lo: int, hi: int) -> list[int]:
    """k sizes ⌊m · w_c⌋, w geometric from 1 to ``ratio`` (so largest / smallest ≤ ratio,
    smallest = m ≥ :data:`MIN_CLUSTER`), m chosen so that the total is near ``n_target``
    and within [lo, hi] where it can be; smallest first."""
    w = np.geomspace(1.0, max(ratio, 1.0), k)
    m = max(MIN_CLUSTER, int(n_target // w.sum()))

    def total(m):
        return int(np.floor(m * w + 1e-9).sum())

    while total(m) < lo:
        m += 1
    while total(m) > hi and m > MIN_CLUSTER:
        m -= 1
    return [int(s) for s in np.floor(m * w + 1e-9)]


def _feasible_ratio(k: int, ratio: float, hi: int) -> float:
    """The largest size ratio ≤ ``ratio`` at which k clusters of ≥ MIN_CLUSTER points fit in
    hi points (1 if none does)."""
    while ratio > 1.0 and MIN_CLUSTER * np.geomspace(1.0, ratio, k).sum() > hi:
        ratio = max(1.0, ratio * 0.9)
    return float(ratio)


# --- generators ---------------------------------------------------------------------------

def place_centres(rng: np.random.Generator, radii, d: int, separation: float) -> np.ndarray:
    """k centres in d dims whose smallest ‖c_i − c_j‖ / (r_i + r_j) is exactly
    ``separation``: drawn one by one, uniformly in a crowded cube, each at least that far
    from those before (the cube grows when one cannot be placed), then scaled so that the
    closest pair is at ``separation`` exactly. Centred at 0."""
    radii = np.asarray(radii, dtype=np.float64)
    k = len(radii)
    if k == 1:
        return np.zeros((1, d))
    side = separation * 2 * radii.mean() * k ** (1 / d)
    while True:
        centres = np.zeros((k, d))
        for c in range(k):
            cand = rng.uniform(0.0, side, size=(64, d))
            dist = np.linalg.norm(cand[:, None, :] - centres[None, :c], axis=2)
            ok = np.all(dist >= separation * (radii[:c] + radii[c]), axis=1)
            if not ok.any():
                break
            centres[c] = cand[np.argmax(ok)]
        else:
            break
        side *= 1.1
    i, j = np.triu_indices(k, 1)
    ratio = np.linalg.norm(centres[i] - centres[j], axis=1) / (radii[i] + radii[j])
    centres *= separation / ratio.min()
    return centres - centres.mean(axis=0)


def gaussian_clusters(rng: np.random.Generator, centres: np.ndarray, sizes, sds,
                      axes: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``sizes[c]`` points of N(centres[c], Σ_c), Σ_c = sds[c]² · R_c diag(axes[c]²) R_cᵀ
    with R_c a random rotation (spherical, sd sds[c], when ``axes`` is None). Rows are
    shuffled. Returns (X, labels)."""
    k, d = centres.shape
    parts = []
    for c in range(k):
        z = rng.standard_normal((int(sizes[c]), d)) * sds[c]
        if axes is not None:
            z = (z * axes[c]) @ mc.random_rotation(rng, d).T
        parts.append(centres[c] + z)
    labels = np.repeat(np.arange(k), sizes)
    perm = rng.permutation(len(labels))
    return np.vstack(parts)[perm], labels[perm]


def background(rng: np.random.Generator, X: np.ndarray, labels: np.ndarray,
               m: int) -> tuple[np.ndarray, np.ndarray]:
    """X with m points uniform in its bounding box, labelled −1, rows shuffled."""
    lo, hi = X.min(axis=0), X.max(axis=0)
    X2 = np.vstack([X, lo + (hi - lo) * rng.random((m, X.shape[1]))])
    y2 = np.concatenate([labels, np.full(m, -1, dtype=np.int64)])
    perm = rng.permutation(len(X2))
    return X2[perm], y2[perm]


def embedded(rng: np.random.Generator, X: np.ndarray, dims: int = EMBED_DIMS,
             noise: float = EMBED_NOISE) -> np.ndarray:
    """X with ``dims − d`` noise dimensions appended (Gaussian, sd ``noise`` times the mean
    sd of X's coordinates), the whole randomly rotated."""
    extra = rng.normal(0, noise * float(X.std(axis=0).mean()), (len(X), dims - X.shape[1]))
    return np.hstack([X, extra]) @ mc.random_rotation(rng, dims).T


def _seed(rng: np.random.Generator) -> int:
    return int(rng.integers(2**31 - 1))


def _split(n: int, weights) -> np.ndarray:
    """n split in proportion to ``weights`` (largest remainders)."""
    return mc._allot(n, np.asarray(weights, dtype=np.float64))


def rings(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Concentric rings of radii :data:`RING_RADII`, points in proportion to the radius
    (the same density along every ring), angles uniform, N(0, RING_NOISE²) noise."""
    sizes = _split(n, RING_RADII)
    t = rng.uniform(0.0, 2 * np.pi, n)
    r = np.repeat(RING_RADII, sizes)
    X = np.c_[r * np.cos(t), r * np.sin(t)] + rng.normal(0.0, RING_NOISE, (n, 2))
    return X, np.repeat(np.arange(len(RING_RADII)), sizes)


def spirals(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Two interleaved Archimedean spirals r = θ/π over :data:`SPIRAL_TURNS` turns (arms 1
    apart), even along the arc, N(0, SPIRAL_NOISE²) noise."""
    sizes = _split(n, [1, 1])
    labels = np.repeat([0, 1], sizes)
    t = np.sqrt(rng.uniform(0.05, 1.0, n)) * 2 * np.pi * SPIRAL_TURNS
    r, phase = t / np.pi, t + labels * np.pi
    X = np.c_[r * np.cos(phase), r * np.sin(phase)] + rng.normal(0.0, SPIRAL_NOISE, (n, 2))
    return X, labels


def chainlink(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Two interlocked rings of radius 1 in 3-D (one in z = 0 around 0, one in y = 0 around
    (1, 0, 0)), N(0, CHAIN_NOISE²) noise; the rings' curves are 1 apart at their closest."""
    m1, m2 = _split(n, [1, 1])
    t1, t2 = rng.uniform(0, 2 * np.pi, m1), rng.uniform(0, 2 * np.pi, m2)
    X = np.vstack([np.c_[np.cos(t1), np.sin(t1), np.zeros(m1)],
                   np.c_[1.0 + np.cos(t2), np.zeros(m2), np.sin(t2)]])
    return X + rng.normal(0.0, CHAIN_NOISE, X.shape), np.repeat([0, 1], [m1, m2])


def moons(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """scikit-learn's two interleaving half circles, noise sd :data:`MOON_NOISE`."""
    from sklearn.datasets import make_moons

    X, y = make_moons(tuple(int(s) for s in _split(n, [1, 1])), noise=MOON_NOISE,
                      random_state=_seed(rng))
    return X, y.astype(np.int64)


def anisotropic(rng: np.random.Generator, sizes, separation: float,
                axis_ratio: float) -> tuple[np.ndarray, np.ndarray]:
    """scikit-learn's blobs (sd 1, centres ``separation`` · 2 sds apart at the closest)
    mapped by one linear map with singular values ``axis_ratio`` and 1 (random directions):
    clusters sheared alike, their Mahalanobis separation kept."""
    from sklearn.datasets import make_blobs

    centres = place_centres(rng, np.ones(len(sizes)), 2, separation)
    X, y = make_blobs([int(s) for s in sizes], 2, centers=centres, cluster_std=1.0,
                      random_state=_seed(rng))
    A = mc.random_rotation(rng, 2) @ np.diag([axis_ratio, 1.0]) @ mc.random_rotation(rng, 2)
    return X @ A.T, y.astype(np.int64)


# --- clearly separate groups: the rule, the scenes' kinds, the symmetric arrangements ------

def connectivity_scale(X: np.ndarray) -> float:
    """A group's ε: the longest edge of a Euclidean minimum spanning tree of its points, the
    smallest distance at which single linkage joins them all (Gower & Ross 1969, Appl. Stat.
    18: single linkage's clusters are the MST's parts once its longest edges are cut)."""
    from scipy.sparse.csgraph import minimum_spanning_tree
    from scipy.spatial.distance import pdist, squareform

    return float(minimum_spanning_tree(squareform(pdist(X))).max()) if len(X) > 1 else 0.0


def _min_gap(groups) -> float:
    """The smallest distance between points of two different groups (inf for one)."""
    from scipy.spatial import cKDTree

    return min((float(cKDTree(np.vstack(groups[a + 1:])).query(groups[a])[0].min())
                for a in range(len(groups) - 1)), default=np.inf)


def separation(X: np.ndarray, labels: np.ndarray) -> float:
    """The separation rule's ratio: the smallest distance between points of two different
    groups over the largest :func:`connectivity_scale` of a group (labels ≥ 0; −1, background
    noise, left out). Above 1, single linkage cut at the number of groups finds the groups
    exactly: at any height between the two, every group is joined and no two are. The
    families scenes and symmetric keep it ≥ :data:`SEPARATION`, which leaves the margin a
    random half (sparser within its groups) needs."""
    groups = [X[labels == g] for g in np.unique(labels[labels >= 0])]
    return _min_gap(groups) / max(connectivity_scale(g) for g in groups)


def _planar(rng: np.random.Generator, P: np.ndarray, d: int, noise: float) -> np.ndarray:
    """Points P (m × 2) of a plane figure in d dims: zero-padded, N(0, noise²) in every dim,
    randomly rotated (in 3-D: into a random plane)."""
    X = np.zeros((len(P), d))
    X[:, :2] = P
    return (X + rng.normal(0.0, noise, X.shape)) @ mc.random_rotation(rng, d).T


def gaussian_blob(rng: np.random.Generator, m: int, extent: float, d: int) -> np.ndarray:
    """m points of a Gaussian with sds extent/2 · (1, U(BLOB_AXIS, 1), …), randomly rotated."""
    sds = extent / 2 * np.r_[1.0, rng.uniform(BLOB_AXIS, 1.0, d - 1)]
    return (rng.standard_normal((m, d)) * sds) @ mc.random_rotation(rng, d).T


def circle(rng: np.random.Generator, m: int, extent: float, d: int) -> np.ndarray:
    """A ring of radius ``extent``: uniform angles, noise sd CURVE_NOISE · extent."""
    t = rng.uniform(0.0, 2 * np.pi, m)
    return _planar(rng, extent * np.c_[np.cos(t), np.sin(t)], d, CURVE_NOISE * extent)


def arc(rng: np.random.Generator, m: int, extent: float, d: int) -> np.ndarray:
    """An arc of a circle of radius ``extent`` over an angle in ARC_SPAN · π, uniform along
    it, noise sd CURVE_NOISE · extent."""
    t = rng.uniform(0.0, np.pi * rng.uniform(*ARC_SPAN), m)
    return _planar(rng, extent * np.c_[np.cos(t), np.sin(t)], d, CURVE_NOISE * extent)


def spiral_arm(rng: np.random.Generator, m: int, extent: float, d: int) -> np.ndarray:
    """One Archimedean spiral r ∝ θ over ARM_TURNS turns, from ARM_INNER · extent out
    to ``extent``, about even along the arc (θ² uniform), noise sd CURVE_NOISE · extent."""
    top = 2 * np.pi * ARM_TURNS / (1 - ARM_INNER)
    t = np.sqrt(rng.uniform((ARM_INNER * top) ** 2, top ** 2, m))
    r = extent * t / top
    return _planar(rng, np.c_[r * np.cos(t), r * np.sin(t)], d, CURVE_NOISE * extent)


def helix(rng: np.random.Generator, m: int, extent: float, d: int = 3) -> np.ndarray:
    """A helix of radius extent/2 and height 2 · extent over HELIX_TURNS turns (uniform
    along it), noise sd CURVE_NOISE · extent, randomly rotated: the spiral of 3-D."""
    t = rng.uniform(0.0, 2 * np.pi * HELIX_TURNS, m)
    X = np.c_[extent / 2 * np.cos(t), extent / 2 * np.sin(t),
              extent * (t / (np.pi * HELIX_TURNS) - 1)]
    return (X + rng.normal(0.0, CURVE_NOISE * extent, X.shape)) @ mc.random_rotation(rng, d).T


def segment(rng: np.random.Generator, m: int, extent: float, d: int) -> np.ndarray:
    """A line segment of length 2 · extent, uniform along it, noise sd CURVE_NOISE · extent."""
    return _planar(rng, np.c_[rng.uniform(-extent, extent, m), np.zeros(m)], d,
                   CURVE_NOISE * extent)


def box(rng: np.random.Generator, m: int, extent: float, d: int) -> np.ndarray:
    """m points uniform in a box (a rectangle in 2-D; a slab when a side is short) of sides
    2 · extent · (1, U(BOX_SIDE, 1), …), randomly rotated."""
    sides = extent * np.r_[1.0, rng.uniform(BOX_SIDE, 1.0, d - 1)]
    return (rng.uniform(-1.0, 1.0, (m, d)) * sides) @ mc.random_rotation(rng, d).T


_SCENE_SHAPES = {"blob": gaussian_blob, "ring": circle, "arc": arc, "spiral": spiral_arm,
                 "segment": segment, "box": box}


def scene_group(rng: np.random.Generator, kind: str, m: int, extent: float,
                d: int) -> np.ndarray:
    """m points of a group of a kind of :data:`SCENE_KINDS` in d = 2 or 3 dims (the spiral
    of 3-D a helix), centred at their mean."""
    make_group = helix if kind == "spiral" and d == 3 else _SCENE_SHAPES[kind]
    X = make_group(rng, m, extent, d)
    return X - X.mean(axis=0)


def _with_noise_dims(rng: np.random.Generator, parts, dims: int, sd: float) -> list:
    """Each group with dims − d columns of N(0, sd²) appended (as :func:`embedded` does,
    before its rotation): drawn before the groups are placed, so that the separation
    rule holds in all dims."""
    return [np.hstack([p, rng.normal(0.0, sd, (len(p), dims - p.shape[1]))]) for p in parts]


def _shifted(parts, shifts: np.ndarray) -> list:
    """The groups moved by ``shifts`` (k × own dims) in their first own dims."""
    return [p + np.pad(t, (0, p.shape[1] - len(t))) for p, t in zip(parts, shifts, strict=True)]


def place_groups(rng: np.random.Generator, parts, own_d: int, gap: float) -> np.ndarray:
    """Shifts (k × own_d, of the groups' first own_d coords) that keep points of different
    groups ≥ ``gap`` apart: the groups, largest first, each at the first of 64 uniform
    candidates in a crowded cube that is clear of those placed; when none is, the cube grows
    by 10 % and all are placed anew (as :func:`place_centres`). Centred at 0."""
    from scipy.spatial import cKDTree

    radii = np.array([np.linalg.norm(p[:, :own_d], axis=1).max() for p in parts])
    trees = [cKDTree(p) for p in parts]
    side = float(np.sum((2 * radii + gap) ** own_d) ** (1 / own_d))

    def clear(a, c, shift):
        if np.linalg.norm(shift) >= radii[a] + radii[c] + gap:
            return True
        near = trees[a].query(parts[c] + np.pad(shift, (0, parts[c].shape[1] - own_d)),
                              distance_upper_bound=gap)[0]
        return bool(np.isinf(near).all())

    while True:
        shifts, placed = np.zeros((len(parts), own_d)), []
        for c in np.argsort(-radii, kind="stable"):
            for t in rng.uniform(0.0, side, (64, own_d)):
                if all(clear(a, c, t - shifts[a]) for a in placed):
                    break
            else:
                break
            shifts[c] = t
            placed.append(c)
        else:
            return shifts - shifts.mean(axis=0)
        side *= 1.1


def spread_to_separation(parts, centres: np.ndarray, ratio: float) -> float:
    """The smallest scale λ (within 1 %) at which the groups shifted to λ · centres meet the
    separation rule at ``ratio``: doubled from ratio · max ε / (closest centres' distance),
    then bisected."""
    need = ratio * max(connectivity_scale(p) for p in parts)
    i, j = np.triu_indices(len(centres), 1)
    lo, hi = 0.0, need / np.linalg.norm(centres[i] - centres[j], axis=1).min()
    while _min_gap(_shifted(parts, hi * centres)) < need:
        lo, hi = hi, 2 * hi
    while hi > 1.01 * lo:
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if _min_gap(_shifted(parts, mid * centres)) >= need else (mid, hi)
    return hi


def ring_positions(m: int, radius: float = 1.0, phase: float = 0.0) -> np.ndarray:
    """m points equally spaced on a circle in the plane."""
    t = phase + 2 * np.pi * np.arange(m) / m
    return radius * np.c_[np.cos(t), np.sin(t)]


def polytope_vertices(name: str) -> np.ndarray:
    """The vertices of a regular polytope of :data:`POLYTOPES`, centred at 0, circumradius
    1: a regular polygon, the regular simplex (tetrahedron), cross-polytope (octahedron) or
    hypercube (cube) of 3-D."""
    polygons = {"triangle": 3, "square": 4, "pentagon": 5, "hexagon": 6}
    if name in polygons:
        return ring_positions(polygons[name])
    if name == "tetrahedron":
        return np.array([[1, 1, 1], [1, -1, -1], [-1, 1, -1], [-1, -1, 1]]) / np.sqrt(3)
    if name == "octahedron":
        return np.vstack([np.eye(3), -np.eye(3)])
    if name == "cube":
        return np.array(np.meshgrid(*[[-1, 1]] * 3)).reshape(3, -1).T / np.sqrt(3)
    raise ValueError(f"polytope must be one of {list(POLYTOPES)}, got {name!r}")


def band_offsets(b: int, d: int, step: float) -> np.ndarray:
    """Where b parallel bands cross the d − 1 dims across them, neighbours ``step`` apart: on
    a line in 2-D, at the vertices of a regular b-gon of side ``step`` in 3-D."""
    if d == 2:
        return ((np.arange(b) - (b - 1) / 2) * step)[:, None]
    return ring_positions(b, step / (2 * np.sin(np.pi / b)))


def bands(rng: np.random.Generator, sizes, offsets: np.ndarray, along: str, spread: float,
          across_sd: float) -> tuple[np.ndarray, np.ndarray]:
    """Parallel bands apart only across them: band b has ``sizes[b]`` points with x1 ~
    U(−spread, spread) (``along`` "uniform") or N(0, spread²) ("gaussian") and the other
    coords offsets[b] + N(0, across_sd²) — as the review's D07c (U(−10, 10), ±1.5, sd 0.3)
    and D07b (N(0, 10²), ±1, sd 0.1)."""
    labels = np.repeat(np.arange(len(sizes)), sizes)
    n = len(labels)
    x1 = rng.uniform(-spread, spread, n) if along == "uniform" else rng.normal(0, spread, n)
    across = offsets[labels] + rng.normal(0.0, across_sd, (n, offsets.shape[1]))
    return np.c_[x1, across], labels


def _zscored(X: np.ndarray) -> np.ndarray:
    return (X - X.mean(axis=0)) / X.std(axis=0)


# --- designs per family -------------------------------------------------------------------

def _designs_milligan_cooper(rng, n_sets):
    ks = _balanced(rng, list(range(MC_K[0], MC_K[1] + 1)), n_sets)
    dims = _int_range(_lhs(rng, n_sets), *MC_DIMS)
    patterns = _balanced(rng, mc.SIZES, n_sets)
    errors = _balanced(rng, mc.ERRORS, n_sets)
    ns = np.rint(_log_range(_lhs(rng, n_sets), *N_RANGE)).astype(int)
    out = []
    for k, d, p, e, n in zip(ks, dims, patterns, errors, ns, strict=True):
        n_noise = mc._round_half_up(n * mc.OUTLIER_FRACTION / (1 + mc.OUTLIER_FRACTION)) \
            if e == "outliers" else 0
        out.append({"true_k": k, "n": int(n), "d": int(d), "n_noise": n_noise,
                    "size_pattern": p, "error": e})
    return out


def _designs_many_clusters(rng, n_sets):
    ks = _balanced(rng, list(range(MANY_K[0], MANY_K[1] + 1)), n_sets)
    dims = _int_range(_lhs(rng, n_sets), *MANY_DIMS)
    seps = _range(_lhs(rng, n_sets), *MANY_SEP)
    ratios = _log_range(_lhs(rng, n_sets), 1.0, MANY_RATIO)
    ns = _log_range(_lhs(rng, n_sets), *N_RANGE)
    out = []
    for k, d, s, r, n in zip(ks, dims, seps, ratios, ns, strict=True):
        r = _feasible_ratio(k, r, N_RANGE[1])
        sizes = cluster_sizes(k, n, r, *N_RANGE)
        out.append({"true_k": k, "n": sum(sizes), "d": int(d), "n_noise": 0,
                    "sizes": [sizes[i] for i in rng.permutation(k)],
                    "sds": [round(float(v), 6) for v in rng.uniform(*MANY_SD, size=k)],
                    "separation": round(float(s), 6), "size_ratio": round(r, 6)})
    return out


def _designs_high_dim(rng, n_sets):
    ks = _balanced(rng, list(range(HD_K[0], HD_K[1] + 1)), n_sets)
    ps = _balanced(rng, list(range(HD_INFORMATIVE[0], HD_INFORMATIVE[1] + 1)), n_sets)
    dims = _int_range(_lhs(rng, n_sets), *HD_DIMS)
    seps = _range(_lhs(rng, n_sets), *HD_SEP)
    ratios = _range(_lhs(rng, n_sets), 1.0, HD_RATIO)
    ns = _log_range(_lhs(rng, n_sets), *HD_N)
    out = []
    for k, p, d, s, r, n in zip(ks, ps, dims, seps, ratios, ns, strict=True):
        sizes = cluster_sizes(k, n, r, *HD_N)
        out.append({"true_k": k, "n": sum(sizes), "d": int(d), "n_noise": 0,
                    "sizes": [sizes[i] for i in rng.permutation(k)],
                    "informative": sorted(int(i) for i in rng.choice(d, p, replace=False)),
                    "separation": round(float(s), 6)})
    return out


def _designs_shapes(rng, n_sets):
    # shape i mod 5, noise i mod 2, embedded ⌊i/2⌋ mod 2: i mod 20 runs through all 20
    # combinations, every 2nd set has background noise and every other pair is embedded
    order = [list(SHAPES)[j] for j in rng.permutation(len(SHAPES))]
    fracs = _range(_lhs(rng, n_sets), *NOISE_RANGE)
    us = _lhs(rng, n_sets)
    out = []
    for i in range(n_sets):
        shape = order[i % len(SHAPES)]
        (k_lo, k_hi), own_d, m_range, _ = SHAPES[shape]
        frac = float(fracs[i]) if i % 2 else 0.0
        emb = bool((i // 2) % 2)
        m = int(np.rint(_range(us[i], *m_range)))
        design = {"true_k": int(rng.integers(k_lo, k_hi + 1)), "shape": shape,
                  "embedded": emb, "d": EMBED_DIMS if emb else own_d}
        if shape == "anisotropic":
            sizes = cluster_sizes(design["true_k"], m, rng.uniform(1.0, ANISO_RATIO),
                                  *m_range)
            m = sum(sizes)
            design.update(sizes=sizes,
                          separation=round(float(rng.uniform(*ANISO_SEP)), 6),
                          axis_ratio=round(float(rng.uniform(*ANISO_AXIS)), 6))
        n = int(np.rint(m / (1 - frac)))
        design.update(n=n, n_noise=n - m, noise_fraction=round(frac, 6))
        out.append(design)
    return out


def _designs_densities(rng, n_sets):
    ks = _balanced(rng, list(range(DENS_K[0], DENS_K[1] + 1)), n_sets)
    dims = _int_range(_lhs(rng, n_sets), *DENS_DIMS)
    sd_ratios = _log_range(_lhs(rng, n_sets), *DENS_SD_RATIO)
    ratios = _log_range(_lhs(rng, n_sets), 1.0, DENS_RATIO)
    seps = _range(_lhs(rng, n_sets), *DENS_SEP)
    fracs = _range(_lhs(rng, n_sets), *NOISE_RANGE)
    ns = _log_range(_lhs(rng, n_sets), *N_RANGE)
    out = []
    for k, d, sr, r, s, f, n in zip(ks, dims, sd_ratios, ratios, seps, fracs, ns, strict=True):
        lo, hi = int(np.ceil(N_RANGE[0] * (1 - f))), int(N_RANGE[1] * (1 - f))
        sizes = cluster_sizes(k, n * (1 - f), r, lo, hi)
        m = sum(sizes)
        n_total = int(np.rint(m / (1 - f)))
        out.append({"true_k": k, "n": n_total, "d": int(d), "n_noise": n_total - m,
                    "sizes": [sizes[i] for i in rng.permutation(k)],
                    "sds": [round(float(v), 6) for v in
                            rng.permutation(np.geomspace(1.0, sr, k))],
                    "separation": round(float(s), 6), "noise_fraction": round(float(f), 6)})
    return out


def _designs_one_cluster(rng, n_sets):
    kinds = _balanced(rng, ONE_KINDS, n_sets)
    dims = _int_range(_lhs(rng, n_sets), *ONE_DIMS)
    ns = np.rint(_log_range(_lhs(rng, n_sets), *N_RANGE)).astype(int)
    us = _lhs(rng, n_sets)
    out = []
    for kind, d, n, u in zip(kinds, dims, ns, us, strict=True):
        design = {"true_k": 1, "n": int(n), "d": int(d), "n_noise": 0, "kind": kind}
        if kind == "elongated":
            design["elongation"] = round(float(_range(u, *ONE_ELONGATION)), 6)
        elif kind == "student_t":
            design["df"] = round(float(_range(u, *ONE_DF)), 6)
        out.append(design)
    return out


def _designs_sizes(rng, n_sets):
    ks = _balanced(rng, list(range(SIZES_K[0], SIZES_K[1] + 1)), n_sets)
    ns = _log_range(_lhs(rng, n_sets), *SIZES_N_RANGE)
    u_dims = _lhs(rng, n_sets)
    seps = _range(_lhs(rng, n_sets), *SIZES_SEP)
    ratios = _range(_lhs(rng, n_sets), 1.0, SIZES_RATIO)
    out = []
    for k, n, ud, s, r in zip(ks, ns, u_dims, seps, ratios, strict=True):
        k = min(k, int(n) // MIN_CLUSTER)
        r = _feasible_ratio(k, r, int(n))
        sizes = cluster_sizes(k, n, r, *SIZES_N_RANGE)
        hi_d = SIZES_WIDE_DIMS if sum(sizes) > SIZES_WIDE_N else SIZES_DIMS[1]
        d = int(_int_range(ud, SIZES_DIMS[0], hi_d))
        out.append({"true_k": k, "n": sum(sizes), "d": d, "n_noise": 0,
                    "sizes": [sizes[i] for i in rng.permutation(k)],
                    "sds": [round(float(v), 6) for v in rng.uniform(*SIZES_SD, size=k)],
                    "separation": round(float(s), 6), "size_ratio": round(r, 6)})
    return out


def _scene_sizes(rng, kinds, n, frac, ratio) -> list[int]:
    """Group sizes for ``kinds`` (geometric, largest / smallest ≤ ratio before each is raised
    to its kind's fewest points, in random order) whose total m lies in N_RANGE · (1 − frac)
    and near n · (1 − frac)."""
    k = len(kinds)
    lo, hi = int(np.ceil(N_RANGE[0] * (1 - frac))), int(N_RANGE[1] * (1 - frac))
    order, fewest = rng.permutation(k), np.array([SCENE_KINDS[kind][0] for kind in kinds])
    ratio, target = _feasible_ratio(k, ratio, hi), n * (1 - frac)
    while True:
        sizes = np.maximum(np.array(cluster_sizes(k, target, ratio, lo, hi))[order], fewest)
        if sizes.sum() <= hi:
            return [int(m) for m in sizes]
        target *= 0.95


def _designs_scenes(rng, n_sets):
    # (own dims, embedded) × background noise balanced jointly, k and the mix of kinds apart
    ks = _balanced(rng, list(range(SCENE_K[0], SCENE_K[1] + 1)), n_sets)
    cells = _balanced(rng, [(space, noisy) for space in SCENE_SPACES for noisy in (0, 1)],
                      n_sets)
    mixes = _balanced(rng, list(SCENE_MIXES), n_sets)
    fracs = _range(_lhs(rng, n_sets), *SCENE_NOISE)
    ratios = _log_range(_lhs(rng, n_sets), 1.0, SCENE_RATIO)
    ns = _log_range(_lhs(rng, n_sets), *N_RANGE)
    out = []
    for k, ((own, emb), noisy), mix, f, r, n in zip(ks, cells, mixes, fracs, ratios, ns,
                                                    strict=True):
        f = float(f) if noisy else 0.0
        pool = SCENE_MIXES[mix]  # distinct kinds of the mix, each once before any twice
        kinds = [pool[j] for j in np.resize(rng.permutation(len(pool)), k)]
        sizes = _scene_sizes(rng, kinds, n, f, r)
        spreads = _log_range(rng.random(k), *SCENE_SPREAD)
        extents = [s * (m / SCENE_REF) ** (1 / (SCENE_KINDS[kind][1] or own))
                   for kind, m, s in zip(kinds, sizes, spreads, strict=True)]
        m = sum(sizes)
        n_total = int(np.rint(m / (1 - f)))
        out.append({"true_k": k, "n": n_total, "d": EMBED_DIMS if emb else own,
                    "n_noise": n_total - m, "own_d": own, "embedded": emb, "mix": mix,
                    "kinds": kinds, "sizes": sizes,
                    "extents": [round(float(e), 6) for e in extents],
                    "noise_fraction": round(f, 6)})
    return out


def _designs_symmetric(rng, n_sets):
    # arrangement i mod 4; the j-th of an arrangement (j = ⌊i/4⌋): its layouts in turn,
    # embedded when j mod 4 = 3; bands z-scored as BANDS says, else when ⌊j/4⌋ is odd (and
    # not embedded)
    order = [SYM_ARRANGEMENTS[a] for a in rng.permutation(len(SYM_ARRANGEMENTS))]
    polygons = [p for p in rng.permutation(list(POLYTOPES)) if POLYTOPES[p] == 2]
    polyhedra = [p for p in rng.permutation(list(POLYTOPES)) if POLYTOPES[p] == 3]
    ring_ks = iter(_int_range(_lhs(rng, len(range(order.index("ring"), n_sets, len(order)))),
                              *SYM_RING_K))
    ns = _log_range(_lhs(rng, n_sets), *SYM_N)
    band_ns = _log_range(_lhs(rng, n_sets), *BANDS_N)
    spacings = _range(_lhs(rng, n_sets), *SYM_SPACING)
    out = []
    for i in range(n_sets):
        arrangement, j = order[i % len(order)], i // len(order)
        emb = j % 4 == 3
        design = {"arrangement": arrangement}
        if arrangement == "polytope":
            layouts = polyhedra if j % 2 else polygons
            layout = str(layouts[(j // 2) % len(layouts)])
            own, centre = POLYTOPES[layout], bool((j // 2) % 2)
            k = len(polytope_vertices(layout)) + centre
            design.update(layout=layout, centre=centre)
        elif arrangement == "ring":
            own, k = 2 + j % 2, int(next(ring_ks))
            design["layout"] = "circle"
        elif arrangement == "nested":
            layout, own = NESTED[j % 2], 2 + (j // 2) % 2
            if layout == "centre_ring":
                k = int(rng.integers(NESTED_RING[0], NESTED_RING[1] + 1)) + 1
            else:
                rings = [int(rng.integers(lo, hi + 1)) for lo, hi in TWO_RINGS]
                k = sum(rings)
                design["rings"] = rings
            design["layout"] = layout
        else:
            layout = list(BANDS)[j % len(BANDS)]
            own, (b_lo, b_hi), _, _, _, zscored = BANDS[layout]
            k = int(rng.integers(b_lo, b_hi + 1))
            design.update(layout=layout, standardize=bool(
                zscored if zscored is not None else (j // 4) % 2 and not emb))
        n = band_ns[i] if arrangement == "bands" else ns[i]
        size = int(np.clip(np.rint(n / k), BAND_MIN if arrangement == "bands" else MIN_CLUSTER,
                           N_RANGE[1] // k))
        design.update(true_k=k, n=k * size, d=EMBED_DIMS if emb else own, n_noise=0,
                      own_d=own, embedded=emb, sizes=[size] * k)
        if arrangement != "bands":
            design["spacing"] = round(float(spacings[i]), 6)
        out.append(design)
    return out


def _designs_two_curves(rng, n_sets):
    kinds = _balanced(rng, ("rings", "bands"), n_sets)
    ns = 2 * np.rint(_log_range(_lhs(rng, n_sets), *CURVE_PAIR_N) / 2).astype(int)
    us, vs, ws = _lhs(rng, n_sets), _lhs(rng, n_sets), _lhs(rng, n_sets)
    out = []
    for kind, n, u, v, w in zip(kinds, ns, us, vs, ws, strict=True):
        design = {"true_k": 2, "n": int(n), "d": 2, "n_noise": 0, "kind": kind,
                  "sizes": [int(n) // 2] * 2}
        ranges = CURVE_PAIR_RINGS if kind == "rings" else CURVE_PAIR_BANDS
        for (key, bounds), x in zip(ranges.items(), (u, v, w), strict=False):
            design[key] = round(float(_range(x, *bounds)), 6)
        out.append(design)
    return out


_DESIGNS = {"milligan_cooper": _designs_milligan_cooper,
            "many_clusters": _designs_many_clusters, "high_dim": _designs_high_dim,
            "shapes": _designs_shapes, "densities": _designs_densities,
            "one_cluster": _designs_one_cluster, "sizes": _designs_sizes,
            "scenes": _designs_scenes, "symmetric": _designs_symmetric,
            "two_curves": _designs_two_curves}


def designs(family: str, n_sets: int, seed: int) -> list[dict]:
    """``n_sets`` JSON-able designs of ``family``, spread over its range of parameters and
    deterministic given ``seed``: ``id`` (``family-07``), ``family``, ``true_k``, ``n``
    (rows, noise included), ``d``, ``n_noise``, ``seed`` (the design's own, for
    :func:`make`) and the family's parameters."""
    if family not in FAMILIES:
        raise ValueError(f"family must be one of {list(FAMILIES)}, got {family!r}")
    if n_sets < 1:
        raise ValueError(f"n_sets must be at least 1, got {n_sets}")
    rng = np.random.default_rng([seed, zlib.crc32(family.encode())])
    width = max(2, len(str(n_sets - 1)))
    out = []
    for i, params in enumerate(_DESIGNS[family](rng, n_sets)):
        head = {"id": f"{family}-{i:0{width}d}", "family": family, "seed": _seed(rng)}
        out.append({**head, **{key: _plain(v) for key, v in params.items()}})
    return out


def _plain(v):
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        return float(v)
    return v


# --- making a design's data ---------------------------------------------------------------

def _make_milligan_cooper(design, rng):
    k = design["true_k"]
    X, y, _ = mc.make({"id": design["id"], "family": "milligan_cooper", "n_clusters": k,
                       "n_dims": design["d"], "sizes": design["size_pattern"],
                       "error": design["error"], "n_points": design["n"], "true_k": k}, rng)
    return X, y


def _make_blobs_family(design, rng, axes=False):
    k, d = design["true_k"], design["d"]
    sds = np.asarray(design.get("sds", np.ones(k)), dtype=np.float64)
    ax = None
    if axes:  # each axis sds[c] times a factor in [1/SIZES_AXIS, 1], the largest 1
        ax = rng.uniform(1.0 / SIZES_AXIS, 1.0, size=(k, d))
        ax /= ax.max(axis=1, keepdims=True)
    centres = place_centres(rng, sds, d, design["separation"])
    return gaussian_clusters(rng, centres, design["sizes"], sds, ax)


def _make_many_clusters(design, rng):
    return _make_blobs_family(design, rng)


def _make_sizes(design, rng):
    return _make_blobs_family(design, rng, axes=True)


def _make_high_dim(design, rng):
    """Unit-sd clusters in the informative dims, every one of them carrying at least
    HD_MIN_SHARE / p of the centres' variance (redrawn until so); N(0, 1) elsewhere."""
    k, d, inf = design["true_k"], design["d"], design["informative"]
    for _ in range(10_000):
        centres = place_centres(rng, np.ones(k), len(inf), design["separation"])
        share = centres.var(axis=0) / centres.var(axis=0).sum()
        if share.min() >= HD_MIN_SHARE / len(inf):
            break
    else:
        raise RuntimeError(f"{design['id']}: could not spread the centres over every dim")
    Z, y = gaussian_clusters(rng, centres, design["sizes"], np.ones(k))
    X = rng.standard_normal((len(y), d))
    X[:, inf] = Z
    return X, y


def _make_densities(design, rng):
    X, y = _make_blobs_family(design, rng)
    return background(rng, X, y, design["n_noise"])


def _make_shapes(design, rng):
    shape, m = design["shape"], design["n"] - design["n_noise"]
    if shape == "anisotropic":
        X, y = anisotropic(rng, design["sizes"], design["separation"], design["axis_ratio"])
    else:
        X, y = {"moons": moons, "rings": rings, "spirals": spirals,
                "chainlink": chainlink}[shape](rng, m)
    if design["n_noise"]:
        X, y = background(rng, X, y, design["n_noise"])
    if design["embedded"]:
        X = embedded(rng, X, EMBED_DIMS)
    return X, y


def _make_one_cluster(design, rng):
    n, d, kind = design["n"], design["d"], design["kind"]
    if kind == "uniform_box":
        X = rng.uniform(0.0, 1.0, (n, d)) * rng.uniform(*ONE_BOX_SIDES, size=d)
    elif kind == "gaussian":
        X = rng.standard_normal((n, d))
    elif kind == "elongated":
        X = rng.standard_normal((n, d))
        X[:, 0] *= design["elongation"]
    elif kind == "student_t":
        df = design["df"]
        X = rng.standard_normal((n, d)) / np.sqrt(rng.chisquare(df, size=(n, 1)) / df)
    else:
        raise ValueError(f"kind must be one of {ONE_KINDS}, got {kind!r}")
    return X @ mc.random_rotation(rng, d).T, np.zeros(n, dtype=np.int64)


def _shuffled(rng, X, y):
    perm = rng.permutation(len(y))
    return X[perm], y[perm]


def _make_scenes(design, rng):
    """Groups of their kinds placed by the separation rule (:func:`place_groups` at a gap of
    SEPARATION × the largest ε); background points uniform in the groups' box; embedded:
    noise dims of sd GROUP_EMBED_NOISE × the median group's sd, then a random rotation."""
    own, emb, sizes = design["own_d"], design["embedded"], design["sizes"]
    parts = [scene_group(rng, kind, m, extent, own) for kind, m, extent in
             zip(design["kinds"], sizes, design["extents"], strict=True)]
    sd = GROUP_EMBED_NOISE * float(np.median([p.std(axis=0).mean() for p in parts]))
    if emb:
        parts = _with_noise_dims(rng, parts, EMBED_DIMS, sd)
    gap = SEPARATION * max(connectivity_scale(p) for p in parts)
    X = np.vstack(_shifted(parts, place_groups(rng, parts, own, gap)))
    y = np.repeat(np.arange(len(sizes)), sizes)
    if design["n_noise"]:
        lo, hi = X[:, :own].min(axis=0), X[:, :own].max(axis=0)
        m = design["n_noise"]
        noise = np.hstack([lo + (hi - lo) * rng.random((m, own)),
                           rng.normal(0.0, sd, (m, X.shape[1] - own))])
        X, y = np.vstack([X, noise]), np.concatenate([y, np.full(m, -1)])
    if emb:
        X = X @ mc.random_rotation(rng, EMBED_DIMS).T
    return _shuffled(rng, X, y)


def _symmetric_centres(design) -> np.ndarray:
    """The groups' centres of a Gaussian arrangement, unit scale, in the plane or 3-D."""
    layout = design["layout"]
    if design["arrangement"] == "polytope":
        c = polytope_vertices(layout)
        return np.vstack([c, np.zeros((1, c.shape[1]))]) if design["centre"] else c
    if layout == "circle":
        return ring_positions(design["true_k"])
    if layout == "centre_ring":
        return np.vstack([np.zeros((1, 2)), ring_positions(design["true_k"] - 1)])
    inner, outer = design["rings"]
    return np.vstack([ring_positions(inner),
                      ring_positions(outer, OUTER_RADIUS, np.pi / outer)])


def _make_bands(design, rng):
    """:func:`bands`, embedded (noise dims of sd GROUP_EMBED_NOISE × the across sd) and
    z-scored as the design says, drawn anew until the separation rule holds."""
    own, _, (law, spread), step, across, _ = BANDS[design["layout"]]
    offsets = band_offsets(design["true_k"], own, step)
    for _ in range(REDRAWS):
        X, y = bands(rng, design["sizes"], offsets, law, spread, across)
        if design["embedded"]:
            X = embedded(rng, X, EMBED_DIMS, GROUP_EMBED_NOISE * across / X.std(axis=0).mean())
        if design["standardize"]:
            X = _zscored(X)
        if separation(X, y) >= BAND_SEPARATION:
            return _shuffled(rng, X, y)
    raise RuntimeError(f"{design['id']}: no draw of {REDRAWS} met the separation rule")


def _make_symmetric(design, rng):
    """Unit-sd spherical Gaussian groups at the arrangement's centres (randomly rotated),
    spread to the separation rule at SEPARATION × ``spacing`` (:func:`spread_to_separation`);
    embedded: noise dims of sd GROUP_EMBED_NOISE, then a random rotation. Bands: see
    :func:`_make_bands`."""
    if design["arrangement"] == "bands":
        return _make_bands(design, rng)
    own, sizes = design["own_d"], design["sizes"]
    centres = _symmetric_centres(design)
    centres = np.pad(centres, ((0, 0), (0, own - centres.shape[1])))
    centres = centres @ mc.random_rotation(rng, own).T
    parts = [rng.standard_normal((m, own)) for m in sizes]
    if design["embedded"]:
        parts = _with_noise_dims(rng, parts, EMBED_DIMS, GROUP_EMBED_NOISE)
    scale = spread_to_separation(parts, centres, SEPARATION * design["spacing"])
    X = np.vstack(_shifted(parts, scale * centres))
    if design["embedded"]:
        X = X @ mc.random_rotation(rng, EMBED_DIMS).T
    return _shuffled(rng, X, np.repeat(np.arange(len(sizes)), sizes))


def _make_two_curves(design, rng):
    """Rings: angles uniform, radii 1 and ``factor``, N(0, noise²) added to both coordinates
    (scikit-learn's make_circles, whose angles are evenly spaced); bands: x1 uniform on
    ±``length``, x2 = ±``offset`` + N(0, sd²)."""
    m = design["sizes"][0]
    y = np.repeat([0, 1], m)
    if design["kind"] == "rings":
        t = rng.uniform(0, 2 * np.pi, 2 * m)
        r = np.where(y == 0, 1.0, design["factor"])
        X = np.c_[r * np.cos(t), r * np.sin(t)] + rng.normal(0, design["noise"], (2 * m, 2))
    else:
        X = np.c_[rng.uniform(-design["length"], design["length"], 2 * m),
                  np.where(y == 0, -1.0, 1.0) * design["offset"]
                  + rng.normal(0, design["sd"], 2 * m)]
    return X, y


_MAKE = {"milligan_cooper": _make_milligan_cooper, "many_clusters": _make_many_clusters,
         "high_dim": _make_high_dim, "shapes": _make_shapes, "densities": _make_densities,
         "one_cluster": _make_one_cluster, "sizes": _make_sizes, "scenes": _make_scenes,
         "symmetric": _make_symmetric, "two_curves": _make_two_curves}


def make(design: dict) -> tuple[np.ndarray, np.ndarray, int]:
    """(X (n, d) float64, truth (n,) int64 with −1 for background noise, true_k) of a design
    of :func:`designs`, drawn from ``default_rng(design["seed"])`` alone."""
    family = design["family"]
    if family not in _MAKE:
        raise ValueError(f"family must be one of {list(FAMILIES)}, got {family!r}")
    X, y = _MAKE[family](design, np.random.default_rng(design["seed"]))
    X = np.ascontiguousarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.int64)
    if X.shape != (design["n"], design["d"]) or len(y) != len(X):
        raise AssertionError(f"{design['id']}: X {X.shape}, truth {y.shape}, "
                             f"design n = {design['n']}, d = {design['d']}")
    return X, y, int(design["true_k"])
