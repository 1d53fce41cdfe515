"""The criteria of ``mtc select``: which models each applies to, the smallest k where it is
defined, what it optimises, how it chooses k and which task computes it.

A criterion's *family* names the task that computes its scores: ``split`` (random halves
X¹, X² of the objects, both fitted for every k), ``full`` (one fit on all objects for every
k), ``gap`` and ``clest`` (reference data sets), ``bicross`` (row/column permutations).
"""

from __future__ import annotations

from dataclasses import dataclass

from mtc_cli.core.criteria.partition_index_table import TABLE as INDEX_TABLE

#: model → what its k counts
MODELS = {
    "gmm": "number of Gaussian components",
    "kmeans": "number of clusters (k-means)",
    "spkmeans": "number of clusters (spherical k-means, cosine)",
    "ward": "number of clusters (Ward's agglomerative clustering)",
    "average": "number of clusters (average-linkage agglomerative clustering)",
    "complete": "number of clusters (complete-linkage agglomerative clustering)",
    "single": "number of clusters (single-linkage agglomerative clustering)",
    "spectral": "number of clusters (spectral clustering, k-NN graph)",
    "pathbased": "number of clusters (path-based clustering)",
    "hdbscan": "number of clusters (HDBSCAN's hierarchy cut at k)",
    "svd": "rank of the truncated SVD",
    "boolean": "number of roles (Boolean factorization)",
}
#: clustering models with object-wise costs (MTC and the capacity apply)
COST_CLUSTERING = ("gmm", "kmeans", "spkmeans")
#: clustering algorithms that yield labels only (:mod:`mtc_cli.selection.fitting`)
LABEL_CLUSTERING = ("ward", "average", "complete", "single", "spectral", "pathbased",
                    "hdbscan")
CLUSTERING = COST_CLUSTERING + LABEL_CLUSTERING
#: algorithms that find groups of any shape (connected, not compact): the criteria built on
#: compact or linearly separable clusters add assumptions beyond theirs, which Lange et al.
#: 2002 (Sect. 4) name as why the gap statistic, Clest and the prediction strength fail on
#: rings; for these only the stability votes (:func:`mtc_cli.selection.voting.rule_for`)
SHAPE_FREE = ("single", "spectral", "pathbased", "hdbscan")
#: ``--model auto`` compares these by Lange et al.'s normalised stability
AUTO_MODELS = ("kmeans", "gmm", *LABEL_CLUSTERING)
#: the predictor that transfers a model's solution to new objects: for the stability (Lange
#: et al. 2002) and for the prediction strength (Tibshirani & Walther 2005)
PREDICTORS = {
    "gmm": ("Bayes rule", "Bayes rule"),
    "kmeans": ("nearest centroid", "nearest centroid"),
    "spkmeans": ("most similar centroid", "most similar centroid"),
    **{m: ("nearest neighbour (1-NN)", "nearest centroid")
       for m in ("ward", "average", "complete", "single", "spectral", "hdbscan")},
    "pathbased": ("path-based rule (Fischer et al. 2001)", "nearest centroid"),
}
#: Euclidean clustering models: k-means, GMMs and the label-only algorithms
_EUCLIDEAN = ("gmm", "kmeans", *LABEL_CLUSTERING)


@dataclass(frozen=True)
class Criterion:
    name: str
    models: tuple[str, ...]
    k_min: int
    family: str
    rule: str
    optimises: str
    source: str
    needs_train_labels: bool = False

    def describe(self, model: str) -> str:
        """What the criterion optimises, with the model's own transfer cost for ``mtc``."""
        if self.name == "mtc":
            return MTC_COST[model]
        return self.optimises


MTC_COST = {
    "gmm": "min held-out NLL of X² under the GMM of X¹ (eqs. 3, 6)",
    "kmeans": "min soft-mapped transfer cost (eq. 14)",
    "spkmeans": "min soft-mapped cosine transfer cost (eq. 14)",
    "svd": "min transfer cost of the rank-k SVD (eq. 7)",
    "boolean": "min Hamming transfer cost of the MAC roles (Sect. 5)",
}

