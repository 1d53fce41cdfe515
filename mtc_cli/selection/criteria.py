"""The criteria of ``mtc select``, each one definition: which algorithms it applies to, the
smallest k where it is defined, the rows its hooks add to the tasks of its family, how it
chooses k from them, what it optimises and its paper (the tests of k = 1:
:mod:`mtc_cli.selection.gates`).

The hooks read the work their task shares from its context (:mod:`mtc_cli.selection.tasks`):
a ``split`` context holds the random halves X¹ (``X1``) and X² (``X2``) and, for clustering,
both halves' fits at every k (``fit1``, ``fit2``), the solutions of X¹ transferred to X²
(``predicted``, ``strength``); a ``full`` context the fits of all objects (``fits``) and a
seed for sampling (``seed``); every context the data ``X``, the Settings ``s``, the task's
generator ``rng``, the model (``model``) and the k of the range (``ks``). The math itself is
in :mod:`mtc_cli.core`. A hook keyed ``"family:kind"`` serves the algorithms of that kind
(:data:`mtc_cli.selection.spec.KINDS`), one keyed by the family alone every other.
"""

from __future__ import annotations

from mtc_cli.core.criteria.partition_index_table import TABLE as INDEX_TABLE
from mtc_cli.selection.readers import (
    AboveOne,
    Clest,
    Extremum,
    GapRule,
    IndexRule,
    Molloy,
    Reported,
    Stability,
    Threshold,
)
from mtc_cli.selection.spec import Criterion, Hooks

#: β grid of the capacity: 16 points over six decades, then finer grids between the
#: neighbours of the best (the experiments of the wASC paper use 121 and a bounded search;
#: on 80 sets of k-means costs the two maxima differ by at most 3·10⁻⁷ bits, in two thirds
#: of the time of a 31-point grid)
CAPACITY_GRID = 16


def _kinds(*kinds):
    def applies(algorithm) -> bool:
        return algorithm.kind in kinds
    return applies


def _clusters(algorithm) -> bool:
    return algorithm.clusters


def _euclidean_clusters(algorithm) -> bool:
    """Clustering on Euclidean dissimilarities: the criteria built on centroids, sums of
    squares or uniform reference boxes."""
    return algorithm.clusters and algorithm.metric == "euclidean"


def _likelihood(algorithm) -> bool:
    return algorithm.likelihood


def _named(name: str):
    def applies(algorithm) -> bool:
        return algorithm.name == name
    return applies


def row(criterion: str, k, score, **extra) -> dict:
    return {"criterion": criterion, "k": k, "score": score, **extra}


def reference_sample(X, max_items: int):
    """The objects the reference-set criteria (gap statistic, Clest) work on: all of them,
    or above ``max_items`` a fixed random sample of that size (seed 0: the same for the data
    and every reference set). Both criteria compare a clustering of the data with the same
    clustering of uniform data of the same size, so a sample estimates the same comparison
    with more noise, at a cost that no longer grows with n."""
    import numpy as np

    n = X.shape[0]
    if n <= max_items:
        return np.arange(n)
    return np.sort(np.random.default_rng(0).permutation(n)[:max_items])


# --- split: random halves, both fitted for every k -----------------------------------------

def _mtc_at_k(ctx, k):
    """Eq. 3 of Frank et al. 2011, both transfer directions averaged: X² costed under the
    solution of X¹ and X¹ under that of X² (the model's transfer cost: eqs. 6, 14)."""
    m = ctx.model
    score = 0.5 * (m.transfer_cost(ctx.fit1[k], ctx.X1, ctx.X2)
                   + m.transfer_cost(ctx.fit2[k], ctx.X2, ctx.X1))
    return [row("mtc", k, score)]


def _mtc_rank_at_k(ctx, k):
    """Eq. 7 of Frank et al. 2011 for every rank from one SVD per half: X² costed against
    the rank-k reconstruction of each row's nearest neighbour in X¹, and vice versa."""
    forward, backward = ctx.svd_transfer_costs
    if k > min(len(forward), len(backward)):
        return []
    return [row("mtc", k, 0.5 * (forward[k - 1] + backward[k - 1]))]


