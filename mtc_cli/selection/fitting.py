"""The clustering models of ``mtc select``, fitted for one k: the solution, its object-wise
costs ε_ik, its natural predictor and its transfer cost as the MTC paper prescribes.

- ``gmm`` — Gaussian mixture by EM (scikit-learn); ε_ik = −ln π_k N(x_i | μ_k, Σ_k); the
  predictor is the Bayes rule; the transfer cost is the negative log-likelihood of X²
  under the mixture of X¹ (eqs. 3 and 6 of Frank et al. 2011, Sect. 3);
- ``kmeans`` — k-means (:mod:`mtc_cli.core.models.batched_kmeans` for small data,
  scikit-learn's ``KMeans`` above it); ε_ik = ‖x_i − μ_k‖²; the predictor is
  the nearest centroid; the transfer cost uses the soft mapping of eq. 14 with
  β = 0.75 / R(s¹, X¹, 1) (Sect. 7) — the nearest-neighbour mapping (eq. 11) always
  selects the largest k offered and is not used;
- ``spkmeans`` — spherical k-means (Dhillon & Modha 2001) on L2-normalised rows;
  ε_ik = 1 − x_iᵀμ_k (cosine dissimilarity); nearest centroid by cosine; the transfer cost
  is eq. 14 with that dissimilarity and β = 0.75 / R(s¹, X¹, 1) — our transfer of Sect. 7's
  rule to the cosine cost.

The clustering algorithms that yield labels only (no object-wise costs, so neither MTC nor
the capacity applies) — agglomerative ``ward``, ``average``, ``complete`` and ``single``
linkage, ``spectral`` clustering on a k-nearest-neighbour graph and ``pathbased`` clustering
(Fischer, Zöller & Buhmann 2001) — fit every k from one hierarchy or embedding, on at most
``max_items`` objects (a random sample above that, the rest extended by the algorithm's
predictor). Their predictor, which transfers a solution to new objects for the stability
of Lange et al. 2002, is the algorithm's own where it has one (path-based clustering's rule)
and otherwise the nearest neighbour in the objects the solution was fitted on — Lange et
al.'s recipe for algorithms without one.

Every model takes a ``numpy.random.Generator`` and draws the seed of each fit from it, so
a fit is reproducible from the task's generator. ``fit_all`` fits every k of a range (for the
models above one fit per k, drawn in the order of k), ``predict_all`` transfers every k's
solution, and ``strength_predict_all`` is the predictor of the prediction strength
(Tibshirani & Walther 2005: the nearest centroid of the training clusters; the GMM's Bayes
rule).
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial

import numpy as np
import scipy.sparse as sp

from mtc_cli.core.criteria import kmeans_transfer
from mtc_cli.core.criteria.transfer_cost import soft_mapped_cost, transfer_cost
from mtc_cli.core.models import batched_gmm, batched_kmeans, clusterers, gmm, kmeans


@dataclass(frozen=True)
class Fit:
    """A model fitted with ``k`` clusters: its ``solution`` (model-specific) and the
    cluster of every object it was fitted on (``labels``, 0..k−1)."""

    k: int
    solution: object
    labels: np.ndarray


def _seed(rng: np.random.Generator) -> int:
    return int(rng.integers(2**31 - 1))


class CannotFit(ValueError):
    """The model cannot be fitted to the objects it is given (the library refuses them: too
    few or too degenerate for k clusters). The task's criteria that read the fit are then NaN
    with this one-line note, and the others go on."""


@contextmanager
def refusals(name: str, n: int):
    """A library's refusal of the data (ValueError, LinAlgError) raised as
    :class:`CannotFit`, naming the model and the number of objects."""
    try:
        yield
    except CannotFit:
        raise
    except (ValueError, np.linalg.LinAlgError) as exc:
        why = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise CannotFit(f"{name} cannot be fitted to {n} objects: {why}") from exc


class _PerK:
    """One fit per k, drawn in the order of k; the model's own predictor serves the
    stability and the prediction strength."""

    strength_by_predictor = True
    #: the predictor in words, for the stability and for the prediction strength
    predictor = strength_predictor = ""

    def fit_all(self, X, ks, rng: np.random.Generator) -> dict[int, Fit]:
        with refusals(self.name, X.shape[0]):
            return {k: self.fit(X, k, rng) for k in ks}

    def predict_all(self, fits: dict, X) -> dict[int, np.ndarray]:
        return {k: self.predict(f, X) for k, f in fits.items()}

    def strength_predict_all(self, fits: dict, X) -> dict[int, np.ndarray]:
        return self.predict_all(fits, X)


@dataclass(frozen=True)
class Gmm(_PerK):
    """Gaussian mixture with ``covariance_type`` covariances, best of ``n_init`` EM runs,
    each started from a k-means labelling (scikit-learn's ``init_params="kmeans"``). Full
    covariances on at most :data:`~mtc_cli.core.models.batched_gmm.MAX_D` features: every
    k in one compiled call (:func:`mtc_cli.core.models.batched_gmm.fit_all`, its starts
    from :func:`mtc_cli.core.models.batched_kmeans.fit_all`); otherwise scikit-learn's EM
    per k (:func:`mtc_cli.core.models.gmm.fit`)."""

    covariance_type: str = "full"
    n_init: int = 1
    name: str = "gmm"
    metric: str = "euclidean"
    predictor = strength_predictor = "Bayes rule"

    def fit_all(self, X, ks, rng: np.random.Generator) -> dict[int, Fit]:
        with refusals(self.name, X.shape[0]):
            if self.covariance_type != "full" or X.shape[1] > batched_gmm.MAX_D:
                return {k: self._fit_sklearn(X, k, rng) for k in ks}
            starts = [batched_kmeans.fit_all(X, ks, 1, rng) for _ in range(self.n_init)]
            fits = batched_gmm.fit_all(X, {k: [s[k][1] for s in starts] for k in ks},
                                       reg_covar=gmm.REG_COVAR, max_iter=gmm.MAX_ITER)
            return {k: self._labelled(k, fits[k].solution, X) for k in ks}

    def fit(self, X, k: int, rng: np.random.Generator) -> Fit:
        return self.fit_all(X, [k], rng)[k]

    @staticmethod
    def check_data(X, name: str) -> None:
        """EM adds :data:`~mtc_cli.core.models.gmm.REG_COVAR` to every variance. Refuse
        features whose variance loses it in rounding (a component on fewer points than
        dimensions then cannot be fitted: scikit-learn's error at values of 10⁶) or that it
        would swamp (every variance below 100 × REG_COVAR: the components blur into one,
        k = 1 at values of 10⁻⁵)."""
        from mtc_cli.core.datasets.checks import RESCALE
        from mtc_cli.core.errors import MtcError

        top = float(np.asarray(X, dtype=np.float64).var(axis=0).max())
        if top * np.finfo(np.float64).eps > gmm.REG_COVAR:
            raise MtcError(f"{name}: feature variances up to {top:.3g} lose the GMM's "
                           f"covariance regularisation ({gmm.REG_COVAR:g}) in rounding, and "
                           f"a component on few points cannot be fitted; {RESCALE}")
        if top < 100 * gmm.REG_COVAR:
            raise MtcError(f"{name}: feature variances of at most {top:.3g} are swamped by "
                           f"the GMM's covariance regularisation ({gmm.REG_COVAR:g}); "
                           f"{RESCALE}")

    @staticmethod
    def check_settings(settings, d: int) -> None:
        """Refuse, before any fit, a GMM whose k covariance matrices of d × d (full, tied and
        spherical are held so: k·d²·8 bytes per fit) exceed this machine's memory; diag
        keeps k·d numbers."""
        from mtc_cli.core.errors import MtcError
        from mtc_cli.run.experiment import physical_memory

        k, covariance_type = settings.k_hi, settings.covariance_type
        need, total = 8 * k * d * d, physical_memory()
        if covariance_type != "diag" and need > total:
            raise MtcError(f"key 'covariance_type': a GMM with {covariance_type} covariances "
                           f"at k = {k} on {d:,} features needs about {need / 2**30:,.0f} GiB "
                           f"per fit (k·d²·8 bytes), this machine has {total / 2**30:.0f} GiB: "
                           "use --set covariance_type=diag, fewer features (--columns, "
                           "--drop) or another --model")

    def _fit_sklearn(self, X, k: int, rng: np.random.Generator) -> Fit:
        sol = gmm.fit(X, k, covariance_type=self.covariance_type, n_init=self.n_init,
                      random_state=_seed(rng))
        return self._labelled(k, sol, X)

    def _labelled(self, k: int, sol, X) -> Fit:
        return Fit(k, sol, self.predict(Fit(k, sol, np.empty(0)), X))

    def costs(self, fit: Fit, X) -> np.ndarray:
        """ε_ik = −ln π_k N(x_i | μ_k, Σ_k) (:func:`mtc_cli.core.models.gmm.component_costs`)."""
        return gmm.component_costs(fit.solution, X)

    def predict(self, fit: Fit, X) -> np.ndarray:
        """The Bayes rule: the component of highest posterior, argmin_k ε_ik."""
        return np.argmin(self.costs(fit, X), axis=1)

    def transfer_cost(self, fit: Fit, X1, X2) -> float:
        """Eq. 3 with eq. 6 of Frank et al. 2011: the mean negative log-likelihood of X²
        under the mixture learned on X¹ (no object mapping: the density is the structure)."""
        return transfer_cost(gmm.negative_log_likelihood(fit.solution, X2))

    def negative_log_likelihood(self, fit: Fit, X) -> float:
        """Total −ln p(X) (eq. 6), for BIC and AIC."""
        return float(gmm.negative_log_likelihood(fit.solution, X).sum())

    def n_parameters(self, k: int, d: int) -> int:
        return gmm.n_parameters(k, d, self.covariance_type)


@dataclass(frozen=True)
class Kmeans(_PerK):
    """k-means (k-means++ seeding, best of ``n_init`` runs): every k of a data set in one
    compiled call (:func:`mtc_cli.core.models.batched_kmeans.fit_all`) up to
    :data:`~mtc_cli.core.models.batched_kmeans.SKLEARN_ABOVE` numbers, scikit-learn's
    ``KMeans`` per k above (:func:`mtc_cli.core.models.sklearn_kmeans.fit`)."""

    n_init: int = 1
    beta_factor: float = 0.75
    name: str = "kmeans"
    metric: str = "euclidean"
    predictor = strength_predictor = "nearest centroid"

    def fit_all(self, X, ks, rng: np.random.Generator) -> dict[int, Fit]:
        with refusals(self.name, X.shape[0]):
            if X.size > batched_kmeans.SKLEARN_ABOVE:
                return {k: self._fit_sklearn(X, k, rng) for k in ks}
            fits = batched_kmeans.fit_all(X, ks, self.n_init, rng)
            return {k: Fit(k, kmeans.KmeansSolution(fits[k][0], fits[k][1]), fits[k][1])
                    for k in ks}

    def fit(self, X, k: int, rng: np.random.Generator) -> Fit:
        return self.fit_all(X, [k], rng)[k]

    def _fit_sklearn(self, X, k: int, rng: np.random.Generator) -> Fit:
        from mtc_cli.core.models import sklearn_kmeans  # scikit-learn: imported if needed

        centroids, labels, _ = sklearn_kmeans.fit(X, k, self.n_init, _seed(rng))
        labels = labels.astype(np.intp)
        return Fit(k, kmeans.KmeansSolution(centroids, labels), labels)

    def costs(self, fit: Fit, X) -> np.ndarray:
        """ε_ik = ‖x_i − μ_k‖² (:func:`mtc_cli.core.models.kmeans.squared_distances`)."""
        return kmeans.squared_distances(fit.solution.centroids, X)

    def predict(self, fit: Fit, X) -> np.ndarray:
        """The nearest centroid (Lange et al.'s predictor of k-means)."""
        return np.argmin(self.costs(fit, X), axis=1)

    def transfer_cost(self, fit: Fit, X1, X2) -> float:
        """Eq. 14 of Frank et al. 2011 with β = factor / R(s¹, X¹, 1) (Sect. 7):
        :func:`mtc_cli.core.criteria.kmeans_transfer.soft_transfer_cost`."""
        beta = kmeans_transfer.single_cluster_beta(X1, self.beta_factor)
        return kmeans_transfer.soft_transfer_cost(fit.solution, X2, beta)


def unit_rows(X):
    """Rows scaled to unit L2 norm (dense or CSR); rows of norm 0 are left at 0."""
    if sp.issparse(X):
        norms = np.sqrt(np.asarray(X.multiply(X).sum(axis=1)).ravel())
        scale = np.divide(1.0, norms, out=np.zeros_like(norms), where=norms > 0)
        return sp.csr_matrix(sp.diags(scale) @ X)
    X = np.asarray(X, dtype=np.float64)
    norms = np.linalg.norm(X, axis=1, keepdims=True)
    return np.divide(X, norms, out=np.zeros_like(X), where=norms > 0)


def cosines(X, M: np.ndarray) -> np.ndarray:
    """x_iᵀμ_k for every row of X (dense or sparse) and row of M: a dense (n, k) array."""
    return np.asarray(X @ M.T)


def _dense_row(X, i: int) -> np.ndarray:
    row = X[i]
    return np.asarray(row.toarray() if sp.issparse(row) else row, dtype=np.float64).reshape(1, -1)


@dataclass(frozen=True)
class SphericalKmeansSolution:
    """Unit centroids μ_k (k, d) of a spherical k-means solution."""

    centroids: np.ndarray


@dataclass(frozen=True)
class SphericalKmeans(_PerK):
    """Spherical k-means (:func:`mtc_cli.core.models.text.spkmeans`) from ``n_init`` sets of k
    seed documents (:meth:`seeds`), the run of least cost Σ_i (1 − x_iᵀμ_c(i)) kept. Rows
    of X must have unit L2 norm (:func:`unit_rows`)."""

    n_init: int = 1
    beta_factor: float = 0.75
    name: str = "spkmeans"
    metric: str = "cosine"
    predictor = strength_predictor = "most similar centroid"

    @staticmethod
    def check_data(X, name: str) -> None:
        """Refuse one column (its rows point one of two ways) and all-zero rows (no direction
        for the cosine; a selection leaves them out first)."""
        from mtc_cli.core.errors import MtcError

        if X.shape[1] < 2:
            raise MtcError(f"{name}: 1 feature(s): every row points one of two ways, which "
                           "leaves spherical k-means nothing to group by; use the model kmeans")
        norms = np.asarray(abs(X).sum(axis=1)).ravel()
        empty = np.flatnonzero(norms == 0)
        if len(empty):
            raise MtcError(f"{name}: {len(empty)} all-zero rows (first: row {empty[0] + 1}) "
                           "have no direction for spherical k-means")

    def fit(self, X, k: int, rng: np.random.Generator) -> Fit:
        from mtc_cli.core.models.text import spkmeans

        best = None
        for _ in range(self.n_init):
            run = spkmeans(X, self.seeds(X, k, rng))
            if best is None or run.costs[-1] < best.costs[-1]:
                best = run
        labels = best.labels.astype(np.intp)
        return Fit(k, SphericalKmeansSolution(self.centroids(X, labels, k)), labels)

    @staticmethod
    def seeds(X, k: int, rng: np.random.Generator) -> np.ndarray:
        """k distinct seed documents drawn as k-means++ draws its centres (Arthur &
        Vassilvitskii 2007), with the cosine dissimilarity 1 − xᵀy: the first uniformly,
        each next with probability ∝ its dissimilarity to the nearest seed so far."""
        n = X.shape[0]
        chosen = [int(rng.integers(n))]
        gap = np.clip(1.0 - cosines(X, _dense_row(X, chosen[0])).ravel(), 0.0, None)
        for _ in range(1, k):
            gap[chosen] = 0.0
            total = gap.sum()
            free = np.setdiff1d(np.arange(n), chosen)
            pick = int(rng.choice(n, p=gap / total)) if total > 0 else int(rng.choice(free))
            chosen.append(pick)
            gap = np.minimum(gap, np.clip(1.0 - cosines(X, _dense_row(X, pick)).ravel(), 0.0,
                                          None))
        return np.asarray(chosen, dtype=np.intp)

    @staticmethod
    def centroids(X, labels: np.ndarray, k: int) -> np.ndarray:
        """μ_h = Σ_{i∈h} x_i / ‖Σ_{i∈h} x_i‖ (an empty cluster's centroid is 0)."""
        onehot = sp.csr_matrix((np.ones(len(labels)), (labels, np.arange(len(labels)))),
                               shape=(k, len(labels)))
        return unit_rows(np.asarray((onehot @ X).todense() if sp.issparse(X) else onehot @ X))

    def costs(self, fit: Fit, X) -> np.ndarray:
        """ε_ik = 1 − x_iᵀμ_k, the cosine dissimilarity to each centroid."""
        return 1.0 - cosines(X, fit.solution.centroids)

    def predict(self, fit: Fit, X) -> np.ndarray:
        """The most similar centroid (largest cosine)."""
        return np.argmin(self.costs(fit, X), axis=1)

    def transfer_cost(self, fit: Fit, X1, X2) -> float:
        """Eq. 14 of Frank et al. 2011 with d(μ, x) = 1 − xᵀμ and β = factor / R(s¹, X¹, 1),
        R(s¹, X¹, 1) the mean cosine dissimilarity of X¹ to its one-cluster centroid."""
        one = self.centroids(X1, np.zeros(X1.shape[0], dtype=np.intp), 1)
        r1 = float(np.mean(1.0 - cosines(X1, one)))
        if r1 <= 0:
            raise ValueError("R(s¹, X¹, 1) = 0: all objects of X¹ point the same way")
        return soft_mapped_cost(self.costs(fit, X2), self.beta_factor / r1)


# --- algorithms that yield labels only ------------------------------------------------------

@dataclass(frozen=True, eq=False)
class Labelling:
    """A label-only solution: the objects it was fitted on (``X``), their ``labels`` and the
    model's predictor trained on that fit (``predict``: new objects → {k: labels} for every
    k of the fit, one object shared by them)."""

    X: np.ndarray
    labels: np.ndarray
    predict: object


class Extension:
    """The labels of the objects ``X`` by a fit's trained predictor (``predict``, see
    :class:`Labelling`): computed when first asked for, for every k at once."""

    def __init__(self, predict, X: np.ndarray):
        self._work = (predict, X)
        self._labels: dict | None = None

    def __getitem__(self, k: int) -> np.ndarray:
        if self._labels is None:
            predict, X = self._work
            self._labels, self._work = predict(X), None
        return self._labels[k]


@dataclass(frozen=True, eq=False)
class SampledFit:
    """A label-only model fitted with ``k`` clusters on a sample of the objects: its
    ``solution`` (the sample and its labels) and, as :class:`Fit`, ``labels`` of every object
    — the others labelled by the predictor when first read (:class:`Extension`), so that
    a fit whose labels no criterion reads (the first half's of a random split, whose solution
    alone is transferred) labels no other object."""

    k: int
    solution: Labelling
    extension: Extension

    @property
    def labels(self) -> np.ndarray:
        return self.extension[self.k]


class _Labels:
    """Fits every k of a range from one run of the algorithm (:meth:`partitions`) on at most
    ``max_items`` objects, extends the solution to the other objects by :meth:`transfer`,
    and predicts new objects the same way."""

    metric = "euclidean"
    #: the predictor in words (the nearest neighbour of Lange et al., unless the algorithm
    #: has its own), for the stability and for the prediction strength
    predictor = "nearest neighbour (1-NN)"
    strength_predictor = "nearest centroid"
    strength_by_predictor = False

    def partitions(self, X: np.ndarray, ks, rng: np.random.Generator) -> dict:
        raise NotImplementedError

    def fit_sample(self, X: np.ndarray, ks, rng: np.random.Generator) -> tuple[dict, object]:
        """(the partitions of X at every k, the predictor trained on them: new objects →
        {k: labels}); here :meth:`transfer` from X, built when first called."""
        parts = self.partitions(X, ks, rng)
        return parts, partial(self.transfer, X, parts)

    def fit_all(self, X, ks, rng: np.random.Generator) -> dict[int, Fit]:
        """Every k in ``ks`` from one run of the algorithm; above ``max_items`` objects on a
        random sample of that many, the others labelled by the predictor when their labels
        are first read (:class:`SampledFit`)."""
        X = np.asarray(X, dtype=np.float64)
        ks = [int(k) for k in ks]
        if not ks:
            return {}
        sample = (np.arange(len(X)) if len(X) <= self.max_items else
                  np.sort(rng.choice(len(X), size=self.max_items, replace=False)))
        Xs = X[sample]
        with refusals(self.name, len(Xs)):
            parts, predict = self.fit_sample(Xs, ks, rng)
        solutions = {k: Labelling(Xs, np.asarray(parts[k], dtype=np.intp), predict)
                     for k in ks}
        if len(sample) == len(X):
            return {k: Fit(k, solutions[k], solutions[k].labels) for k in ks}
        extension = Extension(predict, X)
        return {k: SampledFit(k, solutions[k], extension) for k in ks}

    def fit(self, X, k: int, rng: np.random.Generator) -> Fit:
        return self.fit_all(X, [k], rng)[k]

    def transfer(self, X_train: np.ndarray, labels: dict, X) -> dict[int, np.ndarray]:
        """The labels of the objects X under the training solutions ``labels`` ({k: labels
        of X_train}): the nearest training object's label (computed once for every k), in
        blocks of rows."""
        from mtc_cli.core.mappings import nearest_neighbour

        X = np.asarray(X, dtype=np.float64)
        nearest = nearest_neighbour(X_train, X, chunk=max(1, 2_000_000 // max(1, len(X_train))))
        return {k: np.asarray(lab, dtype=np.intp)[nearest] for k, lab in labels.items()}

    def predict_all(self, fits: dict, X) -> dict[int, np.ndarray]:
        """Each k's solution transferred to X by the predictor trained on its fit
        (:class:`Labelling`); one call serves every k of a fit."""
        out, groups = {}, {}
        for k, f in fits.items():
            groups.setdefault(id(f.solution.predict), (f.solution.predict, []))[1].append(k)
        X = np.asarray(X, dtype=np.float64)
        for predict, ks in groups.values():
            labels = predict(X)
            out.update({k: labels[k] for k in ks})
        return {k: out[k] for k in fits}

    def predict(self, fit: Fit, X) -> np.ndarray:
        return self.predict_all({fit.k: fit}, X)[fit.k]

    def strength_predict_all(self, fits: dict, X) -> dict[int, np.ndarray]:
        """The nearest centroid of the training clusters, the predictor of the prediction
        strength (Tibshirani & Walther 2005) whatever the algorithm."""
        X = np.asarray(X, dtype=np.float64)
        return {k: clusterers.nearest_centroid_predict(f.solution.X, {k: f.solution.labels},
                                                       X)[k].astype(np.intp)
                for k, f in fits.items()}


#: the agglomerative linkages of ``mtc select`` (:data:`mtc_cli.core.models.linkage.METHODS`)
LINKAGES = ("ward", "average", "complete", "single")


@dataclass(frozen=True)
class Agglomerative(_Labels):
    """Agglomerative clustering with ``linkage`` (Ward's minimum variance, average,
    complete or single linkage) on Euclidean distances: the merge tree of
    :func:`mtc_cli.core.models.linkage.linkage` (scipy's, computed without holding the GIL;
    single linkage by the minimum spanning tree), one tree cut at every k from its merge order
    (:func:`mtc_cli.core.models.tree_cuts.cuts`). Deterministic."""

    linkage: str = "ward"
    max_items: int = 2000

    @property
    def name(self) -> str:
        return self.linkage

    def partitions(self, X, ks, rng):
        from mtc_cli.core.models.linkage import linkage
        from mtc_cli.core.models.tree_cuts import cuts

        if len(X) < 2:
            return {k: np.zeros(len(X), dtype=np.intp) for k in ks}
        return cuts(linkage(X, self.linkage), ks)


@dataclass(frozen=True)
class Spectral(_Labels):
    """Spectral clustering on the symmetrised ``n_neighbors``-nearest-neighbour graph
    (scikit-learn's ``SpectralClustering(affinity="nearest_neighbors")``): the normalised
    Laplacian's embedding (``spectral_embedding``) computed once with max(ks) eigenvectors,
    the first k of them clustered by k-means (``n_init`` restarts,
    :func:`mtc_cli.core.models.batched_kmeans.fit`) for each k; a dense
    eigensolver where there are no more objects than eigenvectors."""

    n_neighbors: int = 10
    n_init: int = 10
    max_items: int = 2000
    name: str = "spectral"

    def partitions(self, X, ks, rng):
        import warnings

        from sklearn.manifold import spectral_embedding
        from sklearn.neighbors import kneighbors_graph

        out = {k: np.zeros(len(X), dtype=np.intp) for k in ks if k == 1}
        many = [k for k in ks if k >= 2]
        if not many:
            return out
        graph = kneighbors_graph(X, n_neighbors=min(self.n_neighbors, len(X) - 1),
                                 include_self=True)
        # ARPACK's sparse eigsh needs fewer eigenvectors than objects: from max(ks) ≥ n on,
        # scikit-learn's small-graph path (the dense ``eigh`` behind its ``lobpcg`` solver)
        solver = "lobpcg" if max(many) >= len(X) else None
        with warnings.catch_warnings():  # a graph of several components: expected here
            warnings.simplefilter("ignore", UserWarning)
            maps = spectral_embedding(0.5 * (graph + graph.T), n_components=max(many),
                                      eigen_solver=solver, random_state=_seed(rng),
                                      drop_first=False)
        for k in many:  # k-means on the first k eigenvectors: one compiled call each
            out[k] = batched_kmeans.fit(maps[:, :k], k, self.n_init, rng)[1]
        return {k: out[k] for k in ks}


@dataclass(frozen=True)
class PathBased(_Labels):
    """Path-based clustering (Fischer, Zöller & Buhmann 2001;
    :func:`mtc_cli.core.models.clusterers.pathbased_cluster`, one agglomeration for every k) with
    its own predictor (:func:`~mtc_cli.core.models.clusterers.pathbased_predict`). Deterministic."""

    max_items: int = 2000
    name: str = "pathbased"
    predictor = "path-based rule (Fischer et al. 2001)"

    def fit_sample(self, X, ks, rng):
        """The partitions and the predictor trained on them from one single-linkage tree
        (:func:`~mtc_cli.core.models.clusterers.pathbased_fit`)."""
        parts, predictor = clusterers.pathbased_fit(X, ks)
        return parts, partial(_in_blocks, predictor)

    def transfer(self, X_train, labels, X):
        """Path-based clustering's rule (least increase of the cost on effective
        dissimilarities, :class:`~mtc_cli.core.models.clusterers.PathBasedPredictor`: the
        training objects' work done once), in blocks of 1 000 objects."""
        return _in_blocks(clusterers.PathBasedPredictor(X_train, labels), X)


def _in_blocks(predictor, X) -> dict[int, np.ndarray]:
    """The labels of X by a path-based ``predictor``, in blocks of 1 000 objects (the block
    size keeps the rounding of its matrix products, and the labels, as they were)."""
    X = np.asarray(X, dtype=np.float64)
    blocks = [predictor(X[s:s + 1000]) for s in range(0, len(X), 1000)]
    return {k: np.concatenate([b[k] for b in blocks]).astype(np.intp) for k in blocks[0]}


@dataclass(frozen=True)
class Hdbscan(_Labels):
    """HDBSCAN's hierarchy (Campello, Moulavi & Sander 2013, as scikit-learn's ``HDBSCAN``
    builds it): single linkage on the mutual-reachability distance d_mr(a, b) =
    max(core(a), core(b), ‖a − b‖)
    (:func:`~mtc_cli.core.models.linkage.mutual_reachability`), cut at every k from its
    merge order (:func:`mtc_cli.core.models.tree_cuts.cuts`) rather than condensed by a
    minimum cluster size. Its predictor: the nearest neighbour among the objects the
    solution was fitted on (every object of a cut is clustered). Deterministic."""

    min_samples: int = 5
    max_items: int = 2000
    name: str = "hdbscan"

    def partitions(self, X, ks, rng):
        from mtc_cli.core.models.linkage import linkage, mutual_reachability
        from mtc_cli.core.models.tree_cuts import cuts

        if len(X) < 2:
            return {k: np.zeros(len(X), dtype=np.intp) for k in ks}
        return cuts(linkage(mutual_reachability(X, self.min_samples), "single"), ks)



def clusterer(model):
    """Lange et al.'s ``cluster(X, ks, rng) -> {k: labels}`` for the gap statistic and Clest."""
    def cluster(X, ks, rng):
        fits = model.fit_all(X, [k for k in ks if k != 1], rng)
        return {k: (np.zeros(X.shape[0], dtype=np.intp) if k == 1 else fits[k].labels)
                for k in ks}
    return cluster