_ALL = (
    Criterion("mtc", (*COST_CLUSTERING, "svd", "boolean"), 1, "split", "min",
              "", "Frank, Chehreghani & Buhmann 2011"),
    Criterion("capacity", (*COST_CLUSTERING, "boolean"), 1, "split", "max",
              "max capacity max_β I_β (eq. 13), halves aligned by the soft mapping "
              "(Frank et al. eq. 12)",
              "Buhmann, Chehreghani, Frank & Streich 2011"),
    Criterion("bic", ("gmm",), 1, "full", "min", "min 2·NLL + p ln n",
              "Schwarz 1978"),
    Criterion("aic", ("gmm",), 1, "full", "min", "min 2·NLL + 2p",
              "Akaike 1974"),
    Criterion("stability", CLUSTERING, 2, "split", "stability",
              "min S(k)/S_rand(k) (ties: largest k)",
              "Lange, Braun, Roth & Buhmann 2002"),
    Criterion("prediction_strength", CLUSTERING, 1, "split", "threshold",
              "largest k with strength ≥ 0.8", "Tibshirani & Walther 2005"),
    Criterion("gap", _EUCLIDEAN, 1, "gap", "gap",
              "1-s.e. rule on Gap(k)",
              "Tibshirani, Walther & Hastie 2001"),
    Criterion("gap_first_se_max", _EUCLIDEAN, 1, "gap", "gap",
              "first local max of Gap(k), then the smallest k within 1 s.e. of it "
              "(clusGap's firstSEmax)", "Tibshirani, Walther & Hastie 2001; Maechler et al."),
    Criterion("gap_global_max", _EUCLIDEAN, 1, "gap", "gap",
              "max Gap(k) (clusGap's globalmax)", "Tibshirani, Walther & Hastie 2001"),
    Criterion("clest", _EUCLIDEAN, 2, "clest", "clest",
              "max d_k with p ≤ 0.05 (else 1)",
              "Dudoit & Fridlyand 2002"),
    Criterion("silhouette", CLUSTERING, 2, "full", "max", "max mean silhouette width",
              "Rousseeuw 1987"),
    Criterion("calinski_harabasz", _EUCLIDEAN, 2, "full", "max",
              "max between/within dispersion", "Caliński & Harabasz 1974"),
    Criterion("davies_bouldin", _EUCLIDEAN, 2, "full", "min",
              "min mean worst-case similarity", "Davies & Bouldin 1979"),
    *(Criterion(name, _EUCLIDEAN, k_min, "full", "index", optimises, source)
      for name, (k_min, _, optimises, source) in INDEX_TABLE.items()),
    Criterion("hdbscan_count", ("hdbscan",), 1, "full", "direct",
              "HDBSCAN's own number of clusters (excess of mass; 1 if all is noise)",
              "Campello, Moulavi & Sander 2013"),
    Criterion("pac_mdl", CLUSTERING, 2, "full", "min",
              "min bound on the transductive test error", "Banerjee & Langford 2004",
              needs_train_labels=True),
    Criterion("bicross", ("svd", "boolean"), 1, "bicross", "median_min",
              "min median held-out block error",
              "Owen & Perry 2009"),
    Criterion("gavish_donoho", ("svd",), 1, "full", "direct",
              "singular values above ω(β)·median(s)",
              "Gavish & Donoho 2014"),
    Criterion("pca_mle", ("svd",), 1, "full", "direct",
              "max Laplace PCA evidence", "Minka 2000"),
    Criterion("mtc_svd", ("boolean",), 1, "split", "min",
              "min transfer cost of the thresholded SVD (Sect. 4.2)",
              "Frank, Chehreghani & Buhmann 2011"),
    Criterion("coverage", ("boolean",), 1, "full", "coverage",
              "smallest rank covering 80 % of the ones",
              "Molloy et al. 2010"),
    Criterion("increment", ("boolean",), 1, "full", "increment",
              "smallest rank changing < 0.1 % of ‖X‖₁", "Molloy et al. 2010"),
)

#: name → criterion, in the order of the output
CRITERIA = {c.name: c for c in _ALL}
#: the gap-statistic criteria → the rule of ``cluster::maxSE`` each applies to Gap(k)
GAP_RULES = {"gap": "Tibs2001SEmax", "gap_first_se_max": "firstSEmax",
             "gap_global_max": "globalmax"}


def applicable(model: str, *, train_labels: bool = False) -> list[str]:
    """Every criterion that applies to ``model`` (PAC-MDL only with training labels)."""
    return [c.name for c in _ALL if model in c.models
            and (train_labels or not c.needs_train_labels)]


def markdown_table() -> str:
    """The README's table of criteria × models, with where each is defined and how it
    chooses (``tests/test_readme.py`` checks that the README holds this table)."""
    head = ("| criterion | " + " | ".join(MODELS) + " | defined for | chooses | reference |\n"
            "|---|" + "---|" * (len(MODELS) + 3))
    rows = []
    for c in _ALL:
        marks = " | ".join("✓" if m in c.models else "" for m in MODELS)
        how = "see the MTC table" if c.name == "mtc" else c.optimises
        if c.needs_train_labels:
            how += " (needs `--train-labels`)"
        rows.append(f"| `{c.name}` | {marks} | k ≥ {c.k_min} | {how} | {c.source} |")
    mtc = "\n".join(f"| `{m}` | {MODELS[m]} | {MTC_COST[m]} |" for m in MTC_COST)
    predictors = "\n".join(f"| `{m}` | {a} | {b} |" for m, (a, b) in PREDICTORS.items())
    return ("\n".join([head, *rows]) + "\n\nMTC's transfer cost per model:\n\n"
            "| model | k counts | `mtc` chooses |\n|---|---|---|\n" + mtc
            + "\n\nThe predictor that transfers a solution to new objects:\n\n"
            "| model | stability | prediction strength |\n|---|---|---|\n" + predictors)