def _mtc_roles_at_k(ctx, k):
    """Sect. 5 of Frank et al. 2011: the MAC roles of each half (Streich et al. 2009)
    transferred to the other half through each user's Hamming nearest neighbour."""
    from mtc_cli.core.criteria.boolean_transfer import bmf_transfer_cost

    m1, m2 = ctx.mac(k)
    score = 0.5 * (bmf_transfer_cost(m1.Z, m1.U, ctx.X2, ctx.psi21)
                   + bmf_transfer_cost(m2.Z, m2.U, ctx.X1, ctx.psi12))
    return [row("mtc", k, score)]


def _capacity_prepare(ctx):
    """I_β is a mean over objects: estimated on ≤ ``max_items`` of each half, aligned by the
    soft mapping of Frank et al. eq. 12 (:mod:`mtc_cli.core.criteria.soft_capacity`)."""
    from mtc_cli.core.criteria.soft_capacity import alignment

    ctx.capacity_A = ctx.X1[ctx.sample(ctx.X1.shape[0])]
    ctx.capacity_B = ctx.X2[ctx.sample(ctx.X2.shape[0])]
    ctx.capacity_note = ""
    try:
        ctx.capacity_mappings = alignment(ctx.capacity_A, ctx.capacity_B, ctx.model.metric)
    except ValueError as exc:  # a half whose objects all coincide: no mapping scale
        ctx.capacity_note = f"not computed: {exc}"
    return []


def _capacity_at_k(ctx, k):
    """Eq. 13 of Buhmann et al. 2011, both directions averaged
    (:func:`mtc_cli.core.criteria.soft_capacity.soft_capacity`)."""
    import numpy as np

    from mtc_cli.core.criteria.soft_capacity import soft_capacity

    if ctx.capacity_note:
        return [row("capacity", k, np.nan, note=ctx.capacity_note)]
    score = soft_capacity(ctx.capacity_A, ctx.capacity_B, ctx.fit1[k], ctx.fit2[k], ctx.model,
                          ctx.capacity_mappings, n_grid=CAPACITY_GRID, refine="grid")
    return [row("capacity", k, score)]


def _capacity_roles_at_k(ctx, k):
    """Eq. 13 on the MAC costs R_iL of the users aligned by the Hamming nearest neighbour,
    both directions averaged."""
    import numpy as np

    from mtc_cli.core.criteria.approximation_capacity import capacity
    from mtc_cli.core.models import boolean

    caps = [capacity(boolean.costs(A[psi], m.v, m.sets, m.epsilon, m.r),
                     boolean.costs(B, m.v, m.sets, m.epsilon, m.r), n_grid=CAPACITY_GRID)[0]
            for m, A, B, psi in zip(ctx.mac(k), (ctx.X1, ctx.X2), (ctx.X2, ctx.X1),
                                    (ctx.psi21, ctx.psi12), strict=True)]
    return [row("capacity", k, float(np.mean(caps)))]


def _stability_prepare(ctx):
    """The size-keeping baseline (labels permuted) draws from a generator of its own,
    spawned without advancing the task's: every other score is as without it."""
    ctx.sizes_rng = ctx.rng.spawn(1)[0]
    return []


def _stability_at_k(ctx, k):
    """The disagreement of A_k(X²) with the prediction of X¹'s solution on X² and its
    random-labelling baselines (``random``: uniform labels, Lange et al. 2002 eq. 6;
    ``permuted``: the same labels permuted, which keeps the cluster sizes —
    :mod:`mtc_cli.selection.auto` compares algorithms by it)."""
    from mtc_cli.core.criteria import stability

    if k < 2:
        return []
    own, predicted, s = ctx.fit2[k].labels, ctx.predicted[k], ctx.s
    d, base = stability.disagreement_and_baseline(own, predicted, k, ctx.rng,
                                                  n_draws=s.n_random)
    kept = stability.random_disagreement(own, predicted, k, ctx.sizes_rng,
                                         normalisation="permutation", n_draws=s.n_random)
    return [row("stability", k, d, random=base, permuted=kept)]


def _strength_at_k(ctx, k):
    """Tibshirani & Walther 2005: the prediction strength of X¹'s solution on X²."""
    from mtc_cli.core.criteria import prediction_strength

    return [row("prediction_strength", k,
                prediction_strength.prediction_strength(ctx.fit2[k].labels, ctx.strength[k]))]


