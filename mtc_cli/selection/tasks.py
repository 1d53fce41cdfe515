"""The work of a selection as independent tasks, each returning tidy rows
(``criterion``, ``k``, ``rep``, ``score`` and criterion-specific columns).

A task belongs to a *family* and computes the rows of every criterion of its selection that
the family serves (each criterion's :class:`~mtc_cli.selection.spec.Hooks`,
:mod:`mtc_cli.selection.criteria`), from work done once for all of them and held by the
task's context: a ``split`` task fits both random halves X¹, X² for every k, and those fits
serve the transfer cost, the approximation capacity, the stability and the prediction
strength; the ``full`` task fits all objects once per k for BIC, AIC, the internal indices,
the PAC-MDL bound and the gap statistic's W_k of the data; each ``gap`` task is one uniform
reference set, each ``clest`` task one data set (rep 0: the data, or a sample of
``max_items`` of it; rep ≥ 1: a uniform reference set); ``bicross`` holds all row/column
permutations. A task is a plain dict holding everything its result depends on (so that it
can be hashed into a cache key) except the data.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import cached_property

import numpy as np

from mtc_cli.selection.catalog import ALGORITHMS, CRITERIA
from mtc_cli.selection.settings import Settings


@dataclass(frozen=True)
class Family:
    """A kind of task: the Settings fields its result depends on (``keys``, beside the
    model, the k range and the criteria: its cache key) and its replicates (``reps``)."""

    name: str
    keys: tuple[str, ...]
    reps: object

    def replicates(self, s: Settings) -> range:
        return self.reps(s)


#: the families, heaviest first (they dispatch first on -j N)
FAMILIES = {f.name: f for f in (
    Family("clest", ("n_init", "covariance_type", "clest_splits", "max_items"),
           lambda s: range(s.clest_references + 1)),  # rep 0: the data; 1..B: references
    Family("gap", ("n_init", "covariance_type", "max_items"),
           lambda s: range(1, s.references + 1)),  # the B reference sets (the data: full)
    Family("split", ("n_init", "covariance_type", "beta_factor", "n_random", "max_items",
                     "max_assignments"), lambda s: range(s.splits)),
    Family("bicross", ("holdout", "permutations"), lambda s: range(1)),
    Family("full", ("n_init", "covariance_type", "max_items", "splits", "train_fraction",
                    "hdbscan_min_cluster_size"), lambda s: range(1)),
)}


def criteria_of(s: Settings, family: str) -> list[str]:
    """The criteria of ``s`` a task of ``family`` computes: those of the family, then those
    that only add rows to it (the gap statistic's log W_k of the data, in the full task)."""
    return ([c for c in s.criteria if CRITERIA[c].family == family]
            + [c for c in s.criteria if family in CRITERIA[c].also])


def plan(s: Settings) -> list[dict]:
    """The tasks of a selection, heaviest families first (they dispatch first on -j N)."""
    tasks = []
    for family in FAMILIES.values():
        names = criteria_of(s, family.name)
        if not names:
            continue
        reads = dict.fromkeys(o for c in names for o in CRITERIA[c].reads
                              if o not in family.keys)
        base = {"family": family.name, "model": s.model, "k_lo": s.k_lo, "k_hi": s.k_hi,
                "criteria": names, **{k: getattr(s, k) for k in (*family.keys, *reads)}}
        tasks += [{**base, "rep": r} for r in family.replicates(s)]
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
        ctx = context(family, X, s, rng, task["rep"], train_labels)
        rows = compute(ctx, family, s)
    except CannotFit as exc:  # the model fails alone: its criteria NaN, with why
        rows = not_computed(s, family, str(exc), task["rep"])
    return [{"family": family, "rep": task["rep"], **r} for r in rows]


def compute(ctx, family: str, s: Settings) -> list[dict]:
    """Every criterion's rows of a task: each ``prepare`` hook (in the catalog's order),
    then for each k every ``at_k`` hook, then each ``finish`` hook (in the order of the
    criteria); criteria that share their rows (the gap statistic's rules) once."""
    kind = ALGORITHMS[s.model].kind
    hooks, seen = [], set()
    for name in criteria_of(s, family):
        c = CRITERIA[name]
        if c.rows not in seen:
            seen.add(c.rows)
            hooks.append((c, c.hooks.get(f"{family}:{kind}") or c.hooks.get(family)))
    in_catalog = sorted(hooks, key=lambda h: list(CRITERIA).index(h[0].name))
    rows = [r for _, h in in_catalog if h.prepare for r in h.prepare(ctx)]
    for k in ctx.ks:
        rows += [r for _, h in in_catalog if h.at_k for r in h.at_k(ctx, k)]
    return rows + [r for _, h in hooks if h.finish for r in h.finish(ctx)]


def not_computed(s: Settings, family: str, why: str, rep: int) -> list[dict]:
    """NaN rows, each saying ``why``, for every criterion the task of ``family`` computes at
    every k where it is defined (criteria that share their rows, once)."""
    names = dict.fromkeys(CRITERIA[c].rows for c in criteria_of(s, family))
    return [{"criterion": c, "k": k,
             **({"reference": int(rep > 0)} if CRITERIA[c].family in ("gap", "clest") else {}),
             "score": np.nan, "note": why}
            for c in names for k in s.ks(c)]


# --- the contexts: the work a task's criteria share ----------------------------------------

def context(family: str, X, s: Settings, rng: np.random.Generator, rep: int, train_labels):
    """The context of a task of ``family`` on X (:mod:`mtc_cli.selection.criteria` says what
    each holds)."""
    kind = ALGORITHMS[s.model].kind
    if family == "split":
        cls = {"rank": RankSplit, "roles": RolesSplit}.get(kind, ClusteringSplit)
    elif family == "full":
        cls = {"rank": RankFull, "roles": RolesFull}.get(kind, ClusteringFull)
    else:
        cls = Reference
    return cls(X, s, rng, rep, train_labels)


class Context:
    """What every task's criteria read: the data X, the Settings ``s``, the task's generator
    ``rng``, its replicate ``rep``, the k of the range ``ks`` and the training labels."""

    def __init__(self, X, s: Settings, rng, rep: int, train_labels):
        self.X, self.s, self.rng, self.rep = X, s, rng, rep
        self.train_labels = train_labels
        self.ks = list(range(s.k_lo, s.k_hi + 1))
        self.model = (ALGORITHMS[s.model].build(s) if ALGORITHMS[s.model].model is not None
                      else None)

    def sample(self, n: int) -> np.ndarray:
        """All of range(n), or a sorted random sample of ``max_items`` of it when n is
        larger."""
        if n <= self.s.max_items:
            return np.arange(n)
        return np.sort(self.rng.choice(n, size=self.s.max_items, replace=False))

    @cached_property
    def clusterer(self):
        """Lange et al.'s ``cluster(X, ks, rng) -> {k: labels}`` of the model, for the gap
        statistic and Clest."""
        from mtc_cli.selection.fitting import clusterer

        return clusterer(self.model)

    def log_w(self, data, *, reference: int) -> list[dict]:
        """log W_k of ``data`` clustered by the model at every k of the gap statistic."""
        from mtc_cli.core.criteria.gap_statistic import within_sum_of_squares

        ks = self.s.ks("gap")
        labels = self.clusterer(data, ks, self.rng)
        return [{"criterion": "gap", "k": k, "reference": reference,
                 "score": float(np.log(within_sum_of_squares(data, labels[k])))} for k in ks]


class Halves(Context):
    """Random halves X¹ (``X1``) and X² (``X2``) of the objects."""

    def __init__(self, X, s, rng, rep, train_labels):
        from mtc_cli.core.criteria.stability import split_halves

        super().__init__(X, s, rng, rep, train_labels)
        i1, i2 = split_halves(X.shape[0], rng)
        self.X1, self.X2 = X[i1], X[i2]


class ClusteringSplit(Halves):
    """Both halves fitted for every k (``fit1``, ``fit2``); the solutions of X¹ transferred
    to X² by the model's predictor (``predicted``, for the stability) and by the prediction
    strength's (``strength``: the nearest centroid; the GMM's Bayes rule)."""

    def __init__(self, X, s, rng, rep, train_labels):
        super().__init__(X, s, rng, rep, train_labels)
        self.fit1 = self.model.fit_all(self.X1, self.ks, rng)
        self.fit2 = self.model.fit_all(self.X2, self.ks, rng)

    @cached_property
    def predicted(self) -> dict:
        return self.model.predict_all(self.fit1, self.X2)

    @cached_property
    def strength(self) -> dict:
        if self.model.strength_by_predictor:
            return self.predicted
        return self.model.strength_predict_all(self.fit1, self.X2)


def _nearest(X1, X2, metric: str) -> np.ndarray:
    """ψ: for every row of X² its nearest row of X¹ (Hamming for Boolean rows, else
    Euclidean), computed in bounded-memory blocks."""
    from mtc_cli.core import mappings

    return mappings.nearest_neighbour(X1, X2, metric=metric,
                                      chunk=max(1, 2_000_000 // max(1, X1.shape[0])))


class RankSplit(Halves):
    """The SVD of each half and the transfer cost of every rank, both directions
    (``svd_transfer_costs``: forward, backward)."""

    @cached_property
    def svd_transfer_costs(self):
        from mtc_cli.core.criteria.transfer_cost import svd_transfer_costs
        from mtc_cli.core.models import svd

        X1, X2 = self.X1, self.X2
        forward = svd_transfer_costs(svd.fit(X1), X2, _nearest(X1, X2, "euclidean"))
        backward = svd_transfer_costs(svd.fit(X2), X1, _nearest(X2, X1, "euclidean"))
        return forward, backward


class RolesSplit(Halves):
    """Each user's Hamming nearest neighbour in the other half (``psi21``: of X² in X¹,
    ``psi12``) and the MAC factorization of each half at k (:meth:`mac`)."""

    def __init__(self, X, s, rng, rep, train_labels):
        super().__init__(X, s, rng, rep, train_labels)
        self.psi21 = _nearest(self.X1, self.X2, "hamming")
        self.psi12 = _nearest(self.X2, self.X1, "hamming")
        self._mac: dict = {}

    def mac(self, k: int):
        """(the MAC roles of X¹, of X²) at k (Streich et al. 2009), fitted once."""
        from mtc_cli.core.models import boolean

        if k not in self._mac:
            self._mac[k] = tuple(boolean.fit_mac(half, k, self.rng,
                                                 max_assignments=self.s.max_assignments)
                                 for half in (self.X1, self.X2))
        return self._mac[k]


class ClusteringFull(Context):
    """The fits of all objects for every k (``fits``, their labels ``partitions``), a seed
    for the samples of the indices (``seed``), what they share (``silhouette_sample``, the
    ``pairs`` of the indices on pairwise distances) and the negative log-likelihood of each
    fit (:meth:`nll`)."""

    def __init__(self, X, s, rng, rep, train_labels):
        super().__init__(X, s, rng, rep, train_labels)
        self.fits = self.model.fit_all(X, self.ks, rng)
        self.seed = int(rng.integers(2**31 - 1))
        self._nll: dict = {}

    @cached_property
    def partitions(self) -> dict:
        return {k: f.labels for k, f in self.fits.items()}

    @cached_property
    def silhouette_sample(self):
        """The silhouette's sample of dense data and its distances
        (:func:`~mtc_cli.core.criteria.internal_indices.silhouette_sample`, the task's
        ``seed``), for every k; None where scikit-learn computes it (sparse data, another
        metric)."""
        import scipy.sparse as sp

        from mtc_cli.core.criteria.internal_indices import silhouette_sample

        if sp.issparse(self.X) or self.model.metric != "euclidean":
            return None
        return silhouette_sample(self.X, self.s.max_items, self.seed)

    @cached_property
    def pairs(self):
        """The :class:`~mtc_cli.core.criteria.partition_indices.PairSample` of the
        partitions, drawn with a generator of the task's ``seed`` (as each index would draw
        it)."""
        from mtc_cli.core.criteria.partition_indices import PairSample

        return PairSample(self.X, self.partitions, np.random.default_rng(self.seed),
                          self.s.max_items)

    def nll(self, k: int) -> float:
        if k not in self._nll:
            self._nll[k] = self.model.negative_log_likelihood(self.fits[k], self.X)
        return self._nll[k]


class RankFull(Context):
    """The singular values of all objects (``singular_values``)."""

    @cached_property
    def singular_values(self) -> np.ndarray:
        from mtc_cli.core.models import svd

        return svd.fit(self.X).s


class RolesFull(Context):
    """The thresholded SVDs X̃_k of all users for k = 1..k_hi + 1 (``denoisings``)."""

    @cached_property
    def denoisings(self) -> list:
        from mtc_cli.core.models import svd
        from mtc_cli.core.models.boolean import svd_denoisings

        return list(svd_denoisings(svd.fit(self.X), self.s.k_hi + 1))


class Reference(Context):
    """A task on reference data sets or permutations (gap, Clest, bi-cross-validation): its
    criterion's ``finish`` hook draws them."""
