"""The algorithms of ``mtc select``, each one spec (:class:`~mtc_cli.selection.spec.Algorithm`):
what its k counts, the model that fits it (:mod:`mtc_cli.selection.fitting`) and its flags.

Restarts (``n_init``) of every fit a criterion reads — k-means++ starts for k-means, EM runs
for GMMs, the best objective kept — by algorithm, the default of every entry point (``mtc
select``, the select experiment, ``OrderSelector``, the league). Chosen on 20 data sets of the
league's suite for n_init ∈ {1, 3, 5, 10} (``tests/benchmarks/bench_restarts.py``,
``results/benchmarks/restarts.csv``) as the smallest n_init whose vote and summed hits of all
criteria are within one data set of every larger n_init's: k-means 3 (summed hits 93 → 97,
vote 15 → 16, at 1.37× the time), GMM 1 (restarts did not help: summed hits 109, 97, 98,
90). Spherical k-means was not measured and keeps 1.
"""

from __future__ import annotations

from mtc_cli.selection.spec import Algorithm

_FITTING = "mtc_cli.selection.fitting"


def _linkage(name: str, what: str, place: int, shape_free: bool = False) -> Algorithm:
    return Algorithm(name, f"number of clusters ({what} agglomerative clustering)", "labels",
                     f"{_FITTING}:Agglomerative", options=("max_items",),
                     fixed={"linkage": name}, shape_free=shape_free, auto=place)


#: the built-in algorithms, in the order of the output
BUILTIN = (
    Algorithm("gmm", "number of Gaussian components", "costs", f"{_FITTING}:Gmm",
              options=("covariance_type", "n_init"), auto=2, likelihood=True, n_init=1,
              transfer_cost="min held-out NLL of X² under the GMM of X¹ (eqs. 3, 6)"),
    Algorithm("kmeans", "number of clusters (k-means)", "costs", f"{_FITTING}:Kmeans",
              options=("n_init", "beta_factor"), auto=1, n_init=3,
              transfer_cost="min soft-mapped transfer cost (eq. 14)"),
    Algorithm("spkmeans", "number of clusters (spherical k-means, cosine)", "costs",
              f"{_FITTING}:SphericalKmeans", options=("n_init", "beta_factor"),
              metric="cosine", sparse=True, n_init=1,
              transfer_cost="min soft-mapped cosine transfer cost (eq. 14)"),
    _linkage("ward", "Ward's", 3),
    _linkage("average", "average-linkage", 4),
    _linkage("complete", "complete-linkage", 5),
    _linkage("single", "single-linkage", 6, shape_free=True),
    Algorithm("spectral", "number of clusters (spectral clustering, k-NN graph)", "labels",
              f"{_FITTING}:Spectral", options=("max_items",), shape_free=True, auto=7),
    Algorithm("pathbased", "number of clusters (path-based clustering)", "labels",
              f"{_FITTING}:PathBased", options=("max_items",), shape_free=True, auto=8),
    Algorithm("hdbscan", "number of clusters (HDBSCAN's hierarchy cut at k)", "labels",
              f"{_FITTING}:Hdbscan", options=("max_items",), shape_free=True, auto=9),
    Algorithm("svd", "rank of the truncated SVD", "rank", k_hi=100,
              transfer_cost="min transfer cost of the rank-k SVD (eq. 7)"),
    Algorithm("boolean", "number of roles (Boolean factorization)", "roles",
              transfer_cost="min Hamming transfer cost of the MAC roles (Sect. 5)"),
)