def _mtc_svd_finish(ctx):
    """Sect. 4.2 of Frank et al. 2011: the thresholded rank-k SVD of each half, transferred
    to the other half through each user's Hamming nearest neighbour."""
    from mtc_cli.core.criteria.boolean_transfer import svd_threshold_transfer_costs
    from mtc_cli.core.models import svd

    s = ctx.s
    forward = svd_threshold_transfer_costs(svd.fit(ctx.X1), ctx.X2, ctx.psi21, s.k_hi)
    backward = svd_threshold_transfer_costs(svd.fit(ctx.X2), ctx.X1, ctx.psi12, s.k_hi)
    r = min(len(forward), len(backward))
    return [row("mtc_svd", k, 0.5 * (forward[k - 1] + backward[k - 1]))
            for k in range(s.k_lo, r + 1)]


# --- full: one fit of all objects per k ------------------------------------------------------

def _information_at_k(name):
    def at_k(ctx, k):
        """Schwarz's BIC (2·NLL + p ln n) or Akaike's AIC (2·NLL + 2p) of the fit of all
        objects."""
        from mtc_cli.core.criteria import information

        nll, p = ctx.nll(k), ctx.model.n_parameters(k, ctx.X.shape[1])
        score = (information.bic(nll, p, ctx.X.shape[0]) if name == "bic"
                 else information.aic(nll, p))
        return [row(name, k, score)]
    return at_k


def _internal_at_k(name):
    def at_k(ctx, k):
        """The silhouette (Rousseeuw 1987; on a sample of ``max_items`` objects above it,
        its distances computed once for every k: ``silhouette_sample`` of the task's
        context), Caliński–Harabasz or Davies–Bouldin index of the partition of all objects
        (:mod:`mtc_cli.core.criteria.internal_indices`)."""
        import numpy as np

        from mtc_cli.core.criteria import internal_indices

        if k < 2:
            return []
        index = getattr(internal_indices, name)
        kw = ({"max_items": ctx.s.max_items, "random_state": ctx.seed,
               "metric": ctx.model.metric, "sample": ctx.silhouette_sample}
              if name == "silhouette" else {})
        try:
            score, note = float(index(ctx.X, ctx.fits[k].labels, **kw)), ""
        except ValueError as exc:  # the fit left fewer than 2 non-empty clusters
            score, note = np.nan, str(exc)
        return [row(name, k, score, note=note)]
    return at_k


def _index_finish(name):
    def finish(ctx):
        """The index of the partitions of all objects, one per k
        (:data:`~mtc_cli.core.criteria.partition_indices.INDICES`); pairs or objects sampled
        above ``max_items`` with a generator of its own (the task's seed, as the
        silhouette's sample): the pairs drawn once for every index that reads them
        (:attr:`~mtc_cli.selection.tasks.ClusteringFull.pairs`)."""
        import numpy as np

        from mtc_cli.core.criteria.partition_indices import INDICES

        index = INDICES[name]
        values = index.values(ctx.X, ctx.partitions, np.random.default_rng(ctx.seed),
                              ctx.s.max_items, **({"pairs": ctx.pairs} if index.pairs else {}))
        return [row(name, k, float(v)) for k, v in values.items()]
    return finish


def _hdbscan_count_finish(ctx):
    """HDBSCAN's own number of clusters at ``hdbscan_min_cluster_size``
    (:func:`mtc_cli.core.criteria.hdbscan_count.hdbscan_count`), on at most ``max_items``
    objects (the :func:`~mtc_cli.selection.tasks.reference_sample`)."""
    import numpy as np

    from mtc_cli.core.criteria.hdbscan_count import hdbscan_count

    size = ctx.s.hdbscan_min_cluster_size
    found, noise = hdbscan_count(ctx.X[reference_sample(ctx.X, ctx.s.max_items)], size)
    note = (f"fewer objects than min_cluster_size {size}" if not np.isfinite(noise)
            else f"{noise:.0%} of the objects left as noise")
    return [row("hdbscan_count", max(found, 1), float(found), note=note)]


