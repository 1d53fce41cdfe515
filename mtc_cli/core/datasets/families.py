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
proportion to the radius (the three rings of radii 1, 2, 3 and 133 points each of
:mod:`shapes` are not: in a half, the largest gaps along the outer ring exceed the gap
between rings; nor are its spirals), and moons, spirals and chain links with less noise
and more points than :mod:`shapes` gives them.
"""

from __future__ import annotations

import zlib

import numpy as np

from mtc_cli.core.datasets import milligan_cooper as mc
from mtc_cli.core.datasets.shapes import embedded

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
EMBED_DIMS = 10


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


_DESIGNS = {"milligan_cooper": _designs_milligan_cooper,
            "many_clusters": _designs_many_clusters, "high_dim": _designs_high_dim,
            "shapes": _designs_shapes, "densities": _designs_densities,
            "one_cluster": _designs_one_cluster, "sizes": _designs_sizes}


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


_MAKE = {"milligan_cooper": _make_milligan_cooper, "many_clusters": _make_many_clusters,
         "high_dim": _make_high_dim, "shapes": _make_shapes, "densities": _make_densities,
         "one_cluster": _make_one_cluster, "sizes": _make_sizes}


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
