"""The work of a selection as independent tasks, each returning tidy rows
(``criterion``, ``k``, ``rep``, ``score`` and criterion-specific columns).

Shared work is done once per task: a ``split`` task fits both random halves X¹, X² for
every k, and those fits serve the transfer cost, the approximation capacity, the stability
and the prediction strength; the ``full`` task fits all objects once per k for BIC, AIC,
the internal indices, the PAC-MDL bound and the gap statistic's W_k of the data; each
``gap`` task is one uniform reference set, each ``clest`` task one data set (rep 0: the
data, or a sample of ``max_items`` of it; rep ≥ 1: a uniform reference set);
``bicross`` holds all row/column permutations. A task is a plain dict holding everything
its result depends on (so that it can be hashed into a cache key) except the data.
"""

from __future__ import annotations

from dataclasses import fields

import numpy as np

from mtc_cli.selection.catalog import CLUSTERING, CRITERIA, GAP_RULES
from mtc_cli.selection.settings import Settings

#: β grid of the capacity: 16 points over six decades, then finer grids between the
#: neighbours of the best (the experiments of the wASC paper use 121 and a bounded search;
#: on 80 sets of k-means costs the two maxima differ by at most 3·10⁻⁷ bits, in two thirds
#: of the time of a 31-point grid)
CAPACITY_GRID = 16
#: settings each family's result depends on (beside the model, k range and criteria)
_FAMILY_KEYS = {
    "split": ("n_init", "covariance_type", "beta_factor", "n_random", "max_assignments",
              "max_items"),
    "full": ("n_init", "covariance_type", "max_items", "splits", "train_fraction",
             "hdbscan_min_cluster_size"),
    "gap": ("n_init", "covariance_type", "max_items"),
    "clest": ("n_init", "covariance_type", "clest_splits", "max_items"),
    "bicross": ("holdout", "permutations"),
}


def plan(s: Settings) -> list[dict]:
    """The tasks of a selection, heaviest families first (they dispatch first on -j N)."""
    tasks = []
    for family in ("clest", "gap", "split", "bicross", "full"):
        criteria = [c for c in s.criteria if CRITERIA[c].family == family]
        if family == "full":  # the data's own log W_k of the gap statistic: from its fits
            criteria += [c for c in s.criteria if CRITERIA[c].family == "gap"]
        if not criteria:
            continue
        base = {"family": family, "model": s.model, "k_lo": s.k_lo, "k_hi": s.k_hi,
                "criteria": criteria, **{k: getattr(s, k) for k in _FAMILY_KEYS[family]}}
        if family == "gap":  # the B reference sets (the data's own W_k: the full task)
            reps = range(1, s.references + 1)
        elif family == "clest":  # rep 0: the data; 1..B: reference sets
            reps = range(s.clest_references + 1)
        elif family == "split":
            reps = range(s.splits)
        else:
            reps = range(1)
        tasks += [{**base, "rep": r} for r in reps]
    return tasks


def settings_of(task: dict) -> Settings:
    """The :class:`Settings` a task was planned with (defaults for keys it does not need)."""
    known = {f.name for f in fields(Settings)}
    values = {k: v for k, v in task.items() if k in known}
    values["criteria"] = tuple(task["criteria"])
    return Settings(**values)


def run_task(X, task: dict, rng: np.random.Generator, *, train_labels=None) -> list[dict]:
    """The rows of one task on the data X (dense array, or CSR for ``spkmeans``).
    ``train_labels``: one label per object, None where unlabelled (PAC-MDL only)."""
    from mtc_cli.selection.fitting import CannotFit

    s = settings_of(task)
    family = task["family"]
    try:
        rows = _family_rows(X, s, family, rng, task["rep"], train_labels)
    except CannotFit as exc:  # the model fails alone: its criteria NaN, with why
        rows = not_computed(s, family, str(exc), task["rep"])
    return [{"family": family, "rep": task["rep"], **r} for r in rows]


def _family_rows(X, s: Settings, family: str, rng, rep: int, train_labels) -> list[dict]:
    if family == "split":
        if s.model in CLUSTERING:
            rows = _split_clustering(X, s, rng)
        elif s.model == "svd":
            rows = _split_svd(X, s, rng)
        else:
            rows = _split_boolean(X, s, rng)
    elif family == "full":
        rows = _full(X, s, rng, train_labels)
    elif family == "gap":
        rows = _gap(X, s, rng, rep)
    elif family == "clest":
        rows = _clest(X, s, rng, rep)
    elif family == "bicross":
        rows = _bicross(X, s, rng)
    else:
        raise ValueError(f"unknown task family {family!r}")
    return rows