def _pac_mdl_finish(ctx):
    """The PAC-MDL bound (Banerjee & Langford 2004, Theorem 1, δ = 0.1) of each clustering
    of all objects used as a transductive classifier, per train/test split: the rows with a
    training label form the train set when some rows have none (one split); when every row
    is labelled, ``splits`` random splits keep ``train_fraction`` of the labels. The
    description language is Cluster (eq. 3) without the Init term: the clustering is chosen
    without looking at labels, only the number of clusters c is, so |σ| = c log₂ ℓ +
    log₂(c(c − 1)). ``test_error``: the classifier's error on the hidden labels (all-labelled
    case only)."""
    import numpy as np

    from mtc_cli.core.criteria import pac_mdl

    s, rng = ctx.s, ctx.rng
    y_all = np.asarray(ctx.train_labels, dtype=object)
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
        for k, f in ctx.fits.items():
            if k < 2:
                continue
            table = pac_mdl.transductive_labels(f.labels, train, codes[train], n_labels, rng,
                                                n_clusters=k)
            predicted = table[f.labels]
            errors = int(np.count_nonzero(predicted[train] != codes[train]))
            bits = pac_mdl.description_length("Cluster", k, n_labels)
            bound = float(pac_mdl.test_error_bound(len(train), len(test), errors, bits))
            extra = {"split": rep, "train_errors": errors, "n_train": len(train),
                     "n_test": len(test)}
            if known.all():
                extra["test_error"] = float(np.mean(predicted[test] != codes[test]))
            rows.append(row("pac_mdl", k, bound, **extra))
    return rows


def _gavish_donoho_finish(ctx):
    """Gavish & Donoho 2014's hard threshold τ = ω(β)·median(s): its ratio s_k / τ per
    rank."""
    import numpy as np

    from mtc_cli.core.criteria import hard_threshold

    sv = ctx.singular_values
    tau = hard_threshold.threshold(sv, ctx.X.shape)
    return [row("gavish_donoho", k, float(sv[k - 1] / tau) if tau > 0 else np.inf)
            for k in range(1, min(len(sv), ctx.s.k_hi + 1) + 1)]


def _pca_mle_finish(ctx):
    """Minka 2000's Laplace approximation of the PCA evidence: the rank it maximises."""
    import numpy as np

    from mtc_cli.core.criteria import pca_mle

    try:
        return [row("pca_mle", pca_mle.minka_rank(ctx.X), 1.0)]
    except ValueError as exc:
        return [row("pca_mle", np.nan, np.nan, note=str(exc))]


def _coverage_finish(ctx):
    """Molloy et al. 2010: the share of the ones of X that the thresholded rank-k SVD X̃_k
    covers, for k = 1..k_hi."""
    from mtc_cli.core.criteria import molloy

    return [row("coverage", k, molloy.coverage(Xk, ctx.X))
            for k, Xk in enumerate(ctx.denoisings[:ctx.s.k_hi], start=1)]


def _increment_finish(ctx):
    """Molloy et al. 2010: ‖X̃_k − X̃_{k+1}‖₁ / ‖X‖₁, for k = 1..k_hi."""
    from mtc_cli.core.criteria import molloy

    d = ctx.denoisings
    return [row("increment", k, molloy.increment(d[k - 1], d[k], ctx.X))
            for k in range(1, len(d))]


# --- reference data sets and permutations ---------------------------------------------------

def _gap_observed(ctx):
    """log W_k of the data: from the fits of all objects (the same model on the same objects)
    where no sample is drawn; above ``max_items`` objects, of the model fitted anew on the
    :func:`~mtc_cli.selection.tasks.reference_sample` its reference sets are drawn around."""
    import numpy as np

    from mtc_cli.core.criteria.gap_statistic import within_sum_of_squares

    X, s = ctx.X, ctx.s
    if X.shape[0] > s.max_items:
        return ctx.log_w(X[reference_sample(X, s.max_items)], reference=0)
    return [row("gap", k, float(np.log(within_sum_of_squares(X, ctx.fits[k].labels))),
                reference=0) for k in s.ks("gap")]


def _gap_reference(ctx):
    """log W*_k of reference set ``rep`` (≥ 1), drawn uniformly in the bounding box of the
    data (or of its reference sample), clustered by the same model (Tibshirani et al.
    2001)."""
    from mtc_cli.core.criteria.gap_statistic import uniform_box

    data = uniform_box(ctx.X[reference_sample(ctx.X, ctx.s.max_items)], ctx.rng)
    return ctx.log_w(data, reference=1)


def _clest_finish(ctx):
    """Clest's statistic t_k (median Fowlkes–Mallows agreement of the LDA prediction with the
    test set's own clustering over learning/test splits, Dudoit & Fridlyand 2002) of the data
    (rep 0) or of one uniform reference set (rep ≥ 1). At k beyond what a split can hold
    (:func:`~mtc_cli.core.criteria.clest.largest_k`), and where the data defeat the LDA or
    the model, the scores are NaN with a note: Clest fails alone."""
    import numpy as np

    from mtc_cli.core.criteria.clest import agreement_statistic, largest_k
    from mtc_cli.core.criteria.gap_statistic import uniform_box

    s, rep = ctx.s, ctx.rep
    data = ctx.X[reference_sample(ctx.X, s.max_items)]
    if rep > 0:
        data = uniform_box(data, ctx.rng)
    ks = s.ks("clest")
    try:
        t = agreement_statistic(data, ks, ctx.clusterer, ctx.rng, n_splits=s.clest_splits)
    except (ValueError, np.linalg.LinAlgError) as exc:  # degenerate data
        why = f"not computed: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}"
        return [row("clest", k, np.nan, reference=int(rep > 0), note=why) for k in ks]
    top = largest_k(len(data))
    beyond = (f"not computed at k > {top}: a learning/test split of {len(data)} objects "
              f"clusters at most {top} in its test set")
    return [row("clest", k, float(v), reference=int(rep > 0),
                **({"note": beyond} if k > top else {}))
            for k, v in zip(ks, t, strict=True)]


def _bicross_finish(ctx):
    """Owen & Perry 2009's bi-cross-validation error curves, one per random permutation."""
    import numpy as np

    from mtc_cli.core.criteria import bicross

    s = ctx.s
    curves = bicross.bicross_validation(np.asarray(ctx.X, dtype=np.float64), ctx.rng,
                                        holdout=s.holdout, permutations=s.permutations,
                                        k_max=s.k_hi)
    return [row("bicross", k, float(v), permutation=p)
            for p, curve in enumerate(curves) for k, v in enumerate(curve, start=1)
            if k >= s.k_lo]


def _mtc_words(algorithm) -> str:
    """MTC's transfer cost for ``algorithm``, in words (its spec's ``transfer_cost``)."""
    return algorithm.transfer_cost


_GAP = "Tibshirani, Walther & Hastie 2001"