def not_computed(s: Settings, family: str, why: str, rep: int) -> list[dict]:
    """NaN rows, each saying ``why``, for every criterion the task of ``family`` computes at
    every k where it is defined (the gap statistic's three rules read one ``gap`` curve)."""
    names = dict.fromkeys("gap" if c in GAP_RULES else c for c in s.criteria
                          if CRITERIA[c].family == family
                          or (family == "full" and CRITERIA[c].family == "gap"))
    return [{"criterion": c, "k": k,
             **({"reference": int(rep > 0)} if c in ("gap", "clest") else {}),
             "score": np.nan, "note": why}
            for c in names for k in s.ks(c)]


def _model(s: Settings):
    from mtc_cli.selection.fitting import cluster_model

    return cluster_model(s.model, n_init=s.n_init, covariance_type=s.covariance_type,
                         beta_factor=s.beta_factor, max_items=s.max_items)


def _nearest(model_name: str, X1, X2) -> np.ndarray:
    """ψ: for every row of X² its nearest row of X¹ (cosine for spherical k-means,
    Hamming for Boolean rows, else Euclidean), computed in bounded-memory blocks."""
    from mtc_cli.core import mappings

    if model_name == "spkmeans":
        return mappings.nearest_neighbour_cosine(X1, X2)
    metric = "hamming" if model_name == "boolean" else "euclidean"
    return mappings.nearest_neighbour(X1, X2, metric=metric,
                                      chunk=max(1, 2_000_000 // max(1, X1.shape[0])))


def _sample(n: int, size: int, rng: np.random.Generator) -> np.ndarray:
    """All of range(n), or a sorted random sample of ``size`` of it when n is larger."""
    if n <= size:
        return np.arange(n)
    return np.sort(rng.choice(n, size=size, replace=False))


def _halves(n: int, rng: np.random.Generator):
    from mtc_cli.core.criteria.stability import split_halves

    return split_halves(n, rng)


# --- split tasks ---------------------------------------------------------------------------

def _split_clustering(X, s: Settings, rng) -> list[dict]:
    """Random halves X¹, X², both fitted for every k; per k: the transfer cost (eq. 3, both
    directions averaged), the capacity (eq. 13, both directions averaged; samples of at most
    ``max_items`` of each half aligned by the soft mapping of MTC eq. 12,
    :mod:`mtc_cli.core.criteria.soft_capacity`), the disagreement
    of A_k(X²) with the prediction of X¹'s solution on X² and its random-labelling baselines
    (``random``: uniform labels, Lange et al.; ``permuted``: the same labels permuted, which
    keeps the cluster sizes — :mod:`mtc_cli.selection.auto` compares algorithms by it), and
    the prediction strength of the same pair (Tibshirani & Walther)."""
    from mtc_cli.core.criteria import prediction_strength, stability
    from mtc_cli.core.criteria.soft_capacity import alignment, soft_capacity

    model = _model(s)
    i1, i2 = _halves(X.shape[0], rng)
    X1, X2 = X[i1], X[i2]
    want = set(s.criteria)
    ks = list(range(s.k_lo, s.k_hi + 1))
    fit1 = model.fit_all(X1, ks, rng)
    fit2 = model.fit_all(X2, ks, rng)
    capacity_note = ""
    if "capacity" in want:  # I_β is a mean over objects: estimated on ≤ max_items of them
        A = X1[_sample(X1.shape[0], s.max_items, rng)]
        B = X2[_sample(X2.shape[0], s.max_items, rng)]
        try:
            mappings = alignment(A, B, model.metric)
        except ValueError as exc:  # a half whose objects all coincide: no mapping scale
            capacity_note = f"not computed: {exc}"
    # the solution of X¹ transferred to X²: by the model's predictor (stability) and by the
    # prediction strength's (the nearest centroid; the GMM's Bayes rule)
    predicted = model.predict_all(fit1, X2) if {"stability", "prediction_strength"} & want \
        else {}
    strength = (model.strength_predict_all(fit1, X2)
                if "prediction_strength" in want and not model.strength_by_predictor
                else predicted)
    # the size-keeping baseline (labels permuted) draws from a generator of its own, spawned
    # without advancing ``rng``: every other score is as without it
    sizes_rng = rng.spawn(1)[0] if "stability" in want else None
    rows = []
    for k in ks:
        f1, f2 = fit1[k], fit2[k]
        if "mtc" in want:
            score = 0.5 * (model.transfer_cost(f1, X1, X2) + model.transfer_cost(f2, X2, X1))
            rows.append({"criterion": "mtc", "k": k, "score": score})
        if "capacity" in want and capacity_note:
            rows.append({"criterion": "capacity", "k": k, "score": np.nan,
                         "note": capacity_note})
        elif "capacity" in want:
            score = soft_capacity(A, B, f1, f2, model, mappings, n_grid=CAPACITY_GRID,
                                  refine="grid")
            rows.append({"criterion": "capacity", "k": k, "score": score})
        if "stability" in want and k >= 2:
            d, base = stability.disagreement_and_baseline(f2.labels, predicted[k], k, rng,
                                                          n_draws=s.n_random)
            kept = stability.random_disagreement(f2.labels, predicted[k], k, sizes_rng,
                                                 normalisation="permutation",
                                                 n_draws=s.n_random)
            rows.append({"criterion": "stability", "k": k, "score": d, "random": base,
                         "permuted": kept})
        if "prediction_strength" in want:
            ps = prediction_strength.prediction_strength(f2.labels, strength[k])
            rows.append({"criterion": "prediction_strength", "k": k, "score": ps})
    return rows


def _split_svd(X, s: Settings, rng) -> list[dict]:
    """Eq. 7 of Frank et al. 2011 for every rank from one SVD per half: X² costed against
    the rank-k reconstruction of each row's nearest neighbour in X¹, and vice versa."""
    from mtc_cli.core.criteria.transfer_cost import svd_transfer_costs
    from mtc_cli.core.models import svd

    i1, i2 = _halves(X.shape[0], rng)
    X1, X2 = X[i1], X[i2]
    forward = svd_transfer_costs(svd.fit(X1), X2, _nearest("svd", X1, X2))
    backward = svd_transfer_costs(svd.fit(X2), X1, _nearest("svd", X2, X1))
    r = min(len(forward), len(backward), s.k_hi)
    return [{"criterion": "mtc", "k": k, "score": 0.5 * (forward[k - 1] + backward[k - 1])}
            for k in range(s.k_lo, r + 1)]


def _split_boolean(X, s: Settings, rng) -> list[dict]:
    """Random halves of the users. ``mtc``: the MAC factorization (Streich et al. 2009) of
    each half, transferred to the other half through each user's Hamming nearest neighbour
    (Sect. 5 of Frank et al. 2011); ``capacity``: eq. 13 on the MAC costs R_iL of the
    aligned users; ``mtc_svd``: the thresholded rank-k SVD of each half, transferred the same
    way (Sect. 4.2). Both directions averaged."""
    from mtc_cli.core.criteria.approximation_capacity import capacity
    from mtc_cli.core.criteria.boolean_transfer import (
        bmf_transfer_cost,
        svd_threshold_transfer_costs,
    )
    from mtc_cli.core.models import boolean, svd

    i1, i2 = _halves(X.shape[0], rng)
    X1, X2 = X[i1], X[i2]
    psi21, psi12 = _nearest("boolean", X1, X2), _nearest("boolean", X2, X1)
    want = set(s.criteria)
    rows = []
    if {"mtc", "capacity"} & want:
        for k in range(s.k_lo, s.k_hi + 1):
            m1 = boolean.fit_mac(X1, k, rng, max_assignments=s.max_assignments)
            m2 = boolean.fit_mac(X2, k, rng, max_assignments=s.max_assignments)
            if "mtc" in want:
                score = 0.5 * (bmf_transfer_cost(m1.Z, m1.U, X2, psi21)
                               + bmf_transfer_cost(m2.Z, m2.U, X1, psi12))
                rows.append({"criterion": "mtc", "k": k, "score": score})
            if "capacity" in want:
                caps = [capacity(boolean.costs(A[psi], m.v, m.sets, m.epsilon, m.r),
                                 boolean.costs(B, m.v, m.sets, m.epsilon, m.r),
                                 n_grid=CAPACITY_GRID)[0]
                        for m, A, B, psi in ((m1, X1, X2, psi21), (m2, X2, X1, psi12))]
                rows.append({"criterion": "capacity", "k": k, "score": float(np.mean(caps))})
    if "mtc_svd" in want:
        forward = svd_threshold_transfer_costs(svd.fit(X1), X2, psi21, s.k_hi)
        backward = svd_threshold_transfer_costs(svd.fit(X2), X1, psi12, s.k_hi)
        r = min(len(forward), len(backward))
        rows += [{"criterion": "mtc_svd", "k": k,
                  "score": 0.5 * (forward[k - 1] + backward[k - 1])}
                 for k in range(s.k_lo, r + 1)]
    return rows


# --- the fit on all objects -------------------------------------------------------------------

def _full(X, s: Settings, rng, train_labels) -> list[dict]:
    if s.model in CLUSTERING:
        return _full_clustering(X, s, rng, train_labels)
    if s.model == "svd":
        return _full_svd(X, s)
    return _full_boolean(X, s)


def _full_clustering(X, s: Settings, rng, train_labels) -> list[dict]:
    """One fit of all objects per k: BIC and AIC (GMM), silhouette, Calinski–Harabasz and
    Davies–Bouldin of the partition, the classical indices of :func:`_partition_indices`,
    the PAC-MDL bound of the partition as a transductive classifier, and the gap
    statistic's log W_k of the data (:func:`_gap_of_data`)."""
    from mtc_cli.core.criteria import information, internal_indices

    model = _model(s)
    want = set(s.criteria)
    ks = list(range(s.k_lo, s.k_hi + 1))
    fits = model.fit_all(X, ks, rng)
    n, d = X.shape
    seed = int(rng.integers(2**31 - 1))
    rows = _gap_of_data(X, s, fits, rng) if want & set(GAP_RULES) else []
    for k, f in fits.items():
        if {"bic", "aic"} & want:
            nll, p = model.negative_log_likelihood(f, X), model.n_parameters(k, d)
            if "bic" in want:
                rows.append({"criterion": "bic", "k": k, "score": information.bic(nll, p, n)})
            if "aic" in want:
                rows.append({"criterion": "aic", "k": k, "score": information.aic(nll, p)})
        if k < 2:
            continue
        for name, index in (("silhouette", internal_indices.silhouette),
                            ("calinski_harabasz", internal_indices.calinski_harabasz),
                            ("davies_bouldin", internal_indices.davies_bouldin)):
            if name not in want:
                continue
            kw = ({"max_items": s.max_items, "random_state": seed, "metric": model.metric}
                  if name == "silhouette" else {})
            try:
                score, note = float(index(X, f.labels, **kw)), ""
            except ValueError as exc:  # the fit left fewer than 2 non-empty clusters
                score, note = np.nan, str(exc)
            rows.append({"criterion": name, "k": k, "score": score, "note": note})
    rows += _partition_indices(X, fits, s, seed)
    if "hdbscan_count" in want:
        rows.append(_hdbscan_count(X, s))
    if "pac_mdl" in want:
        rows += _pac_mdl(fits, s, rng, train_labels)
    return rows


def _hdbscan_count(X, s: Settings) -> dict:
    """HDBSCAN's own number of clusters (scikit-learn's ``HDBSCAN``: the excess-of-mass
    selection of the condensed tree at ``hdbscan_min_cluster_size``, Campello, Moulavi &
    Sander 2013), on at most ``max_items`` objects (:func:`reference_sample`); k = 1 where
    every object is noise."""
    from sklearn.cluster import HDBSCAN

    data = X[reference_sample(X, s.max_items)]
    if len(data) < s.hdbscan_min_cluster_size:  # no cluster can be that large: all noise
        return {"criterion": "hdbscan_count", "k": 1, "score": 0.0,
                "note": f"fewer objects than min_cluster_size {s.hdbscan_min_cluster_size}"}
    labels = HDBSCAN(min_cluster_size=s.hdbscan_min_cluster_size, copy=True).fit_predict(data)
    found = len(set(labels.tolist()) - {-1})
    return {"criterion": "hdbscan_count", "k": max(found, 1), "score": float(found),
            "note": f"{np.mean(labels == -1):.0%} of the objects left as noise"}


def _partition_indices(X, fits: dict, s: Settings, seed: int) -> list[dict]:
    """The classical indices of the partitions of all objects, one per k
    (:data:`~mtc_cli.core.criteria.partition_indices.INDICES`); pairs or objects sampled above
    ``max_items`` with a generator of its own (``seed``, as the silhouette's sample)."""
    from mtc_cli.core.criteria.partition_indices import INDICES

    partitions = {k: f.labels for k, f in fits.items()}
    rows = []
    for name in (c for c in s.criteria if c in INDICES):
        values = INDICES[name].values(X, partitions, np.random.default_rng(seed), s.max_items)
        rows += [{"criterion": name, "k": k, "score": float(v)} for k, v in values.items()]
    return rows


def _pac_mdl(fits: dict, s: Settings, rng, train_labels) -> list[dict]:
    """The PAC-MDL bound (Banerjee & Langford 2004, Theorem 1, δ = 0.1) of each clustering
    of all objects used as a transductive classifier, per train/test split: the rows with a
    training label form the train set when some rows have none (one split); when every row
    is labelled, ``splits`` random splits keep ``train_fraction`` of the labels. The
    description language is Cluster (eq. 3) without the Init term: the clustering is chosen
    without looking at labels, only the number of clusters c is, so |σ| = c log₂ ℓ +
    log₂(c(c − 1)). ``test_error``: the classifier's error on the hidden labels (all-labelled
    case only)."""
    from mtc_cli.core.criteria import pac_mdl

    y_all = np.asarray(train_labels, dtype=object)
    known = np.array([v is not None for v in y_all])
    names, y = np.unique(y_all[known].astype(str), return_inverse=True)
    codes = np.full(len(y_all), -1)
    codes[known] = y
    n_labels = len(names)
    if known.all():
        m = int(round(s.train_fraction * len(y_all)))
        splits = [rng.permutation(len(y_all))[:m] for _ in range(s.splits)]
    else:
        splits = [np.flatnonzero(known)]
    rows = []
    for rep, train in enumerate(splits):
        test = np.setdiff1d(np.arange(len(y_all)), train)
        for k, f in fits.items():
            if k < 2:
                continue
            table = pac_mdl.transductive_labels(f.labels, train, codes[train], n_labels, rng,
                                                n_clusters=k)
            predicted = table[f.labels]
            errors = int(np.count_nonzero(predicted[train] != codes[train]))
            bits = pac_mdl.description_length("Cluster", k, n_labels)
            bound = float(pac_mdl.test_error_bound(len(train), len(test), errors, bits))
            row = {"criterion": "pac_mdl", "k": k, "score": bound, "split": rep,
                   "train_errors": errors, "n_train": len(train), "n_test": len(test)}
            if known.all():
                row["test_error"] = float(np.mean(predicted[test] != codes[test]))
            rows.append(row)
    return rows


def _full_svd(X, s: Settings) -> list[dict]:
    """Gavish & Donoho's hard threshold (its ratio s_k / τ per rank) and Minka's PCA-MLE."""
    from mtc_cli.core.criteria import hard_threshold, pca_mle
    from mtc_cli.core.models import svd

    rows = []
    if "gavish_donoho" in s.criteria:
        sv = svd.fit(X).s
        tau = hard_threshold.threshold(sv, X.shape)
        rows += [{"criterion": "gavish_donoho", "k": k,
                  "score": float(sv[k - 1] / tau) if tau > 0 else np.inf}
                 for k in range(1, min(len(sv), s.k_hi + 1) + 1)]
    if "pca_mle" in s.criteria:
        try:
            rows.append({"criterion": "pca_mle", "k": pca_mle.minka_rank(X), "score": 1.0})
        except ValueError as exc:
            rows.append({"criterion": "pca_mle", "k": np.nan, "score": np.nan,
                         "note": str(exc)})
    return rows


def _full_boolean(X, s: Settings) -> list[dict]:
    """Molloy's rules on the thresholded SVD of all users: the coverage of the ones of X by
    X̃_k and the increment ‖X̃_k − X̃_{k+1}‖₁ / ‖X‖₁, for k = 1..k_hi."""
    from mtc_cli.core.criteria import molloy
    from mtc_cli.core.models import svd
    from mtc_cli.core.models.boolean import svd_denoisings

    rows, prev = [], None
    for k, Xk in enumerate(svd_denoisings(svd.fit(X), s.k_hi + 1), start=1):
        if prev is not None and "increment" in s.criteria:
            rows.append({"criterion": "increment", "k": k - 1,
                         "score": molloy.increment(prev, Xk, X)})
        if k <= s.k_hi and "coverage" in s.criteria:
            rows.append({"criterion": "coverage", "k": k, "score": molloy.coverage(Xk, X)})
        prev = Xk
    return rows


# --- reference data sets and permutations ---------------------------------------------------

def reference_sample(X, max_items: int) -> np.ndarray:
    """The objects the reference-set criteria (gap statistic, Clest) work on: all of them,
    or above ``max_items`` a fixed random sample of that size (seed 0: the same for the data
    and every reference set). Both criteria compare a clustering of the data with the same
    clustering of uniform data of the same size, so a sample estimates the same comparison
    with more noise, at a cost that no longer grows with n."""
    n = X.shape[0]
    if n <= max_items:
        return np.arange(n)
    return np.sort(np.random.default_rng(0).permutation(n)[:max_items])


def _gap(X, s: Settings, rng, rep: int) -> list[dict]:
    """log W*_k of reference set ``rep`` (≥ 1), drawn uniformly in the bounding box of the
    data (or of its :func:`reference_sample`), clustered by the same model (Tibshirani et
    al. 2001)."""
    from mtc_cli.core.criteria.gap_statistic import uniform_box

    data = uniform_box(X[reference_sample(X, s.max_items)], rng)
    return _log_w(data, s, rng, reference=1)


def _gap_of_data(X, s: Settings, fits: dict, rng) -> list[dict]:
    """log W_k of the data: from the full task's fits of all objects (the same model on the
    same objects) where no sample is drawn; above ``max_items`` objects, of the model
    fitted anew on the :func:`reference_sample` its reference sets are drawn around."""
    from mtc_cli.core.criteria.gap_statistic import within_sum_of_squares

    if X.shape[0] > s.max_items:
        return _log_w(X[reference_sample(X, s.max_items)], s, rng, reference=0)
    return [{"criterion": "gap", "k": k, "reference": 0,
             "score": float(np.log(within_sum_of_squares(X, fits[k].labels)))}
            for k in s.ks("gap")]


def _log_w(data, s: Settings, rng, *, reference: int) -> list[dict]:
    from mtc_cli.core.criteria.gap_statistic import within_sum_of_squares
    from mtc_cli.selection.fitting import clusterer

    ks = s.ks("gap")
    labels = clusterer(_model(s))(data, ks, rng)
    return [{"criterion": "gap", "k": k, "reference": reference,
             "score": float(np.log(within_sum_of_squares(data, labels[k])))} for k in ks]


def _clest(X, s: Settings, rng, rep: int) -> list[dict]:
    """Clest's statistic t_k (median Fowlkes–Mallows agreement of the LDA prediction with the
    test set's own clustering over learning/test splits, Dudoit & Fridlyand 2002) of the data
    (rep 0) or of one uniform reference set (rep ≥ 1). At k beyond what a split can hold
    (:func:`~mtc_cli.core.criteria.clest.largest_k`), and where the data defeat the LDA or
    the model, the scores are NaN with a note: Clest fails alone."""
    from mtc_cli.core.criteria.clest import agreement_statistic, largest_k
    from mtc_cli.core.criteria.gap_statistic import uniform_box
    from mtc_cli.selection.fitting import clusterer

    data = X[reference_sample(X, s.max_items)]
    if rep > 0:
        data = uniform_box(data, rng)
    ks = s.ks("clest")
    try:
        t = agreement_statistic(data, ks, clusterer(_model(s)), rng, n_splits=s.clest_splits)
    except (ValueError, np.linalg.LinAlgError) as exc:  # degenerate data
        why = f"not computed: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}"
        return [{"criterion": "clest", "k": k, "reference": int(rep > 0), "score": np.nan,
                 "note": why} for k in ks]
    top = largest_k(len(data))
    beyond = (f"not computed at k > {top}: a learning/test split of {len(data)} objects "
              f"clusters at most {top} in its test set")
    return [{"criterion": "clest", "k": k, "reference": int(rep > 0), "score": float(v),
             **({"note": beyond} if k > top else {})}
            for k, v in zip(ks, t, strict=True)]


def _bicross(X, s: Settings, rng) -> list[dict]:
    """Owen & Perry's bi-cross-validation error curves, one per random permutation."""
    from mtc_cli.core.criteria import bicross

    curves = bicross.bicross_validation(np.asarray(X, dtype=np.float64), rng,
                                        holdout=s.holdout, permutations=s.permutations,
                                        k_max=s.k_hi)
    return [{"criterion": "bicross", "k": k, "score": float(v), "permutation": p}
            for p, curve in enumerate(curves) for k, v in enumerate(curve, start=1)
            if k >= s.k_lo]