#: the built-in criteria, in the order of the output
BUILTIN = (
    Criterion("mtc", _kinds("costs", "rank", "roles"), 1, "split",
              {"split": Hooks(at_k=_mtc_at_k), "split:rank": Hooks(at_k=_mtc_rank_at_k),
               "split:roles": Hooks(at_k=_mtc_roles_at_k)},
              Extremum("low", "rep"), "", "Frank, Chehreghani & Buhmann 2011",
              describe_for=_mtc_words),
    Criterion("capacity", _kinds("costs", "roles"), 1, "split",
              {"split": Hooks(prepare=_capacity_prepare, at_k=_capacity_at_k),
               "split:roles": Hooks(at_k=_capacity_roles_at_k)},
              Extremum("high", "rep"),
              "max capacity max_β I_β (eq. 13), halves aligned by the soft mapping "
              "(Frank et al. eq. 12)", "Buhmann, Chehreghani, Frank & Streich 2011"),
    Criterion("bic", _likelihood, 1, "full", {"full": Hooks(at_k=_information_at_k("bic"))},
              Extremum("low"), "min 2·NLL + p ln n", "Schwarz 1978"),
    Criterion("aic", _likelihood, 1, "full", {"full": Hooks(at_k=_information_at_k("aic"))},
              Extremum("low"), "min 2·NLL + 2p", "Akaike 1974"),
    Criterion("stability", _clusters, 2, "split",
              {"split": Hooks(prepare=_stability_prepare, at_k=_stability_at_k)},
              Stability(), "min S(k)/S_rand(k) (ties: largest k)",
              "Lange, Braun, Roth & Buhmann 2002"),
    Criterion("prediction_strength", _clusters, 1, "split",
              {"split": Hooks(at_k=_strength_at_k)}, Threshold("ps_threshold"),
              "largest k with strength ≥ 0.8", "Tibshirani & Walther 2005"),
    *(Criterion(name, _euclidean_clusters, 1, "gap",
                {"full": Hooks(prepare=_gap_observed), "gap": Hooks(finish=_gap_reference)},
                GapRule(rule), optimises, source, rows="gap", also=("full",))
      for name, rule, optimises, source in (
          ("gap", "Tibs2001SEmax", "1-s.e. rule on Gap(k)", _GAP),
          ("gap_first_se_max", "firstSEmax",
           "first local max of Gap(k), then the smallest k within 1 s.e. of it "
           "(clusGap's firstSEmax)", f"{_GAP}; Maechler et al."),
          ("gap_global_max", "globalmax", "max Gap(k) (clusGap's globalmax)", _GAP))),
    Criterion("clest", _euclidean_clusters, 2, "clest", {"clest": Hooks(finish=_clest_finish)},
              Clest(), "max d_k with p ≤ 0.05 (else 1)", "Dudoit & Fridlyand 2002"),
    Criterion("silhouette", _clusters, 2, "full",
              {"full": Hooks(at_k=_internal_at_k("silhouette"))}, Extremum("high"),
              "max mean silhouette width", "Rousseeuw 1987"),
    Criterion("calinski_harabasz", _euclidean_clusters, 2, "full",
              {"full": Hooks(at_k=_internal_at_k("calinski_harabasz"))},
              Extremum("high"), "max between/within dispersion",
              "Caliński & Harabasz 1974"),
    Criterion("davies_bouldin", _euclidean_clusters, 2, "full",
              {"full": Hooks(at_k=_internal_at_k("davies_bouldin"))}, Extremum("low"),
              "min mean worst-case similarity", "Davies & Bouldin 1979"),
    *(Criterion(name, _euclidean_clusters, k_min, "full",
                {"full": Hooks(finish=_index_finish(name))}, IndexRule(name, better),
                optimises, source)
      for name, (k_min, _, optimises, source, better) in INDEX_TABLE.items()),
    Criterion("hdbscan_count", _named("hdbscan"), 1, "full",
              {"full": Hooks(finish=_hdbscan_count_finish)}, Reported(),
              "HDBSCAN's own number of clusters (excess of mass; 1 if all is noise)",
              "Campello, Moulavi & Sander 2013"),
    Criterion("pac_mdl", _clusters, 2, "full", {"full": Hooks(finish=_pac_mdl_finish)},
              Extremum("low", "split"), "min bound on the transductive test error",
              "Banerjee & Langford 2004", needs_train_labels=True),
    Criterion("bicross", _kinds("rank", "roles"), 1, "bicross",
              {"bicross": Hooks(finish=_bicross_finish)},
              Extremum("low", "permutation", "median"),
              "min median held-out block error", "Owen & Perry 2009"),
    Criterion("gavish_donoho", _kinds("rank"), 1, "full",
              {"full": Hooks(finish=_gavish_donoho_finish)}, AboveOne(),
              "singular values above ω(β)·median(s)", "Gavish & Donoho 2014"),
    Criterion("pca_mle", _kinds("rank"), 1, "full", {"full": Hooks(finish=_pca_mle_finish)},
              Reported(), "max Laplace PCA evidence", "Minka 2000"),
    Criterion("mtc_svd", _kinds("roles"), 1, "split",
              {"split": Hooks(finish=_mtc_svd_finish)}, Extremum("low", "rep"),
              "min transfer cost of the thresholded SVD (Sect. 4.2)",
              "Frank, Chehreghani & Buhmann 2011"),
    Criterion("coverage", _kinds("roles"), 1, "full",
              {"full": Hooks(finish=_coverage_finish)},
              Molloy("coverage", "coverage", "high"),
              "smallest rank covering 80 % of the ones", "Molloy et al. 2010"),
    Criterion("increment", _kinds("roles"), 1, "full",
              {"full": Hooks(finish=_increment_finish)},
              Molloy("increment", "increment_tol", "low"),
              "smallest rank changing < 0.1 % of ‖X‖₁", "Molloy et al. 2010"),
)
